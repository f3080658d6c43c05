"""The attack suite: one test per class of docs/reliability.md's "Attacks and what holds them" table.

Each test attacks as a user (or another user sharing a folder) could: through
the command line on Theocracy's card sheet (the fastest real build), in a
fresh process where the process is what is attacked (its environment, its
memory, a lock another process holds), in this process otherwise. Caches are
copied from one warm build per module, so each attack starts from what a real
run leaves.
"""
from __future__ import annotations

import hashlib
import os
import random
import resource
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

from pipeline import store
from pipeline.base.safefile import folder_digest
from pipeline.base.textsafety import LINE_LIMIT
from pipeline.cards.pdfwrite import temp_name

from .render_helpers import cli_env, pdfs, run_cli

GAME = "theocracy"
CARDS = f"{GAME}/cards-a4.pdf"
REPO_DATA = Path(__file__).resolve().parents[2] / "data"
FUZZ_SEED = 31
FUZZ_ROUNDS = 2
FUZZ_SHARE = 0.3  # of the entries damaged each round


@dataclass(frozen=True)
class Warm:
    """One cold build of the card sheet: its bytes and the cache it left (only read; tests copy it)."""

    pdf: bytes
    cache: Path


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> Warm:
    work = tmp_path_factory.mktemp("warm")
    done = cards(work / "out", work / "cache")
    assert done.returncode == 0, done.stderr
    return Warm((work / "out" / CARDS).read_bytes(), work / "cache")


def cards(out: Path, cache: Path, *extra: str, **options: object) -> subprocess.CompletedProcess[str]:
    return run_cli("build", GAME, "--only", "cards", "--data", str(REPO_DATA), "--out", str(out), *extra,
                   cache=cache, **options)  # type: ignore[arg-type]


def warm_copy(warm: Warm, tmp_path: Path) -> Path:
    cache = tmp_path / "cache"
    shutil.copytree(warm.cache, cache, symlinks=True)
    return cache


def one_error_line(result: subprocess.CompletedProcess[str], code: int) -> str:
    assert result.returncode == code, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


# -- 1. touch only what is ours ---------------------------------------------------------------


def test_a_build_into_a_folder_holding_other_things_touches_none_of_them(warm: Warm, tmp_path: Path) -> None:
    out, victim = tmp_path / "home", tmp_path / "victim"
    (out / GAME).mkdir(parents=True)
    victim.mkdir()
    (victim / ".tmp-precious").write_text("keep")
    theirs = {out / ".tmp-notes": "a", out / GAME / ".tmp-x.pdf": "b", out / "notes.txt": "c",
              out / GAME / ".pantheon-tmp-mine": "d"}
    for path, text in theirs.items():
        path.write_text(text)
    (out / "linked").symlink_to(victim, target_is_directory=True)
    (out / temp_name("linked")).symlink_to(victim, target_is_directory=True)  # our name, but a link
    ours = [out / temp_name("cards-a4.pdf"), out / GAME / temp_name("cards-a4.pdf")]
    for path in ours:
        path.write_bytes(b"left by a killed build")
    stale = out / GAME / temp_name("mpc")
    stale.mkdir()
    (stale / "a.png").write_bytes(b"left by a killed export")
    done = cards(out, warm_copy(warm, tmp_path))
    assert done.returncode == 0, done.stderr
    assert all(path.read_text() == text for path, text in theirs.items())
    assert (victim / ".tmp-precious").read_text() == "keep"
    assert (out / "linked").is_symlink()
    assert not any(path.exists() for path in ours) and not stale.exists()
    links = {p.name for p in out.iterdir() if p.is_symlink()}
    assert len(links) == 2  # both links stand, neither was entered
    assert {p.name for p in out.iterdir()} - links == {".pantheon-manifest.json", "notes.txt", ".tmp-notes", GAME}
    assert (out / CARDS).read_bytes() == warm.pdf


def test_out_at_a_file_is_refused_and_the_file_kept(pantheon: Callable[..., subprocess.CompletedProcess[str]],
                                                     warm: Warm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(store.CACHE_ENV, str(warm_copy(warm, tmp_path)))
    target = tmp_path / "report.txt"
    target.write_text("mine")
    line = one_error_line(pantheon("build", GAME, "--only", "cards", "--out", str(target)), 1)
    assert "report.txt" in line and target.read_text() == "mine"
    real = tmp_path / "real"  # a link the user names is the folder they mean
    real.mkdir()
    (tmp_path / "named").symlink_to(real, target_is_directory=True)
    assert pantheon("build", GAME, "--only", "cards", "--out", str(tmp_path / "named")).returncode == 0
    assert (real / CARDS).read_bytes() == warm.pdf


# -- 2. never follow a link we did not make ---------------------------------------------------


def test_links_planted_in_the_output_folder_are_never_followed(pantheon: Callable[..., subprocess.CompletedProcess[str]],
                                                               warm: Warm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In place of the card sheet, the manifest and the lock file older versions made."""
    monkeypatch.setenv(store.CACHE_ENV, str(warm_copy(warm, tmp_path)))
    out = tmp_path / "out"
    (out / GAME).mkdir(parents=True)
    victims = {}
    for planted in (CARDS, ".pantheon-manifest.json", ".pantheon-build.lock"):
        victim = tmp_path / f"victim-{len(victims)}"
        victim.write_text("keep me")
        (out / planted).symlink_to(victim)
        victims[planted] = victim
    done = pantheon("build", GAME, "--only", "cards", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert all(victim.read_text() == "keep me" for victim in victims.values())
    assert (out / CARDS).read_bytes() == warm.pdf and not (out / CARDS).is_symlink()


# -- 3. a cache can only make things faster (and the cache/output fuzz) ------------------------


def _damage(entry: Path, how: str, tmp_path: Path) -> None:
    if how == "flip":
        raw = bytearray(entry.read_bytes())
        raw[len(raw) // 2] ^= 0x20
        entry.write_bytes(bytes(raw))
    elif how == "truncate":
        entry.write_bytes(entry.read_bytes()[: len(entry.read_bytes()) // 3])
    elif how == "resealed without the key":  # another user: the old, unkeyed seal over forged data
        header, _, payload = entry.read_bytes().partition(b"\n")
        forged = payload.replace(b"1", b"9")
        digest = hashlib.blake2b(digest_size=store.DIGEST_SIZE)
        for part in (store.FORMAT, entry.parent.name, entry.stem):
            digest.update(part.encode() + b"\0")
        digest.update(forged)
        entry.write_bytes(f"{store.FORMAT} {digest.hexdigest()}\n".encode() + forged)
    else:
        entry.unlink()
        if how == "named pipe":
            os.mkfifo(entry)
        elif how == "link to /dev/zero":
            entry.symlink_to("/dev/zero")
        elif how == "folder":
            entry.mkdir()


DAMAGE = ("flip", "truncate", "resealed without the key", "named pipe", "link to /dev/zero", "folder")


def test_fuzz_a_damaged_cache_and_output_folder_give_the_cold_builds_bytes(warm: Warm, tmp_path: Path) -> None:
    """Seeded rounds: damage a share of the cache's entries (every kind of damage) and the output (flipped,
    truncated, replaced by a link or a pipe); the build ends in time, exit 0, with a cold build's bytes."""
    chance = random.Random(FUZZ_SEED)
    for round_ in range(FUZZ_ROUNDS):
        cache, out = warm_copy(warm, tmp_path / str(round_)), tmp_path / str(round_) / "out"
        assert cards(out, cache).returncode == 0
        entries = sorted(p for p in cache.rglob("*.json") if p.is_file())
        for entry in chance.sample(entries, max(1, int(len(entries) * FUZZ_SHARE))):
            _damage(entry, chance.choice(DAMAGE), tmp_path)
        _damage(out / CARDS, chance.choice(("flip", "truncate", "named pipe", "link to /dev/zero")), tmp_path)
        done = cards(out, cache, timeout=120)
        assert done.returncode == 0, f"round {round_}: {done.stderr}"
        assert pdfs(out)[CARDS] == warm.pdf, f"round {round_}"  # (the ink edition beside it is its own file)


def test_a_cache_key_another_user_could_read_skips_the_cache(pantheon: Callable[..., subprocess.CompletedProcess[str]],
                                                             warm: Warm, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = warm_copy(warm, tmp_path)
    monkeypatch.setenv(store.CACHE_ENV, str(cache))
    (cache / store.KEY_NAME).chmod(0o644)
    out = tmp_path / "out"
    done = pantheon("build", GAME, "--only", "cards", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert (out / CARDS).read_bytes() == warm.pdf


# -- 4. same inputs, same bytes, anywhere -----------------------------------------------------


def _umask_077() -> None:
    os.umask(0o077)


ENVIRONMENTS: dict[str, tuple[dict[str, str], Callable[[], None] | None]] = {
    "SOURCE_DATE_EPOCH": ({"SOURCE_DATE_EPOCH": "1000000000"}, None),
    "TZ": ({"TZ": "Pacific/Kiritimati"}, None),
    "locale": ({"LC_ALL": "C.UTF-8", "LANG": "tr_TR.UTF-8"}, None),
    "umask": ({}, _umask_077),
    "PYTHONHASHSEED": ({"PYTHONHASHSEED": "12345"}, None),
}


@pytest.mark.parametrize("name", [*ENVIRONMENTS, "current folder"])
def test_the_same_build_gives_the_same_bytes_in_any_environment(warm: Warm, tmp_path: Path, name: str) -> None:
    """Card sheets under each; the documents too under SOURCE_DATE_EPOCH, which reportlab read whenever a
    document was begun."""
    extra, before = ENVIRONMENTS.get(name, ({}, None))
    cache = warm_copy(warm, tmp_path)
    only = [] if name == "SOURCE_DATE_EPOCH" else ["--only", "cards"]
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "pipeline", "build", GAME, *only, "--data", str(REPO_DATA),
                           "--out", str(out)], capture_output=True, text=True, env={**cli_env(cache), **extra},
                          preexec_fn=before, cwd=tmp_path if name == "current folder" else None)
    assert done.returncode == 0, done.stderr
    assert (out / CARDS).read_bytes() == warm.pdf
    assert (out / CARDS).stat().st_mode & 0o777 == 0o644  # not the umask's
    if not only:
        plain = tmp_path / "plain"
        assert run_cli("build", GAME, "--only", "docs", "--data", str(REPO_DATA), "--out", str(plain),
                       cache=cache).returncode == 0
        assert {name: data for name, data in pdfs(out).items() if not name.startswith(CARDS[:-len('.pdf')])} == pdfs(plain)


# -- 5. numbers are numbers -------------------------------------------------------------------


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e999"])
def test_a_number_option_that_is_not_finite_is_a_usage_error(pantheon: Callable[..., subprocess.CompletedProcess[str]],
                                                             tmp_path: Path, value: str) -> None:
    for args in (["build", GAME, "--only", "cards", "--out", str(tmp_path), "--offset-across", value],
                 ["printer", "set", "office", "--offset-across", value, "--offset-along", "0"],
                 ["watch", "--once", "--interval", value]):
        line = one_error_line(pantheon(*args), 2)
        assert "not a finite number" in line
    assert not any(tmp_path.iterdir())


def test_a_bad_stored_printer_profile_is_named_and_the_others_keep_working(
        pantheon: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert pantheon("printer", "set", "office", "--offset-across", "1", "--offset-along", "0.5").returncode == 0
    profiles = tmp_path / "config" / "pantheon-press" / "printers.yaml"
    profiles.write_text(profiles.read_text() + "  broken:\n    offset_across_mm: .nan\n    offset_along_mm: 0\n")
    listed = pantheon("printer", "list")
    assert listed.returncode == 0 and "office: across +1 mm" in listed.stdout
    assert "printers.yaml:6:" in listed.stderr and "printer 'broken'" in listed.stderr
    used = pantheon("build", GAME, "--only", "cards", "--out", str(tmp_path / "out"), "--printer", "broken")
    assert "printer 'broken'" in one_error_line(used, 1) and not (tmp_path / "out").exists()
    assert pantheon("printer", "set", "home", "--offset-across", "0", "--offset-along", "0").returncode == 0
    assert ".nan" in profiles.read_text()  # kept as the user wrote it
    too_far = pantheon("printer", "set", "wide", "--offset-across", "50", "--offset-along", "0")
    assert "larger than the widest margin" in one_error_line(too_far, 1) and "wide" not in profiles.read_text()


# -- 8. bounded work on any input -------------------------------------------------------------


def test_a_huge_file_beside_the_data_is_not_read_into_memory(data_copy_of: Callable[..., Path], tmp_path: Path) -> None:
    """A 600 MB (sparse) scan in a game folder, digested by a process allowed 400 MB of address space."""
    root = data_copy_of(GAME)
    with open(root / GAME / "scan.tiff", "wb") as scan:
        scan.truncate(600 << 20)
    limit = 400 << 20
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from pathlib import Path; from pipeline.base.safefile import folder_digest;"
         " print(folder_digest(Path(sys.argv[1])))", str(root / GAME)],
        capture_output=True, text=True, preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == folder_digest(root / GAME)
    os.utime(root / GAME / "scan.tiff", ns=(1, 1))
    assert folder_digest(root / GAME) != done.stdout.strip()  # stood for by what stat says: a change counts


def test_an_over_long_name_is_refused_in_one_short_line(pantheon: Callable[..., subprocess.CompletedProcess[str]],
                                                        data_copy_of: Callable[..., Path]) -> None:
    root = data_copy_of(GAME)
    believers = root / GAME / "believers.yaml"
    believers.write_text(believers.read_text().replace("name: Lamp Keeper", "name: " + "Lamp" * 380_000, 1))
    done = pantheon("validate", GAME, "--data", str(root))
    assert done.returncode == 1
    assert all(len(line) <= LINE_LIMIT for line in (done.stdout + done.stderr).splitlines())
    assert "believers.yaml:6:" in done.stdout


@pytest.mark.parametrize("char", ["\x85", "\u2028", "\u2029"])
@pytest.mark.parametrize("quoted", [False, True])
def test_a_unicode_line_break_is_named_where_it_stands(pantheon: Callable[..., subprocess.CompletedProcess[str]],
                                                       data_copy_of: Callable[..., Path], char: str, quoted: bool) -> None:
    root = data_copy_of(GAME)
    believers = root / GAME / "believers.yaml"
    value = f'"Lamp{char}Keeper"' if quoted else f"Lamp{char}Keeper"
    believers.write_text(believers.read_text(encoding="utf-8").replace("name: Lamp Keeper", f"name: {value}", 1),
                         encoding="utf-8")
    done = pantheon("validate", GAME, "--data", str(root))
    first = done.stdout.splitlines()[0]
    assert done.returncode == 1
    assert "believers.yaml:6:" in first and f"U+{ord(char):04X}" in first
