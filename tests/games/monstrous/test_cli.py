"""`pantheon monstrous throw FILE`: text and JSON output, and one clear line on bad input."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import yaml
from typer.testing import CliRunner

from pipeline.cli.main import app

runner = CliRunner()
FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "monstrous" / "throw-harpy-naxos.yaml"


def run(*args: str):
    return runner.invoke(app, ["monstrous", *args])


def said(result) -> str:
    """What the user sees: output, or the UserError the main CLI prints as one line."""
    return result.output + (str(result.exception) if result.exception else "")


def variant(tmp_path: Path, edit) -> Path:
    data = yaml.safe_load(FIXTURE.read_text(encoding="utf-8"))
    edit(data)
    path = tmp_path / "throw.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def test_throw_text() -> None:
    result = run("throw", str(FIXTURE))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Throw 1: blue throws blue-harpy (unique side up)"
    assert "  Step 2 - Trap Monster powers:" in lines and "    orange gains 1 Faith" in lines
    assert "    blue takes 2 Faith from green" in lines
    assert "Faith: blue 7, orange 4, green 2" in lines
    assert lines[-1] == "Stopped: play passes to orange"


def test_throw_json() -> None:
    result = run("throw", str(FIXTURE), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["faith"] == {"blue": 7, "orange": 4, "green": 2}
    assert out["next"] == "orange" and out["throws"] == 1
    steps = [(e["step"], e["event"]) for e in out["events"]]
    assert steps == [("throw", "throw"), ("trap-monster-powers", "gain_faith"), ("monster-powers", "take_faith"),
                     ("location-powers", "draw"), ("gain-faith", "gain_faith"), ("end-turn", "draw"), ("end-turn", "pass")]
    assert out["hands"]["blue"] == ["blue-dragon", "blue-giant", "blue-pegasus"]


def test_missing_choice_is_one_line(tmp_path: Path) -> None:
    path = variant(tmp_path, lambda d: d["throws"][0]["choices"].pop("monster-powers"))
    result = subprocess.run([str(Path(sys.executable).parent / "pantheon"), "monstrous", "throw", str(path)],
                            capture_output=True, text=True)
    assert result.returncode == 1
    assert result.stderr.strip().count("\n") == 0 and "Traceback" not in result.stderr
    assert "monster-powers: blue must choose a god (orange, green)" in result.stderr


def test_schema_error_names_line(tmp_path: Path) -> None:
    path = variant(tmp_path, lambda d: d["throws"][0].update(side="sideways"))
    result = run("throw", str(path))
    assert result.exit_code == 1
    assert f"{path.name}:" in said(result) and "'sideways' is not one of unique, common" in said(result)


def test_card_not_in_hand(tmp_path: Path) -> None:
    path = variant(tmp_path, lambda d: d["throws"][0].update(card="blue-giant"))
    result = run("throw", str(path))
    assert result.exit_code == 1 and "blue-giant is not in blue's hand" in said(result)


def test_bad_state(tmp_path: Path) -> None:
    path = variant(tmp_path, lambda d: d["state"]["hands"].update(orange=["blue-harpy"]))
    result = run("throw", str(path))
    assert result.exit_code == 1 and "card blue-harpy is both in" in said(result)


def test_missing_file(tmp_path: Path) -> None:
    result = run("throw", str(tmp_path / "nope.yaml"))
    assert result.exit_code == 1 and "cannot read file" in said(result)


def test_simulate_json_is_seeded_and_is_the_core_simulate_of_one_variant() -> None:
    args = ("simulate", "--players", "4", "--variant", "team", "--games", "3", "--seed", "7", "--json")
    first, second = run(*args), run(*args)
    assert first.exit_code == 0, said(first)
    data = json.loads(first.output)
    [setup] = data["setups"]
    assert data["game"] == "monstrous" and setup["params"] == {"variant": "team"} and setup["games"] == 3
    wins, faith = setup["seat_wins"], setup["seat_figures"]["final Faith"]
    assert len(wins) == len(faith) == 4
    assert wins[0] == wins[1] and faith[0] == faith[1]  # teammates share their team's result
    assert first.output == second.output
    core = runner.invoke(app, ["simulate", "monstrous", "--players", "4", "--games", "3", "--seed", "7",
                                "--json"])
    assert core.exit_code == 0, core.output
    assert [s for s in json.loads(core.output)["setups"] if s["setup"] == setup["setup"]] == [setup]


def test_simulate_text() -> None:
    result = run("simulate", "--players", "2", "--variant", "young-gods", "--games", "2", "--seed", "1")
    assert result.exit_code == 0, said(result)
    lines = result.output.splitlines()
    assert lines[0].startswith("Monstrous, Young Gods") and "2 players: 2 games, seed 1" in lines[0]
    assert lines[1].startswith("  seat 1 wins ") and ", final Faith " in lines[1] and ", final Faith " in lines[2]


def test_simulate_bad_input_is_one_line() -> None:
    result = run("simulate", "--players", "3", "--variant", "solo")
    assert result.exit_code == 2 and said(result).strip().startswith("error: --variant must be one of standard, epic")
    result = run("simulate", "--players", "5", "--variant", "team")  # a player count the variant does not allow
    assert result.exit_code == 1 and result.output == (
        "error: monstrous: no set-up for 5 players with variant team (player counts: 4, 6, 8, 10)\n"), said(result)
    result = run("simulate", "--players", "3", "--games", "0")  # typer's own range check
    assert result.exit_code == 2 and "'--games': 0 is not in the range x>=1" in said(result)
