"""Who's Your Heavenly Father?'s engine as the game contract names it: one set-up per player count."""
from __future__ import annotations

from functools import partial

from pipeline.engine import SetUp
from pipeline.games.heavenly_father.engine import P_MAX, P_MIN, Game, State
from pipeline.games.heavenly_father.model import HeavenlyFatherModel


def set_ups(model: HeavenlyFatherModel) -> list[SetUp]:
    """A game at each player count the rules' parameters allow."""
    counts = range(model.parameters[P_MIN], model.parameters[P_MAX] + 1)
    return [SetUp(f"{n}p", game, partial(_first_state, game))
            for n, game in ((n, Game.from_model(model, n)) for n in counts)]


def _first_state(game: Game, seed: int) -> State:
    """The game's first state (its deal is the engine's own chance nodes: the seed plays no part)."""
    return game.new_initial_state()
