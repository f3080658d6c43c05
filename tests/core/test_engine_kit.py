"""The engine kit on its own, with a toy game: sampling, legality, history, serialisation, the loops.

The toy ("race to five"): a coin (heads 1/3, tails 2/3) says how far the next
player may step; the player then steps 1 or 2 (2 only on tails); the first to
reach five wins. It exists in two forms, one per way an engine can be built:
immutable (``_successor``) and in place (``InPlaceState``).
"""
from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any, Hashable, Mapping, Optional

import pytest

from pipeline.engine import (
    CHANCE,
    TERMINAL,
    Decision,
    Event,
    IllegalAction,
    InPlaceState,
    Outcome,
    State,
    by_seat,
    play,
    playout,
    random_policy,
    replay,
    restore,
    sample_chance,
)
from pipeline.engine.types import TERMINAL_DECISION

GOAL = 5
HEADS, TAILS = "heads", "tails"


class RaceGame:
    """Makes first states of the toy, in either form."""

    def __init__(self, *, in_place: bool) -> None:
        self.kind = InPlaceRace if in_place else Race

    def new_initial_state(self) -> "Race":
        return self.kind((0, 0), 0, None)._started({"goal": GOAL})

    def state_from_setup(self, setup: Mapping[str, Any]) -> "Race":
        assert setup == {"goal": GOAL}
        return self.new_initial_state()


class Race(State[str]):
    game_id = "race"

    def __init__(self, positions: tuple[int, int], turn: int, coin: Optional[str]) -> None:
        self.positions, self.turn, self.coin = positions, turn, coin

    @property
    def num_players(self) -> int:
        return 2

    def _decide(self) -> Decision[str]:
        if max(self.positions) >= GOAL:
            return TERMINAL_DECISION
        if self.coin is None:
            return Decision.chance([(HEADS, Fraction(1, 3)), (TAILS, Fraction(2, 3))])
        return Decision(self.turn, ("step 1", "step 2") if self.coin == TAILS else ("step 1",))

    def outcome(self) -> Optional[Outcome]:
        if max(self.positions) < GOAL:
            return None
        winner = self.positions.index(max(self.positions))
        return Outcome("reached", (winner,), self.positions)

    def key(self) -> Hashable:
        return (self.positions, self.turn, self.coin)

    def _copy(self) -> "Race":
        return self._moved(self.positions, self.turn, self.coin, ())

    def _moved(self, positions: tuple[int, int], turn: int, coin: Optional[str], events: tuple[Event, ...]) -> "Race":
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.positions, other.turn, other.coin, other.events = positions, turn, coin, events
        other._decided = None
        return other

    def _successor(self, action: str) -> "Race":
        if self.coin is None:
            return self._moved(self.positions, self.turn, action, (Event.of("coin", action),))
        steps = int(action.split()[1])
        positions = tuple(p + steps if seat == self.turn else p for seat, p in enumerate(self.positions))
        return self._moved(positions, 1 - self.turn, None,  # type: ignore[arg-type]
                           (Event.of("step", self.turn, by=steps),))


class InPlaceRace(Race, InPlaceState[str]):
    def _fork(self) -> "InPlaceRace":
        other = InPlaceRace.__new__(InPlaceRace)
        other.__dict__.update(self.__dict__)
        return other

    def _play(self, action: str) -> None:
        if self.coin is None:
            self.coin = action
            self._emit("coin", action)
            return
        steps = int(action.split()[1])
        self.positions = tuple(p + steps if seat == self.turn else p  # type: ignore[assignment]
                               for seat, p in enumerate(self.positions))
        self._emit("step", self.turn, by=steps)
        self.turn, self.coin = 1 - self.turn, None


FORMS = {"immutable": RaceGame(in_place=False), "in-place": RaceGame(in_place=True)}


@pytest.fixture(params=list(FORMS))
def game(request: pytest.FixtureRequest) -> RaceGame:
    return FORMS[request.param]


# ------------------------------------------------------------------ Decision, Outcome, Event
def test_chance_keeps_exact_probabilities_and_samples_at_exact_boundaries() -> None:
    coin = Decision.chance([(HEADS, Fraction(1, 3)), (TAILS, Fraction(2, 3))])
    assert coin.weights == (1, 2) and coin.probabilities == (Fraction(1, 3), Fraction(2, 3))
    assert coin.pick(0.0) == HEADS and coin.pick(0.999999) == TAILS
    just_below = float(Fraction(1, 3))  # the float nearest 1/3 is a hair below it: still heads
    assert Fraction(just_below) < Fraction(1, 3) and coin.pick(just_below) == HEADS
    half = Decision.weighted([("a", 1), ("b", 1)])
    assert half.pick(0.5) == "b" and half.pick(0.49999999999999994) == "a"  # [0, 1/2) is a, [1/2, 1) is b


def test_outcome_returns_split_among_the_winners() -> None:
    assert Outcome("x", (0, 2), (3, 1, 3)).returns() == (0.5, 0.0, 0.5)
    assert Outcome("lost", (), (0,)).returns() == (0.0,)
    assert Outcome("x", (1,), (0, 4)).won_by(1) and not Outcome("x", (1,), (0, 4)).won_by(0)


def test_events_are_plain_data() -> None:
    event = Event.of("consumed", "07", by="11", cards=("01", "02"))
    assert event.get("by") == "11" and event.get("missing", 0) == 0
    assert event.as_data() == {"kind": "consumed", "subject": "07", "by": "11", "cards": ["01", "02"]}


# ------------------------------------------------------------------ states
def test_apply_action_returns_a_new_state_and_refuses_anything_else(game: RaceGame) -> None:
    first = game.new_initial_state()
    assert first.current_player() == CHANCE and first.legal_actions() == [HEADS, TAILS]
    tails = first.apply_action(TAILS)
    assert first.key() == ((0, 0), 0, None) and tails.key() == ((0, 0), 0, TAILS)
    assert tails.events == (Event.of("coin", TAILS),) and tails.history() == [TAILS]
    with pytest.raises(IllegalAction, match=r"step 3 is not a legal action here \(legal: step 1, step 2\)"):
        tails.apply_action("step 3")
    with pytest.raises(IllegalAction):
        first.apply_action("step 1")  # legal elsewhere, not at a chance node
    with pytest.raises(IllegalAction):
        tails.action_from_string("jump")


def test_a_finished_game_has_an_outcome_and_no_moves(game: RaceGame) -> None:
    state = game.new_initial_state()
    for action in [TAILS, "step 2", HEADS, "step 1", TAILS, "step 2", HEADS, "step 1", TAILS, "step 2"]:
        state = state.apply_action(action)
    assert state.positions == (6, 2) and state.is_terminal() and state.current_player() == TERMINAL
    assert state.legal_actions() == [] and state.outcome() == Outcome("reached", (0,), (6, 2))
    assert state.returns() == (1.0, 0.0)
    with pytest.raises(IllegalAction, match="over"):
        state.apply_action(HEADS)


def test_to_data_and_replay_give_back_every_state(game: RaceGame) -> None:
    states = list(play(game.new_initial_state(), random_policy, random.Random(3)))
    data = json.loads(json.dumps(states[-1].to_data()))
    assert data["game"] == "race" and data["setup"] == {"goal": GOAL} and len(data["actions"]) == len(states) - 1
    assert [s.key() for s in replay(game, data)] == [s.key() for s in states]
    assert restore(game, data).events == states[-1].events
    with pytest.raises(IllegalAction, match="cannot be restored"):
        restore(game, {**data, "game": "chess"})
    with pytest.raises(IllegalAction):
        restore(game, {**data, "actions": ["step 2"]})


def test_only_engines_that_allow_it_take_declared_chance_outcomes(game: RaceGame) -> None:
    with pytest.raises(IllegalAction, match="cannot be declared"):
        game.new_initial_state().condition(HEADS)


def test_with_events_false_keeps_successors_free_of_events(game: RaceGame) -> None:
    quiet = game.new_initial_state().with_events(False)
    final = playout(quiet, random_policy, random.Random(1))
    assert final.events == () and not final.recording
    assert final.key() == playout(game.new_initial_state(), random_policy, random.Random(1)).key()


# ------------------------------------------------------------------ the loops
def test_play_stops_when_asked_and_playout_agrees_with_it(game: RaceGame) -> None:
    states = list(play(game.new_initial_state(), random_policy, random.Random(5), max_actions=3))
    assert len(states) == 4
    stopped = list(play(game.new_initial_state(), random_policy, random.Random(5), until=lambda s: s.coin is not None))
    assert len(stopped) == 2 and stopped[-1].coin is not None
    whole = list(play(game.new_initial_state(), random_policy, random.Random(5)))
    fast = playout(game.new_initial_state(), random_policy, random.Random(5))
    assert fast.history() == whole[-1].history() and fast.key() == whole[-1].key()


def test_each_seat_can_play_its_own_policy(game: RaceGame) -> None:
    def far(state: State[str], rng: random.Random) -> str:
        return state.legal_actions()[-1]

    def near(state: State[str], rng: random.Random) -> str:
        return state.legal_actions()[0]

    final = playout(game.new_initial_state(), by_seat([far, near]), random.Random(2))
    steps = [e for s in replay(game, final.to_data()) for e in s.events if e.kind == "step"]
    assert {e.get("by") for e in steps if e.subject == 1} == {1}
    assert 2 in {e.get("by") for e in steps if e.subject == 0}


def test_chance_draws_use_one_number_each() -> None:
    state = RaceGame(in_place=False).new_initial_state()
    rng, twin = random.Random(4), random.Random(4)
    draws = [sample_chance(state, rng) for _ in range(50)]
    assert draws == [HEADS if twin.random() < 1 / 3 else TAILS for _ in range(50)]
