"""`pantheon monotheism replay|solve|play` as a user runs them."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pipeline.cli.main import app
from pipeline.data.dataset import load_game
from pipeline.games.registry import spec as spec_of

runner = CliRunner()
PANTHEON = [sys.executable, "-m", "pipeline"]
REPO = Path(__file__).resolve().parents[3]


def _run(*args: str):
    return runner.invoke(app, ["monotheism", *args])


@pytest.mark.parametrize("number", ["1", "5"])
def test_solve_json_wins(number: str) -> None:
    """The two scenarios solved in a few thousand nodes (test_solver_wins_and_its_line_verifies solves all five)."""
    result = _run("solve", number, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["scenario"] == number and report["status"] == "win" and report["line"]
    assert set(report) == {"scenario", "status", "line", "nodes", "seconds"}


def test_solve_limit() -> None:
    report = json.loads(_run("solve", "4", "--json", "--max-nodes", "3").output)
    assert report["status"] == "limit" and report["line"] == []


def test_replay_text_and_json() -> None:
    text = _run("replay", "3")
    assert text.exit_code == 0 and "WIN: monotheism" in text.output
    report = json.loads(_run("replay", "5", "--json").output)
    assert report["outcome"]["won"] is True and report["steps"][0]["action"] == "submerge 2"


def _stderr_line(*args: str) -> tuple[int, str]:
    done = subprocess.run([*PANTHEON, "monotheism", *args], capture_output=True, text=True, cwd=REPO)
    assert "Traceback" not in done.stderr
    return done.returncode, done.stderr.strip()


def test_unknown_scenario_is_one_clear_line() -> None:
    code, err = _stderr_line("solve", "9")
    assert code == 1 and err == "error: unknown scenario '9' (known: 1, 2, 3, 4, 5)"


def test_malformed_file_names_line_and_column(tmp_path: Path) -> None:
    bad = tmp_path / "puzzle.yaml"
    bad.write_text("id: x\ntitle: Mine\ncard_count: 2\ndeck:\n  - deity: \"07\"\n  - worshiper: haruspex\n    cursed: lots\n")
    code, err = _stderr_line("solve", "--file", str(bad))
    assert code == 1 and err.startswith("error: ") and "puzzle.yaml:7:" in err and "\n" not in err


def test_file_with_unknown_card(tmp_path: Path) -> None:
    bad = tmp_path / "puzzle.yaml"
    bad.write_text("id: x\ntitle: Mine\ncard_count: 2\ndeck:\n  - deity: \"77\"\n  - worshiper: haruspex\n")
    code, err = _stderr_line("solve", "--file", str(bad))
    assert code == 1 and "puzzle.yaml:5:5" in err and "#77" in err


def test_solve_a_designers_file(tmp_path: Path) -> None:
    puzzle = tmp_path / "puzzle.yaml"
    puzzle.write_text("id: mine\ntitle: Two gods\ncard_count: 3\ndeck:\n  - worshiper: haruspex\n"
                      "  - deity: \"14\"\n  - deity: \"10\"\n    veiled: true\n")
    report = json.loads(_run("solve", "--file", str(puzzle), "--json").output)
    assert report["scenario"] == "mine" and report["status"] in ("win", "no-win")


def _play(*args: str, moves: str) -> subprocess.CompletedProcess:
    return subprocess.run([*PANTHEON, "monotheism", "play", *args], input=moves, capture_output=True,
                          text=True, cwd=REPO, timeout=60)


def _play_in_process(*args: str, moves: str) -> Any:
    """``play`` with ``moves`` typed in, in this process (the tests of its exit codes and errors run it as a user does)."""
    return runner.invoke(app, ["monotheism", "play", *args], input=moves)


def test_play_hides_veiled_cards_and_undoes() -> None:
    done = _play_in_process("--seed", "3", moves="4\n1\nu\nq\n")
    assert done.exit_code == 0, done.output
    assert "27 veiled gods" in done.output and "#26 The Hourglass" in done.output
    assert "Goodbye." in done.output
    assert "#11" not in done.output.split("place 1")[0]  # unknown until it reaches the top


def test_play_a_scenario_to_the_end() -> None:
    line = ["submerge 2", "place 1", "submerge 2", "place 2", "submerge 4", "place 4", "submerge 2", "place 1",
            "pick 01"]
    done = _play_in_process("--scenario", "5", moves="\n".join(line) + "\n")
    assert done.exit_code == 0, done.output
    assert "You win" in done.output


def test_play_bad_move_is_one_line_and_exit_1() -> None:
    done = _play("--seed", "1", moves="9\n")
    assert done.returncode == 1 and done.stderr.strip().startswith("error: not a move here")


def test_play_keys_are_numbers_not_list_positions() -> None:
    """Seed 3 offers submerge 4 or 6: '2' must not silently mean the second choice."""
    done = _play("--seed", "3", moves="2\n")
    assert done.returncode == 1 and "type one of 4, 6" in done.stderr


def test_play_end_of_input_says_goodbye() -> None:
    done = _play("--seed", "3", moves="")
    assert done.returncode == 0 and done.stdout.rstrip().endswith("Goodbye.") and "Traceback" not in done.stderr


def test_play_interactive_bad_input_reprompts_without_redrawing() -> None:
    from pipeline.data.dataset import default_data_root
    from pipeline.games.monotheism.play import deal, load, run

    loaded = load(load_game(default_data_root(), spec_of("monotheism")))
    answers = iter(["2", "#4", "u", "u", "nonsense"])
    said: list[str] = []
    assert run(deal(loaded, "haruspex-of-scriptures", 3), lambda _: next(answers, None), said.append,
               interactive=True) is None
    text = "\n".join(said)
    assert "not a move here: '2' (type one of 4, 6; or u, d, h, q)" in text
    assert "Submerging 4 cards" in text and "Nothing to undo yet." in text
    assert text.count("Deck, top first") == 3  # start, after '#4', after the undo: never after a bad answer
    assert said[-1] == "Goodbye."


@pytest.mark.parametrize("answer, expected", [("07", "pick 07"), ("7", "pick 07"), ("#07", "pick 07"),
                                              ("pick 07", "pick 07"), ("n", "decline"), ("no", "decline"),
                                              ("haruspex", "pick haruspex"), ("1", None), ("3", None)])
def test_play_parse(answer: str, expected) -> None:
    from pipeline.games.monotheism.play import parse

    assert parse(answer, ["decline", "pick 07", "pick 12", "pick haruspex"]) == expected


def test_play_unknown_set() -> None:
    code, err = _stderr_line("play", "--set", "druids")
    assert code == 1 and "unknown worshiper set 'druids'" in err
