"""The kit's value types: who acts (Decision), how a game ended (Outcome), what happened (Event).

Seats are ints from 0. Two named player ids stand for nobody, as in
OpenSpiel: :data:`CHANCE` (nature draws an outcome with exact probabilities)
and :data:`TERMINAL` (the game is over).
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate
from math import lcm
from typing import Any, Generic, Iterable, NamedTuple, Optional, TypeVar

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

    ``player`` is a seat, :data:`CHANCE` or :data:`TERMINAL`; a terminal
    decision has no actions. At a chance node ``weights`` holds one positive
    integer per action and ``probabilities`` the exact Fractions they stand for
    (weight / total: they sum to 1). Integer weights are how chance is stored
    because most chance nodes are counts (cards left, die faces) and sampling
    in integers is exact and cheap; :meth:`chance` takes Fractions too.
    """

    player: int
    actions: tuple[A, ...]
    weights: Optional[tuple[int, ...]] = None

    @classmethod
    def chance(cls, outcomes: Iterable[tuple[A, Fraction]]) -> "Decision[A]":
        """A chance node from (action, exact probability) pairs."""
        actions, probabilities = _unzip(outcomes)
        denominator = lcm(*(p.denominator for p in probabilities))
        return cls(CHANCE, actions, tuple(p.numerator * (denominator // p.denominator) for p in probabilities))

    @classmethod
    def weighted(cls, outcomes: Iterable[tuple[A, int]]) -> "Decision[A]":
        """A chance node from (action, count) pairs: each is count / total likely."""
        actions, weights = _unzip(outcomes)
        return cls(CHANCE, actions, weights)

    @property
    def is_chance(self) -> bool:
        return self.player == CHANCE

    @property
    def is_terminal(self) -> bool:
        return self.player == TERMINAL

    @property
    def probabilities(self) -> Optional[tuple[Fraction, ...]]:
        """One exact Fraction per action at a chance node (summing to 1); None elsewhere."""
        if self.weights is None:
            return None
        total = sum(self.weights)
        return tuple(Fraction(w, total) for w in self.weights)

    def outcomes(self) -> list[tuple[A, Fraction]]:
        """(action, probability) pairs of a chance node; empty elsewhere."""
        probabilities = self.probabilities
        if probabilities is None:
            return []
        return list(zip(self.actions, probabilities))

    def pick(self, point: float) -> A:
        """The chance outcome a uniform ``point`` in [0, 1) falls on: the first whose running total exceeds it.

        Exact, in integers: with ``point`` = m/e and W the total weight, a
        running total T/W exceeds m/e exactly when T > floor(m*W/e).
        """
        weights = self.weights or ()
        totals = list(accumulate(weights))
        numerator, scale = point.as_integer_ratio()
        index = bisect_right(totals, numerator * totals[-1] // scale)
        return self.actions[min(index, len(self.actions) - 1)]


def _unzip(pairs: Iterable[tuple[A, Any]]) -> tuple[tuple[A, ...], tuple[Any, ...]]:
    columns = tuple(zip(*pairs))
    return (columns[0], columns[1]) if columns else ((), ())


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


class Event(NamedTuple):
    """Something an action caused: ``kind`` (``unveil``, ``bid-won``...), what it is about, and the rest.

    ``subject`` is the card, seat or piece the event is about (what statistics
    count: how often each card is unveiled, consumed...). ``details`` are
    (name, value) pairs of plain values. Immutable (a named tuple: cheap to
    make, as engines make one or more per action).
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
