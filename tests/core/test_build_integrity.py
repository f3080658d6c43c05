"""Output folders stay right whatever happens to them: damaged PDFs, builds at the same time, kill -9.

Through the CLI on one game (theocracy): a PDF that is not the one the
folder's manifest records is rebuilt; two builds into one folder take turns
and leave a PDF and manifest of the same build; a killed build leaves nothing
that the next build trips on and the next build sweeps what it left (only
names Pantheon Press makes, never through a link); no build deletes a file it
did not create, and no lock file is left in the folder.
"""
from __future__ import annotations

import hashlib
import io
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
from reportlab.pdfgen.canvas import Canvas

from pipeline.app.manifest import Manifest
from pipeline.cards.pdfwrite import temp_name

from .render_helpers import hold_lock, pdfs, run_cli, start_cli, temporaries

GAME = "theocracy"
CARDS = f"{GAME}/cards-a4.pdf"
INK = f"{GAME}/cards-a4-ink.pdf"  # the ink-friendly edition, written by the same unit
REPO_DATA = Path(__file__).resolve().parents[2] / "data"
TRIALS = 3
KILL_AFTER_S = (0.4, 0.9, 1.4)  # into a cold build: while loading, drawing, and writing


def build(out: Path, cache: Path, *extra: str, data: Path = REPO_DATA) -> subprocess.CompletedProcess[str]:
    return run_cli("build", GAME, "--data", str(data), "--out", str(out), *extra, cache=cache)


@dataclass(frozen=True)
class CleanBuild:
    """A clean build from an empty cache: its PDFs, its output folder and the cache it left (only read)."""

    pdfs: dict[str, bytes]
    out: Path
    cache: Path


@pytest.fixture(scope="module")
def clean_build(tmp_path_factory: pytest.TempPathFactory) -> CleanBuild:
    work = tmp_path_factory.mktemp("reference")
    result = build(work / "out", work / "cache")
    assert result.returncode == 0, result.stderr
    return CleanBuild(pdfs(work / "out"), work / "out", work / "cache")


@pytest.fixture(scope="module")
def reference(clean_build: CleanBuild) -> dict[str, bytes]:
    """The PDFs of a clean build from an empty cache."""
    return clean_build.pdfs


def recorded(out: Path) -> str:
    """The digest the folder's manifest records for the card sheet."""
    return Manifest.load(out).entries[CARDS].output


# -- damaged outputs ------------------------------------------------------------------


def _flip(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:1000])


def _replace_with_another_pdf(path: Path) -> None:
    """A valid PDF that is not the build's (one blank page)."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer)
    canvas.showPage()
    canvas.save()
    path.write_bytes(buffer.getvalue())


def _delete(path: Path) -> None:
    path.unlink()


DAMAGE: dict[str, Callable[[Path], None]] = {
    "bit flip": _flip,
    "truncated": _truncate,
    "replaced by another PDF": _replace_with_another_pdf,
    "deleted": _delete,
}


def copy_of_the_clean_build(clean_build: CleanBuild, folder: Path) -> tuple[Path, Path]:
    """(output folder, cache) copied from the clean build: warm, since what is tested is the output's stamp, not
    the cache; and what a build wrote, since the manifest names paths inside its folder (``copies_are_up_to_date``)."""
    out, cache = folder / "out", folder / "cache"
    shutil.copytree(clean_build.cache, cache)
    shutil.copytree(clean_build.out, out)
    return out, cache


@pytest.fixture(scope="module")
def copies_are_up_to_date(clean_build: CleanBuild, tmp_path_factory: pytest.TempPathFactory) -> None:
    """A copy of the clean build is up to date as it stands: so the damage alone sends a copy's build to work.
    (Copies are byte for byte the same, so one copy shows it for each test that damages one.)"""
    out, cache = copy_of_the_clean_build(clean_build, tmp_path_factory.mktemp("copy"))
    assert "up to date" in build(out, cache, "--only", "cards").stdout


@pytest.mark.parametrize("kind", DAMAGE)
def test_a_damaged_pdf_is_rebuilt_not_reported_up_to_date(clean_build: CleanBuild, copies_are_up_to_date: None,
                                                          tmp_path: Path, kind: str) -> None:
    reference = clean_build.pdfs
    out, cache = copy_of_the_clean_build(clean_build, tmp_path)
    pdf = out / CARDS
    DAMAGE[kind](pdf)
    again = build(out, cache, "--only", "cards")
    assert again.returncode == 0, again.stderr
    assert "up to date" not in again.stdout and f"wrote {pdf}" in again.stdout
    assert pdf.read_bytes() == reference[CARDS]
    assert recorded(out) == hashlib.sha256(reference[CARDS]).hexdigest()
    assert "up to date" in build(out, cache, "--only", "cards").stdout


# -- builds at the same time ---------------------------------------------------------


def test_builds_into_one_folder_at_the_same_time_publish_a_pdf_and_manifest_of_one_build(
    clean_build: CleanBuild, data_copy: Path, tmp_path: Path
) -> None:
    """Two builds of different data into one folder, started together, several times: each time both
    finish, the PDF is one build's and the manifest says so; a later plain build is right. Card sheets only: a
    build holds the folder's lock from deciding what is up to date to its last write, whatever it writes."""
    reference = clean_build.pdfs
    flavour = data_copy / GAME / "power-cards.yaml"
    flavour.write_text(flavour.read_text().replace("still opens the sky", "still lights the sky"))
    other_out, other_cache = tmp_path / "other", tmp_path / "other-cache"
    shutil.copytree(clean_build.cache, other_cache)  # warm: this build only gives the other build's PDFs
    assert build(other_out, other_cache, "--only", "cards", data=data_copy).returncode == 0
    other = pdfs(other_out)
    assert other[CARDS] != reference[CARDS]
    out, cache = tmp_path / "out", tmp_path / "cache"  # one cache too, cold at the first trial
    for trial in range(TRIALS):
        runs = [start_cli("build", GAME, "--only", "cards", "--data", str(root), "--out", str(out), "--force", cache=cache)
                for root in (REPO_DATA, data_copy)]
        for run in runs:
            _, stderr = run.communicate()
            assert run.returncode == 0, stderr
        cards = (out / CARDS).read_bytes()
        assert cards in (reference[CARDS], other[CARDS]), f"trial {trial}: the PDF is neither build's"
        assert recorded(out) == hashlib.sha256(cards).hexdigest(), f"trial {trial}: the manifest is the other build's"
        assert sorted(pdfs(out)) == [INK, CARDS], f"trial {trial}"
        same = reference if cards == reference[CARDS] else other
        assert (out / INK).read_bytes() == same[INK], f"trial {trial}: the two editions are of different builds"
        assert not temporaries(out, cache)
    final = build(out, cache, "--only", "cards")
    assert final.returncode == 0, final.stderr
    assert pdfs(out) == {CARDS: reference[CARDS], INK: reference[INK]}


def test_a_build_waits_for_the_folder_and_leaves_files_it_did_not_name_alone(
    clean_build: CleanBuild, tmp_path: Path
) -> None:
    reference = clean_build.pdfs
    out, cache = tmp_path / "out", tmp_path / "cache"
    shutil.copytree(clean_build.cache, cache)  # warm: what is tested is the output folder's lock
    (out / GAME).mkdir(parents=True)
    foreign = out / GAME / ".tmp-cards-a4.pdf.mine"  # a user's file, named as pantheon once named its own
    foreign.write_bytes(b"keep me")
    holder = hold_lock(out)
    waiting = start_cli("build", GAME, "--only", "cards", "--out", str(out), cache=cache)  # the folder's lock is tested
    try:
        assert waiting.stderr is not None
        assert "waiting for another build writing to" in waiting.stderr.readline()
        assert not (out / CARDS).exists()
    finally:
        holder.communicate("")
    _, stderr = waiting.communicate()
    assert waiting.returncode == 0, stderr
    assert pdfs(out) == {CARDS: reference[CARDS], INK: reference[INK]}
    assert foreign.read_bytes() == b"keep me"
    assert sorted(p.name for p in out.iterdir()) == [".pantheon-manifest.json", GAME]  # no lock file left


# -- kill -9 ----------------------------------------------------------------------------


def test_a_killed_build_leaves_nothing_the_next_build_trips_on(reference: dict[str, bytes], tmp_path: Path) -> None:
    out = tmp_path / "out"
    for delay in KILL_AFTER_S:
        cache = tmp_path / f"cache-{delay}"  # cold: the build writes cache entries too
        run = start_cli("build", GAME, "--out", str(out), "--force", cache=cache)
        time.sleep(delay)
        run.send_signal(signal.SIGKILL)
        run.communicate()
        after = build(out, cache)
        assert after.returncode == 0, after.stderr
        assert pdfs(out) == reference


def test_what_a_killed_build_left_is_swept_by_the_next_and_nothing_else(clean_build: CleanBuild, tmp_path: Path) -> None:
    reference = clean_build.pdfs
    out, cache = tmp_path / "out", tmp_path / "cache"
    shutil.copytree(clean_build.cache, cache)  # what a build left (the manifest names paths inside its folder)
    shutil.copytree(clean_build.out, out)
    left = [out / GAME / temp_name("cards-a4.pdf"), out / temp_name("glossary-a4.pdf")]
    for path in left:
        path.write_bytes(b"half written")
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "precious").write_text("keep me")
    planted = out / temp_name("theocracy")  # a pantheon name, but a link: neither removed nor entered
    planted.symlink_to(victim, target_is_directory=True)
    users = [out / ".tmp-notes", out / GAME / ".pantheon-tmp-notes"]  # other names: not ours
    for path in users:
        path.write_text("mine")
    after = build(out, cache, "--force")
    assert after.returncode == 0 and "wrote" in after.stdout, after.stderr
    assert not any(path.exists() for path in left)
    assert planted.is_symlink() and (victim / "precious").read_text() == "keep me"
    assert all(path.read_text() == "mine" for path in users)
    assert pdfs(out) == reference


# -- links planted in the output folder ----------------------------------------------------------


def test_a_link_where_the_old_lock_file_was_is_neither_followed_nor_touched(tmp_path: Path) -> None:
    """The folder itself is locked: no lock file is opened, so a link planted under the old lock file's name
    (or any name) points nowhere the build goes."""
    out, victim = tmp_path / "out", tmp_path / "victim.txt"
    out.mkdir()
    (out / ".pantheon-build.lock").symlink_to(victim)
    result = build(out, tmp_path / "cache", "--only", "cards")
    assert result.returncode == 0, result.stderr
    assert not victim.exists() and (out / ".pantheon-build.lock").is_symlink()
    assert sorted(pdfs(out)) == sorted([CARDS, INK])
