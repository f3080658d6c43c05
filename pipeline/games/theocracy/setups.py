"""Theocracy's engine as the game contract names it: one set-up per player count the rules allow."""
from __future__ import annotations

from functools import partial

from pipeline.engine import SetUp
from pipeline.games.theocracy.engine import Game, State
from pipeline.games.theocracy.model import TheocracyModel


def set_ups(model: TheocracyModel) -> list[SetUp]:
    """A game at each of the model's player counts (the deal is the engine's own chance nodes)."""
    games = [Game.from_model(model, n) for n in model.player_counts]
    return [SetUp(f"{n}p", game, partial(_first_state, game))
            for n, game in zip(model.player_counts, games)]


def _first_state(game: Game, seed: int) -> State:
    """The game's first state (its deal is the engine's own chance nodes: the seed plays no part)."""
    return game.new_initial_state()
