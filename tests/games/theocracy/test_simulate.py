"""Seeded games agree with what can be computed: the fate roll's geometric rounds, transcendence at the threshold."""
from __future__ import annotations

import dataclasses
import random

from pipeline.engine import playout, random_policy
from pipeline.games.theocracy.engine import Termination

FATE_PROBABILITY = 4 / 36
EXPECTED_ROUNDS = 1 / FATE_PROBABILITY  # 9: geometric number of rounds when nobody transcends
GAMES = 300
# Rounds are geometric: variance (1 - p) / p^2 = 72, so the mean of 300 games has SE ~0.49.
TOLERANCE = 2.0  # generous: about 4 standard errors


def test_mean_rounds_without_transcendence_is_nine(make_game) -> None:
    # the fate roll ends a round whatever the number of players: two players are the quickest to simulate
    game = dataclasses.replace(make_game(2), transcendence=10**9)
    rng = random.Random(2024)
    finals = [playout(game.new_initial_state(), random_policy, rng) for _ in range(GAMES)]
    assert all(final.outcome().termination == Termination.FATE.value for final in finals)
    assert abs(sum(final.rounds_played for final in finals) / GAMES - EXPECTED_ROUNDS) < TOLERANCE


def test_transcendence_ends_with_a_score_at_threshold(make_game) -> None:
    game = make_game(2)
    rng = random.Random(7)
    for _ in range(60):
        final = playout(game.new_initial_state(), random_policy, rng)
        outcome = final.outcome()
        reached = max(outcome.scores) >= game.transcendence
        assert reached == (outcome.termination == Termination.TRANSCENDENCE)
