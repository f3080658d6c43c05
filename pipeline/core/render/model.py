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
class PrintCard:
    """A card to print: its front, its back (None: blank), and how many copies.

    ``double_sided`` marks cards whose back carries information of its own
    (two-faced worshipers, monsters with a unique side): without duplex
    printing, both sides are still printed, as separate fronts.
    ``record`` names the data record the card prints, ``kind/id`` (default: the
    record whose id is the card's), so a build error can point at its file and line.
    """

    id: str
    name: str
    front: Face
    back: Optional[Face] = None
    double_sided: bool = False
    copies: int = 1
    record: Optional[str] = None

    def __post_init__(self) -> None:
        if self.copies < 1:
            raise ValueError(f"card {self.id}: copies must be at least 1")
