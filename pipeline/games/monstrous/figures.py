"""Monstrous' rulebook figures: the anatomy of a monster card and a location card."""
from __future__ import annotations

from pipeline.documents.figures import Kind, Part, anatomy, inserted
from pipeline.documents.standard import DocContext, SectionOverride
from pipeline.games.monstrous.render import AID_TEMPLATE, BOARD_TEMPLATE, LOCATION_TEMPLATE, MONSTER_TEMPLATE

BOARD_WIDTH, AID_WIDTH = 104.0, 60.0  # mm: the large cards drawn larger than a poker card
AREA_ORDER = ("left", "centre", "right")  # the board template draws its areas in this order

MONSTER = Kind(
    MONSTER_TEMPLATE,
    "A monster, its unique side",
    (
        Part("name", "Name", "the monster's name."),
        Part("trap", "Trap", "a trap monster's power works when a thrown monster hits it."),
        Part("powers", "Powers", "what the monster does when it hits (its keywords are explained on the player aid)."),
        Part("footer", "God", "the god whose deck the monster belongs to: pattern symbol, name and colour."),
    ),
    pick=lambda card: bool(card.front.context["card"].get("trap")),
)
LOCATION = Kind(
    LOCATION_TEMPLATE,
    "A location",
    (
        Part("name", "Name", "the location's name."),
        Part("faith", "Faith", "what the thrower gains each time a thrown monster hits the location (Throw Step 5)."),
        Part("power", "Power", "what the location does for the god who hits it."),
    ),
)



AID = Kind(
    AID_TEMPLATE,
    "A player aid",
    (
        Part("title", "Title", "the side's subject: the Throw Steps on one side, the power keywords on the other."),
        Part("entries", "Steps", "the seven Throw Steps of a turn, in order."),
        Part("footer", "God", "the god whose colour the aid is in."),
    ),
    width=AID_WIDTH,
)


def board(ctx: DocContext) -> Kind:
    """The God Board, its areas named and explained as the data has them (gods.yaml)."""
    areas = {a["placement"]: a for a in ctx.data("gods")["god_board"]["areas"]}
    parts = [
        Part("title", "Side", "the God Board's side: Locations face up at set-up, Monsters on the other."),
        Part("note", "Note", "when to read the board instead of the cards."),
        Part("entry", "Entries", "each card's name and power, repeated for when the card is buried."),
    ]
    parts += [Part(f"area#{i}" if i else "area", areas[p]["label"], ctx.text(areas[p]["text"]))
              for i, p in enumerate(AREA_ORDER) if p in areas]
    return Kind(BOARD_TEMPLATE, "A God Board", tuple(parts), width=BOARD_WIDTH)


def sections() -> dict[str, SectionOverride]:
    """The rulebook sections that carry a figure, as overrides of their body."""
    return inserted({
        "monsters": lambda ctx: anatomy(ctx, (MONSTER,)),
        "locations": lambda ctx: anatomy(ctx, (LOCATION,)),
        "god-boards-and-aids": lambda ctx: anatomy(ctx, (board(ctx), AID)),
    })


