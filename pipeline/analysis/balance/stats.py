"""Rates and means with 95% confidence intervals, and the rule that flags an outlier.

A simulated rate (wins of a seat, bids a rule decided, games a card was
consumed in) is a proportion of independent trials: its interval is the Wilson
score interval, which stays inside [0, 1] and behaves at 0 and 1 hits, where
the plain normal interval does not. A mean (Faith per throw, rounds per game)
gets the normal interval mean +/- z * s / sqrt(n) from the sample standard
deviation; it needs two observations.

The outlier rule: a member of a family (a seat among the seats of one set-up,
a card among the cards of a level) is far from the rest when its whole
interval lies outside the interval of the family's pooled figure (all the
members' hits over all their trials, or all their observations together).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Optional, Sequence, Union

CONFIDENCE = 0.95
Z = NormalDist().inv_cdf(0.5 + CONFIDENCE / 2)  # 1.96: the two-sided 95% quantile of the normal law
MIN_MEAN_COUNT = 2  # a sample standard deviation needs two observations


def wilson(hits: int, trials: int, z: float = Z) -> tuple[float, float]:
    """The Wilson score interval of ``hits`` successes in ``trials`` (the whole [0, 1] when there are none)."""
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= hits <= trials:
        raise ValueError(f"{hits} hits in {trials} trials")
    share = hits / trials
    z2 = z * z
    centre = (share + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(share * (1 - share) / trials + z2 / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def holm(ps: Sequence[float]) -> list[float]:
    """Holm's step-down corrected p-values, in the order given: the k-th smallest (from 0) times the m - k
    p-values not yet passed, at most 1, never below a smaller one's. A family of tests holds each one whose
    corrected p is under the family-wise error rate."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    corrected = [1.0] * len(ps)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        corrected[i] = running
    return corrected


@dataclass(frozen=True)
class Rate:
    """``hits`` of ``trials``, with its Wilson interval."""

    hits: int
    trials: int

    @property
    def value(self) -> Optional[float]:
        return self.hits / self.trials if self.trials else None

    @property
    def interval(self) -> Optional[tuple[float, float]]:
        return wilson(self.hits, self.trials) if self.trials else None

    def as_data(self) -> dict[str, object]:
        low, high = self.interval or (None, None)
        return {"hits": self.hits, "trials": self.trials, "rate": self.value, "low": low, "high": high}


@dataclass(frozen=True)
class Mean:
    """The mean of ``count`` observations from their ``total`` and the ``squares`` total, with its normal interval."""

    count: int
    total: float
    squares: float
    floor: Optional[float] = None  # no observation can lie below this (0 for counts): the interval stops there

    @property
    def value(self) -> Optional[float]:
        return self.total / self.count if self.count else None

    @property
    def variance(self) -> float:
        """The sample variance of the observations (``count`` >= 2)."""
        mean = self.total / self.count
        return max(0.0, (self.squares - self.count * mean * mean) / (self.count - 1))

    @property
    def interval(self) -> Optional[tuple[float, float]]:
        if self.count < MIN_MEAN_COUNT:
            return None
        mean = self.total / self.count
        half = Z * math.sqrt(self.variance / self.count)
        low = mean - half if self.floor is None else max(self.floor, mean - half)
        return low, mean + half

    def as_data(self) -> dict[str, object]:
        low, high = self.interval or (None, None)
        return {"count": self.count, "mean": self.value, "low": low, "high": high}


Figure = Union[Rate, Mean]


def pooled(members: Sequence[Figure]) -> Figure:
    """The family's figure: every member's hits over every member's trials (or all observations together)."""
    rates = [m for m in members if isinstance(m, Rate)]
    if len(rates) == len(members):
        return Rate(sum(r.hits for r in rates), sum(r.trials for r in rates))
    means = [m for m in members if isinstance(m, Mean)]
    if len(means) == len(members):
        floors = {m.floor for m in means}
        return Mean(sum(m.count for m in means), sum(m.total for m in means),
                    sum(m.squares for m in means), floors.pop() if len(floors) == 1 else None)
    raise TypeError("a family mixes rates and means")


def distance(member: Figure, family: Figure) -> float:
    """How far ``member``'s interval lies outside ``family``'s, relative to the family's figure (0: it overlaps)."""
    own, pool = member.interval, family.interval
    if own is None or pool is None:
        return 0.0
    gap = max(own[0] - pool[1], pool[0] - own[1], 0.0)
    scale = abs(family.value or 0.0) or 1.0
    return gap / scale


def far_from(member: Figure, family: Figure) -> bool:
    """The outlier rule: ``member``'s interval lies entirely outside ``family``'s (module docstring)."""
    own, pool = member.interval, family.interval
    if own is None or pool is None:
        return False
    return own[1] < pool[0] or own[0] > pool[1]
