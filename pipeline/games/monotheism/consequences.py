"""What a data edit does to the scenarios, for `pantheon diff`: each scenario's solved status and the
share of its first moves that lose, measured by the solver within a node budget.

A scenario's answer depends on its starting deck and on the engine definitions
of the cards in it (not their names), so those are its inputs: renaming a god,
or editing one that is not in a scenario's deck, does not ask that scenario again.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Optional

from pipeline.data.dataset import GameData
from pipeline.data.gamespec import Question
from pipeline.games.monotheism.engine import Game
from pipeline.games.monotheism.model import MonotheismModel, Scenario
from pipeline.games.monotheism.solver import first_moves, solve

# Node limit of each search (the scenario, then each first move): small enough that a diff of the five
# scenarios takes seconds, not minutes; past it a figure says "limit" or counts the move undecided.
DIFF_NODES = 20_000
SHARE_DIGITS = 3


def consequences(game: GameData[MonotheismModel], *, budget: Optional[int] = None) -> list[Question]:
    """One question per scenario: is it solved, and what share of its first moves lose."""
    model: MonotheismModel = game.model
    if model.cards is None:
        return []
    engine = Game(model.cards)
    nodes = budget or DIFF_NODES
    return [Question(f"scenario {scenario.id}", _inputs(model, scenario), _asker(engine, scenario, nodes))
            for scenario in model.scenarios]


def _inputs(model: MonotheismModel, scenario: Scenario) -> Any:
    assert model.cards is not None
    deities = tuple(_play(model.cards.deities.get(card.ref)) for card in scenario.deities)
    worshipers = tuple(_play(model.cards.worshipers.get(card.ref)) for card in scenario.worshipers)
    return (scenario.deck, deities, worshipers)


def _play(card: Any) -> Any:
    """What of a card's engine definition play depends on: not its name (a renamed god plays the same)."""
    if card is None:
        return None
    return replace(card, name="")


def _asker(engine: Game, scenario: Scenario, nodes: int) -> Any:
    def answer() -> Mapping[str, Any]:
        start = engine.scenario_state(scenario, track_history=False).with_events(False)
        solved = solve(start, max_nodes=nodes)
        moves = first_moves(start, max_nodes=nodes)
        return {
            "status": solved.status,
            "losing first moves": f"{len(moves.losing)} of {moves.total}"
                                  + (f" ({len(moves.undecided)} undecided)" if moves.undecided else ""),
            "losing share": round(moves.losing_share, SHARE_DIGITS),
        }

    return answer
