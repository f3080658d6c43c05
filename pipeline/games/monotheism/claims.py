"""The rulebook's three claims about full games, judged from win shares with their 95% intervals.

A claim *holds* when the intervals say so, is *contradicted* when the point
estimates point the other way, and is *not settled* otherwise (more deals, or
fewer undecided ones, would tell). The words are the rulebook's:

* "the vast majority of games can be won while you're helping The Haruspex of
  Scriptures": read as more than :data:`VAST_MAJORITY` of deals; it holds when
  the whole interval lies above that share, and is contradicted when the whole
  interval lies below it;
* the game "is significantly easier when using this worshiper": against each
  other set, it holds when the Haruspex's interval lies wholly above the other
  set's, and is contradicted when the Haruspex's share is not the higher one;
* cards #7, #9, #13 and #22 "make your worshiper's task difficult": with the
  god taken out of the same kind of deal, it holds when the interval without
  it lies wholly above the interval with it, and is contradicted when the share
  without it is not the higher one.
"""
from __future__ import annotations

from pipeline.analysis.balance.stats import Rate

VAST_MAJORITY = 0.75
HOLDS, CONTRADICTED, NOT_SETTLED = "holds", "contradicted", "not settled"


def majority(share: Rate, threshold: float = VAST_MAJORITY) -> str:
    """Is ``share`` more than ``threshold``?"""
    if share.interval is None:
        return NOT_SETTLED
    low, high = share.interval
    return HOLDS if low > threshold else CONTRADICTED if high < threshold else NOT_SETTLED


def higher(better: Rate, worse: Rate) -> str:
    """Is ``better`` a higher share than ``worse``, beyond both intervals?"""
    if better.interval is None or worse.interval is None or better.value is None or worse.value is None:
        return NOT_SETTLED
    if better.interval[0] > worse.interval[1]:
        return HOLDS
    return CONTRADICTED if better.value <= worse.value else NOT_SETTLED
