"""``pantheon report`` and ``pantheon simulate`` as a user runs them: PDFs read back, same bytes, bad input.

The report of every game and the pool of two processes run as a new process (``run_cli``); the other
commands run in this process (the ``pantheon`` fixture), where a new process would prove nothing more."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from pipeline.analysis.balance import report as reporting
from pipeline.analysis.balance.simulate import summaries, summary_data
from pipeline.analysis.balance.study import load_study
from pipeline.data.dataset import game_ids
from pipeline.data.typography import typographic
from pipeline.games.registry import catalogue
from pipeline.games.registry import spec as spec_of
from tests.conftest import REPO_DATA
from tests.core.cli_helpers import run_cli
from tests.core.docs_helpers import page_texts

GAMES = game_ids(REPO_DATA)
TINY = "2"  # games per set-up: enough to fill every table and chart


@pytest.fixture(scope="module")
def every_report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, str]:
    """Every game's report at a tiny size on one process: the output folder, the JSON, stderr."""
    out = tmp_path_factory.mktemp("reports")
    done = run_cli("report", "--games", TINY, "--seed", "7", "--processes", "1", "--out", str(out), "--json")
    assert done.returncode == 0, done.stderr
    return out, json.loads(done.stdout), done.stderr


def test_every_game_gets_a_readable_report_with_every_section_and_chart(every_report: tuple[Path, dict, str]) -> None:
    out, figures, stderr = every_report
    assert sorted(figures) == GAMES
    for game in GAMES:
        pdf = out / game / "balance-a4.pdf"
        assert f"wrote {pdf}" in stderr or "balance-a4.pdf" in stderr
        subprocess.run(["qpdf", "--check", str(pdf)], check=True, capture_output=True)
        text = " ".join(page_texts(pdf.read_bytes()))
        titles = [figures[game]["title"], "How to read this report", "Outliers"]
        for section in figures[game]["sections"]:
            titles.append(section["title"])
            titles += [item["title"] for item in section["items"]]
        missing = [t for t in titles if " ".join(typographic(t).split()) not in text]  # PDFs print curly quotes
        assert not missing, f"{game}: {missing}"
        charts = [i for s in figures[game]["sections"] for i in s["items"] if i["kind"] in ("bars", "lines")]
        assert charts, f"{game} has no chart"
        outline = [entry.title for entry in PdfReader(str(pdf)).outline if not isinstance(entry, list)]
        assert [typographic(s["title"]) for s in figures[game]["sections"]] == outline[2:]  # curly quotes, as printed


def test_every_simulated_rate_carries_its_interval(every_report: tuple[Path, dict, str]) -> None:
    _, figures, _ = every_report

    def rates(value: object) -> list[dict]:
        if isinstance(value, dict):
            found = [value] if "trials" in value else []
            return found + [r for v in value.values() for r in rates(v)]
        if isinstance(value, list):
            return [r for v in value for r in rates(v)]
        return []

    for game in GAMES:
        found = [r for r in rates(figures[game]) if r["trials"]]
        assert found, game
        assert all(r["low"] <= r["rate"] <= r["high"] for r in found), game


@pytest.mark.parametrize("games", [
    pytest.param(("theocracy", "totems-and-taboos"), id="two-games"),
    pytest.param(tuple(GAMES), id="every-game", marks=pytest.mark.slow),
])
def test_the_same_options_give_the_same_bytes_on_one_process_or_two(every_report: tuple[Path, dict, str],
                                                                     tmp_path: Path, games: tuple[str, ...]) -> None:
    """Every game is slow (Monotheism's scenarios are solved again): two cheap games, and
    test_balance_core's tallies on one process and two, keep the check in `make test`."""
    out, all_figures, _ = every_report
    figures = {game: all_figures[game] for game in games}
    done = run_cli("report", *games, "--games", TINY, "--seed", "7", "--processes", "2", "--out", str(tmp_path), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == figures
    for game in games:
        assert (tmp_path / game / "balance-a4.pdf").read_bytes() == (out / game / "balance-a4.pdf").read_bytes(), game


def test_another_seed_gives_other_figures_and_letter_paper_works(tmp_path: Path, pantheon) -> None:
    first = pantheon("report", "theocracy", "--games", TINY, "--seed", "1", "--out", str(tmp_path), "--json",
                    "--paper", "letter")
    assert first.returncode == 0, first.stderr
    studies = reporting.prepare(REPO_DATA, catalogue(), ["theocracy"], "letter")  # seed 2 through the API the command calls
    second = reporting.as_json(reporting.figures(studies, reporting.Options(int(TINY), 2, "letter", 1)))
    assert json.loads(first.stdout) != json.loads(second)
    box = PdfReader(str(tmp_path / "theocracy" / "balance-letter.pdf")).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)


@pytest.mark.parametrize(("args", "code", "says"), [
    (("report", "nogame"), 1, "unknown game nogame"),
    (("report", "--games", "0"), 2, "'--games': 0 is not in the range x>=1"),
    (("report", "theocracy", "--paper", "a5"), 2, "'a5' is not one of 'a4', 'letter'"),
    (("report", "theocracy", "--processes", "0"), 2, "'--processes': 0 is not in the range x>=1"),
    (("simulate", "nogame"), 1, "unknown game nogame"),
    (("simulate", "theocracy", "--games", "-3"), 2, "'--games': -3 is not in the range x>=1"),
    (("simulate", "theocracy", "--policy", "clever"), 1, "unknown policy 'clever'"),
    (("simulate", "theocracy", "--players", "9"), 1, "no set-up for 9 players"),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path: Path, pantheon, args: tuple[str, ...], code: int,
                                                  says: str) -> None:
    done = pantheon(*args, "--out", str(tmp_path)) if args[0] == "report" else pantheon(*args)
    assert done.returncode == code
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], done.stderr
    assert "Traceback" not in done.stderr and not done.stdout
    assert not any(tmp_path.iterdir())


def test_data_that_does_not_validate_writes_no_report(tmp_path: Path, data_copy: Path, edit_yaml, pantheon) -> None:
    edit_yaml(data_copy / "theocracy" / "components.yaml", lambda d: d.update(bogus=1))
    out = tmp_path / "out"
    done = pantheon("report", "theocracy", "--games", TINY, "--data", str(data_copy), "--out", str(out))
    assert done.returncode == 1
    assert "components.yaml" in done.stdout and "no report written" in done.stderr
    assert not out.exists() or not any(out.rglob("*.pdf"))


def test_simulate_plays_every_game_and_prints_the_standard_figures(pantheon) -> None:
    """Every game's set-ups through the public API (one process: the pool is tested above); Theocracy's through
    the command too, whose JSON is the API's figures and whose text names each seat's wins."""
    for game in GAMES:  # one game per set-up: the report above plays them all at TINY
        found = summaries(load_study(REPO_DATA, spec_of(game)), players=None, policy=None, games=1, seed=3, processes=1)
        assert found, game
        for setup in map(lambda s: summary_data(s, 3), found):
            assert setup["games"] == 1 and len(setup["seat_wins"]) == setup["players"], game
    done = pantheon("simulate", "theocracy", "--games", TINY, "--seed", "3", "--json")
    assert done.returncode == 0, done.stderr
    setups = summaries(load_study(REPO_DATA, spec_of("theocracy")), players=None, policy=None, games=int(TINY), seed=3,
                       processes=1)
    assert json.loads(done.stdout) == {"game": "theocracy", "setups": [summary_data(s, 3) for s in setups]}
    text = pantheon("simulate", "theocracy", "--games", TINY, "--players", "3", "--policy", "greedy")
    assert text.returncode == 0 and text.stdout.startswith("Theocracy, 3 players, greedy: 2 games, seed 0")
    assert "seat 3 wins" in text.stdout and "(" in text.stdout
