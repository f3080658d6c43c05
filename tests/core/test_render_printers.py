"""Printer profiles and the card-sheet options on the command line: good use and every bad input."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Callable

import pytest
from pypdf import PdfReader

from pipeline.cards.svgtemplates import TEMPLATE_ROOT

GAME = "theocracy"


@pytest.fixture
def run(pantheon: Callable[..., subprocess.CompletedProcess[str]], monkeypatch: pytest.MonkeyPatch
        ) -> Callable[..., subprocess.CompletedProcess[str]]:
    """``run(config, *args)``: `pantheon ARGS` (in this process) with ``config`` as the user's configuration
    folder (XDG_CONFIG_HOME)."""
    def with_config(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
        monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
        return pantheon(*args)

    return with_config


def one_line_error(result: subprocess.CompletedProcess[str], code: int, words: str) -> None:
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], result.stderr


def test_a_stored_profile_gives_the_offsets(run, tmp_path: Path) -> None:
    config, out = tmp_path / "config", tmp_path / "out"
    saved = run(config, "printer", "set", "office-laser", "--offset-across", "0.5", "--offset-along", "-1.25")
    assert saved.returncode == 0, saved.stderr
    assert (config / "pantheon-press" / "printers.yaml").is_file()
    listed = run(config, "printer", "list")
    assert "office-laser: across +0.5 mm, along -1.25 mm" in listed.stdout
    built = run(config, "build", GAME, "--only", "cards", "--out", str(out), "--printer", "office-laser")
    assert built.returncode == 0, built.stderr
    keywords = PdfReader(out / GAME / "cards-a4.pdf").metadata["/Keywords"]
    assert "offset-across=0.5mm" in keywords and "offset-along=-1.25mm" in keywords


def test_a_missing_profile_is_one_line(run, tmp_path: Path) -> None:
    result = run(tmp_path, "build", GAME, "--only", "cards", "--out", str(tmp_path / "out"), "--printer", "nowhere")
    one_line_error(result, 1, "no printer profile 'nowhere'")
    assert not (tmp_path / "out" / GAME).exists()


def test_a_profile_and_explicit_offsets_together_are_a_usage_error(run, tmp_path: Path) -> None:
    result = run(tmp_path, "build", GAME, "--out", str(tmp_path / "out"), "--printer", "x", "--offset-across", "1")
    one_line_error(result, 2, "either --printer or --offset-across/--offset-along")


def test_a_bad_profile_name_is_refused(run, tmp_path: Path) -> None:
    result = run(tmp_path, "printer", "set", "Bad Name", "--offset-across", "0", "--offset-along", "0")
    one_line_error(result, 1, "printer name 'Bad Name'")
    assert not (tmp_path / "pantheon-press" / "printers.yaml").exists()


def test_a_damaged_profile_file_names_its_line(run, tmp_path: Path) -> None:
    target = tmp_path / "pantheon-press" / "printers.yaml"
    target.parent.mkdir(parents=True)
    target.write_text("printers:\n  office:\n    offset_across_mm: 1\n    offset_sideways_mm: 2\n")
    result = run(tmp_path, "build", GAME, "--out", str(tmp_path / "out"), "--printer", "office")
    one_line_error(result, 1, "printers.yaml:")


@pytest.mark.parametrize(("layout", "ok"), [("butted", False), ("gutter", True)])
def test_an_offset_larger_than_the_margin_is_refused_before_anything_is_written(run, tmp_path: Path, layout: str, ok: bool) -> None:
    out = tmp_path / "out"
    result = run(tmp_path, "build", GAME, "--only", "cards", "--out", str(out), "--layout", layout, "--offset-along", "7")
    if ok:  # the gutter layout keeps 10 mm margins
        assert result.returncode == 0, result.stderr
    else:
        one_line_error(result, 1, "--offset-along 7 mm is larger than the 4 mm margin")
        assert not (out / GAME).exists()


def test_a_card_size_that_fits_no_sheet_is_one_line(run, tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATE_ROOT, templates)
    sheets = templates / "sheets.yaml"
    sheets.write_text(sheets.read_text().replace("width_mm: 210", "width_mm: 60"))
    out = tmp_path / "out"
    result = run(tmp_path, "build", GAME, "--only", "cards", "--out", str(out), "--templates", str(templates))
    one_line_error(result, 1, "does not fit on A4 inside 4 mm margins")
    assert not (out / GAME / "cards-a4.pdf").exists()
