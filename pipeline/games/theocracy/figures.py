"""Theocracy's rulebook figures: the anatomy of a power card and a believer, and a bid played out
(cards played, prophecies, who wins the bid and the believers), resolved by the engine's own rule."""
from __future__ import annotations

from pipeline.documents import structure as m
from pipeline.documents.figures import Kind, Part, anatomy, ink_on, inserted
from pipeline.documents.setup import Pile, setup_figure
from pipeline.documents.standard import DocContext, SectionOverride
from pipeline.games.theocracy.engine import RULEBOOK_UPSET, resolve_bid
from pipeline.games.theocracy.model import Player, TheocracyModel
from pipeline.games.theocracy.render import BELIEVER_TEMPLATE, POWER_TEMPLATE

POWER = Kind(
    POWER_TEMPLATE,
    "A power card",
    (
        Part("title", "Title", "the card's name."),
        Part("corner", "Value", "the card's strength in a bid, repeated in both corners."),
        Part("value", "Value, large", "the same value, read across the table at Revelation."),
        Part("reminder", "Reminder", "a rule the value carries (the 1 topples the 5)."),
        Part("footer", "House", "the house the card belongs to."),
    ),
    pick=lambda card: bool(card.front.context["card"].get("reminder")),
)
BELIEVER = Kind(
    BELIEVER_TEMPLATE,
    "A believer",
    (
        Part("name", "Name", "the believer."),
        Part("die-hint", "Die space", "where a die rests; a believer holds one die at most."),
        Part("footer", "House", "the house the believer starts with."),
    ),
)
# The worked bid: each house's card and prophecy ("wins" or "loses", about the house named by index).
EXAMPLE_BIDS = (RULEBOOK_UPSET.strong, RULEBOOK_UPSET.weak)
EXAMPLE_PROPHECIES = (("wins", 0), ("loses", 0))
COLUMN_W, CARD_W, CARD_H, LINE = 80.0, 16.0, 22.0, 4.2
HOUSE_PT, HOUSE_BASELINE = 8, 4  # the house's name over its card (baseline in mm from the top)
CARD_TOP, CARD_RADIUS, BOTTOM_ROOM = 7, 1.5, 3  # mm
VALUE_PT, VALUE_DROP = 20, 3  # the card's value, its baseline below the card's middle (mm: centres the digits)
HALO, HALO_RADIUS = 1.2, 2  # mm: the frame round the winning card, outside the card
TEXT_PT, TEXT_GAP, TEXT_TOP = 7.5, 3, 11  # the lines beside a card: size, gap from the card, first baseline (mm)
LAST_COLUMN_SPARE = 8  # mm of the last column its text never reaches (the drawing ends before it)


def _house(player: Player) -> str:
    """A house as its cards name it (see the cards' footer): House of the Dawn, never the colour word."""
    return player.lineage


def bid_example(model: TheocracyModel, bids: tuple[int, ...] = EXAMPLE_BIDS,
                prophecies: tuple[tuple[str, int], ...] = EXAMPLE_PROPHECIES) -> m.Diagram:
    """Two houses' bid resolved by the engine (``resolve_bid``), with what Grace does for each."""
    houses = sorted(model.players, key=lambda p: p.order)[: len(bids)]
    result = resolve_bid(bids)
    shapes: list[m.Shape] = []
    alt: list[str] = []
    for seat, (house, value, (kind, about)) in enumerate(zip(houses, bids, prophecies)):
        x = seat * COLUMN_W
        won = result.winner == seat
        true = (result.winner == about) == (kind == "wins") and result.winner is not None
        shapes += [
            m.Label(x, HOUSE_BASELINE, _house(house), size=HOUSE_PT, bold=True, anchor="start"),
            m.Rect(x, CARD_TOP, CARD_W, CARD_H, fill=house.colour, stroke="text", radius=CARD_RADIUS),
            m.Label(x + CARD_W / 2, CARD_TOP + CARD_H / 2 + VALUE_DROP, str(value), size=VALUE_PT, bold=True,
                    colour=ink_on(house.colour)),
        ]
        if won:
            shapes.append(m.Rect(x - HALO, CARD_TOP - HALO, CARD_W + 2 * HALO, CARD_H + 2 * HALO, stroke="accent", line="arrow",
                                 radius=HALO_RADIUS))
        lines = [
            f"Bids {value}: {'wins the bid' if won else 'loses the bid'}",
            f"Foretold: {_house(houses[about])} {kind}",
            f"Prophecy {'true: takes a believer' if true else 'false: gives up a believer'}",
        ]
        if won:
            lines.append("Rests the die on a free believer")
        for i, text in enumerate(lines):
            shapes.append(m.Label(x + CARD_W + TEXT_GAP, TEXT_TOP + i * LINE, text, size=TEXT_PT, anchor="start", bold=i == 0))
        alt.append(f"{_house(house)}: " + "; ".join(lines))
    rule = next((r.name for r in model.bid_rules if r.id == result.rule), "")
    caption = (f"A bid played out: {bids[0]} against {bids[1]}. {rule}: the bid goes to "
               f"{_house(houses[result.winner]) if result.winner is not None else 'nobody'}; then Grace settles the prophecies.")
    return m.Diagram(len(bids) * COLUMN_W - LAST_COLUMN_SPARE, CARD_TOP + CARD_H + BOTTOM_ROOM, tuple(shapes), tuple(alt), caption=caption)


def sections() -> dict[str, SectionOverride]:
    """The rulebook sections that carry a figure, as overrides of their body."""
    return inserted({
        "game-structure": lambda ctx: anatomy(ctx, (POWER, BELIEVER)),
        "grace": lambda ctx: [bid_example(ctx.game.model)],
        "round-setup": lambda ctx: [setup_picture(ctx)],
    })


def setup_picture(ctx: DocContext) -> m.OnPaper:
    """A round set up for two: the dice in the middle; each player's believers face up and power cards in hand."""
    seat = [Pile("Believers", 4), Pile("Power cards", 5)]
    return setup_figure([Pile("Dice", 4)], seat, "Each player", "A round set up, seen from above: every player sets out the same.")
