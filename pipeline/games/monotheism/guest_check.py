"""The check of #21 against the rulebook (`pantheon monotheism estimate-21 --check`): three unveilings in the
first cycle "once every five hundred games or so". `validate` does not play it: 20,000 deals are seconds of
play that no edit but one to the cards' rules needs, and a cold validate must stay quick.

A seeded run of the stated policy (``estimate.STATED_POLICY``, the same number of deals with each worshiper
set) must give a rate within ``estimate.RATE_TOLERANCE`` of one in five hundred. The run is not cheap
(about twenty seconds) and its tally is kept in the store, keyed by exactly what the deals and their
play read -- the engine's card definitions and each set's worshipers (:func:`play_key`) -- and all the
code, so the check pays for it once per change of the rules on the cards or of the code, not for an edit
to a card's name or flavour text or a set's description. The figure data/README.md states comes
from a larger run of ``pantheon monotheism estimate-21``.
"""
from __future__ import annotations

import json
from typing import Any, Iterator, Optional

from pipeline import store
from pipeline.analysis.balance.stats import wilson
from pipeline.base.shape import ShapeError
from pipeline.data.dataset import GameData
from pipeline.data.problems import Problem
from pipeline.games.monotheism import SOLVER_NAMESPACE, estimate, playkey
from pipeline.games.monotheism.cards import Cards
from pipeline.games.monotheism.engine import Game
from pipeline.games.monotheism.model import MonotheismModel
from pipeline.games.monotheism.play import Loaded

GAMES_PER_SET = 5_000  # 20,000 deals with the four sets: about forty hits at the rulebook's rate
SEED = 0


def seeded_tally(game: GameData[MonotheismModel], cards: Cards, games_per_set: Optional[int] = None, *,
                 under: store.Scope) -> tuple[int, int]:
    """(hits, games) of the seeded run (``games_per_set`` deals with each set, default ``GAMES_PER_SET`` as it is
    when called), from the cache when the cards and the code (``under``: the command's store scope) are unchanged."""
    games_per_set = GAMES_PER_SET if games_per_set is None else games_per_set
    sets = [s.id for s in game.model.worshiper_sets]
    inputs = ["rule 21 tally", play_key(game, cards), games_per_set, SEED, estimate.STATED_POLICY]

    def compute() -> list[int]:
        result = estimate.estimate(Loaded(game.model, Game(cards)), games=games_per_set, seed=SEED, sets=sets,
                                   policy=estimate.STATED_POLICY)
        return [result.total_hits, result.total_games]

    hits, games = store.cached(SOLVER_NAMESPACE, inputs, compute, decode=_tally, under=under)
    return hits, games


def play_key(game: GameData[MonotheismModel], cards: Cards) -> str:
    """What the seeded run reads, as canonical JSON: the engine's card definitions without names
    (:func:`playkey.canonical`) and each set's worshipers in deal order (``play.deal``)."""
    sets = [[s.id, [w.id for w in s.worshipers]] for s in game.model.worshiper_sets]
    return json.dumps([playkey.canonical(cards), sets], sort_keys=True)


def _tally(value: Any) -> list[int]:
    if not (isinstance(value, list) and len(value) == 2 and all(type(n) is int and n >= 0 for n in value)):
        raise ShapeError("expected [hits, games]")
    return value


def _one_in(rate: float) -> str:
    return f"1 in {round(1 / rate)}" if rate else "never"


def rate_problems(game: GameData[MonotheismModel], cards: Cards, games_per_set: Optional[int] = None, *,
                  under: store.Scope) -> Iterator[Problem]:
    """A problem at #21 when the seeded rate is not within the tolerance of the rulebook's (validate plays
    ``GAMES_PER_SET`` deals per set; a smaller run is quicker and wider)."""
    if estimate.UNBIDDEN_GUEST not in cards.deities or not game.model.worshiper_sets:
        return  # deity_id_problems and the schema report a missing card or set
    hits, games = seeded_tally(game, cards, games_per_set, under=under)
    rate = hits / games
    if estimate.agrees(rate):
        return
    low, high = wilson(hits, games)
    doc = game.doc("deities")
    tolerance = estimate.RATE_TOLERANCE
    yield doc.problem(doc.record_at("deities", estimate.UNBIDDEN_GUEST),
                      f"deity {estimate.UNBIDDEN_GUEST}: unveiled three times in the first cycle in {hits} of {games} "
                      f"seeded {estimate.STATED_POLICY} deals ({_one_in(rate)}, 95% interval {_one_in(high)} to "
                      f"{_one_in(low)}); the rulebook says once every five hundred games or so (within {tolerance}x: "
                      f"{_one_in(estimate.RULEBOOK_RATE * tolerance)} to {_one_in(estimate.RULEBOOK_RATE / tolerance)})")
