"""How a game's rules engine is started: the set-ups a game's spec lists (its ``engine`` part).

A :class:`SetUp` is one way to start the game (a player count, a solo
difficulty, a deal, a scenario): the conformance suite plays seeded random games
from every set-up of every registered game, so a game is tested by registering it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from pipeline.engine.state import Restorable, State

DEFAULT_MAX_ACTIONS = 5_000


@dataclass(frozen=True)
class SetUp:
    """One set-up of a game's engine.

    ``id`` names it within the game ("3p", "solo-hard"); ``game`` restores a
    serialised state of it; ``start(seed)`` makes its first state (the seed
    matters only where the deal is not one of the engine's chance nodes);
    random play from it always ends within ``max_actions`` unless ``must_end``
    is False (a game where random play may go on for ever).
    """

    id: str
    game: Restorable
    start: Callable[[int], State[Any]]
    max_actions: int = DEFAULT_MAX_ACTIONS
    must_end: bool = True
