"""One conformance suite over every registered game's rules engine (OpenSpiel style): the engine kit's contract.

Every case of ``engine_cases`` (each set-up a game's spec lists: player
counts, solo difficulties, Monotheism deals and scenarios ...; the toy game's
too, standing for a sixth game) plays seeded random games and is
held to the same promises: apply_action returns a new state and never changes
the old one; clones are independent; legal_actions is the only source of
moves; chance nodes are exact distributions; terminal states have an Outcome
and no moves; actions and states survive their round trips to strings and
JSON; the same seed plays the same game; and each game's own invariants hold.
"""
from __future__ import annotations

import dataclasses
import functools
import json
import random
from collections import Counter
from enum import Enum
from fractions import Fraction
from itertools import islice
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.engine import CHANCE, TERMINAL, Event, IllegalAction, State, play, playout, random_policy, restore
from pipeline.games import registry
from tests.core.engine_cases import EngineCase, all_cases, case
from tests.core.toy_game import SPEC as TOY_SPEC

CASES = [c.id for c in all_cases()]  # every set-up of every registered game (their data loaded at collection)
SEEDS = (1, 2)  # games per case that the clone, legality and serialisation checks walk through
SAMPLES = 4  # states per game that get the expensive checks
PLAYOUTS = settings(max_examples=3, deadline=None)
JUNK: tuple[Any, ...] = (None, "no such action", 12345, ("a", "tuple"))
SENTINEL = "vandal"  # what vandalize() adds to every container of a clone


@functools.lru_cache(maxsize=None)
def game_states(case_id: str, seed: int) -> tuple[State[Any], ...]:
    """Every state of one seeded random game of the case (shared by the tests: never changed by them)."""
    c = case(case_id)
    return tuple(play(c.start(seed), random_policy, random.Random(seed), max_actions=c.max_actions))


def sampled(states: tuple[State[Any], ...]) -> list[State[Any]]:
    """A few states spread over the game, the first and the last among them."""
    step = max(1, len(states) // SAMPLES)
    return list(states[::step]) + [states[-1]]


def test_every_registered_game_is_played() -> None:
    """Each registered game, and the toy, has at least one set-up here: a game is tested by registering it."""
    ids = [c.id for c in all_cases()]
    for spec in (*registry.REGISTERED, TOY_SPEC):
        assert any(i.startswith(f"{spec.id}-") for i in ids), f"{spec.id}: its engine lists no set-up"


# ------------------------------------------------------------------ what every state promises
def check_decision(state: State[Any]) -> None:
    decision = state.decision()
    actions = state.legal_actions()
    assert list(decision.actions) == actions and state.current_player() == decision.player
    if state.is_terminal():
        assert decision.player == TERMINAL and actions == [] and state.outcome() is not None
        assert state.chance_outcomes() == []
        return
    assert state.outcome() is None, "an Outcome before the end"
    assert actions, "a live state without a legal action"
    assert decision.player == CHANCE or 0 <= decision.player < state.num_players
    strings = [state.action_to_string(a) for a in actions]
    assert len(set(strings)) == len(strings), f"two legal actions share a string: {strings}"
    # looked up last first: the first look-up goes through every name, the others meet names already worked out
    assert all(state.action_from_string(text) == action for text, action in reversed(list(zip(strings, actions))))
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == actions
        assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
        assert sum(p for _, p in outcomes) == 1, "chance probabilities do not sum to exactly 1"
    else:
        assert state.chance_outcomes() == []


def check_outcome(state: State[Any]) -> None:
    outcome = state.outcome()
    assert outcome is not None and isinstance(outcome.termination, str) and outcome.termination
    assert len(outcome.scores) == state.num_players
    assert set(outcome.winners) <= set(range(state.num_players)) and len(set(outcome.winners)) == len(outcome.winners)
    returns = state.returns()
    assert len(returns) == state.num_players
    assert sum(returns) == pytest.approx(1.0 if outcome.winners else 0.0)
    json.dumps(outcome.as_data())


def check_events(state: State[Any]) -> None:
    assert isinstance(state.events, tuple)
    for event in state.events:
        assert isinstance(event, Event) and event.kind
        json.dumps(event.as_data())


@pytest.mark.parametrize("case_id", CASES)
@PLAYOUTS
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_the_contract(case_id: str, seed: int) -> None:
    """Every state of a seeded random game: decision, chance, strings, events, invariants; nothing changes a
    state once made; the game ends (where random play always ends) with a proper Outcome."""
    c = case(case_id)
    keys, previous = [], None
    states = []
    for state in play(c.start(seed), random_policy, random.Random(seed), max_actions=c.max_actions):
        keys.append(state.key())
        hash(keys[-1])
        check_decision(state)
        check_events(state)
        c.invariants(state, previous)
        states.append(state)
        previous = state
    assert [s.key() for s in states] == keys, "applying an action changed a state made before"
    final = states[-1]
    if c.must_end:
        assert final.is_terminal(), f"no end after {c.max_actions} actions"
    if final.is_terminal():
        check_outcome(final)
    assert final.history() == [s.trail.action for s in states[1:]]


@pytest.mark.parametrize("case_id", CASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_same_seed_plays_the_same_game(case_id: str, seed: int) -> None:
    """Seeded: the kit's fast playout (in place where the engine allows) plays exactly the states of play()."""
    c = case(case_id)
    states = game_states(case_id, seed)
    fast = playout(c.start(seed), random_policy, random.Random(seed), max_actions=c.max_actions)
    assert fast.history() == states[-1].history()
    assert fast.key() == states[-1].key() and fast.outcome() == states[-1].outcome()
    assert fast.events == states[-1].events


def _mutable_engine_object(value: Any) -> bool:
    """An instance of an engine's own mutable class (a Board, a Religion ...): never a class, an enum
    member or anything from outside the project, which vandalize() must leave alone."""
    kind = type(value)
    return (kind.__module__.startswith("pipeline.") and not isinstance(value, (type, Enum))
            and hasattr(value, "__dict__")
            and not (dataclasses.is_dataclass(value) and kind.__dataclass_params__.frozen))  # type: ignore[attr-defined]


def vandalize(value: Any, seen: set[int]) -> None:
    """Change in place every container reachable from ``value`` (the position a state holds, not its game)."""
    if id(value) in seen:
        return
    seen.add(id(value))
    if type(value) in (dict, Counter):
        for item in list(value.values()):
            vandalize(item, seen)
        value[SENTINEL] = SENTINEL
    elif type(value) is list:
        for item in list(value):
            vandalize(item, seen)
        value.append(SENTINEL)
    elif type(value) is set:
        value.add(SENTINEL)
    elif _mutable_engine_object(value):
        for name, item in vars(value).items():
            if name not in ("game", "trail", "events", "_decided"):
                vandalize(item, seen)


@pytest.mark.parametrize("case_id", CASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_clones_are_independent(case_id: str, seed: int) -> None:
    """Changing every container of a clone, or playing on from it, never changes the original."""
    for state in sampled(game_states(case_id, seed)):
        key, legal = state.key(), state.legal_actions()
        twin = state.clone()
        assert twin.key() == key and twin.legal_actions() == legal and twin.history() == state.history()
        vandalize(twin, set())
        assert state.key() == key, "changing a clone changed the original"
        advanced = playout(state.clone(), random_policy, random.Random(seed), max_actions=25)
        quiet = playout(state.with_events(False), random_policy, random.Random(seed), max_actions=25)
        assert quiet.key() == advanced.key()
        assert quiet.events == () or quiet.history() == state.history(), "events recorded after with_events(False)"
        assert state.key() == key and state.legal_actions() == legal, "playing on from a copy changed the original"


@pytest.mark.parametrize("case_id", CASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_illegal_actions_are_refused(case_id: str, seed: int) -> None:
    """Anything but a legal action (another state's action, junk, any action once the game is over) raises
    IllegalAction and leaves the state as it was."""
    states = game_states(case_id, seed)
    seen_elsewhere = {action for state in states for action in state.legal_actions()}
    for state in sampled(states):
        key, legal = state.key(), state.legal_actions()
        foreign = list(islice((a for a in seen_elsewhere if a not in legal), 10))  # (not every action compared)
        for action in foreign + list(JUNK):
            with pytest.raises(IllegalAction):
                state.apply_action(action)
        with pytest.raises(IllegalAction):
            state.action_from_string("no such action at all")
        assert state.key() == key and state.legal_actions() == legal
    final = states[-1]
    if final.is_terminal():
        for action in list(seen_elsewhere)[:5]:
            with pytest.raises(IllegalAction, match="over"):
                final.apply_action(action)


@pytest.mark.parametrize("case_id", CASES)
@pytest.mark.parametrize("seed", SEEDS)
def test_states_survive_a_round_trip_through_json(case_id: str, seed: int) -> None:
    """to_data() is plain JSON; restore() makes the same position: same key, moves, player, history."""
    c: EngineCase = case(case_id)
    for state in sampled(game_states(case_id, seed)):
        data = json.loads(json.dumps(state.to_data()))
        again = restore(c.game, data)
        assert again.key() == state.key()
        assert [again.action_to_string(a) for a in again.legal_actions()] == \
               [state.action_to_string(a) for a in state.legal_actions()]
        assert again.current_player() == state.current_player() and again.outcome() == state.outcome()
        assert again.events == state.events and again.to_data() == data


@pytest.mark.parametrize("case_id", CASES)
def test_states_a_policy_makes_during_a_fast_playout_stay_as_they_were(case_id: str) -> None:
    """playout() advances its own copy in place; successors a policy made on the way (a look-ahead's) keep."""
    c = case(case_id)
    made: list[tuple[State[Any], Any]] = []

    def looking_ahead(state: State[Any], rng: random.Random) -> Any:
        action = random_policy(state, rng)
        child = state.apply_action(action)
        made.append((child, child.key()))
        return action

    playout(c.start(SEEDS[0]), looking_ahead, random.Random(SEEDS[0]), max_actions=c.max_actions)
    assert made and all(child.key() == key for child, key in made)
