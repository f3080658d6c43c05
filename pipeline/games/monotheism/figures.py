"""Monotheism's rulebook figures: the anatomy of a god and of a worshiper (each box the card prints gets
a callout, so a box kind added to the template is pointed at too), the unveil of step 1, and the submerge
orderings, worked by the engine's own move."""
from __future__ import annotations

from pipeline.cards.plan import PrintCard
from pipeline.documents import structure as m
from pipeline.documents.figures import Kind, Part, anatomy, inserted
from pipeline.documents.setup import Pile, setup_figure
from pipeline.documents.standard import DocContext, SectionOverride
from pipeline.games.monotheism.engine import Card, moved_stack
from pipeline.games.monotheism.render import DEITY_TEMPLATE, WORSHIPER_TEMPLATE

COMMON = (
    Part("number", "Left-most number", "the only number of a second card you may submerge by."),
    Part("number#1", "Right number", "on the top card, either number may be chosen to submerge."),
    Part("band", "Name band", "the card's name, printed both ways up; the half above it is the one in play."),
    Part("act", "Act", "what the card does when it is on top after being unveiled."),
    Part("essence", "Essence", "a lasting effect while the god's half is up, or a trigger."),
    Part("note", "Note", "a reminder of how this worshiper is played."),
    Part("flavour", "Flavour", "words of the card's story; they have no effect."),
)
DEITY = Kind(
    DEITY_TEMPLATE,
    "A god",
    (Part("icon:0", "Aspects", "the god's aspect symbols (sun, moon, death), which acts and essences name."), *COMMON),
    pick=lambda card: _kinds(card) >= {"act", "essence"},
    unlisted=lambda name: _unlisted(name),
)
WORSHIPER = Kind(
    WORSHIPER_TEMPLATE,
    "A worshiper",
    (
        Part("icon:0", "Curse mark", "how the card turns when it is cursed (a submerge that carries it down)."),
        Part("caption", "Curse and bless in words", "the same turns, spelt out."),
        Part("start", "Start", "marks the side and way up the worshiper starts the game on."),
        Part("plate", "Name plate", "the worshiper's name on the green plate, beside its start mark."),
        *COMMON,
    ),
    pick=lambda card: "act" in _kinds(card) and card.front.context["card"].get("plate") == "upright",
    unlisted=lambda name: _unlisted(name),
)
# The submerge example: a deck of this many cards, submerging the top BLOCK of them.
DECK_LETTERS, BLOCK = "ABCDEF", 4
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}
CARD_W, CARD_H, COLUMN_GAP, ROW_GAP, HEAD = 11.0, 6.0, 8.0, 1.0, 6.0
TITLE_PT, TITLE_RISE = 7, 2  # a column's title, and its baseline above the first card (mm)
LETTER_PT, LETTER_DROP = 8, 1.2  # a card's letter, and its baseline below the card's middle (mm: centres the capital)
CARD_RADIUS = 0.8
SPLIT_OVERHANG = 1.5  # mm the line under the submerged block reaches past the cards either side


def _kinds(card: PrintCard) -> set[str]:
    upright = card.front.context["card"].get("upright") or {}
    return {box["kind"] for box in upright.get("boxes", [])}


def _unlisted(name: str) -> Part:
    return Part(name, name.replace("-", " ").capitalize(), f"the card's {name.replace('-', ' ')} box; it counts while its half is up.")


def _cards(ctx: DocContext) -> list[m.Block]:
    return anatomy(ctx, (DEITY, WORSHIPER))


def submerge_orderings(block: int = BLOCK, letters: str = DECK_LETTERS) -> m.Diagram:
    """The deck before a submerge of ``block`` and after it, once for each place the old top card may take
    (the engine's ``moved_stack``); top of the deck at the top."""
    before = list(letters)
    columns = [("Before", before)] + [
        (f"{before[0]} {ORDINALS.get(place, f'{place}th')}", before[block:] + _moved(before[:block], place))
        for place in range(1, block + 1)
    ]
    shapes: list[m.Shape] = []
    for i, (title, deck) in enumerate(columns):
        x = i * (CARD_W + COLUMN_GAP)
        shapes.append(m.Label(x + CARD_W / 2, HEAD - TITLE_RISE, title, size=TITLE_PT, bold=True))
        for row, card in enumerate(deck):
            y = HEAD + row * (CARD_H + ROW_GAP)
            moved = card in before[:block]
            fill = "accent" if card == before[0] else "table_header" if moved else "fill_light"
            shapes += [m.Rect(x, y, CARD_W, CARD_H, fill=fill, line="thin", radius=CARD_RADIUS),
                       m.Label(x + CARD_W / 2, y + CARD_H / 2 + LETTER_DROP, card, size=LETTER_PT, bold=True,
                               colour="#ffffff" if card == before[0] else "text")]
        if i == 0:
            top = HEAD + block * (CARD_H + ROW_GAP) - ROW_GAP / 2
            shapes.append(m.Line(x - SPLIT_OVERHANG, top, x + CARD_W + SPLIT_OVERHANG, top, stroke="accent", line="fold"))
    width = len(columns) * (CARD_W + COLUMN_GAP) - COLUMN_GAP
    height = HEAD + len(before) * (CARD_H + ROW_GAP)
    alt = tuple(f"{title}: {' '.join(deck)} (top first)" for title, deck in columns)
    caption = (f"Submerging {block}: the top {block} cards ({', '.join(before[:block])}) go under the deck as one block; "
               f"the old top card {before[0]} (dark) may take any of the {block} places, the others keep their order.")
    return m.Diagram(width, height, tuple(shapes), alt, caption=caption)


def _moved(letters: list[str], place: int) -> list[str]:
    """The engine's submerge of cards named by ``letters`` (top first), the old top card ``place``-th."""
    stack: list[Card] = [(letter, False, False, 0) for letter in letters]
    return [card[0] for card in moved_stack(stack, place)]


def _submerge(ctx: DocContext) -> list[m.Block]:
    return [submerge_orderings()]


def unveil_picture(letters: str = DECK_LETTERS[:3]) -> m.Diagram:
    """Step 1 drawn: the deck at the start of a turn with a veiled god on top (a face-down card), then the
    same deck once that card is turned face up; the cards under it do not move."""
    columns = [("Before", True), ("Unveiled", False)]
    gap = COLUMN_GAP * 2  # room for the arrow between the two decks
    margin = COLUMN_GAP / 2  # a title is wider than its card
    shapes: list[m.Shape] = []
    for i, (title, veiled) in enumerate(columns):
        x = margin + i * (CARD_W + gap)
        shapes.append(m.Label(x + CARD_W / 2, HEAD - TITLE_RISE, title, size=TITLE_PT, bold=True))
        for row, card in enumerate(letters):
            y = HEAD + row * (CARD_H + ROW_GAP)
            face_down = veiled and row == 0
            shapes += [m.Rect(x, y, CARD_W, CARD_H, fill="accent" if face_down else "fill_light", line="thin",
                              radius=CARD_RADIUS),
                       m.Label(x + CARD_W / 2, y + CARD_H / 2 + LETTER_DROP, "?" if face_down else card,
                               size=LETTER_PT, bold=True, colour="#ffffff" if face_down else "text")]
    middle = HEAD + CARD_H / 2
    shapes.append(m.Line(margin + CARD_W + COLUMN_GAP / 2, middle, margin + CARD_W + gap - COLUMN_GAP / 2, middle,
                         stroke="accent", arrow=True))
    alt = (f"Before: a veiled god (face down) on top of {' '.join(letters[1:])}", f"Unveiled: {' '.join(letters)}, the top card face up")
    caption = (f"Step 1: the top card is a veiled god (face down, dark), so it is turned face up where it lies: it is "
               f"god {letters[0]}, and it acts in step 2. The cards under it stay as they were.")
    return m.Diagram(2 * (margin + CARD_W) + gap, HEAD + len(letters) * (CARD_H + ROW_GAP), tuple(shapes), alt, caption=caption)


def sections() -> dict[str, SectionOverride]:
    """The rulebook sections that carry a figure, as overrides of their body."""
    return inserted({"play": _cards, "unveil": lambda ctx: [unveil_picture()], "submerge": _submerge,
                     "set-up": lambda ctx: [setup_picture(ctx)]})


def setup_picture(ctx: DocContext) -> m.OnPaper:
    """Set-up: the god cards and a set of worshipers shuffled into one deck, held face down, its top card unveiled."""
    middle = [Pile("Deity cards", 29, face_down=True), Pile("Worshipers", 1)]
    seat = [Pile("Your deck", 30, face_down=True), Pile("Top card", 1)]
    return setup_figure(middle, seat, "In your hand", "Shuffle the gods and your worshipers into one deck and hold it.")
