"""Totems + Taboos' rulebook figures: the anatomy of a commandment card and a spiritual guide, the
colour wheel, and a tower example drawn from the tower table."""
from __future__ import annotations

from pipeline.core.documents import model as m
from pipeline.core.documents.figures import Kind, Part, anatomy, inserted
from pipeline.core.documents.standard import DocContext, SectionOverride
from pipeline.games.totems_and_taboos.render import COMMANDMENT_TEMPLATE, GUIDE_TEMPLATE

COMMANDMENT = Kind(
    COMMANDMENT_TEMPLATE,
    "A commandment card",
    (
        Part("icon:0", "Type", "who the card acts on (self, a target, all players) or a miracle; spelt out below the name."),
        Part("name", "Name", "the commandment's name."),
        Part("icon:1", "Colour", "the deck's colour symbol: the colour of block the card lets you build."),
        Part("level", "Level", "the tower level you need before you may play it."),
        Part("cost", "Cost", "the clerics and servants you use to play it."),
        Part("effect", "Effect", "what happens when you play it."),
        Part("bonus", "Bonus", "extra effect when your tower holds a block of the colour shown."),
        Part("deck", "Deck", "the colour deck the card is shuffled into, and its principle."),
    ),
    pick=lambda card: all(card.front.context["card"].get(k) for k in ("level", "cost", "bonus")),
)
GUIDE = Kind(
    GUIDE_TEMPLATE,
    "A spiritual guide",
    (
        Part("icon:1", "Colour", "the guide's colour symbol."),
        Part("name", "Name", "the guide's name."),
        Part("summon", "Summoning", "what summons the guide to your side."),
        Part("ability", "Ability", "what you gain by sacrificing the guide."),
    ),
)


def _cards(ctx: DocContext) -> list[m.Block]:
    return anatomy(ctx, (COMMANDMENT, GUIDE))


def sections() -> dict[str, SectionOverride]:
    """The rulebook sections that carry a figure, as overrides of their body."""
    return inserted({"cards": _cards})


