"""Fixtures for the Theocracy engine tests: the model, games by player count, a driver."""
from __future__ import annotations

from typing import Callable, Optional

import pytest

from pipeline.checks.validate import load_valid_game
from pipeline.games.registry import catalogue
from pipeline.games.theocracy import GAME_ID
from pipeline.games.theocracy.engine import Action, ActionKind, Game, State
from pipeline.games.theocracy.model import TheocracyModel


@pytest.fixture(scope="session")
def theocracy_model() -> TheocracyModel:
    model: TheocracyModel = load_valid_game(catalogue(), GAME_ID).model
    return model


@pytest.fixture(scope="session")
def make_game(theocracy_model: TheocracyModel) -> Callable[[int], Game]:
    return lambda players: Game.from_model(theocracy_model, players)


def roll(value: int) -> Action:
    return Action(ActionKind.ROLL, value)


def bid(value: int) -> Action:
    return Action(ActionKind.BID, value)


def pass_() -> Action:
    return Action(ActionKind.PASS)


def prophesy(kind: str, subject: Optional[int] = None) -> Action:
    return Action(ActionKind.PROPHESY, subject, kind)


def play(state: State, *actions: Action) -> State:
    """Apply ``actions`` in order (each must be legal) and return the state."""
    for action in actions:
        state = state.apply_action(action)
    return state


def quiet_turn(state: State, die: int, bids: tuple[int, ...]) -> State:
    """A turn with the given die and bids (in role order) where nobody prophesies; the winner places on its first free believer."""
    state = play(state, roll(die), *(bid(b) for b in bids), *(pass_() for _ in bids))
    while state.legal_actions() and state.legal_actions()[0].kind is ActionKind.PLACE:
        state = state.apply_action(state.legal_actions()[0])
    return state
