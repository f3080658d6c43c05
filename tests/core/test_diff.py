"""`pantheon diff`: two folders or two git revisions compared card by card, as text, JSON and a proof PDF.

Reports are read from the CLI run in process (the toy game registered); bad input runs it as a user does,
in a fresh process (exit code, one line, no traceback), and so does the proof PDF's determinism check.
"""
from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from typer.testing import CliRunner

from pipeline.analysis.diff.compare import Consequence, consequences
from pipeline.cli.main import app
from pipeline.data.dataset import load_game
from pipeline.data.gamespec import Question
from pipeline.games.registry import registered
from tests.core.cli_helpers import copy_toy, run_cli
from tests.core.pdf_text import page_texts
from tests.core.render_helpers import toy_template_root
from tests.core.toy_game import SPEC


def pantheon(*args: str) -> Result:
    """``pantheon ARGS`` in this process, with the toy game registered."""
    with registered(SPEC):
        return CliRunner().invoke(app, list(args))


def _edit(root: Path, old: str, new: str) -> None:
    path = root / "toy" / "cards.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture
def two_folders(tmp_path: Path) -> tuple[Path, Path]:
    old = copy_toy(tmp_path / "a")
    new = tmp_path / "b" / "data"
    shutil.copytree(old, new)
    _edit(new, "name: Lantern\n    cost: 1", "name: Lantern\n    cost: 4")
    return old, new


def test_json_names_the_changed_card_and_only_it(two_folders: tuple[Path, Path]) -> None:
    old, new = two_folders
    result = pantheon("diff", "--data-a", str(old), "--data-b", str(new), "--json", "toy")
    assert result.exit_code == 0, result.output
    cards = json.loads(result.stdout)["games"]["toy"]["cards"]
    assert [(c["id"], c["status"]) for c in cards] == [("lantern", "changed")]
    assert cards[0]["fields"] == [{"field": "cost", "old": 1, "new": 4}]


def test_added_and_removed_cards_and_the_text_report(two_folders: tuple[Path, Path]) -> None:
    old, new = two_folders
    _edit(new, "  - id: skull\n    name: Skull\n", "  - id: bone\n    name: Bone\n")
    result = pantheon("diff", "--data-a", str(old), "--data-b", str(new), "toy")
    assert result.exit_code == 0, result.output
    assert "card lantern 'Lantern' changed (cards/lantern, faces unchanged)" in result.stdout
    assert "    cost: 1 -> 4" in result.stdout
    assert "card skull 'Skull' removed" in result.stdout
    assert "card bone 'Bone' added" in result.stdout
    assert "owl" not in result.stdout


def test_proof_pdf_shows_the_changed_card_not_the_unchanged(tmp_path: Path) -> None:
    old = copy_toy(tmp_path / "a")
    new = tmp_path / "b" / "data"
    shutil.copytree(old, new)
    _edit(new, "name: Skull\n", "name: Grinning Skull\n")
    target = tmp_path / "proof.pdf"
    result = run_cli("diff", "--data-a", str(old), "--data-b", str(new), "--no-engines", "--pdf", str(target),
                     "--templates", str(toy_template_root(tmp_path)), "toy")
    assert result.returncode == 0, result.stderr
    pages = page_texts(target.read_bytes())
    text = "\n".join(pages)
    assert "Grinning Skull" in text and "Owl" not in text and "Lantern" not in text
    # faces page(s), the reprint sheet (front and back pages) and the changelog
    assert "Changelog" in pages[-1]
    assert len(pages) >= 3
    again = tmp_path / "again.pdf"
    run_cli("diff", "--data-a", str(old), "--data-b", str(new), "--no-engines", "--pdf", str(again),
            "--templates", str(toy_template_root(tmp_path / "t2")), "toy")
    assert again.read_bytes() == target.read_bytes()  # deterministic


def test_git_revisions_of_a_scratch_repository(tmp_path: Path) -> None:
    root = copy_toy(tmp_path / "repo")

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(tmp_path / "repo"), *args], check=True, capture_output=True)

    git("init", "-q")
    git("-c", "user.name=t", "-c", "user.email=t@t", "add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one")
    _edit(root, "name: Skull\n    cost: 0", "name: Skull\n    cost: 1")
    working = pantheon("diff", "--data", str(root), "--json", "toy")  # HEAD against the working tree
    assert working.exit_code == 0, working.output
    assert [c["id"] for c in json.loads(working.stdout)["games"]["toy"]["cards"]] == ["skull"]
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-am", "two")
    between = pantheon("diff", "HEAD~1", "HEAD", "--data", str(root), "--json", "toy")
    assert between.exit_code == 0, between.output
    report = json.loads(between.stdout)
    assert (report["old"], report["new"]) == ("HEAD~1", "HEAD")
    assert report["games"]["toy"]["cards"][0]["fields"] == [{"field": "cost", "old": 0, "new": 1}]
    same = pantheon("diff", "HEAD", "--data", str(root), "toy")
    assert "toy: no changes" in same.stdout


@pytest.mark.parametrize(("args", "code", "message"), [
    (["no-such-rev"], 1, "bad revision 'no-such-rev'"),
    (["HEAD"], 1, "revision 'HEAD' has no data/ in it"),
    (["HEAD", "nope"], 1, "bad revision 'nope'"),  # a word that is no game is a revision
    (["toy", "HEAD"], 2, "'HEAD' after the games is not a game"),
    (["--data-a", "/no/such/folder", "--data-b", "/no/such/folder"], 1, "no such data folder"),
    (["a", "b", "c"], 2, "at most two revisions"),
    (["--data-a", "DATA", "--data-b", "DATA", "nope"], 1, "unknown game nope"),
    (["--data-a", "/tmp"], 2, "give both --data-a and --data-b"),
])
def test_bad_input_is_one_line(pantheon, args: list[str], code: int, message: str, tmp_path: Path) -> None:
    root = copy_toy(tmp_path)
    subprocess.run(["git", "-C", str(tmp_path), "init", "-q"], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q",
                    "--allow-empty", "-m", "empty"], check=True)  # a revision without data/
    result = pantheon("diff", "--data", str(root), *(str(root) if arg == "DATA" else arg for arg in args))
    assert result.returncode == code
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def _toy_questions(game: Any, *, budget: Any = None) -> list[Question]:
    """The toy's engine figure for the test below: the deck's total cost (its inputs, the costs)."""
    costs = tuple(card["cost"] for card in game.doc("cards").data["cards"])
    return [Question("deck", costs, lambda: {"total cost": sum(costs), "cards": len(costs)})]


def test_consequences_report_the_figures_that_moved_and_only_those(two_folders: tuple[Path, Path]) -> None:
    from tests.core.toy_game import SPEC

    spec = replace(SPEC, consequences=_toy_questions)
    old, new = (load_game(root, spec) for root in two_folders)
    assert list(consequences(old, new, None)) == [Consequence("deck", "total cost", 3, 6)]
    assert list(consequences(old, load_game(two_folders[0], spec), None)) == []


LONG = " ".join(f"word{i}" for i in range(400))  # a text that first differs far past what a line can show


def test_a_long_text_is_shown_word_by_word_around_each_change(tmp_path: Path) -> None:
    old = copy_toy(tmp_path / "a")
    _edit(old, "text: Shines on [[cards/owl]].", f"text: Shines on [[cards/owl]]. {LONG} so it goes.")
    new = tmp_path / "b" / "data"
    shutil.copytree(old, new)
    _edit(new, "word350 word351", "word350 and word351")
    _edit(new, "so it goes.", "so it went.")
    result = pantheon("diff", "--data-a", str(old), "--data-b", str(new), "toy", "--no-engines")
    assert result.exit_code == 0, result.output
    hunks = [line.strip() for line in result.stdout.splitlines() if "{+" in line]
    assert hunks == ["text: ... word345 word346 word347 word348 word349 word350 {+and+} word351 word352 word353 "
                     "word354 word355 word356 ...",
                     "... word396 word397 word398 word399 so it [-goes.-] {+went.+}"], result.stdout
    data = json.loads(pantheon("diff", "--data-a", str(old), "--data-b", str(new), "toy", "--json").stdout)
    assert data["games"]["toy"]["cards"][0]["fields"][0]["new"].endswith("so it went.")  # JSON has it whole


def test_a_broken_edit_shows_the_change_and_the_problems(two_folders: tuple[Path, Path]) -> None:
    old, new = two_folders
    _edit(new, "name: Owl", "nmae: Owl")  # the new side no longer validates
    result = pantheon("diff", "--data-a", str(old), "--data-b", str(new), "toy")
    assert result.exit_code == 1
    out = result.stdout.splitlines()
    assert "    cost: 1 -> 4" in out and "    nmae: - -> Owl" in out  # both changes, as records
    at = out.index(f"{new} does not validate (1 problem; records compared, not cards or figures):")
    assert "unknown key 'nmae'" in out[at + 1] and "did you mean 'name'" in out[at + 1]
    assert "1 problem found: only records compared" in result.stderr
    data = json.loads(pantheon("diff", "--data-a", str(old), "--data-b", str(new), "toy", "--json").stdout)
    assert [p["side"] for p in data["problems"]] == [str(new)] and "nmae" in data["problems"][0]["problem"]
    assert not (new.parent / "proof.pdf").exists()
    refused = pantheon("diff", "--data-a", str(old), "--data-b", str(new), "toy", "--pdf", str(new.parent / "proof.pdf"))
    assert refused.exit_code == 1 and "no --pdf" in refused.stderr and not (new.parent / "proof.pdf").exists()
