"""Monotheism's engine as the game contract names it: a deal per worshiper set, and each scenario."""
from __future__ import annotations

from functools import partial

from pipeline.engine import SetUp
from pipeline.games.monotheism.engine import Game, State
from pipeline.games.monotheism.model import MonotheismModel, Scenario
from pipeline.games.monotheism.play import Loaded, deal


def set_ups(model: MonotheismModel) -> list[SetUp]:
    """A shuffled deal (the seed shuffles it) for each worshiper set, then each scenario's fixed deck;
    none without the cards."""
    if model.cards is None:
        return []
    loaded = Loaded(model, Game(model.cards))
    found = [SetUp(f"deal-{s.id}", loaded.game, partial(deal, loaded, s.id)) for s in model.worshiper_sets]
    found += [SetUp(f"scenario-{s.id}", loaded.game, partial(_scenario_state, loaded.game, s)) for s in model.scenarios]
    return found


def _scenario_state(game: Game, scenario: Scenario, seed: int) -> State:
    """The scenario's fixed deck (no seed: nothing is shuffled)."""
    return game.scenario_state(scenario)
