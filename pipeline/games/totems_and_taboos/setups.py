"""Totems + Taboos' engine as the game contract names it: every player count, and each solo difficulty."""
from __future__ import annotations

from functools import partial

from pipeline.engine import SetUp
from pipeline.games.totems_and_taboos.engine import Game, State
from pipeline.games.totems_and_taboos.model import TotemsModel

MULTIPLAYER_MAX_ACTIONS = 1_500  # random duels may build for ever: a random game is cut off here


def set_ups(model: TotemsModel) -> list[SetUp]:
    """A multiplayer game at each player count (random play need not end), then a solo game per difficulty."""
    found = []
    for n in range(model.setup.min_players, model.setup.max_players + 1):
        game = Game.multiplayer(model, n)
        found.append(SetUp(f"{n}p", game, partial(_first_state, game),
                           max_actions=MULTIPLAYER_MAX_ACTIONS, must_end=False))
    for difficulty in (d.id for d in model.solo.difficulties):
        game = Game.solo_game(model, difficulty)
        found.append(SetUp(f"solo-{difficulty}", game, partial(_first_state, game)))
    return found


def _first_state(game: Game, seed: int) -> State:
    """The game's first state (its deal is the engine's own chance nodes: the seed plays no part)."""
    return game.new_initial_state()
