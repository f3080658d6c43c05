"""Hypothesis properties of the engine over random legal play (bounded examples)."""
from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.games.theocracy.engine import ASIDE, State

MAX_STEPS = 400
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def check_invariants(state: State) -> None:
    g = state.game
    # Believers: each held by exactly one seat or set aside; each owner still has exactly its four cards.
    assert all(h == ASIDE or 0 <= h < g.num_players for h in state.holder)
    assert Counter(g.owner(b) for b in range(g.num_believers)) == {s: g.believers_per_player for s in range(g.num_players)}
    # Dice: never on two believers, never both on a believer and aside, never on a set-aside believer.
    placed = [d for d in state.die_on if d is not None]
    assert len(placed) == len(set(placed))
    assert not set(placed) & state.dice_aside
    assert all(state.die_on[b] is None for b, h in enumerate(state.holder) if h == ASIDE)
    rolled = [v for v in state.die_values if v is not None]
    assert len(rolled) == len(set(rolled))  # distinct values within a round
    assert all(state.die_values[d] is not None for d in placed + sorted(state.dice_aside))
    # Every finished turn's die is somewhere: on a believer or aside.
    assert set(range(state.turn)) == set(placed) | state.dice_aside or state.is_terminal()
    # Power cards: hand + set aside + current bid is the full set, without duplicates.
    for seat in range(g.num_players):
        hand = state.hands[seat]
        assert len(hand) == len(set(hand))
        in_play = state.turn + (state.bids[seat] is not None)
        assert len(hand) == len(g.power_values) - in_play or state.is_terminal()
        assert state.bids[seat] not in hand


def random_play(state: State, data: st.DataObject, steps: int) -> list:
    actions = []
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        action = legal[data.draw(st.integers(0, len(legal) - 1))]
        state.apply_action(action)
        actions.append(action)
        check_invariants(state)
    return actions


@SETTINGS
@given(players=st.integers(2, 4), data=st.data())
def test_tokens_never_duplicated_and_cards_conserved(make_game, players: int, data: st.DataObject) -> None:
    state = make_game(players).new_initial_state()
    check_invariants(state)
    scores = list(state.scores)
    for _ in range(MAX_STEPS // 20):
        random_play(state, data, 20)
        assert all(now >= before for now, before in zip(state.scores, scores))
        scores = list(state.scores)


@SETTINGS
@given(players=st.integers(2, 4), data=st.data())
def test_clone_gives_identical_future(make_game, players: int, data: st.DataObject) -> None:
    state = make_game(players).new_initial_state()
    random_play(state, data, data.draw(st.integers(0, 150)))
    twin = state.clone()
    assert twin.key() == state.key()
    future = random_play(state, data, 120)
    for action in future:
        assert action in twin.legal_actions()
        twin.apply_action(action)
    assert twin.key() == state.key() and twin.outcome() == state.outcome()


@SETTINGS
@given(players=st.integers(2, 4), data=st.data())
def test_chance_probabilities_sum_to_one(make_game, players: int, data: st.DataObject) -> None:
    state = make_game(players).new_initial_state()
    for _ in range(MAX_STEPS):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == 1
            assert [a for a, _ in outcomes] == state.legal_actions()
        random_play(state, data, 1)
