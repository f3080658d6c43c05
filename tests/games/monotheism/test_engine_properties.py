"""Property tests: random legal play never breaks the engine's invariants (bounded by hypothesis)."""
from __future__ import annotations

import functools

from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.dataset import default_data_root
from pipeline.games.monotheism.engine import State
from pipeline.games.monotheism.play import Loaded, deal, load

MAX_STEPS = 60
SET_IDS = ("haruspex-of-scriptures", "three-monks", "autotheistic-pretender", "poet-and-spirit-guide")


@functools.lru_cache(maxsize=1)
def loaded() -> Loaded:
    return load(default_data_root())


def _start(source: int, seed: int) -> State:
    data = loaded()
    if source < len(data.model.scenarios):
        return data.game.scenario_state(data.model.scenarios[source])
    return deal(data, SET_IDS[source % len(SET_IDS)], seed)


def _walk(state: State, choices: list[int]) -> list[State]:
    states = [state]
    for choice in choices:
        if state.is_terminal():
            break
        actions = state.legal_actions()
        assert actions, "a live state always offers an action"
        state = state.apply_action(actions[choice % len(actions)])
        states.append(state)
    return states


@settings(max_examples=60, deadline=None)
@given(source=st.integers(0, 8), seed=st.integers(0, 10_000),
       choices=st.lists(st.integers(0, 50), min_size=1, max_size=MAX_STEPS))
def test_random_play_keeps_the_invariants(source: int, seed: int, choices: list[int]) -> None:
    states = _walk(_start(source, seed), choices)
    for before, after in zip(states, states[1:]):
        assert len(after.deck) <= len(before.deck)  # cards are never created
        assert {c[0] for c in after.deck} <= {c[0] for c in before.deck}  # nor brought back
    for state in states:
        labels = [c[0] for c in state.deck]
        assert len(labels) == len(set(labels))  # no card twice
        hash(state.key())
        if state.is_terminal():
            assert state.legal_actions() == []
            assert state.clone().outcome() == state.outcome()


@settings(max_examples=30, deadline=None)
@given(source=st.integers(0, 8), seed=st.integers(0, 10_000),
       choices=st.lists(st.integers(0, 50), min_size=1, max_size=MAX_STEPS))
def test_play_is_deterministic(source: int, seed: int, choices: list[int]) -> None:
    """The same actions from the same start give the same positions and outcome."""
    first = _walk(_start(source, seed), choices)
    second = _walk(_start(source, seed), choices)
    assert [s.key() for s in first] == [s.key() for s in second]
    assert first[-1].outcome() == second[-1].outcome()
