"""The solver and the stored lines on the five rulebook scenarios, and validate's play checks."""
from __future__ import annotations

import functools
from pathlib import Path

import pytest

from pipeline.data.dataset import default_data_root, load_game
from pipeline.games.monotheism import solver
from pipeline.games.monotheism.play import Loaded, load
from pipeline.games.registry import spec as spec_of

SCENARIOS = ("1", "2", "3", "4", "5")


@functools.lru_cache(maxsize=1)
def loaded() -> Loaded:
    return load(load_game(default_data_root(), spec_of("monotheism")))


def _scenario(number: str):
    return next(s for s in loaded().model.scenarios if s.id == number)


@pytest.mark.parametrize("number", SCENARIOS)
def test_solver_wins_and_its_line_verifies(number: str) -> None:
    scenario = _scenario(number)
    result = solver.solve(loaded().game.scenario_state(scenario, track_history=False))
    assert result.status == solver.WIN
    won, reason = solver.verify(loaded().game.scenario_state(scenario), result.line)
    assert won, reason


@pytest.mark.parametrize("number", SCENARIOS)
def test_stored_winning_line_replays_to_a_win(number: str) -> None:
    scenario = _scenario(number)
    assert scenario.winning_line
    won, reason = solver.verify(loaded().game.scenario_state(scenario), scenario.winning_line)
    assert won, reason


def test_a_losing_position_is_proved_lost() -> None:
    scenario = _scenario("1")
    state = loaded().game.scenario_state(scenario, track_history=False)
    doomed = state.apply_action("pick 29")  # #29 eats the Pretender's neighbour ... and the Pretender
    assert doomed.is_terminal() or solver.solve(doomed).status == solver.NO_WIN


def test_limits_are_reported() -> None:
    state = loaded().game.scenario_state(_scenario("4"), track_history=False)
    assert solver.solve(state, max_nodes=5).status == solver.LIMIT


def test_some_first_moves_lose_in_scenario_5() -> None:
    """Scenario 5 decides each first move in a few hundred nodes (scenario 1 needs 50,000 a move)."""
    moves = solver.first_moves(loaded().game.scenario_state(_scenario("5"), track_history=False),
                               max_nodes=5_000)
    assert moves.losing and moves.winning
    assert 0 < moves.losing_share < 1


def test_verify_reports_an_illegal_move() -> None:
    won, reason = solver.verify(loaded().game.scenario_state(_scenario("2")), ["submerge 99"])
    assert won is False and "not legal" in reason


def test_broken_deity_fails_validate_naming_scenario_and_card(data_copy: Path, edit_yaml, validate,
                                                             small_budgets: None) -> None:
    """The stored line's replay names the card (no search: the scenarios' proofs run on small budgets)."""
    def slow_the_veil(data):
        card = next(d for d in data["deities"] if d["id"] == "20")
        card["upright"]["numbers"] = [6, 7]

    edit_yaml(data_copy / "monotheism" / "deities.yaml", slow_the_veil)
    messages = [p.message for p in validate(data_copy, ["monotheism"])]
    broken = [m for m in messages if m.startswith("scenario 3 (When Atlas Falls): the stored winning line")]
    assert broken and "#20 The Veil of Night" in broken[0]


def test_unwinnable_scenario_fails_validate(data_copy: Path, edit_yaml, validate) -> None:
    def doom(data):
        scenario = next(s for s in data["scenarios"] if s["id"] == "5")
        scenario["deck"][0]["cursed"] = 3  # the Pretender now dies at its next curse
        scenario["deck"][1], scenario["deck"][0] = scenario["deck"][0], scenario["deck"][1]

    edit_yaml(data_copy / "monotheism" / "scenarios.yaml", doom)
    messages = [p.message for p in validate(data_copy, ["monotheism"])]
    assert any(m.startswith("scenario 5") and "winning line" in m for m in messages)


def test_a_winnable_trap_is_not_a_puzzle(data_copy: Path, edit_yaml, validate) -> None:
    def wrong_trap(data):
        scenario = next(s for s in data["scenarios"] if s["id"] == "1")
        scenario["losing_first_move"] = ["pick 14", "submerge 2", "place 2"]  # the winning first turn

    edit_yaml(data_copy / "monotheism" / "scenarios.yaml", wrong_trap)
    messages = [p.message for p in validate(data_copy, ["monotheism"])]
    assert any(m.startswith("scenario 1 (Wrath of the Cherubim): is not a real puzzle: the losing_first_move can still win")
               for m in messages), messages


def test_a_trap_must_be_a_whole_first_turn(data_copy: Path, edit_yaml, validate) -> None:
    def half_turn(data):
        next(s for s in data["scenarios"] if s["id"] == "5")["losing_first_move"] = ["submerge 4"]

    edit_yaml(data_copy / "monotheism" / "scenarios.yaml", half_turn)
    messages = [p.message for p in validate(data_copy, ["monotheism"])]
    assert any(m.startswith("scenario 5") and "is not one whole first turn" in m for m in messages)


def test_picking_11_itself_wins_scenario_1() -> None:
    """Rulebook: "A god may grant this power to itself." In scenario 1, #11 (unveiled on top) may take its
    own grant and eat #27 beside it; that first turn can still win (a second idea besides the book's)."""
    start = loaded().game.scenario_state(_scenario("1"), track_history=False).with_events(False)
    assert "pick 11" in start.legal_actions()
    found = solver.after_turn(start, ("pick 11", "submerge 3", "place 1"), max_nodes=50_000)
    assert found is not None and found.status == solver.WIN
    won, reason = solver.verify(start, ("pick 11", "submerge 3", "place 1", *found.line))
    assert won, reason
