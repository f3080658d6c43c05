"""`pantheon theocracy bid` and `simulate`, through the project's CLI."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from pipeline.cli.main import app

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, ["theocracy", *args])


@pytest.mark.parametrize(
    "bids, winner, rule",
    [
        (["1", "2", "4", "5"], None, "ouroboros"),
        (["4", "4", "1", "5"], 2, "one-beats-five"),
        (["2", "3", "4", "5"], 3, "higher-card"),
        (["1", "1", "1", "3"], 3, "ruin"),
        (["2", "2", "3", "3"], None, "ruin-void"),
        (["4", "4", "2"], 2, "ruin"),
        (["1", "5", "3"], None, "ouroboros"),
        (["1", "5"], 0, "one-beats-five"),
    ],
)
def test_bid_json(bids: list[str], winner, rule: str) -> None:
    result = run("bid", *bids, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"winner": winner, "rule": rule}


def test_bid_text() -> None:
    assert run("bid", "1", "3", "4", "5").stdout.strip() == "draw (ouroboros)"
    assert run("bid", "4", "4", "2").stdout.strip() == "seat 2 wins (ruin)"


@pytest.mark.parametrize(
    "bids, message",
    [
        (["1", "6"], "bid 6 is not a power card value"),
        (["0", "3"], "bid 0 is not a power card value"),
        (["-1", "3"], "bid -1 is not a power card value"),
        (["x", "3"], "bid 'x' is not a whole number"),
        (["3"], "give 2 to 4 bids"),
        (["1", "2", "3", "4", "5"], "give 2 to 4 bids"),
    ],
)
def test_bid_bad_input_is_one_line(bids: list[str], message: str) -> None:
    result = run("bid", *bids)
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]


def test_simulate_is_the_core_simulate() -> None:
    args = ("--players", "3", "--games", "20", "--seed", "4", "--policy", "greedy", "--processes", "1", "--json")
    result = run("simulate", *args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    [setup] = report["setups"]
    assert report["game"] == "theocracy" and setup["players"] == 3 and setup["games"] == 20
    assert setup["policy"] == "greedy" and len(setup["seat_wins"]) == 3
    assert set(setup["endings"]) <= {"transcendence", "fate"}
    core = runner.invoke(app, ["simulate", "theocracy", *args])
    assert core.exit_code == 0 and core.stdout == result.stdout  # one path: the same set-up, seeds and figures


def test_simulate_text_is_reproducible() -> None:
    first = run("simulate", "--players", "2", "--games", "15", "--seed", "9", "--processes", "1")
    assert first.exit_code == 0 and "seat 1 wins" in first.stdout and "length:" in first.stdout
    assert run("simulate", "--players", "2", "--games", "15", "--seed", "9", "--processes", "1").stdout == first.stdout


@pytest.mark.parametrize("args, code, message", [
    (["--players", "5"], 1, "no set-up for 5 players (player counts: 2, 3, 4)"),
    (["--policy", "clever"], 1, "unknown policy 'clever' (known: random, greedy)"),
    (["--games", "0"], 2, "'--games': 0 is not in the range x>=1"),
])
def test_simulate_bad_input(args: list[str], code: int, message: str) -> None:
    result = run("simulate", *args)
    assert result.exit_code == code and message in result.stderr
    if code == 1:  # ours: one line (typer's usage errors, exit 2, come with its usage lines)
        assert len(result.stderr.strip().splitlines()) == 1
