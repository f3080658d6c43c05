"""Theocracy's balance study: what its tallies count, checked against counts made another way."""
from __future__ import annotations

import random

from pipeline.analysis.balance.study import load_study
from pipeline.analysis.balance.tally import count, folder, mean
from pipeline.engine import playout
from pipeline.games.registry import spec as spec_of
from pipeline.games.theocracy.balance import BIDS, POLICIES, ROUNDS, RULE_NAMES, RULES, SCORES
from pipeline.games.theocracy.engine import BID_RULE_IDS, resolve_bid
from tests.conftest import REPO_DATA

STUDY = load_study(REPO_DATA, spec_of("theocracy"))


def test_every_bid_is_counted_once_with_the_rule_that_decided_it() -> None:
    for setup in STUDY.setups(policy="greedy"):
        tally = STUDY.play(setup, 12, seed=5)
        game = STUDY.games[setup.players]
        rounds = mean(tally, "length").total  # every round ends after all its turns: a bid per turn
        assert count(tally, BIDS) == rounds * game.turns_per_round
        assert sum(folder(tally, RULES).values()) == count(tally, BIDS)
        assert set(folder(tally, RULES)) <= set(BID_RULE_IDS)
        assert sum(folder(tally, SCORES).values()) == 12 * setup.players
        assert sum(int(k) * n for k, n in folder(tally, ROUNDS).items()) == rounds


def test_the_tally_of_one_game_is_that_game_replayed() -> None:
    setup = STUDY.setups(players=3, policy="random")[0]
    tally = STUDY.play(setup, 1, seed=11)
    rng = random.Random(11)
    final = playout(STUDY.games[3].new_initial_state(), POLICIES["random"], rng)
    assert final.outcome().winners == tuple(int(s) for s in folder(tally, "wins"))
    assert mean(tally, "length").total == final.rounds_played
    assert count(tally, BIDS) == final.rounds_played * STUDY.games[3].turns_per_round


def test_rule_names_cover_what_resolve_bid_can_say() -> None:
    said = {resolve_bid(bids).rule for bids in ([1, 5], [3, 3], [2, 2, 4], [2, 2, 4, 4], [1, 3, 5], [1, 2, 3], [1, 5, 5])}
    assert said <= set(BID_RULE_IDS) and set(RULE_NAMES) == set(BID_RULE_IDS)
