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
* the game "is significantly easier when using this worshiper": against each
  other set, it holds when the Haruspex's share won lies wholly above the
  other set's share won or undecided (intervals), and is contradicted when the
  Haruspex's share won or undecided is not above the other's share won;
* cards #7, #9, #13 and #22 "make your worshiper's task difficult": with the
  god taken out of the same deals, judged the same way (without it against
  with it).
"""
from __future__ import annotations

from dataclasses import dataclass

from pipeline.analysis.balance.stats import Rate

VAST_MAJORITY = 0.75
HOLDS, CONTRADICTED, NOT_SETTLED = "holds", "contradicted", "not settled"


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


def higher(better: Bounds, worse: Bounds) -> str:
    """Is ``better`` a higher share than ``worse``, beyond both intervals whatever the undecided deals are?"""
    low, high = better.at_least.interval, worse.at_most.interval
    if low is None or high is None or better.at_most.value is None or worse.at_least.value is None:
        return NOT_SETTLED
    if low[0] > high[1]:
        return HOLDS
    return CONTRADICTED if better.at_most.value <= worse.at_least.value else NOT_SETTLED
