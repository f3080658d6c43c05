"""The rulebook's three claims about full games, judged from win shares with their 95% intervals.

A study's deals are won, proved lost or undecided, so the share of deals that
can be won is known only within :class:`Bounds`: at least the share won
(every undecided deal lost), at most the share won or undecided (every one
won). A claim *holds* when even the least favourable reading of the bounds'
intervals says so, is *contradicted* when even the most favourable reading of
the point estimates points the other way, and is *not settled* otherwise
(more deals, or fewer undecided ones, would tell). With every deal decided the
bounds meet and the judgements are the plain ones. The words are the
rulebook's:

* "the vast majority of games can be won while you're helping The Haruspex of
  Scriptures": read as more than :data:`VAST_MAJORITY` of deals; it holds when
  the interval of the share won lies wholly above that share, and is
  contradicted when the interval of the share won or undecided lies wholly
  below it;
* the game "is significantly easier when using this worshiper" and cards #7,
  #9, #13 and #22 "make your worshiper's task difficult" (the Haruspex's deals
  with the god taken out against the same deals with it): read as how easily
  a win is found, below.

Whether a set's deals *can* be won cannot separate the sets: at the deals
command's full budget nearly every deal of every set is won. So "easier" is
how easily a win is *found* (:func:`judge`): at the small budget
:data:`FOUND_NODES`, a deal the search does not win is one whose win was not
found (an undecided deal counts as not won), and one side is easier than the
other when its share won is higher by a one-sided exact test at
:data:`ALPHA`, Holm-corrected over the comparisons of one claim. Deals with
the same seed hold the same god order whatever the worshiper set, and with
gods taken out the others keep their order (:func:`decks.full_deal`), so when
both sides played the same seeds the test is paired (exact McNemar on the
deals only one side won); otherwise (the balance report draws its own deals
per set) it is Fisher's exact test on the two counts.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Sequence

from pipeline.analysis.balance.stats import Rate, holm

VAST_MAJORITY = 0.75
HOLDS, CONTRADICTED, NOT_SETTLED = "holds", "contradicted", "not settled"
FOUND_NODES = 150_000  # the small budget "easier" is measured at: a fifth of a full search, a human-scale look-ahead
ALPHA = 0.05  # one-sided, after Holm's correction over the comparisons judged together
PAIRED, UNPAIRED = "exact McNemar, paired deals", "Fisher exact"


@dataclass(frozen=True)
class Bounds:
    """The share of deals that can be won: at least ``won`` of the deals, at most ``won or undecided``."""

    at_least: Rate
    at_most: Rate

    @classmethod
    def of(cls, won: int, undecided: int, deals: int) -> "Bounds":
        return cls(Rate(won, deals), Rate(won + undecided, deals))


def majority(share: Bounds, threshold: float = VAST_MAJORITY) -> str:
    """Is the share of deals that can be won more than ``threshold``?"""
    if share.at_least.interval is None or share.at_most.interval is None:
        return NOT_SETTLED
    if share.at_least.interval[0] > threshold:
        return HOLDS
    return CONTRADICTED if share.at_most.interval[1] < threshold else NOT_SETTLED


@dataclass(frozen=True)
class Found:
    """One set's deals at the small budget: won, or not (a win not found). ``wins`` lists each deal's answer
    in seed order when the seeds are known (they pair two sets' deals), else it is None."""

    won: int
    deals: int
    wins: Optional[tuple[bool, ...]] = None
    seeds: Optional[tuple[int, ...]] = None

    @classmethod
    def of(cls, seeds: Sequence[int], wins: Sequence[bool]) -> "Found":
        return cls(sum(wins), len(wins), tuple(wins), tuple(seeds))

    @property
    def share(self) -> Rate:
        return Rate(self.won, self.deals)


@dataclass(frozen=True)
class Easier:
    """One comparison "``better`` is easier than ``worse``": its test, one-sided p and Holm-corrected p."""

    name: str
    better: Found
    worse: Found
    test: str
    p: float
    corrected: float

    @property
    def verdict(self) -> str:
        """Holds below :data:`ALPHA` after correction; contradicted when the other set's share won is at least
        as high; not settled otherwise (more deals would tell)."""
        if self.corrected < ALPHA:
            return HOLDS
        return CONTRADICTED if self.worse.won * self.better.deals >= self.better.won * self.worse.deals else NOT_SETTLED

    def as_data(self) -> dict[str, object]:
        return {"than": self.name, "won": [self.better.won, self.better.deals], "other_won": [self.worse.won,
                self.worse.deals], "test": self.test, "p": self.p, "holm_p": self.corrected, "verdict": self.verdict}


def mcnemar_p(better_only: int, worse_only: int) -> float:
    """One-sided exact McNemar: the chance of at least ``better_only`` of the discordant deals going the better
    set's way if each went either way evenly (1 when no deal is discordant)."""
    n = better_only + worse_only
    return sum(math.comb(n, k) for k in range(better_only, n + 1)) / 2 ** n


def fisher_p(better: Found, worse: Found) -> float:
    """One-sided Fisher exact: the chance of ``better`` winning at least its count of the deals won in all,
    with both sets' deal counts fixed, if a win were as likely in either set (hypergeometric tail)."""
    total, won = better.deals + worse.deals, better.won + worse.won
    ways = math.comb(total, better.deals)
    tail = sum(math.comb(won, x) * math.comb(total - won, better.deals - x)
               for x in range(better.won, min(won, better.deals) + 1))
    return tail / ways


def paired(better: Found, worse: Found) -> bool:
    """Both sets played the same deals (same seeds in the same order), so their answers pair deal by deal."""
    return better.seeds is not None and better.seeds == worse.seeds and better.wins is not None \
        and worse.wins is not None


def one_sided_p(better: Found, worse: Found) -> tuple[str, float]:
    """The test that fits, and its one-sided p for "``better`` wins more often than ``worse``"."""
    if paired(better, worse):
        assert better.wins is not None and worse.wins is not None
        pairs = list(zip(better.wins, worse.wins))
        return PAIRED, mcnemar_p(pairs.count((True, False)), pairs.count((False, True)))
    return UNPAIRED, fisher_p(better, worse)


def judge(comparisons: Sequence[tuple[str, Found, Found]]) -> list[Easier]:
    """Each (name, better, worse): is ``better`` easier than ``worse``? One family: Holm over all of them."""
    tests = [one_sided_p(better, worse) for _, better, worse in comparisons]
    corrected = holm([p for _, p in tests])
    return [Easier(name, better, worse, test, p, fixed)
            for (name, better, worse), (test, p), fixed in zip(comparisons, tests, corrected)]


def easier(better: Found, others: Sequence[tuple[str, Found]]) -> list[Easier]:
    """Is ``better`` easier than each of ``others`` (name, found)? One family."""
    return judge([(name, better, worse) for name, worse in others])
