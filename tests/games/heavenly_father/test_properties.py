"""Hypothesis properties of the engine over random legal play (bounded examples)."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.dataset import default_data_root, load_game
from pipeline.games.heavenly_father import GAME_ID
from pipeline.games.heavenly_father.engine import Game, State, random_step
from pipeline.games.heavenly_father.model import HeavenlyFatherModel, build

MAX_STEPS = 3000
SETTINGS = settings(max_examples=50, deadline=None)
MODEL: HeavenlyFatherModel = build(load_game(default_data_root(), GAME_ID))
DECK = len(MODEL.dilemmas) + len(MODEL.philosophers)


def check_invariants(state: State) -> None:
    assert all(n >= 0 for tokens in state.tokens for n in tokens.values())  # no debt, ever
    assert state.card_count() == DECK  # cards are moved, never made or lost
    cards = [c for h in state.hands for c in h] + list(state.pile) + state.discard + [p.card for p in state.table]
    cards += [c for p in state.prayers for c in p]
    assert len(cards) == len(set(cards))
    assert len(state.row) + (state.true_god is not None) + len(state.god_deck) + \
        (len(state.player_gods) if state.god_deck else 0) == len(MODEL.gods)
    if not state.is_terminal() and not state.is_chance_node():
        assert state.legal_actions(), "a decision node always has a move"


@SETTINGS
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_random_play_keeps_invariants_and_ends(players: int, seed: int) -> None:
    state = Game.from_model(MODEL, players).new_initial_state()
    rng = random.Random(seed)
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            break
        state.apply_action(random_step(state, rng))
        check_invariants(state)
    assert state.is_terminal()
    outcome = state.outcome()
    assert max(outcome.scores) == min(outcome.scores[w] for w in outcome.winners)
    assert all(s < max(outcome.scores) for p, s in enumerate(outcome.scores) if p not in outcome.winners)
    assert all(not p for p in state.prayers)


@SETTINGS
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), split=st.integers(0, 400))
def test_clone_gives_the_same_future(players: int, seed: int, split: int) -> None:
    state = Game.from_model(MODEL, players).new_initial_state()
    rng = random.Random(seed)
    for _ in range(split):
        if state.is_terminal():
            break
        state.apply_action(random_step(state, rng))
    twin = state.clone()
    assert twin.key() == state.key()
    moves = []
    for _ in range(200):
        if state.is_terminal():
            break
        action = random_step(state, rng)
        moves.append(action)
        state.apply_action(action)
    for action in moves:
        assert action in twin.legal_actions()
        twin.apply_action(action)
    assert twin.key() == state.key() and twin.outcome() == state.outcome()


@pytest.mark.parametrize("players", [2, 6])
def test_chance_probabilities_sum_to_one(players: int) -> None:
    state = Game.from_model(MODEL, players).new_initial_state()
    rng = random.Random(players)
    while not state.is_terminal():
        if state.is_chance_node():
            assert sum(p for _, p in state.chance_outcomes()) == 1
        state.apply_action(random_step(state, rng))
