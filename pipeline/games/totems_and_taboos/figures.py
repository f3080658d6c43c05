"""Totems + Taboos' rulebook figures: the anatomy of a commandment card and a spiritual guide, the
colour wheel, and a tower example drawn from the tower table."""
from __future__ import annotations

from typing import Mapping

from pipeline.documents import structure as m
from pipeline.documents.figures import Kind, Part, anatomy, ink_on, inserted
from pipeline.documents.setup import SETUP_CAPTION, Pile, setup_figure
from pipeline.documents.standard import DocContext, SectionOverride
from pipeline.games.totems_and_taboos.diagrams import COLOUR_HEX, wheel_diagram
from pipeline.games.totems_and_taboos.engine import can_build
from pipeline.games.totems_and_taboos.model import TotemsModel
from pipeline.games.totems_and_taboos.render import COMMANDMENT_TEMPLATE, GUIDE_TEMPLATE

BLOCK_W, BLOCK_H, BLOCK_GAP, TOWER_GAP, ROW_PT = 20.0, 9.0, 3.0, 14.0, 7.5
LABEL_DROP = 1.2  # mm: a block's label baseline below the block's middle (centres the letters)
VERDICT_DROP = 4  # mm: the verdict's baseline below a candidate block
CROSS_INSET = 1  # mm: the line crossing out a block that may not go on top stops this far inside it

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


def card_anatomy(ctx: DocContext) -> list[m.Block]:
    return anatomy(ctx, (COMMANDMENT, GUIDE))


def tower_example(model: TotemsModel, colour_hex: Mapping[str, str]) -> m.Diagram:
    """The rulebook's tower example: the first worked example's tower, and for each colour of the wheel
    whether its block may go on top, as the engine's ``can_build`` judges it (the level's shrines and
    servants at hand, so only the colour decides)."""
    tower = list(model.tower.examples[0].tower) if model.tower.examples else [model.wheel.order[0]]
    row = model.tower.needs(len(tower) + 1)
    shrines, servants = (row.shrines, row.servants) if row else (0, 0)
    names = {c.id: c.name for c in model.colours}
    levels = [level.numeral for level in model.tower.levels]
    shapes: list[m.Shape] = []
    height = (len(tower) + 1) * BLOCK_H
    for i, colour in enumerate(tower):  # the tower, bottom block lowest
        y = height - (i + 1) * BLOCK_H
        fill = colour_hex[colour]
        shapes += [m.Rect(0, y, BLOCK_W, BLOCK_H, fill=fill, line="thin"),
                   m.Label(BLOCK_W / 2, y + BLOCK_H / 2 + LABEL_DROP, f"{levels[i]} {names[colour]}", size=ROW_PT, bold=True,
                           colour=ink_on(fill))]
    top = 0.0
    shapes += [m.Rect(0, top, BLOCK_W, BLOCK_H, stroke="rule", line="fold"),
               m.Label(BLOCK_W / 2, top + BLOCK_H / 2 + LABEL_DROP, f"{levels[len(tower)]} ?", size=ROW_PT, bold=True, colour="muted")]
    alt = [f"Tower: {', '.join(names[c] for c in tower)} (bottom first)"]
    for k, colour in enumerate(model.wheel.order):
        x = BLOCK_W + TOWER_GAP + k * (BLOCK_W + BLOCK_GAP)
        check = can_build(model, tower, shrines, servants, colour)
        fill = colour_hex[colour]
        shapes += [m.Rect(x, top, BLOCK_W, BLOCK_H, fill=fill, line="thin"),
                   m.Label(x + BLOCK_W / 2, top + BLOCK_H / 2 + LABEL_DROP, names[colour], size=ROW_PT, bold=True, colour=ink_on(fill)),
                   m.Label(x + BLOCK_W / 2, top + BLOCK_H + VERDICT_DROP, "may go on top" if check.can_build else "may not", size=ROW_PT,
                           bold=check.can_build, colour="text" if check.can_build else "muted")]
        if not check.can_build:
            shapes.append(m.Line(x + CROSS_INSET, top + BLOCK_H - CROSS_INSET, x + BLOCK_W - CROSS_INSET, top + CROSS_INSET,
                                 stroke="text", line="arrow"))
        alt.append(f"{names[colour]}: {'may go on top' if check.can_build else 'may not'} ({check.reason})")
    width = BLOCK_W + TOWER_GAP + len(model.wheel.order) * (BLOCK_W + BLOCK_GAP) - BLOCK_GAP
    caption = (f"On a {names[tower[-1]].lower()} block only the same colour or a colour next to it on the wheel may be stacked "
               "(when you have the shrines and servants the level needs).")
    return m.Diagram(width, height, tuple(shapes), tuple(alt), caption=caption)


def _wheel(ctx: DocContext) -> list[m.Block]:
    return [wheel_diagram(ctx.game.model)]


def _tower(ctx: DocContext) -> list[m.Block]:
    return [tower_example(ctx.game.model, COLOUR_HEX)]


def sections() -> dict[str, SectionOverride]:
    """The rulebook sections that carry a figure, as overrides of their body."""
    return inserted({"cards": card_anatomy, "colours": _wheel, "tower-example": _tower, "setup": lambda ctx: [setup_picture(ctx)]})




def setup_picture(ctx: DocContext) -> m.OnPaper:
    """The table after set-up: the pile of souls and blocks, the six decks and the guides in the middle; each
    player's starting block, hand and starting resources in front of them."""
    middle = [Pile("Soul cubes", 60), Pile("Totem blocks", 36), Pile("Six decks", 162, face_down=True), Pile("Guides", 6)]
    seat = [Pile("Tower base", 1), Pile("Hand", 3), Pile("Resources", 4)]
    return setup_figure(middle, seat, "Each player", SETUP_CAPTION)
