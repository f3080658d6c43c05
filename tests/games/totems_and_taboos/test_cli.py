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


def test_simulate_solo_is_the_core_simulate_of_one_difficulty() -> None:
    args = ("--games", "3", "--seed", "3", "--policy", "simple", "--processes", "1", "--json")
    result = run("simulate-solo", "--difficulty", "hard", *args)
    assert result.exit_code == 0, result.output
    [setup] = json.loads(result.stdout)["setups"]
    assert setup["params"] == {"difficulty": "hard"} and setup["players"] == 1 and setup["games"] == 3
    assert setup["policy"] == "simple" and len(setup["seat_wins"]) == 1
    core = runner.invoke(app, ["simulate", GAME, "--players", "1", *args])
    assert [s for s in json.loads(core.stdout)["setups"] if s["setup"] == setup["setup"]] == [setup]


def test_simulate_solo_bad_difficulty_and_policy() -> None:
    result = run("simulate-solo", "--difficulty", "nightmare", "--games", "5")
    assert result.exit_code == 1 and result.stderr.strip() == (
        "error: totems-and-taboos: no set-up with difficulty nightmare (difficulty: easy, normal, hard)")
    bad = run("simulate-solo", "--games", "3", "--policy", "oracle")
    assert bad.exit_code == 1 and bad.stderr.strip() == (
        "error: totems-and-taboos: unknown policy 'oracle' (known: simple, lookahead)")
