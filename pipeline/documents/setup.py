"""The set-up picture of a rulebook: the table seen from above, what lies in the middle and what each
player has in front of them, drawn as labelled piles (a diagram a rulebook column holds).

A game names the piles (``Pile``: a label, how many cards or pieces it shows stacked, its fill); the
picture lays the middle out in a row and one player's area along the near edge (every player sets out
the same), so a rulebook column holds it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from pipeline.documents import structure as m
from pipeline.documents.standard import rulebook_column

TABLE_RADIUS = 5.0
PILE_W, PILE_H = 12.0, 16.0  # mm: a pile drawn as a card
STACK_STEP = 0.8  # mm each card of a stack shows under the one above it
MAX_SHOWN = 4  # cards drawn in a stack, however many it holds
PILE_GAP = 4.0
LABEL_PT = 7.0
LABEL_GAP = 3.2  # mm from a pile's foot to its label's baseline
SEAT_PT = 7.5
MARGIN = 4.0  # mm inside the table's edge
SETUP_CAPTION = "The table after set-up, seen from above: every player sets out the same."
SEAT_ROOM = PILE_H + 2 * LABEL_GAP + 6.0  # a player's area: one row of piles with its labels and the seat's name


@dataclass(frozen=True)
class Pile:
    """A pile on the table: its label, how many cards (or pieces) it holds (drawn stacked), and its fill."""

    label: str
    count: int = 1
    fill: str = "fill_light"
    face_down: bool = False


def _pile(x: float, y: float, pile: Pile) -> list[m.Shape]:
    """A stack at (x, y) (its top card's top-left) with its label under it."""
    shown = min(max(pile.count, 1), MAX_SHOWN)
    shapes: list[m.Shape] = []
    for n in range(shown - 1, -1, -1):
        fill = "table_header" if pile.face_down else pile.fill
        shapes.append(m.Rect(x + n * STACK_STEP, y + n * STACK_STEP, PILE_W, PILE_H, fill=fill, stroke="text", line="thin", radius=1.0))
    label_y = y + PILE_H + (shown - 1) * STACK_STEP + LABEL_GAP
    shapes.append(m.Label(x + PILE_W / 2, label_y, pile.label, size=LABEL_PT))
    return shapes


def _row(piles: Sequence[Pile], centre_x: float, y: float) -> list[m.Shape]:
    width = len(piles) * PILE_W + (len(piles) - 1) * PILE_GAP
    shapes: list[m.Shape] = []
    for n, pile in enumerate(piles):
        shapes += _pile(centre_x - width / 2 + n * (PILE_W + PILE_GAP), y, pile)
    return shapes


def row_width(piles: Sequence[Pile]) -> float:
    return len(piles) * PILE_W + (len(piles) - 1) * PILE_GAP


def table_picture(middle: Sequence[Pile], seat: Sequence[Pile], player: str, caption: str, width: float) -> m.Diagram:
    """The table from above, ``width`` mm wide: the middle piles in a row, and one player's area (named
    ``player``) along the near edge; every player sets out the same. Labels are short words."""
    height = 2 * MARGIN + 2 * SEAT_ROOM
    shapes: list[m.Shape] = [m.Rect(0, 0, width, height, fill="#f7f2e8", stroke="rule", line="outline", radius=TABLE_RADIUS)]
    shapes += _row(middle, width / 2, MARGIN + 2.0)
    y = MARGIN + SEAT_ROOM
    shapes.append(m.Line(MARGIN, y - 1.5, width - MARGIN, y - 1.5, stroke="rule", line="fold"))
    shapes.append(m.Label(width / 2, y + 3.0, player, size=SEAT_PT, bold=True, colour="accent"))
    shapes += _row(seat, width / 2, y + 5.0)
    alt = (f"In the middle: {', '.join(p.label for p in middle)}.", f"{player}: {', '.join(p.label for p in seat)}.")
    return m.Diagram(width, height, tuple(shapes), alt, caption=caption)


def setup_figure(middle: Sequence[Pile], seat: Sequence[Pile], player: str, caption: str) -> m.OnPaper:
    """A rulebook's :func:`table_picture`, a column wide on whichever paper the rulebook is set."""
    return m.OnPaper(lambda layout: (table_picture(middle, seat, player, caption, rulebook_column(layout)),))
