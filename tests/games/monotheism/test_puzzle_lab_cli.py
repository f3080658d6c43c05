"""`pantheon monotheism generate|rate|add` as a designer runs them, bad scenario files, and what validate
checks of ratings and of solver limits."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from pipeline import store
from pipeline.cli.main import app
from pipeline.data.dataset import default_data_root, load_game
from pipeline.games.monotheism import SOLVER_NAMESPACE, deck_checks, rating, solver
from pipeline.games.monotheism.play import load, scenario_from_file
from pipeline.games.registry import spec as spec_of

runner = CliRunner()
PANTHEON = [sys.executable, "-m", "pipeline"]
REPO = Path(__file__).resolve().parents[3]
GENERATE = ["generate", "--cards", "5", "--count", "2", "--seed", "3"]  # five cards: rated in well under a second


def _run(*args: str) -> Any:
    return runner.invoke(app, ["monotheism", *args])


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*PANTHEON, "monotheism", *args], capture_output=True, text=True, cwd=REPO)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("puzzles")
    result = _run(*GENERATE, "--out", str(out), "--processes", "1")
    assert result.exit_code == 0, result.output
    return out


def _bytes(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.glob("*.yaml"))}


# ------------------------------------------------------------------ generate
def test_generate_is_deterministic_per_seed_and_process_count(generated: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    result = _run(*GENERATE, "--out", str(again), "--processes", "2")
    assert result.exit_code == 0, result.output
    assert _bytes(again) == _bytes(generated) and len(_bytes(generated)) == 2
    other = tmp_path / "other"
    _run(*GENERATE[:-1], "4", "--out", str(other), "--processes", "1")
    assert set(_bytes(other).values()).isdisjoint(_bytes(generated).values())


def test_generated_scenarios_are_reproved_from_their_files(generated: Path) -> None:
    loaded = load(load_game(default_data_root(), spec_of("monotheism")))
    for path in sorted(generated.glob("*.yaml")):
        scenario = scenario_from_file(path, default_data_root(), loaded)
        assert scenario.rating is not None and scenario.losing_first_move
        won, reason = solver.verify(loaded.game.scenario_state(scenario), scenario.winning_line)
        assert won, reason
        start = loaded.game.scenario_state(scenario, track_history=False)
        assert solver.after_turn(start, scenario.losing_first_move).status == solver.NO_WIN
        report = json.loads(_run("rate", "--file", str(path), "--json", "--processes", "1").output)
        assert report["status"] == "win" and report["matches_stored"] is True
        assert report["difficulty"] == scenario.rating.difficulty


def test_generate_never_repeats_a_deck_already_in_the_folder(generated: Path, tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    first = sorted(generated.glob("*.yaml"))[0]
    shutil.copy(first, folder / "kept-by-hand.yaml")
    result = _run("generate", "--cards", "5", "--count", "1", "--seed", "3", "--out", str(folder), "--processes", "1")
    assert result.exit_code == 0, result.output
    written = _bytes(folder)
    assert first.name not in written and "1 duplicate" in result.output
    decks = [json.dumps(yaml.safe_load(data)["deck"]) for data in written.values()]
    assert len(decks) == len(set(decks)) == 2


def test_generate_asks_for_a_band_and_says_when_it_falls_short(tmp_path: Path) -> None:
    result = _run("generate", "--cards", "5", "--count", "1", "--seed", "1", "--difficulty", "hard",
                  "--attempts", "3", "--out", str(tmp_path), "--processes", "1")
    assert result.exit_code == 1 and "found 0 of the 1 puzzles" in result.stderr
    assert "3 decks drawn:" in result.output
    bad = _cli("generate", "--difficulty", "fiendish", "--out", str(tmp_path))
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


# ------------------------------------------------------------------ add, and what the documents print
def test_add_numbers_rates_and_prints_a_generated_scenario(generated: Path, data_copy: Path) -> None:
    first = sorted(generated.glob("*.yaml"))[0]
    result = _run("add", str(first), "--data", str(data_copy), "--processes", "1")
    assert result.exit_code == 0, result.output
    data = yaml.safe_load((data_copy / "monotheism" / "scenarios.yaml").read_text())
    added = data["scenarios"][-1]
    assert added["number"] == 6 and added["provenance"]["source"] == "authored" and added["rating"]["difficulty"]
    again = _run("add", str(first), "--data", str(data_copy), "--processes", "1")
    assert again.exit_code == 1 and "the same deck is already scenario 6" in again.stderr
    from tests.core.docs_helpers import page_texts, render_game
    docs = render_game(data_copy, "monotheism")
    assert f"Scenario 6: {added['title']}" in " ".join(page_texts(docs["rulebook"][0]))
    book = " ".join(page_texts(docs["puzzles"][0]))
    assert "6 puzzles" in book and f"Puzzle 6: {added['title']}" in book
    assert f"Difficulty: {added['rating']['difficulty']}" in book


# ------------------------------------------------------------------ bad scenario files
HEAD = "id: mine\ntitle: Mine\ncard_count: {count}\ndeck:\n"
GOOD_TOP = '  - deity: "10"\n    veiled: true\n'
BAD_FILES = {
    "unknown card": (HEAD.format(count=3) + '  - worshiper: haruspex\n  - deity: "77"\n' + GOOD_TOP, 6, "#77"),
    "two worshipers of two sets": (HEAD.format(count=4) + '  - worshiper: haruspex\n  - worshiper: poet\n'
                                   '  - deity: "14"\n' + GOOD_TOP, 5, "several sets"),
    "one worshiper twice": (HEAD.format(count=4) + '  - worshiper: haruspex\n  - worshiper: haruspex\n'
                            '  - deity: "14"\n' + GOOD_TOP, 6, "already in the deck"),
    "empty deck": (HEAD.format(count=2) + "  []\n", 5, "deck"),
    "no deck at all": ("id: mine\ntitle: Mine\ncard_count: 2\n", 1, "deck"),
    "top not veiled": (HEAD.format(count=3) + '  - worshiper: haruspex\n  - deity: "14"\n  - deity: "10"\n', 7,
                       "must be a veiled god"),
    "wrong count": (HEAD.format(count=9) + '  - worshiper: haruspex\n  - deity: "14"\n' + GOOD_TOP, 3,
                    "stated card count 9"),
    "cursed too often": (HEAD.format(count=3) + '  - worshiper: haruspex\n    cursed: 2\n  - deity: "14"\n' + GOOD_TOP,
                         6, "cursed 2 times"),
    "not yaml": (HEAD.format(count=3) + '  - worshiper: [haruspex\n', 5, "["),  # named where the bracket opened
}


def _bad_file_args(case: str, command: str, tmp_path: Path) -> list[str]:
    text = BAD_FILES[case][0]
    bad = tmp_path / "puzzle.yaml"
    bad.write_text(text)
    if command != "add":
        return ["monotheism", command, "--file", str(bad)]
    shutil.copytree(default_data_root(), tmp_path / "nowhere")
    return ["monotheism", "add", str(bad), "--data", str(tmp_path / "nowhere")]


def _refusal_ok(case: str, message: str) -> None:
    _, line, words = BAD_FILES[case]
    message = message.strip()
    assert "\n" not in message and f"puzzle.yaml:{line}:" in message and words in message, message


@pytest.mark.parametrize("case", sorted(BAD_FILES))
@pytest.mark.parametrize("command", ["solve", "rate", "add"])
def test_bad_scenario_files_are_refused_with_file_and_line(case: str, command: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Run in process through the app's own ending (exit code and stderr line as a user gets them);
    test_a_bad_scenario_file_run_as_a_user_ends_in_one_line runs one case per command in a real process."""
    with pytest.raises(SystemExit) as ended:
        app(_bad_file_args(case, command, tmp_path))
    err = capsys.readouterr().err
    assert ended.value.code == 1 and "Traceback" not in err
    _refusal_ok(case, err)


@pytest.mark.parametrize("command", ["solve", "rate", "add"])
def test_a_bad_scenario_file_run_as_a_user_ends_in_one_line(command: str, tmp_path: Path) -> None:
    done = subprocess.run([*PANTHEON, *_bad_file_args("unknown card", command, tmp_path)], capture_output=True,
                          text=True, cwd=REPO)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    _refusal_ok("unknown card", done.stderr)


# ------------------------------------------------------------------ validate: ratings and limits
def test_a_rating_whose_band_does_not_follow_is_refused(data_copy: Path, edit_yaml, validate) -> None:
    def rate_wrongly(data):
        data["scenarios"][4]["rating"] = {"difficulty": "easy", "nodes": 5, "first_moves": 12, "winning_first_moves": 2,
                                          "losing_first_moves": 10, "losing_share": 0.5, "solution_turns": 5,
                                          "no_win_within": 4, "branching": 7.4, "most_choices": 12}

    edit_yaml(data_copy / "monotheism" / "scenarios.yaml", rate_wrongly)
    messages = [p.message for p in validate(data_copy, ["monotheism"])]
    assert any("losing_share 0.5 should be 0.833" in m for m in messages), messages
    assert any("difficulty 'easy' does not follow from the figures" in m for m in messages)


def test_an_added_scenario_needs_a_number_after_the_rulebooks_and_a_rating(data_copy: Path, edit_yaml,
                                                                           validate) -> None:
    def add_bare(data):
        extra = dict(data["scenarios"][4], id="extra", number=3, title="Extra", provenance={"source": "authored"})
        del extra["rating"]
        data["scenarios"].append(extra)

    edit_yaml(data_copy / "monotheism" / "scenarios.yaml", add_bare)
    messages = [p.message for p in validate(data_copy, ["monotheism"])]
    assert any("number 3 is the rulebook's scenario" in m for m in messages), messages
    assert any("an added scenario needs its rating" in m for m in messages)


def test_a_sound_scenario_is_proved_by_its_stored_line_without_a_search(monkeypatch, tmp_path: Path) -> None:
    """The replay proves the shipped scenario winnable: a solver budget of 10 nodes changes nothing and
    nothing is stored. A line that no longer wins is searched, and a search cut by its limit says undecided."""
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(deck_checks, "SOLVE_NODES", 10)
    loaded = load(load_game(default_data_root(), spec_of("monotheism")))
    scenario = loaded.model.scenario(3)
    assert deck_checks.scenario_play_findings(loaded.game, scenario) == []
    assert not list((tmp_path / SOLVER_NAMESPACE).glob("*.json"))
    cut = scenario._replace(winning_line=scenario.winning_line[:2])
    findings = deck_checks.scenario_play_findings(loaded.game, cut)
    messages = [message for _, message in findings]
    assert any(m.startswith("the stored winning line does not win") for m in messages), messages
    assert any("undecided: the solver reached its limit of 10 nodes" in m for m in messages), messages




def test_rate_write_stores_the_measured_rating_in_place(data_copy: Path, edit_yaml, validate) -> None:
    """validate no longer searches for a stored rating's node count; `rate N` names the figures that differ and
    `rate N --write` stores them, changing only the rating's lines (the comment above them stays)."""
    path = data_copy / "monotheism" / "scenarios.yaml"
    original = path.read_text(encoding="utf-8")
    stale = original.replace("      nodes: 1486\n", "      nodes: 5\n", 1)
    assert stale != original
    path.write_text("# kept by the designer\n" + stale, encoding="utf-8")
    assert validate(data_copy, ["monotheism"]) == []  # the node count is a measured figure: rate's to check
    shown = CliRunner().invoke(app, ["monotheism", "rate", "5", "--data", str(data_copy)])
    assert shown.exit_code == 0, shown.output
    assert "differ from the rating stored with the scenario (nodes)" in shown.output
    assert "stored trap  submerge 4, place 1: proved lost" in shown.output
    written = CliRunner().invoke(app, ["monotheism", "rate", "5", "--write", "--data", str(data_copy)])
    assert written.exit_code == 0, written.output
    assert path.read_text(encoding="utf-8") == "# kept by the designer\n" + original
    assert validate(data_copy, ["monotheism"]) == []


def test_a_rating_claims_no_more_than_its_search_proved(data_copy: Path, edit_yaml, validate) -> None:
    """no_win_within must stay below the stored line's turns, and a band the fewest turns leave open
    (easy at 2 turns, not at 5) is refused rather than stored."""
    def overclaim(data):
        data["scenarios"][1]["rating"]["no_win_within"] = 7  # scenario 2's line takes 7 turns

    def open_band(data):
        rating = data["scenarios"][1]["rating"]
        rating.update(winning_first_moves=1, losing_first_moves=7, losing_share=0.875, no_win_within=1,
                      difficulty="medium")

    path = data_copy / "monotheism" / "scenarios.yaml"
    edit_yaml(path, overclaim)
    messages = [p.message for p in validate(data_copy, ["monotheism"])]
    assert any("no_win_within 7 says no line of that many turns wins, yet the solution takes 7" in m
               for m in messages), messages
    edit_yaml(path, lambda data: data["scenarios"][1]["rating"].update(no_win_within=6))
    edit_yaml(path, open_band)
    messages = [p.message for p in validate(data_copy, ["monotheism"])]
    assert any("difficulty 'medium' is not proved: the fewest turns, between 2 and 7" in m for m in messages), messages


def test_a_band_is_given_only_when_both_ends_of_the_fewest_turns_agree() -> None:
    assert rating.band(4, 15, 20, 10.4, at_least=12) == rating.MEDIUM  # 4 winning first moves: never easy or hard
    assert rating.band(6, 15, 20, 3.0, at_least=3) == rating.EASY      # a third of the first moves win
    assert rating.band(1, 15, 20, 8.0, at_least=3) is None             # medium at 3 turns, hard at 20
    assert rating.band(3, 15, 9, 8.0, at_least=2) is None              # easy at 2 turns, medium at 9
    assert rating.band(1, 15, 5, 8.0) == rating.HARD                   # the shortest proved: one end


@pytest.mark.parametrize("number", ["2", "3", "5"])
def test_a_cut_short_breadth_first_search_proves_no_win_within_its_turns(number: str) -> None:
    """Against the full search: at every budget, the turns it searched to the end lie below the fewest turns
    that win, and when it finds a line the turns before it are proved empty."""
    loaded = load(load_game(default_data_root(), spec_of("monotheism")))
    scenario = next(s for s in loaded.model.scenarios if s.id == number)
    start = loaded.game.scenario_state(scenario, track_history=False).with_events(False)
    full = solver.shortest_line(start)
    assert full.status == solver.WIN
    fewest = len(rating.turns_of(start, full.line))
    assert full.no_win_within == fewest - 1
    for budget in (1, 50, 500, 5_000):
        cut = solver.shortest_line(start, max_nodes=budget)
        assert cut.no_win_within < fewest
        assert cut.status == solver.WIN or cut.status == solver.LIMIT
        assert cut.status == solver.LIMIT or len(rating.turns_of(start, cut.line)) == fewest


def test_rate_names_a_solution_it_could_not_prove_shortest() -> None:
    """Scenario 1's fewest turns are beyond the breadth-first budget: rate says which line it counts and how
    many turns it searched, and still proves the band (its winning first moves rule out easy and hard)."""
    shown = _run("rate", "1")
    assert shown.exit_code == 0, shown.output
    assert "difficulty   medium" in shown.output
    assert "turns (the shortest found; no line of 11 turns or fewer wins)" in shown.output
