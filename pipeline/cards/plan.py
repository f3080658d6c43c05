"""What a game's ``render.py`` hands the core: the cards to print and the templates of their faces."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Optional


@dataclass(frozen=True)
class Face:
    """One side of a card: a template under ``templates/cards/`` and the values it is rendered with."""

    template: str
    context: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ColourKey:
    """What stands for a colour on a face besides its hue: a symbol (an icon of ``templates/icons``) and a word.

    ``family`` names what the colours tell apart ("deck colour", "god", "house", "virtue"): within a
    family every colour has one symbol, and no two colours' symbols have the same shape.
    """

    family: str
    colour: str
    symbol: str
    word: str


@dataclass(frozen=True)
class PrintCard:
    """A card to print: its front, its back (None: blank), and how many copies.

    ``double_sided`` marks cards whose back carries information of its own
    (two-faced worshipers, monsters with a unique side): without duplex
    printing, both sides are still printed, as separate fronts.
    ``record`` names the data record the card prints, ``kind/id`` (default: the
    record whose id is the card's), so a build error can point at its file and line.
    ``deck`` names the pile the card is shuffled into (or held in a hand with, face
    down): every card of a deck must print the very same back. ``colours`` are the
    colours its faces tell apart by hue; each face that shows them prints their
    symbols and words too. ``sheet`` (None: any) keeps cards apart on paper: cards
    whose ``sheet`` differs never share a sheet, so a back shifted a millimetre or two
    in duplex printing shows at its edges only backs of its own kind, never a
    differently coloured neighbour's that would mark it in its face-down deck.
    """

    id: str
    name: str
    front: Face
    back: Optional[Face] = None
    double_sided: bool = False
    copies: int = 1
    record: Optional[str] = None
    deck: Optional[str] = None
    colours: tuple[ColourKey, ...] = ()
    sheet: Optional[str] = None

    def __post_init__(self) -> None:
        if self.copies < 1:
            raise ValueError(f"card {self.id}: copies must be at least 1")
