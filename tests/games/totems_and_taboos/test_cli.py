"""`pantheon totems-and-taboos can-build` and `simulate-solo`: output, JSON and one-line errors."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from pipeline.cli.main import app

runner = CliRunner()
GAME = "totems-and-taboos"


def run(*args: str):
    return runner.invoke(app, [GAME, *args])


def test_can_build_yes_and_no() -> None:
    result = run("can-build", "--tower", "blue", "--shrines", "2", "--servants", "1", "--block", "purple")
    assert result.exit_code == 0 and result.stdout.startswith("yes: level II")
    result = run("can-build", "--tower", "blue", "--shrines", "2", "--servants", "1", "--block", "red", "--json")
    assert json.loads(result.stdout) == {
        "can_build": False, "reason": "a red block cannot go on blue: only green, blue, purple (same or adjacent colour)"}


def test_can_build_reports_missing_shrines_and_servants() -> None:
    result = run("can-build", "--tower", "blue,blue", "--shrines", "3", "--servants", "2", "--block", "blue", "--json")
    assert json.loads(result.stdout)["reason"] == "level III needs 4 shrines, you have 3"
    result = run("can-build", "--tower", "blue,blue", "--shrines", "4", "--servants", "1", "--block", "blue", "--json")
    assert json.loads(result.stdout)["reason"] == "level III needs 2 available servants, you have 1"


def test_can_build_on_an_empty_tower() -> None:
    result = run("can-build", "--tower", "", "--shrines", "0", "--servants", "0", "--block", "orange", "--json")
    assert json.loads(result.stdout)["can_build"] is True


def test_bad_input_is_one_line() -> None:
    for args in (["--tower", "blue,pink", "--shrines", "1", "--servants", "1", "--block", "red"],
                 ["--tower", "blue", "--shrines", "-1", "--servants", "1", "--block", "red"]):
        result = run("can-build", *args)
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("error: ")


def test_simulate_solo_json() -> None:
    result = run("simulate-solo", "--difficulty", "hard", "--games", "5", "--seed", "3", "--json")
    data = json.loads(result.stdout)
    assert data["games"] == 5 and data["wins"] + data["losses"] + data["unfinished"] == 5
    assert 0 <= data["win_share"] <= 1 and data["mean_turns"] >= 1


def test_simulate_solo_is_seeded() -> None:
    args = ("simulate-solo", "--difficulty", "easy", "--games", "4", "--seed", "9")
    assert run(*args).stdout == run(*args).stdout


def test_simulate_solo_bad_difficulty() -> None:
    result = run("simulate-solo", "--difficulty", "nightmare", "--games", "5")
    assert result.exit_code == 2 and result.stderr.strip() == (  # a usage error
        "error: --difficulty must be one of easy, normal, hard, got 'nightmare'")


def test_simulate_solo_policy_choice() -> None:
    result = run("simulate-solo", "--difficulty", "easy", "--games", "3", "--seed", "5", "--policy", "lookahead", "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["policy"] == "lookahead" and data["games"] == 3
    bad = run("simulate-solo", "--games", "3", "--policy", "oracle")
    assert bad.exit_code == 2 and bad.stderr.strip() == "error: --policy must be one of simple, lookahead, got 'oracle'"


def test_simulate_solo_start_colour() -> None:
    result = run("simulate-solo", "--difficulty", "easy", "--games", "2", "--seed", "5", "--start-colour", "Red",
                 "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["start_colour"] == "red" and data["games"] == 2
    bad = run("simulate-solo", "--games", "2", "--start-colour", "pink")
    assert bad.exit_code == 1 and bad.stderr.strip().startswith("error: --start-colour 'pink' is not a colour")
