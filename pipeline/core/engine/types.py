"""The kit's value types: who acts (Decision), how a game ended (Outcome), what happened (Event).

Seats are ints from 0. Two named player ids stand for nobody, as in
OpenSpiel: :data:`CHANCE` (nature draws an outcome with exact probabilities)
and :data:`TERMINAL` (the game is over).
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any, Generic, Iterable, Optional, TypeVar

CHANCE = -1
TERMINAL = -4

A = TypeVar("A")

# What an event may carry: plain JSON-able values (tuples stand for lists, so events stay immutable).
Detail = Any


class IllegalAction(ValueError):
    """An action that is not one of the state's legal actions (or a string naming none of them)."""


@dataclass(frozen=True)
class Decision(Generic[A]):
    """Who acts now and what they may do.

    ``player`` is a seat, :data:`CHANCE` or :data:`TERMINAL`. At a chance node
    ``probabilities`` holds one exact ``Fraction`` per action (they sum to 1);
    elsewhere it is None. A terminal decision has no actions.
    """

    player: int
    actions: tuple[A, ...]
    probabilities: Optional[tuple[Fraction, ...]] = None

    @classmethod
    def chance(cls, outcomes: Iterable[tuple[A, Fraction]]) -> "Decision[A]":
        """A chance node from (action, probability) pairs."""
        pairs = tuple(outcomes)
        return cls(CHANCE, tuple(a for a, _ in pairs), tuple(p for _, p in pairs))

    @property
    def is_chance(self) -> bool:
        return self.player == CHANCE

    @property
    def is_terminal(self) -> bool:
        return self.player == TERMINAL

    def outcomes(self) -> list[tuple[A, Fraction]]:
        """(action, probability) pairs of a chance node; empty elsewhere."""
        if self.probabilities is None:
            return []
        return list(zip(self.actions, self.probabilities))

    @cached_property
    def cumulative(self) -> tuple[Fraction, ...]:
        """Running totals of the chance probabilities (what sampling bisects)."""
        total = Fraction(0)
        sums = []
        for p in self.probabilities or ():
            total += p
            sums.append(total)
        return tuple(sums)

    def pick(self, point: float) -> A:
        """The chance outcome a uniform ``point`` in [0, 1) falls on (exact comparison, no rounding)."""
        index = bisect_right(self.cumulative, point)
        return self.actions[min(index, len(self.actions) - 1)]


TERMINAL_DECISION: Decision[Any] = Decision(TERMINAL, ())


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended (python-chess style).

    ``termination``: a short id per game (``fate``, ``tower-complete``...);
    ``winners``: seats that won, () when nobody did (a lost solo game);
    ``scores``: one figure per seat (what the game counts at the end);
    ``detail``: the same in words, for people (never needed to decide anything).
    """

    termination: str
    winners: tuple[int, ...]
    scores: tuple[float, ...]
    detail: str = ""

    def won_by(self, seat: int) -> bool:
        return seat in self.winners

    def returns(self) -> tuple[float, ...]:
        """1 split among the winners, 0 for everyone else (all 0 when nobody won)."""
        share = 1.0 / len(self.winners) if self.winners else 0.0
        return tuple(share if seat in self.winners else 0.0 for seat in range(len(self.scores)))

    def as_data(self) -> dict[str, Any]:
        return {"termination": self.termination, "winners": list(self.winners), "scores": list(self.scores),
                "detail": self.detail}


@dataclass(frozen=True)
class Event:
    """Something an action caused: ``kind`` (``unveil``, ``bid-won``...), what it is about, and the rest.

    ``subject`` is the card, seat or piece the event is about (what statistics
    count: how often each card is unveiled, consumed...). ``details`` are
    (name, value) pairs of plain values.
    """

    kind: str
    subject: Detail = ""
    details: tuple[tuple[str, Detail], ...] = ()

    @classmethod
    def of(cls, kind: str, subject: Detail = "", **details: Detail) -> "Event":
        return cls(kind, subject, tuple(details.items()))

    def get(self, name: str, default: Detail = None) -> Detail:
        for key, value in self.details:
            if key == name:
                return value
        return default

    def as_data(self) -> dict[str, Any]:
        """The event as plain JSON-able data (tuples become lists)."""
        return {"kind": self.kind, "subject": _plain(self.subject),
                **{key: _plain(value) for key, value in self.details}}


def _plain(value: Detail) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value
