"""Seeded Monte Carlo: how often is #21 unveiled three times during the first cycle through the deck?

The rulebook's Scenarios section says a game in which god #21 (which curses your
worshiper whenever it is unveiled) is unveiled three times during your first
cycle through the deck happens "once every five hundred games or so". This
module measures that on the reconstructed deck.

Definitions used here:

* A game is a full deal: the 29 deities shuffled and veiled, one worshiper set
  at the bottom (:func:`pipeline.games.monotheism.play.deal`).
* **The first cycle** lasts from the deal until the highest worshiper first
  reaches the top of the deck or is submerged (the player picks a number that
  carries it to the bottom), or the game ends. By then every god that started
  above the worshipers has been on top or has been carried beneath them; what
  follows is the second pass through the deck.
* **An unveiling** is any moment a veiled god becomes unveiled (on top, or by an
  act): an ``unveil`` event of the engine.
* A **policy** picks among the legal actions: ``random`` uniformly at random;
  ``slow`` always submerges the smallest number and keeps the old top card
  lowest in the moved stack, so as many cards as possible reach the top in the
  first cycle (the most chances to meet #21 again); picks and "may" take the
  first option offered.

**The reference player** (data/README.md, docs/balance.md): the rulebook's "games" are random deals
played by the ``random`` policy, the same number of deals with each worshiper set. Under it the rate
must lie within ``RATE_TOLERANCE`` of the rulebook's one in five hundred (``pantheon monotheism
estimate-21 --check``, see ``guest_check.py``). The rulebook's own words decide the player: meeting #21
three times is "the misfortune" of a deal, and its advice to a player who is often cursed by #21 is to
"stop unveiling new gods a little sooner. As you unveil more and more cards, you have a greater likelihood
of ... being cursed by card #21". So the figure depends on how many gods a player unveils, and belongs to
a player who neither hurries nor holds back; ``slow`` does the opposite of that advice on purpose (10-14
gods unveiled in the first cycle in most deals, random play 5-9) and meets #21 about twice as often, as the
rulebook predicts. ``slow`` is an upper bound for study: it is measured, never judged against the figure.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Optional, Sequence

from pipeline.analysis.balance.stats import wilson
from pipeline.engine import Policy, play, random_policy
from pipeline.games.monotheism.engine import LABEL, PHASE_SUBMERGE, State
from pipeline.games.monotheism.play import Loaded, deal

UNBIDDEN_GUEST = "21"     # the god that curses your worshiper whenever it is unveiled
FATAL_UNVEILINGS = 3      # the rulebook's "three times"
RULEBOOK_RATE = 1 / 500   # "once every five hundred games or so"
RATE_TOLERANCE = 1.5      # "or so": a measured rate within this factor of the rulebook's agrees with it
STATED_POLICY = "random"  # the reference player the rulebook's rate is about and held to (module docstring)
MAX_ACTIONS = 5_000       # a first cycle longer than this is cut off (and counted as such)



def slow_policy(state: State, rng: random.Random) -> str:
    """Smallest submerge, old top card lowest, first option otherwise."""
    options = state.legal_actions()
    if state.phase == PHASE_SUBMERGE:
        return min(options, key=lambda option: int(option.split()[1]))
    return options[-1] if options[0].startswith("place") else options[0]


POLICIES: dict[str, Policy] = {"random": random_policy, "slow": slow_policy}


@dataclass(frozen=True)
class Cycle:
    """What one first cycle did."""

    unveilings: int          # of #21
    ended_by: str            # "worshiper on top", "worshiper submerged", "game over", "cut off"


@dataclass
class Estimate:
    """Tallies over many games, per worshiper set."""

    policy: str
    seed: int
    games: dict[str, int] = field(default_factory=dict)
    hits: dict[str, int] = field(default_factory=dict)                  # games with >= 3 unveilings
    histogram: dict[str, Counter] = field(default_factory=dict)         # unveilings -> games
    endings: dict[str, Counter] = field(default_factory=dict)

    @property
    def total_games(self) -> int:
        return sum(self.games.values())

    @property
    def total_hits(self) -> int:
        return sum(self.hits.values())

    def rate(self, set_id: Optional[str] = None) -> float:
        games = self.games[set_id] if set_id else self.total_games
        hits = self.hits[set_id] if set_id else self.total_hits
        return hits / games if games else 0.0

    def interval(self, set_id: Optional[str] = None) -> tuple[float, float]:
        """The 95% (Wilson) interval of ``rate``."""
        games = self.games[set_id] if set_id else self.total_games
        hits = self.hits[set_id] if set_id else self.total_hits
        return wilson(hits, games)

    def agrees_with_rulebook(self) -> Optional[bool]:
        """Whether the rate agrees with the rulebook's; None for a policy other than the reference player's,
        which the rulebook's figure is not about (the module docstring)."""
        return agrees(self.rate()) if self.policy == STATED_POLICY else None

    def as_dict(self) -> dict:
        return {
            "policy": self.policy, "seed": self.seed, "games": self.total_games, "hits": self.total_hits,
            "rate": self.rate(), "interval": list(self.interval()), "rulebook_rate": RULEBOOK_RATE,
            "tolerance": RATE_TOLERANCE, "reference_policy": STATED_POLICY,
            "agrees": self.agrees_with_rulebook(),
            "by_set": {s: {"games": self.games[s], "hits": self.hits[s], "rate": self.rate(s),
                           "interval": list(self.interval(s)),
                           "unveilings": {str(k): v for k, v in sorted(self.histogram[s].items())},
                           "ended_by": dict(self.endings[s])} for s in self.games},
        }


def agrees(rate: float) -> bool:
    """A rate within ``RATE_TOLERANCE`` of the rulebook's, either way."""
    return RULEBOOK_RATE / RATE_TOLERANCE <= rate <= RULEBOOK_RATE * RATE_TOLERANCE


def _worshiper_on_top(state: State) -> bool:
    return not state.game.is_god(state.deck[0][LABEL])


def _submerged_a_worshiper(state: State) -> bool:
    """Did the action that made ``state`` send a worshiper down with the submerged cards?

    A submerge is the first thing its action causes, so only the first event needs a look."""
    events = state.events
    if not events or events[0].kind != "submerge":
        return False
    return not all(map(state.game.is_god, events[0].get("cards")))


def first_cycle(loaded: Loaded, set_id: str, seed: int, policy: Policy) -> Cycle:
    """Deal with ``seed``, play ``policy`` (its randomness seeded by ``seed`` too) through the first cycle.

    The cycle ends before the action that submerges a worshiper: what that action caused is not counted.
    """
    unveilings, ended_by = 0, "cut off"
    for taken, state in enumerate(play(deal(loaded, set_id, seed), policy, random.Random(seed),
                                       max_actions=MAX_ACTIONS)):
        if _submerged_a_worshiper(state):
            ended_by = "worshiper submerged"
            break
        for event in state.events:  # (a loop, not sum() over a generator: this runs for every action of 20,000 deals)
            if event.kind == "unveil" and event.subject == UNBIDDEN_GUEST:
                unveilings += 1
        if taken == MAX_ACTIONS:
            break
        if state.is_terminal():
            ended_by = "game over"
            break
        if _worshiper_on_top(state):
            ended_by = "worshiper on top"
            break
    return Cycle(unveilings, ended_by)


def estimate(loaded: Loaded, *, games: int, seed: int, sets: Sequence[str], policy: str) -> Estimate:
    """``games`` deals per worshiper set; the k-th set uses seeds ``seed + k * games`` onwards (fresh deals)."""
    chosen = POLICIES[policy]
    result = Estimate(policy=policy, seed=seed)
    for k, set_id in enumerate(sets):
        histogram: Counter = Counter()
        endings: Counter = Counter()
        for offset in range(games):
            cycle = first_cycle(loaded, set_id, seed + k * games + offset, chosen)
            histogram[cycle.unveilings] += 1
            endings[cycle.ended_by] += 1
        result.games[set_id] = games
        result.hits[set_id] = sum(n for k, n in histogram.items() if k >= FATAL_UNVEILINGS)
        result.histogram[set_id] = histogram
        result.endings[set_id] = endings
    return result
