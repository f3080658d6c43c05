"""Simulation: seeded, reproducible, and agreeing with what can be computed."""
from __future__ import annotations

import dataclasses
import random

import pytest

from pipeline.engine import playout, random_policy
from pipeline.games.theocracy.engine import Termination
from pipeline.games.theocracy.simulate import PolicyName, simulate

FATE_PROBABILITY = 4 / 36
EXPECTED_ROUNDS = 1 / FATE_PROBABILITY  # 9: geometric number of rounds when nobody transcends
GAMES = 300
# Rounds are geometric: variance (1 - p) / p^2 = 72, so the mean of 300 games has SE ~0.49.
TOLERANCE = 2.0  # generous: about 4 standard errors


def test_mean_rounds_without_transcendence_is_nine(make_game) -> None:
    # the fate roll ends a round whatever the number of players: two players are the quickest to simulate
    game = dataclasses.replace(make_game(2), transcendence=10**9)
    summary = simulate(game, GAMES, PolicyName.RANDOM, seed=2024)
    assert summary.endings[Termination.FATE.value] == GAMES
    assert abs(summary.mean_rounds - EXPECTED_ROUNDS) < TOLERANCE


def test_same_seed_same_games(make_game) -> None:
    game = make_game(2)
    assert simulate(game, 30, PolicyName.GREEDY, seed=5) == simulate(game, 30, PolicyName.GREEDY, seed=5)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("policy", list(PolicyName))
def test_summary_is_consistent(make_game, players: int, policy: PolicyName) -> None:
    summary = simulate(make_game(players), 40, policy, seed=1)
    assert sum(summary.endings.values()) == 40
    assert abs(sum(summary.win_share) - 1) < 1e-9
    assert len(summary.win_share) == players and summary.mean_rounds >= 1


def test_transcendence_ends_with_a_score_at_threshold(make_game) -> None:
    game = make_game(2)
    rng = random.Random(7)
    for _ in range(60):
        final = playout(game.new_initial_state(), random_policy, rng)
        outcome = final.outcome()
        reached = max(outcome.scores) >= game.transcendence
        assert reached == (outcome.termination == Termination.TRANSCENDENCE)


def test_simulate_rejects_no_games(make_game) -> None:
    with pytest.raises(ValueError):
        simulate(make_game(2), 0, PolicyName.RANDOM, seed=1)
