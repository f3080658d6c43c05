"""`pantheon heavenly-father score`: scores, winners and one-line errors."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from pipeline.cli.main import app

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, ["heavenly-father", "score", *args])


def test_score_text() -> None:
    result = run("country-club-god", "ana=4,2,5,3", "ben=3,3,3,3")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "One True God: Country Club God"
    assert lines[1].split() == ["ana", "1"] and lines[2].split() == ["ben", "3"]
    assert lines[-1] == "winner: ben"


def test_score_json_with_a_tie() -> None:
    result = run("country-club-god", "a=1,0,0,0", "b=0,1,0,0", "c=0,0,1,0", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["god"] == "country-club-god"
    assert [(p["name"], p["score"]) for p in data["players"]] == [("a", 1), ("b", 1), ("c", -1)]
    assert data["winners"] == ["a", "b"]
    assert data["players"][0]["tokens"] == {"selfishness": 1, "xenophobia": 0, "benevolence": 0, "justice": 0}


def test_tied_text_says_so() -> None:
    assert run("referee-god", "a=0,0,1,1", "b=0,0,2,0").output.splitlines()[-1] == "winners (tied): a, b"


@pytest.mark.parametrize("args, fragment", [
    (("zeus", "a=1,1,1,1", "b=1,1,1,1"), "no god 'zeus'"),
    (("country-club-god", "a=1,1,1", "b=1,1,1,1"), "player a: '1,1,1' is not NAME=S,X,B,J"),
    (("country-club-god", "a=1,x,1,1", "b=1,1,1,1"), "player a: '1,x,1,1' is not NAME=S,X,B,J"),
    (("country-club-god", "a:1,1,1,1", "b=1,1,1,1"), "'a:1,1,1,1' is not NAME=S,X,B,J"),
    (("country-club-god", "a=1,-2,1,1", "b=1,1,1,1"), "player a: token counts cannot be negative (-2 Xenophobia)"),
    (("country-club-god", "a=1,1,1,1", "a=2,2,2,2"), "player name given twice: a"),
    (("country-club-god", "a=1,1,1,1"), "give 2 to 6 players"),
    ((), "give GOD_ID"),
])
def test_bad_input_is_one_line(args: tuple[str, ...], fragment: str) -> None:
    result = run(*args)
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line]
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0], result.output
    assert "Traceback" not in result.output
