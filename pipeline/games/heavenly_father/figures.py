"""Who's Your Heavenly Father?'s rulebook figures: the anatomy of a god, a moral dilemma and a philosopher."""
from __future__ import annotations

from pipeline.documents import structure as m
from pipeline.documents.figures import Kind, Part, anatomy, inserted
from pipeline.documents.setup import SETUP_CAPTION, Pile, setup_figure
from pipeline.documents.standard import DocContext, SectionOverride
from pipeline.games.heavenly_father.render import DILEMMA_TEMPLATE, GOD_TEMPLATE, PHILOSOPHER_TEMPLATE

GOD = Kind(
    GOD_TEMPLATE,
    "A god",
    (
        Part("title", "Name", "the god you secretly are."),
        Part("icon:0", "Virtue symbol", "each virtue has its own symbol as well as its colour."),
        Part("virtue", "Virtue", "the virtue a row scores."),
        Part("points", "Points", "what each token of that virtue is worth to this god at Judgment Day."),
        Part("kind", "Card kind", "which deck the card belongs to."),
    ),
)
DILEMMA = Kind(
    DILEMMA_TEMPLATE,
    "A moral dilemma",
    (
        Part("title", "Title", "the dilemma's name."),
        Part("situation", "Situation", "what the mortal faces."),
        Part("option-letter", "Option", "the two choices, A and B."),
        Part("option", "Choice", "what the mortal does."),
        Part("consequence", "Consequence", "the virtue tokens the choice gains or loses."),
    ),
)
PHILOSOPHER = Kind(
    PHILOSOPHER_TEMPLATE,
    "A philosopher",
    (
        Part("title", "Kind", "which of the six kinds of philosopher this is; the kinds are listed below."),
        Part("name", "Name", "the philosopher."),
        Part("quote", "Quote", "words of the philosopher; no effect."),
        Part("power", "Power", "what the philosopher lets you do."),
    ),
)


def sections() -> dict[str, SectionOverride]:
    """The rulebook sections that carry a figure, as overrides of their body."""
    return inserted({
        "moral-dilemmas": lambda ctx: anatomy(ctx, (DILEMMA,)),
        "philosophers": lambda ctx: anatomy(ctx, (PHILOSOPHER,)),
        "virtues": lambda ctx: anatomy(ctx, (GOD,)),
        "setup": lambda ctx: [setup_picture(ctx)],
    })


def setup_picture(ctx: DocContext) -> m.OnPaper:
    """The table after set-up: the envelope, the False Gods, the draw pile and the bank in the middle; each
    player's hand, Virtue tokens and cheat sheet in front of them."""
    middle = [Pile("Envelope", 1, face_down=True), Pile("False Gods", 9, face_down=True), Pile("Draw pile", 30, face_down=True),
              Pile("Bank", 30)]
    seat = [Pile("Hand", 5), Pile("Virtue tokens", 12), Pile("Cheat sheet", 1)]
    return setup_figure(middle, seat, "Each player", SETUP_CAPTION)
