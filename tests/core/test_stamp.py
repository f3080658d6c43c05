"""`build --stamp`: a version line on every card and sheet, deterministic; without it, the very same bytes.

The builds run the CLI in process (on the toy game), but for the one a determinism check compares with;
the refused watermark runs it as a user does, in a fresh process, for its exit code and one-line message.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

from typer.testing import CliRunner

from pipeline.cli.main import app
from pipeline.games.registry import registered
from tests.core.cli_helpers import copy_toy, run_cli
from tests.core.pdf_text import text_lines
from tests.core.render_helpers import toy_template_root
from tests.core.toy_game import SPEC


def _build(root: Path, out: Path, templates: Path, *flags: str, fresh_process: bool = False) -> tuple[bytes, str]:
    """Build the toy's cards in process, or in a ``fresh_process`` (its own hash seed and memory caches: what
    a determinism check compares against)."""
    args = ["build", "toy", "--only", "cards", "--data", str(root), "--out", str(out), "--templates", str(templates), *flags]
    if fresh_process:
        done = run_cli(*args)
        assert done.returncode == 0, done.stderr
        return (out / "toy" / "cards-a4.pdf").read_bytes(), done.stdout
    with registered(SPEC):
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return (out / "toy" / "cards-a4.pdf").read_bytes(), result.stdout


def _text(pdf: bytes) -> str:
    return "\n".join(text_lines(pdf))


def test_stamp_off_is_the_unstamped_build_and_never_served_from_a_stamped_cache(tmp_path: Path) -> None:
    root, templates, out = copy_toy(tmp_path), toy_template_root(tmp_path), tmp_path / "out"
    plain, _ = _build(root, out, templates)
    stamped, said = _build(root, out, templates, "--stamp", "--version-label", "v1.2", "--watermark", "PLAYTEST")
    assert stamped != plain and "wrote" in said  # not "up to date": the stamp is part of the fingerprint
    again, said = _build(root, out, templates)
    assert "wrote" in said and again == plain
    assert "v1.2" not in _text(again)


def test_stamp_prints_label_hash_and_watermark_the_same_every_time(tmp_path: Path) -> None:
    root, templates = copy_toy(tmp_path), toy_template_root(tmp_path)
    first, _ = _build(root, tmp_path / "one", templates, "--version-label", "v1.2", "--watermark", "PLAYTEST")
    second, _ = _build(root, tmp_path / "two", templates, "--version-label", "v1.2", "--watermark", "PLAYTEST", "--force",
                       fresh_process=True)
    assert first == second
    text = _text(first)
    assert "PLAYTEST" in text and "page 1" in text
    line = next(line for line in text.splitlines() if "v1.2" in line)
    assert "data " in line  # no git here: the label and the data's hash, no date


def test_stamp_takes_the_date_of_the_datas_last_commit(tmp_path: Path) -> None:
    root, templates = copy_toy(tmp_path / "repo"), toy_template_root(tmp_path)
    env = ["-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "-C", str(root.parent), "init", "-q"], check=True)
    subprocess.run(["git", "-C", str(root.parent), "add", "."], check=True)
    subprocess.run(["git", "-C", str(root.parent), *env, "commit", "-q", "-m", "data", "--date", "2001-02-03T04:05:06"],
                   check=True, env={"GIT_COMMITTER_DATE": "2001-02-03T04:05:06", "PATH": "/usr/bin:/bin"})
    pdf, _ = _build(root, tmp_path / "out", templates, "--stamp")
    assert "2001-02-03" in _text(pdf)


def test_a_watermark_the_font_cannot_print_is_refused(tmp_path: Path) -> None:
    root = copy_toy(tmp_path)
    result = run_cli("build", "toy", "--only", "cards", "--data", str(root), "--out", str(tmp_path / "out"),
                     "--watermark", "\u4e2d\u6587")
    assert result.returncode == 1 and "--watermark" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out" / "toy").exists()
