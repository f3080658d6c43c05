"""The whole-build stamp: a no-op `pantheon build` answers from it; any change of input, option or output
sends the build the ordinary way.

The builds are of card sheets only (``--only cards``, the cheapest build): the stamp is the command's, taken
before anything is built, so what the build makes does not change how the stamp answers.

The stamp answers without loading data or taking the output folder's lock, so a
no-op build finishes while another process holds that lock; a build that has
work to do waits for it ("waiting for another build"), which is how the tests
tell the two paths apart without timing anything.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.app import buildstamp
from pipeline.cards.pdfwrite import OUTPUT_LOCK, TEMP_PREFIX
from pipeline.cards.svgtemplates import TEMPLATE_ROOT
from pipeline.cli import main as cli
from pipeline.data.dataset import default_data_root

from .data_edits import edit
from .render_helpers import hold_lock, run_cli, start_cli

GAME = "theocracy"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    source, target = default_data_root(), tmp_path / "data"
    shutil.copytree(source / GAME, target / GAME)
    shutil.copytree(source / "schemas" / GAME, target / "schemas" / GAME)
    shutil.copy(source / "schemas" / "common.schema.json", target / "schemas" / "common.schema.json")
    return target


def build(root: Path, out: Path, cache: Path, *extra: str) -> str:
    result = run_cli("build", GAME, "--data", str(root), "--out", str(out), "--only", "cards", *extra, cache=cache, timeout=600)
    assert result.returncode == 0, result.stderr
    return result.stdout


def answers_while_locked(root: Path, out: Path, cache: Path, *extra: str) -> bool:
    """Whether the build finishes from its stamp while another process holds the output lock (else it says
    it is waiting, and builds once the lock is let go)."""
    holder = hold_lock(out, OUTPUT_LOCK)
    running = start_cli("build", GAME, "--data", str(root), "--out", str(out), "--only", "cards", *extra, cache=cache)
    try:
        assert running.stderr is not None
        first_line = running.stderr.readline()  # "" when it ended without a word on stderr
    finally:
        holder.communicate("")
        _, rest = running.communicate()
    assert running.returncode == 0, first_line + rest
    return first_line == ""


def test_no_op_build_answers_from_the_stamp_and_any_change_does_not(root: Path, tmp_path: Path) -> None:
    out, cache = tmp_path / "out", tmp_path / "cache"
    first = build(root, out, cache)
    assert "wrote" in first
    assert answers_while_locked(root, out, cache)
    assert not answers_while_locked(root, out, cache, "--paper", "letter")  # another option
    edit(root / GAME / "glossary.yaml", "The score.", "The tally of the faithful.")
    assert not answers_while_locked(root, out, cache)  # another input (then built, once the lock was let go)
    assert answers_while_locked(root, out, cache)
    next(out.rglob("cards-a4.pdf")).write_bytes(b"%PDF-1.4 not ours")
    assert not answers_while_locked(root, out, cache)  # an output that is not the one written


def test_stamp_checks_inputs_options_and_outputs(tmp_path: Path) -> None:
    data, templates, out = tmp_path / "data", tmp_path / "templates", tmp_path / "out"
    (data / "g").mkdir(parents=True)
    (data / "g" / "cards.yaml").write_text("cards: []\n")
    templates.mkdir()
    output = out / "g" / "cards-a4.pdf"
    output.parent.mkdir(parents=True)
    output.write_bytes(b"pdf")
    options = buildstamp.options_key({"paper": "a4", "force": False, "games": None, "out": out})
    stamp = buildstamp.BuildStamp(out, options)
    inputs = buildstamp.inputs_digest(data, templates)
    assert stamp.up_to_date(inputs) is None  # never built
    stamp.record(inputs, [output])
    assert stamp.up_to_date(inputs) == [output]
    assert buildstamp.BuildStamp(out, {**options, "paper": "letter"}).up_to_date(inputs) is None
    (data / "g" / "cards.yaml").write_text("cards: [] # edited\n")
    assert stamp.up_to_date(buildstamp.inputs_digest(data, templates)) is None
    (templates / "new.svg").write_text("<svg/>")
    assert buildstamp.inputs_digest(data, templates) != inputs
    output.write_bytes(b"PDF")
    assert stamp.up_to_date(inputs) is None
    output.write_bytes(b"pdf")
    entry = next((out / buildstamp.STAMP_DIR).rglob("*.json"))
    entry.write_bytes(entry.read_bytes().replace(b"cards-a4", b"cards-a5"))
    assert stamp.up_to_date(inputs) is None  # a damaged stamp is a miss


def test_the_stamp_sees_the_renderers_templates_and_temporaries() -> None:
    assert buildstamp.DEFAULT_TEMPLATES == TEMPLATE_ROOT
    assert buildstamp.OUTPUT_TEMP_PREFIX == TEMP_PREFIX


def test_every_build_option_is_in_the_stamp_key() -> None:
    """The key is the build command's parameters as given (``dict(locals())`` on entry), so an option added
    later is in it without an edit; this holds the function to taking its options as plain parameters."""
    import inspect

    source = inspect.getsource(cli.build)
    body = source.split('"""')[2]  # after the docstring
    assert body.lstrip().startswith("given = dict(locals())")
