"""The output folder's manifest decides what a build rebuilds, and nothing else does.

Most tests build two games' documents as Markdown (the same units, manifest
and writes as PDFs, at a fraction of the cost) in-process through
:func:`pipeline.app.build.build`; card sheets, a code change and `--force` go
through the CLI.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest
from pypdf import PdfReader

from pipeline.app import build as app_build
from pipeline.app.build import BuildOutcome, BuildRequest, Part, build
from pipeline.app.manifest import MANIFEST_NAME, Manifest
from pipeline.base.errors import UserError
from pipeline.base.locations import PACKAGE
from pipeline.cards.svgtemplates import TEMPLATE_ROOT
from pipeline.documents import structure as m
from pipeline.games import registry

from .render_helpers import cli_env, run_cli, temporaries

GAMES = ("theocracy", "heavenly-father")
EDITED = ("theocracy/power-cards.yaml", "still opens the sky", "still lights the sky")  # one word of one card


def request(root: Path, out: Path, *, templates: Path = TEMPLATE_ROOT, force: bool = False) -> BuildRequest:
    return BuildRequest(root, out, templates, GAMES, only=Part.DOCS, doc_format="md", glossary=False, force=force)


def written(outcome: BuildOutcome, out: Path) -> set[str]:
    return {path.relative_to(out).as_posix() for path in outcome.written}


def up_to_date(outcome: BuildOutcome, out: Path) -> set[str]:
    return {o.path.relative_to(out).as_posix() for o in outcome.outputs if not o.written}


def edit(root: Path, relative: str = EDITED[0], old: str = EDITED[1], new: str = EDITED[2]) -> None:
    path = root / relative
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*.md"))}


@pytest.fixture
def built(data_copy_of: Callable[..., Path], tmp_path: Path) -> tuple[Path, Path, BuildOutcome]:
    """(data root, output folder, first build) of the two games' documents from an empty output folder."""
    root, out = data_copy_of(*GAMES), tmp_path / "out"
    first = build(request(root, out))
    assert not up_to_date(first, out) and written(first, out) == set(files(out))
    return root, out, first


def test_a_second_build_writes_nothing(built: tuple[Path, Path, BuildOutcome]) -> None:
    root, out, first = built
    again = build(request(root, out))
    assert not again.written and up_to_date(again, out) == written(first, out)


def test_an_edited_data_file_rebuilds_exactly_the_outputs_that_read_it(built: tuple[Path, Path, BuildOutcome]) -> None:
    root, out, first = built
    edit(root)
    again = build(request(root, out))
    theocracy = {name for name in written(first, out) if name.startswith("theocracy/")}
    assert written(again, out) == theocracy
    assert up_to_date(again, out) == written(first, out) - theocracy
    assert not build(request(root, out)).written


@pytest.mark.parametrize("change", ["deleted", "edited by hand", "replaced by a link"])
def test_an_output_changed_by_hand_is_rebuilt(built: tuple[Path, Path, BuildOutcome], tmp_path: Path,
                                              change: str) -> None:
    root, out, first = built
    before = files(out)
    target = out / "heavenly-father" / "rulebook.md"
    if change == "deleted":
        target.unlink()
    elif change == "edited by hand":
        target.write_text(target.read_text() + "a note\n")
    else:
        elsewhere = tmp_path / "elsewhere.md"
        elsewhere.write_bytes(before["heavenly-father/rulebook.md"])  # the right bytes, but not the build's file
        target.unlink()
        target.symlink_to(elsewhere)
    again = build(request(root, out))
    assert "heavenly-father/rulebook.md" in written(again, out)
    assert not any(name.startswith("theocracy/") for name in written(again, out))
    assert not target.is_symlink() and files(out) == before


def _garbage(path: Path, tmp_path: Path) -> None:
    path.write_bytes(b"\x00{not json")


def _wrong_shape(path: Path, tmp_path: Path) -> None:
    raw = json.loads(path.read_text())
    for entry in raw["outputs"].values():
        entry["parts"] = "many"
    path.write_text(json.dumps(raw))


def _outside_the_folder(path: Path, tmp_path: Path) -> None:
    raw = json.loads(path.read_text())
    raw["outputs"] = {f"../{name}": entry for name, entry in raw["outputs"].items()}
    path.write_text(json.dumps(raw))


def _link(path: Path, tmp_path: Path) -> None:
    """A link to a copy of the very manifest the build wrote: still not the build's own file."""
    target = tmp_path / "planted.json"
    shutil.copy(path, target)
    path.unlink()
    path.symlink_to(target)


def _fifo(path: Path, tmp_path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def _folder(path: Path, tmp_path: Path) -> None:
    path.unlink()
    path.mkdir()


MANIFEST_DAMAGE = {"garbage": _garbage, "wrong shape": _wrong_shape, "names outside the folder": _outside_the_folder,
                   "a link": _link, "a named pipe": _fifo}


@pytest.mark.parametrize("kind", MANIFEST_DAMAGE)
def test_a_damaged_manifest_means_a_full_rebuild_not_an_error(built: tuple[Path, Path, BuildOutcome], tmp_path: Path,
                                                              kind: str) -> None:
    root, out, first = built
    before = files(out)
    manifest = out / MANIFEST_NAME
    MANIFEST_DAMAGE[kind](manifest, tmp_path)
    planted = tmp_path / "planted.json"
    planted_bytes = planted.read_bytes() if planted.exists() else None
    again = build(request(root, out))
    assert written(again, out) == written(first, out) and files(out) == before
    assert manifest.is_file() and not manifest.is_symlink()
    if planted_bytes is not None:
        assert planted.read_bytes() == planted_bytes  # the link was replaced, never written through
    assert not build(request(root, out)).written


def test_a_manifest_that_is_a_folder_is_refused_in_one_line(built: tuple[Path, Path, BuildOutcome],
                                                            tmp_path: Path) -> None:
    """A folder where the manifest goes cannot be replaced by a file: the build says so (no traceback)."""
    root, out, _ = built
    _folder(out / MANIFEST_NAME, tmp_path)
    with pytest.raises(UserError, match="cannot write"):
        build(request(root, out))


def test_force_rebuilds_what_is_up_to_date(built: tuple[Path, Path, BuildOutcome]) -> None:
    root, out, first = built
    before = files(out)
    again = build(request(root, out, force=True))
    assert written(again, out) == written(first, out) and files(out) == before


def test_an_interrupted_build_leaves_the_old_files_and_a_manifest_that_does_not_claim_new_ones(
    built: tuple[Path, Path, BuildOutcome], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, out, first = built
    before = files(out)
    edit(root)
    edit(root, "heavenly-father/rules.yaml", "\n", "\n# edited\n")
    real_render = app_build.render_for_print

    def failing_on_heavenly_father(doc: m.Document, paper: str, fmt: str) -> bytes:
        if doc.game_title == registry.spec("heavenly-father").title:
            raise KeyboardInterrupt  # Ctrl-C while the second game's documents are rendered
        return real_render(doc, paper, fmt)

    monkeypatch.setattr(app_build, "render_for_print", failing_on_heavenly_father)
    with pytest.raises(KeyboardInterrupt):
        build(request(root, out))
    monkeypatch.undo()
    now = files(out)
    heavenly = {name for name in before if name.startswith("heavenly-father/")}
    assert all(now[name] == before[name] for name in heavenly)  # the old files, untouched
    assert not temporaries(out)
    manifest = Manifest.load(out)
    for name in before:  # every file the manifest names holds the bytes it records (theocracy's: the new build's)
        assert manifest.entries[name].output == hashlib.sha256(now[name]).hexdigest()
    for name in heavenly:  # it still describes the old files, so the next build rebuilds them
        assert manifest.entries[name].output == hashlib.sha256(before[name]).hexdigest()
    again = build(request(root, out))
    assert written(again, out) == heavenly


def test_an_output_folder_link_inside_the_output_is_not_written_through(data_copy_of: Callable[..., Path],
                                                                         tmp_path: Path) -> None:
    root, out, elsewhere = data_copy_of(*GAMES), tmp_path / "out", tmp_path / "elsewhere"
    elsewhere.mkdir()
    out.mkdir()
    (out / "theocracy").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(UserError, match="not writing through it"):
        build(request(root, out))
    assert not any(elsewhere.iterdir())


# -- through the CLI: card sheets, a code change ------------------------------------------


def test_card_sheets_an_edit_rebuilds_only_its_game(data_copy_of: Callable[..., Path], tmp_path: Path) -> None:
    root, out, cache = data_copy_of(*GAMES), tmp_path / "out", tmp_path / "cache"
    args = ("build", *GAMES, "--only", "cards", "--data", str(root), "--out", str(out))
    first = run_cli(*args, cache=cache)
    assert first.returncode == 0, first.stderr
    assert first.stdout.count("wrote ") == 4  # each game's full-colour and ink-friendly editions
    edit(root)
    again = run_cli(*args, cache=cache)
    assert again.returncode == 0, again.stderr
    assert f"wrote {out / 'theocracy' / 'cards-a4.pdf'}" in again.stdout
    assert f"wrote {out / 'theocracy' / 'cards-a4-ink.pdf'}" in again.stdout
    assert f"up to date: {out / 'heavenly-father' / 'cards-a4.pdf'}" in again.stdout
    assert f"up to date: {out / 'heavenly-father' / 'cards-a4-ink.pdf'}" in again.stdout
    forced = run_cli(*args, "--force", cache=cache)
    assert forced.returncode == 0 and forced.stdout.count("wrote ") == 4 and "up to date" not in forced.stdout


def test_a_build_writes_the_ink_friendly_edition_beside_the_full_colour_one(data_copy_of: Callable[..., Path],
                                                                           tmp_path: Path) -> None:
    """cards-<paper>-ink.pdf for every game built, recorded in the manifest with the full-colour sheet as one
    unit, deterministic; `--ink-saver` writes the ink-friendly edition alone."""
    root = data_copy_of(*GAMES)
    outs = [tmp_path / "out", tmp_path / "again"]
    for out in outs:
        build(BuildRequest(root, out, TEMPLATE_ROOT, GAMES, only=Part.CARDS))
    manifest = Manifest.load(outs[0])
    for game in GAMES:
        full, ink = (f"{game}/cards-a4.pdf", f"{game}/cards-a4-ink.pdf")
        assert {full, ink} <= set(manifest.entries)
        assert manifest.entries[ink].unit == manifest.entries[full].unit == f"cards/{game}"
        assert manifest.entries[ink].parts == 2
        data = (outs[0] / ink).read_bytes()
        assert manifest.entries[ink].output == hashlib.sha256(data).hexdigest()
        assert data == (outs[1] / ink).read_bytes()  # same data, same bytes
        assert "ink-saver=yes" in PdfReader(outs[0] / ink).metadata["/Keywords"]
        assert "ink-saver=no" in PdfReader(outs[0] / full).metadata["/Keywords"]
        assert data != (outs[0] / full).read_bytes()
    alone = tmp_path / "alone"
    settings = app_build.CardSettings(ink_saver=True)
    build(BuildRequest(root, alone, TEMPLATE_ROOT, ("theocracy",), only=Part.CARDS, cards=settings))
    assert sorted(p.name for p in (alone / "theocracy").iterdir()) == ["cards-a4-ink.pdf"]
    assert (alone / "theocracy" / "cards-a4-ink.pdf").read_bytes() == (outs[0] / "theocracy" / "cards-a4-ink.pdf").read_bytes()


BUILD_SCRIPT = """
import sys
from pathlib import Path
import pipeline
from pipeline.app.build import BuildRequest, Part, build
root, out, templates, package = (Path(arg) for arg in sys.argv[1:5])
assert Path(pipeline.__file__).resolve().is_relative_to(package.resolve()), pipeline.__file__
done = build(BuildRequest(root, out, templates, ("heavenly-father",), only=Part.DOCS, doc_format="md", glossary=False))
print(len(done.written))
"""


def build_in_a_process(root: Path, out: Path, templates: Path = TEMPLATE_ROOT, package: Path = PACKAGE) -> int:
    """How many files a build of heavenly-father's documents wrote, run in a fresh process with ``package``
    (a folder holding the ``pipeline`` package) first on its path."""
    env = {**cli_env(out.parent / "cache"), "PYTHONPATH": str(package.parent)}
    done = subprocess.run([sys.executable, "-c", BUILD_SCRIPT, str(root), str(out), str(templates), str(package)],
                          capture_output=True, text=True, cwd=package.parent, env=env)
    assert done.returncode == 0, done.stderr
    return int(done.stdout.strip())


def test_an_edited_template_rebuilds(data_copy_of: Callable[..., Path], tmp_path: Path) -> None:
    root, out, templates = data_copy_of(*GAMES), tmp_path / "out", tmp_path / "templates"
    shutil.copytree(TEMPLATE_ROOT, templates)
    assert build_in_a_process(root, out, templates) > 0
    assert build_in_a_process(root, out, templates) == 0
    style = templates / "cards" / "heavenly-father" / "_style.svg.j2"  # shapes no document, and still counts
    style.write_text(style.read_text() + "\n")
    assert build_in_a_process(root, out, templates) > 0


def test_a_code_change_rebuilds(data_copy_of: Callable[..., Path], tmp_path: Path) -> None:
    """A copy of the package, edited in a module that shapes no document at all, still rebuilds: the inputs
    digest covers the whole package."""
    root, out, copy = data_copy_of(*GAMES), tmp_path / "out", tmp_path / "copy" / "pipeline"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    templates = shutil.copytree(TEMPLATE_ROOT, copy.parent / "templates")  # beside it, as an installed copy finds them
    assert build_in_a_process(root, out, templates, copy) > 0
    assert build_in_a_process(root, out, templates, copy) == 0
    module = copy / "cards" / "artmap.py"
    module.write_text(module.read_text() + "\n# a comment is a change of code too\n")
    assert build_in_a_process(root, out, templates, copy) > 0
