"""`pantheon diff --balance`: a changed game's balance figures before and after, with the changes tested."""
from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest

from pipeline.analysis.balance.findings import Section, Table
from pipeline.analysis.balance.stats import Mean, Rate
from pipeline.analysis.diff import balance as balancing
from pipeline.analysis.diff.compare import compare
from pipeline.analysis.diff.sources import folder
from pipeline.data.dataset import default_data_root
from pipeline.games.registry import catalogue, registered
from tests.core.cli_helpers import copy_toy, run_cli
from tests.core.pdf_text import page_texts
from tests.core.toy_game import SPEC as TOY_SPEC

TINY = "6"  # games per set-up: enough for an edited god to move the figures, quick on a loaded machine
HEAVENLY_TINY = "2"  # Heavenly Father's games are short: two per set-up already move the edited cards
ZELDA = "    kind: prophet\n    name: Madame Zelda, Psychic Hotline\n"  # two philosophers of different kinds, whose
MYTH_BUSTER = "    kind: skeptic\n    name: The Myth-Buster\n"  # powers are their kind's (philosopher-kinds.yaml)
TIDEKEEPER = ("numbers: [6, 2]\n      aspects: [moon]\n      act:\n        if: {next_to_aspect: moon}\n        do:\n"
              "          - move: {target: {next: true}, to: bottom}")  # deity 06's upright half: in no scenario's deck


def _copy(tmp_path: Path, game: str, name: str) -> Path:
    """A data root holding the schemas and one game (the side of a diff)."""
    source = default_data_root()
    root = tmp_path / name
    shutil.copytree(source / "schemas", root / "schemas")
    shutil.copytree(source / game, root / game)
    return root


def _edit(path: Path, old: str, new: str) -> None:  # every occurrence
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture
def monotheism_sides(tmp_path: Path) -> tuple[Path, Path]:
    """Monotheism before and after an edit of a card the games play (a god's first number, 6 to 3)."""
    old = _copy(tmp_path, "monotheism", "a")
    new = _copy(tmp_path, "monotheism", "b")
    assert (new / "monotheism" / "deities.yaml").read_text(encoding="utf-8").count(TIDEKEEPER) == 1
    _edit(new / "monotheism" / "deities.yaml", TIDEKEEPER, TIDEKEEPER.replace("[6, 2]", "[3, 2]"))
    return old, new


def test_z_scores() -> None:
    # 50/100 against 70/100: pooled rate 0.6, spread sqrt(0.24 * 0.02)
    assert balancing.z_score(Rate(50, 100), Rate(70, 100)) == pytest.approx(0.2 / math.sqrt(0.24 * 0.02))
    assert balancing.z_score(Rate(5, 10), Rate(5, 10)) == 0.0
    assert balancing.z_score(Rate(0, 0), Rate(1, 2)) is None
    # means 2 (values 1, 3) and 4 (values 3, 5): variances 2 each, spread sqrt(2/2 + 2/2)
    assert balancing.z_score(Mean(2, 4.0, 10.0), Mean(2, 8.0, 34.0)) == pytest.approx(2 / math.sqrt(2))
    assert balancing.z_score(Mean(2, 2.0, 2.0), Mean(2, 4.0, 8.0)) == math.inf  # no spread: certain
    assert balancing.z_score(Rate(1, 2), Mean(2, 4.0, 10.0)) is None
    assert balancing.FigureChange("k", "l", Rate(50, 100), Rate(60, 100)).p_value == pytest.approx(0.1552, abs=1e-4)  # z 1.42


def test_significance_is_corrected_for_the_number_of_figures_holm() -> None:
    """Alone, a change at p 0.02 is significant at 5%; among a hundred figures it is not (Holm: the smallest
    p-value must be at most 0.05 / 100). A large change stays flagged; an unmoved figure never is."""
    big = balancing.FigureChange("big", "l", Rate(20, 400), Rate(120, 400))  # z about 10
    modest = balancing.FigureChange("modest", "l", Rate(100, 400), Rate(127, 400))  # p about 0.03
    assert modest.p_value is not None and 0.01 < modest.p_value < 0.05
    assert [f.significant for f in balancing.holm([modest])] == [True]
    same = [balancing.FigureChange(f"same{i}", "l", Rate(50, 100), Rate(50, 100)) for i in range(98)]
    corrected = balancing.holm([big, modest, *same])
    assert [f.key for f in corrected if f.significant] == ["big"]
    assert balancing.holm([balancing.FigureChange("k", "l", Rate(0, 10), Rate(0, 10))])[0].significant is False


def test_table_figures_are_keyed_by_section_table_row_and_column() -> None:
    table = Table("wins", "Wins", ("set-up", "games", "seat 1"),
                  (("2 players", 10, Rate(4, 10)), ("2 players", 10, Rate(6, 10)), ("3 players", 5, Mean(5, 10.0, 30.0))))
    found = balancing.table_figures([Section("s", "S", "", (table,))])
    assert list(found) == ["s/wins/2 players/seat 1", "s/wins/2 players #2/seat 1", "s/wins/3 players/seat 1"]
    assert found["s/wins/2 players #2/seat 1"] == ("Wins: 2 players #2: seat 1", Rate(6, 10))


def test_only_changed_games_are_simulated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old, new = tmp_path / "a", tmp_path / "b"
    for root in (old, new):  # the toy game (no balance study, unchanged) beside Theocracy
        shutil.copytree(copy_toy(tmp_path / f"toy-{root.name}"), root)
        shutil.copytree(default_data_root() / "theocracy", root / "theocracy")
        shutil.copytree(default_data_root() / "schemas" / "theocracy", root / "schemas" / "theocracy")
    played: list[tuple[str, list[str]]] = []

    def spy(studies: dict[str, Any], side: Any, games: int, seed: int, processes: int, ids: Any = None) -> dict[str, Any]:
        played.append((side.label, sorted(studies)))
        return {game: {} for game in studies}

    monkeypatch.setattr(balancing, "study_figures", spy)
    with registered(TOY_SPEC):
        diff = compare(folder(old), folder(new), catalogue(), ["toy", "theocracy"], engines=False)
        unchanged = balancing.compare_balance(diff, games=1, seed=0, processes=1)
        assert (unchanged.studied, unchanged.skipped, played) == ((), (), [])  # nothing changed: nothing played
        assert list(balancing.lines(unchanged))[-1] == "  no game changed: nothing played"
        _edit(new / "theocracy" / "power-cards.yaml", "title: Humility", "title: Meekness")
        diff = compare(folder(old), folder(new), catalogue(), ["toy", "theocracy"], engines=False)
        found = balancing.compare_balance(diff, games=1, seed=0, processes=1)
    assert [g.game for g in found.studied] == ["theocracy"]
    assert played == [(folder(old).label, ["theocracy"]), (folder(new).label, ["theocracy"])]


def test_a_game_on_one_side_or_without_a_study_is_named_not_played(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    old, new = copy_toy(tmp_path / "a"), copy_toy(tmp_path / "b")
    shutil.copytree(default_data_root() / "theocracy", new / "theocracy")  # added on the new side
    shutil.copytree(default_data_root() / "schemas" / "theocracy", new / "schemas" / "theocracy")
    _edit(new / "toy" / "cards.yaml", "name: Skull\n", "name: Grinning Skull\n")  # changed, no balance study
    monkeypatch.setattr(balancing, "study_figures", lambda *args: pytest.fail("nothing should be played"))
    with registered(TOY_SPEC):
        diff = compare(folder(old), folder(new), catalogue(), ["toy", "theocracy"], engines=False)
        found = balancing.compare_balance(diff, games=1, seed=0, processes=1)
    assert found.studied == ()
    assert found.skipped == (("toy", balancing.NO_STUDY), ("theocracy", balancing.ONE_SIDE))
    assert "theocracy: balance not compared (only on one side)" in list(balancing.lines(found))
    assert balancing.as_data(found)["skipped"] == {"toy": "no balance study", "theocracy": "only on one side"}


def test_a_card_edit_shows_figures_before_and_after(tmp_path: Path) -> None:
    """Two Heavenly Father philosophers swap kinds (the prophet becomes a skeptic, the skeptic a prophet, so
    each kind keeps its count): both cards' figures move."""
    old, new = _copy(tmp_path, "heavenly-father", "a"), _copy(tmp_path, "heavenly-father", "b")
    philosophers = new / "heavenly-father" / "philosophers.yaml"
    _edit(philosophers, ZELDA, ZELDA.replace("prophet", "skeptic"))
    _edit(philosophers, MYTH_BUSTER, MYTH_BUSTER.replace("skeptic", "prophet"))
    _check_card_edit(old, new, "heavenly-father",
                     {"prophet-madame-zelda": "Madame Zelda", "skeptic-myth-buster": "The Myth-Buster"},
                     HEAVENLY_TINY, tmp_path)


@pytest.mark.slow
def test_a_monotheism_card_edit_shows_figures_before_and_after(monotheism_sides: tuple[Path, Path],
                                                               tmp_path: Path) -> None:
    """Slow: the edited cards send Monotheism's validation (its seeded #21 run) back to work. Also checked fast by
    test_a_card_edit_shows_figures_before_and_after (the same checks on a Heavenly Father card edit)."""
    old, new = monotheism_sides
    _check_card_edit(old, new, "monotheism", {"deity-06": "The Tidekeeper"}, TINY, tmp_path)


def _check_card_edit(old: Path, new: Path, game: str, cards: dict[str, str], games: str, tmp_path: Path) -> None:
    """`diff --balance` between ``old`` and ``new`` (``cards``, by id with their names, edited in play): JSON, text
    and PDF."""
    common = ("diff", "--data-a", str(old), "--data-b", str(new), game, "--no-engines", "--balance",
              "--games", games, "--seed", "3")
    first = run_cli(*common, "--json", "--pdf", str(tmp_path / "one.pdf"))
    assert first.returncode == 0, first.stderr
    found = json.loads(first.stdout)
    assert [c["id"] for c in found["games"][game]["cards"]] == list(cards)
    balance = found["balance"]
    assert (balance["seed"], balance["games_per_setup"], balance["skipped"]) == (3, int(games), {})
    figures = balance["games"][game]
    assert figures and all(set(f) == {"key", "label", "old", "new", "moved", "z", "significant"} for f in figures)
    assert {"rate", "low", "high"} <= set(figures[0]["old"]) or {"mean", "low", "high"} <= set(figures[0]["old"])
    moved = [f for f in figures if f["moved"]]
    assert all(any(name in f["label"] for f in moved) for name in cards.values())  # each edited card plays differently
    # the same seed and size give the same figures: the text run writes the same PDF, whose last pages compare them
    text = run_cli(*common, "--all", "--pdf", str(tmp_path / "two.pdf"))
    assert text.returncode == 0, text.stderr
    assert (tmp_path / "one.pdf").read_bytes() == (tmp_path / "two.pdf").read_bytes()
    pages = page_texts((tmp_path / "one.pdf").read_bytes())
    assert any(page.startswith("Balance before/after") for page in pages)
    assert f"balance before -> after (seed 3, {games} games per set-up" in text.stdout
    assert "legend: rate [95% Wilson interval]" in text.stdout and "two-proportion" in text.stdout
    report = text.stdout.splitlines()
    after = report[next(i for i, line in enumerate(report) if line.startswith("balance before -> after")):]
    shown = [line.strip() for line in after if line.startswith("    ")]
    assert len(shown) == len(moved) and all(" -> " in line and "[" in line for line in shown)  # with intervals
    flagged = [f["label"] for f in moved if f["significant"]]
    assert sum(line.endswith(" *") for line in shown) == len(flagged)  # the significant marked, and first
    assert all(line.startswith(f"{label}: ") and line.endswith(" *") for line, label in zip(shown, flagged))
    significant_only = run_cli(*common)  # without --all: only what stays significant after the correction
    tail = significant_only.stdout.split("balance before -> after", 1)[1].splitlines()
    listed = [line for line in tail if line.startswith("    ")]
    assert len(listed) == len(flagged) and all(line.endswith(" *") for line in listed)


def test_a_renamed_card_moves_no_figure(tmp_path: Path) -> None:
    """Figures are keyed by the card's id: renaming a philosopher changes labels, never which figure is which."""
    old, new = _copy(tmp_path, "heavenly-father", "a"), _copy(tmp_path, "heavenly-father", "b")
    _edit(new / "heavenly-father" / "philosophers.yaml", "name: Madame Zelda, Psychic Hotline",
          "name: Madame Zelda, Seer of the Hotline")
    done = run_cli("diff", "--data-a", str(old), "--data-b", str(new), "heavenly-father", "--balance", "--games",
                   HEAVENLY_TINY, "--json", "--no-engines")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)["balance"]["games"]["heavenly-father"]
    assert figures and not any(f["moved"] for f in figures)
    assert any("Seer of the Hotline" in f["label"] and "id:prophet-madame-zelda" in f["key"] for f in figures)


def test_a_cosmetic_card_edit_moves_no_figure(tmp_path: Path) -> None:
    """Both sides play the same seeds: a title does not change a game, so no figure moves."""
    old, new = _copy(tmp_path, "theocracy", "a"), _copy(tmp_path, "theocracy", "b")
    _edit(new / "theocracy" / "power-cards.yaml", "title: Humility", "title: Meekness")
    done = run_cli("diff", "--data-a", str(old), "--data-b", str(new), "theocracy", "--balance", "--games", "4",
                   "--json", "--no-engines")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)["balance"]["games"]["theocracy"]
    assert figures and not any(f["moved"] for f in figures)


@pytest.mark.parametrize(("args", "code", "message"), [
    (["--balance", "--games", "0", "toy"], 2, "'--games': 0 is not in the range x>=1"),
    (["--games", "5", "toy"], 2, "--games needs --balance"),
    (["--seed", "5", "toy"], 2, "--seed needs --balance"),
    (["--balance", "toy"], 2, "--balance: toy has no balance study"),
    (["--balance", "nope"], 1, "unknown game nope"),
])
def test_bad_input_is_one_line_and_writes_nothing(pantheon, args: list[str], code: int, message: str, tmp_path: Path) -> None:
    root = copy_toy(tmp_path)
    target = tmp_path / "proof.pdf"
    result = pantheon("diff", "--data-a", str(root), "--data-b", str(root), "--pdf", str(target), *args)
    assert result.returncode == code
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr
    assert not target.exists() and result.stdout == ""
