"""One seeded simulation loop and one policy interface for every game.

A :data:`Policy` picks a legal action for the player to act, given the state
and a seeded ``random.Random`` (its only source of randomness, so a seed
always gives the same games). Chance nodes never reach a policy: the loop
draws their outcomes with the engine's exact probabilities, one
``rng.random()`` per draw. A policy may look ahead (``apply_action`` on the
state it is given) but must not keep that state: :func:`playout` may go on
to change it in place.

:func:`play` yields every state of one game as it happens (for narration and
event statistics) and :func:`playout` returns only the last. Many seeded games
are a game's balance study's business (:mod:`pipeline.analysis.balance`: one
``random.Random`` per chunk of games, driving them in order).
"""
from __future__ import annotations

import random
from typing import Any, Callable, Iterator, Optional, Sequence, TypeVar

from pipeline.engine.state import InPlaceState, State
from pipeline.engine.types import CHANCE, TERMINAL

S = TypeVar("S", bound=State[Any])

Policy = Callable[[Any, random.Random], Any]  # (state, rng) -> one of state.legal_actions()
Stop = Callable[[Any], bool]  # (state) -> stop the game here, before the next action is chosen


def random_policy(state: State[Any], rng: random.Random) -> Any:
    """A uniformly random legal action."""
    return rng.choice(state.decision().actions)


def by_seat(policies: Sequence[Policy]) -> Policy:
    """A policy that lets each seat play its own (``policies[seat]``)."""
    def chosen(state: State[Any], rng: random.Random) -> Any:
        return policies[state.current_player()](state, rng)
    return chosen


def sample_chance(state: State[Any], rng: random.Random) -> Any:
    """A chance outcome drawn with its exact probability (one ``rng.random()``)."""
    return state.decision().pick(rng.random())


def play(state: S, policy: Policy, rng: random.Random, *, max_actions: Optional[int] = None,
         until: Optional[Stop] = None) -> Iterator[S]:
    """Yield ``state`` and every state after it, one per action, until the game is over.

    Stops early when ``until(state)`` holds (checked before an action is
    chosen) or after ``max_actions`` actions. The caller may stop iterating at
    any time.
    """
    yield state
    limit = max_actions if max_actions is not None else -1
    while True:
        decision = state.decision()
        if decision.player == TERMINAL or (until is not None and until(state)) or limit == 0:
            return
        state = state.apply_action(decision.pick(rng.random()) if decision.player == CHANCE else policy(state, rng))
        limit -= 1
        yield state


def playout(state: S, policy: Policy, rng: random.Random, *, max_actions: Optional[int] = None,
            until: Optional[Stop] = None) -> S:
    """The last state of :func:`play` (terminal, unless ``until`` or ``max_actions`` stopped it).

    The same actions as :func:`play`, faster: the states on the way are never
    handed out, so an engine that plays in place advances one private copy.
    ``state`` itself never changes.
    """
    limit = max_actions if max_actions is not None else -1
    in_place = isinstance(state, InPlaceState)
    private = False
    while True:  # play()'s loop, one decision() per action (this is every simulation's inner loop)
        decision = state.decision()
        if decision.player == TERMINAL or (until is not None and until(state)) or limit == 0:
            return state
        action = decision.pick(rng.random()) if decision.player == CHANCE else policy(state, rng)
        if private and in_place:
            state._apply_in_place(action)  # type: ignore[attr-defined]  # in_place: the isinstance test, hoisted out of the loop
        else:
            state = state.apply_action(action)
            private = True
        limit -= 1
