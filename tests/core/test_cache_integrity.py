"""Nothing in the cache can run code or change a build: every planted, damaged or forged entry is a miss.

Through the CLI, on one game's full build (cards and documents) from an empty
cache, plus `pantheon validate monotheism` (whose scenario proofs are cached):
the outputs must be byte-identical to a build from an empty cache, the command
must succeed with nothing on stderr, and every entry must be rewritten as a
clean run writes it.

Monotheism's scenario proofs are the costly entries (each one attacked is
solved again, about 1.5 s of CPU; all five, about 7 s). So the Monotheism
cache is taken from the test run's own cache (where they are solved once
per run), keeping the proofs the shipped data reads, and the fast tests
attack one scenario proof each (all five are read by the one reader in
games/monotheism/deck_checks.py); the ``slow`` ones attack all of them.

``make test`` runs the planted code (every entry of the build replaced: each
is then a miss, and none runs), the forged scenario proof and the unwritable
cache; the other damages are ``slow`` (``make test-all``): test_cachestore.py
makes each of them a miss on the entry format every cache shares, and the
planted code shows every cache reads through it.
"""
from __future__ import annotations

import io
import json
import marshal
import os
import pickle
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

import jinja2
import pytest
import yaml
from jinja2 import bccache

from pipeline import store as cachestore
from pipeline.cards.svgtemplates import CARD_DIR, TEMPLATE_ROOT
from pipeline.checks import validcache
from pipeline.data.dataset import default_data_root

from .cli_helpers import PROJECT
from .render_helpers import PickleBomb, cli_env, pdfs, run_cli, temporaries

GAME = "theocracy"
RESULTS = "results"
SCENARIO_PROOFS = f"{RESULTS}/monotheism-scenarios"
VALIDATED = validcache.NAMESPACE
SCENARIOS = default_data_root() / "monotheism" / "scenarios.yaml"


@dataclass(frozen=True)
class Clean:
    """A build from an empty cache: its PDFs, and the cache it left (entries by path inside it)."""

    cache: Path
    pdfs: dict[str, bytes]
    entries: dict[Path, bytes]


def entries(cache: Path) -> list[Path]:
    return sorted(p for p in cache.rglob(f"*{cachestore.ENTRY_SUFFIX}") if p.is_file())


def namespace_of(cache: Path, entry: Path) -> str:
    return str(entry.parent.relative_to(cache))


def entry_name(cache: Path, entry: Path) -> str:
    """``namespace/name``, as tests/core/cache_reads.py lists it."""
    return f"{namespace_of(cache, entry)}/{entry.name[: -len(cachestore.ENTRY_SUFFIX)]}"


def run_clean(*args: str, cache: Optional[Path] = None) -> None:
    """One command of a clean run: it must succeed and say nothing on stderr."""
    result = run_cli(*args, cache=cache)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "", result.stderr


def run_all(cache: Path, out: Path) -> None:
    run_clean("build", GAME, "--force", "--out", str(out), cache=cache)


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Clean:
    work = tmp_path_factory.mktemp("clean")
    cache, out = work / "cache", work / "out"
    run_all(cache, out)
    found = {p.relative_to(cache): p.read_bytes() for p in entries(cache)}
    namespaces = {namespace_of(cache, cache / p).split("/")[0] for p in found}
    assert {"art", "faces", "paints", "plans", "results"} <= namespaces  # every kind of cache is exercised
    return Clean(cache, pdfs(out), found)


def copy_results(source: Path, target: Path, skip: set[str]) -> None:
    """Every sealed entry of the results caches under ``source`` outside the namespaces ``skip``, as it is
    now (the run's cache may be written by another worker meanwhile: a half-written ``.tmp`` is not an
    entry, and an entry replaced under our feet is copied as it was or as it is, both sound)."""
    for entry in entries(source / RESULTS):
        if namespace_of(source, entry) in skip:
            continue
        copy = target / entry.relative_to(source)
        copy.parent.mkdir(parents=True, exist_ok=True)
        try:
            shutil.copyfile(entry, copy)
        except FileNotFoundError:  # swept by another worker between the listing and the copy: not needed
            continue


@pytest.fixture(scope="module")
def proofs(tmp_path_factory: pytest.TempPathFactory) -> Clean:
    """A cache holding what `pantheon validate monotheism` reads of the shipped data: its scenario proofs and
    every other result Monotheism's checks keep, and the game recorded clean. Its ``entries`` are the proofs
    and the record, as a clean run writes them.

    The proofs are solved at most once per test run, in the run's own cache, where the proofs of other tests'
    edited data sit beside them. Which are the shipped data's is read, not guessed: the validation that records
    the game clean here runs in a process that lists each entry it uses (tests/core/cache_reads.py), and the
    proofs it did not use are dropped."""
    run_clean("validate", "monotheism")  # in the run's cache (PANTHEON_CACHE, tests/conftest.py)
    work = tmp_path_factory.mktemp("proofs")
    cache, listing = work / "cache", work / "read.txt"
    copy_results(cachestore.cache_root(), cache, skip={VALIDATED})
    result = subprocess.run([sys.executable, "-m", "tests.core.cache_reads", str(listing), "validate", "monotheism"],
                            capture_output=True, text=True, env=cli_env(cache), cwd=PROJECT)
    assert (result.returncode, result.stderr) == (0, ""), result.stderr
    used = set(listing.read_text().split())
    for entry in entries(cache):
        if namespace_of(cache, entry) == SCENARIO_PROOFS and entry_name(cache, entry) not in used:
            entry.unlink()
    found = {p.relative_to(cache): p.read_bytes() for p in entries(cache)
             if namespace_of(cache, p) in (SCENARIO_PROOFS, VALIDATED)}
    assert len([p for p in found if str(p.parent) == SCENARIO_PROOFS]) == len(yaml.safe_load(SCENARIOS.read_text())["scenarios"])
    assert [p for p in found if str(p.parent) == VALIDATED]
    return Clean(cache, {}, found)


def warm_copy(clean: Clean, tmp_path: Path) -> Path:
    cache = tmp_path / "cache"
    shutil.copytree(clean.cache, cache)
    return cache


def assert_like_a_clean_run(clean: Clean, cache: Path, tmp_path: Path) -> None:
    """Run again on ``cache``: the same PDFs as a cold build, and every entry rewritten clean."""
    out = tmp_path / "out"
    run_all(cache, out)
    assert pdfs(out) == clean.pdfs
    assert_entries_clean(clean, cache)
    assert not temporaries(cache, out)


def assert_validates_like_a_clean_run(proofs: Clean, cache: Path) -> None:
    """`pantheon validate monotheism` on ``cache``: clean, and every scenario proof rewritten as solved."""
    run_clean("validate", "monotheism", cache=cache)
    assert_entries_clean(proofs, cache)
    assert not temporaries(cache)


def assert_entries_clean(clean: Clean, cache: Path) -> None:
    for relative, good in clean.entries.items():
        assert (cache / relative).read_bytes() == good, relative


def attacked(proofs: Clean, tmp_path: Path, *, every_proof: bool = False) -> tuple[Path, list[Path]]:
    """A copy of the Monotheism cache and the entries to attack in it: the remembered validation (while it
    holds, the proofs go unread: core/validcache.py) and the first scenario proof, or ``every_proof``.
    Each attacked proof is solved again, so a check that the proofs are rewritten clean also shows they
    were read, not skipped."""
    cache = tmp_path / "proofs"
    # Linked, not copied: it holds much of the run's cache. Writes to the cache replace files (a new
    # inode), and each entry handed back for attack gets a file of its own below.
    shutil.copytree(proofs.cache, cache, copy_function=os.link)
    remembered = [entry for entry in entries(cache) if namespace_of(cache, entry) == VALIDATED]
    solved = [entry for entry in entries(cache) if namespace_of(cache, entry) == SCENARIO_PROOFS]
    assert remembered and solved
    targets = remembered + (solved if every_proof else solved[:1])
    for entry in targets:
        raw = entry.read_bytes()
        entry.unlink()
        entry.write_bytes(raw)
    return cache, targets


# -- planted code ------------------------------------------------------------------


def bombs(marker: Path) -> dict[str, bytes]:
    """Payloads that run code (creating ``marker``) when read the way the old caches read their files."""
    code = marshal.dumps(compile(f"open({str(marker)!r}, 'w').close()", "bomb", "exec"))
    pickled = pickle.dumps(PickleBomb(marker))
    return {"pickle": pickled, "marshal": code, "jinja": bccache.bc_magic + pickled + code}


def assert_live(payloads: dict[str, bytes], marker: Path) -> None:
    """Each payload really runs code when loaded as the old caches loaded it (else the test proves nothing)."""
    loaders: dict[str, Callable[[bytes], None]] = {
        "pickle": lambda raw: pickle.loads(raw),
        "marshal": lambda raw: exec(marshal.loads(raw)),
        "jinja": lambda raw: bccache.Bucket(jinja2.Environment(), "k", "c").load_bytecode(io.BytesIO(raw)),
    }
    for kind, raw in payloads.items():
        loaders[kind](raw)
        assert marker.exists(), kind
        marker.unlink()


def jinja_cache_files(cache: Path) -> list[Path]:
    """Where jinja's file-system bytecode cache would look for each card template."""
    store = jinja2.FileSystemBytecodeCache(str(cache / "jinja"))
    cards = TEMPLATE_ROOT / CARD_DIR
    return [
        cache / "jinja" / (store.pattern % store.get_cache_key(path.relative_to(cards).as_posix(), str(path)))
        for path in sorted(cards.rglob("*.svg.j2"))
    ]


def test_code_planted_in_any_cache_never_runs(clean: Clean, proofs: Clean, tmp_path: Path) -> None:
    marker = tmp_path / "code-ran"
    payloads = bombs(marker)
    assert_live(payloads, marker)
    cache = warm_copy(clean, tmp_path)
    mono, attacked_proofs = attacked(proofs, tmp_path)
    kinds = list(payloads)
    for index, entry in enumerate(entries(cache) + attacked_proofs):  # every entry a bomb, of each kind in turn
        entry.write_bytes(payloads[kinds[index % len(kinds)]])
    legacy = [  # the names the old pickle, marshal and bytecode caches read
        cache / "art" / "0123456789ab" / f"{'a' * 20}.pickle",
        cache / "faces" / GAME / f"{'b' * 24}.marshal",
        cache / "results" / "yaml" / f"{'c' * 40}.marshal",
        *jinja_cache_files(cache),
    ]
    for index, path in enumerate(legacy):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(payloads[kinds[index % len(kinds)]])
    assert_like_a_clean_run(clean, cache, tmp_path)
    assert_validates_like_a_clean_run(proofs, mono)
    assert not marker.exists()


# -- damaged and forged entries ----------------------------------------------------


def _flip_a_bit(raw: bytes) -> bytes:
    flipped = bytearray(raw)
    flipped[len(raw) // 2] ^= 0x10
    return bytes(flipped)


WHOLE_EDITS = {b"true": b"false", b"[]": b'[[["deck"],"forged finding"]]'}


def _edit(raw: bytes) -> bytes:
    """Change one character of the data (the last digit or letter whose change keeps it well-formed
    JSON; data without one is replaced: ``true`` by ``false``, no findings by one), leaving the seal."""
    header, _, payload = raw.partition(b"\n")
    if payload in WHOLE_EDITS:
        return header + b"\n" + WHOLE_EDITS[payload]
    for index in range(len(payload) - 1, -1, -1):
        char = payload[index : index + 1]
        if not char.isalnum():
            continue
        replacement = (b"7" if char != b"7" else b"8") if char.isdigit() else (b"q" if char != b"q" else b"z")
        edited = payload[:index] + replacement + payload[index + 1 :]
        try:
            json.loads(edited)
        except ValueError:
            continue
        return header + b"\n" + edited
    raise AssertionError(f"nothing to edit in {payload[:60]!r}")


DAMAGE: dict[str, Callable[[bytes], bytes]] = {
    "edited": _edit,
    "truncated": lambda raw: raw[: len(raw) // 2],
    "bit-flipped": _flip_a_bit,
    "emptied": lambda raw: b"",
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", DAMAGE)
def test_damaged_entries_in_every_cache_are_misses(clean: Clean, proofs: Clean, tmp_path: Path, kind: str) -> None:
    """(Slow: test_cachestore.py's test_a_damaged_entry_is_a_miss_and_a_write_repairs_it and
    test_every_single_bit_flip_is_a_miss cover each damage fast.)"""
    cache = warm_copy(clean, tmp_path)
    mono, attacked_proofs = attacked(proofs, tmp_path, every_proof=True)
    for entry in entries(cache) + attacked_proofs:
        entry.write_bytes(DAMAGE[kind](entry.read_bytes()))
    assert_like_a_clean_run(clean, cache, tmp_path)
    assert_validates_like_a_clean_run(proofs, mono)


@pytest.mark.slow
def test_entries_swapped_between_keys_are_misses(clean: Clean, proofs: Clean, tmp_path: Path) -> None:
    """Each entry gets the next one's (intact, well sealed) bytes: right content under the wrong key.
    (Slow: test_cachestore.py's test_an_entry_swapped_with_another_is_a_miss covers it fast.)"""
    cache = warm_copy(clean, tmp_path)
    mono, attacked_proofs = attacked(proofs, tmp_path, every_proof=True)
    for found in (entries(cache), attacked_proofs):
        contents = [entry.read_bytes() for entry in found]
        for entry, content in zip(found, contents[1:] + contents[:1]):
            entry.write_bytes(content)
    assert_like_a_clean_run(clean, cache, tmp_path)
    assert_validates_like_a_clean_run(proofs, mono)


def _wrong_types(value: Any) -> Any:
    """The same data with every number and true/false turned into text (same nesting, wrong types)."""
    if isinstance(value, dict):
        return {key: _wrong_types(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_wrong_types(item) for item in value]
    if isinstance(value, (bool, int, float)):
        return str(value)
    return value


def forge(cache: Path, entry: Path, change: Callable[[Any], Any]) -> None:
    """Rewrite ``entry`` with changed data and a valid seal: what only a deliberate forger (or a bug) makes."""
    namespace, name = namespace_of(cache, entry), entry.name[: -len(cachestore.ENTRY_SUFFIX)]
    plain = cachestore.read(namespace, name, lambda value: value, root=cache)
    assert plain is not None, entry
    assert cachestore.write(namespace, name, change(plain), root=cache)


@pytest.mark.slow
def test_well_sealed_entries_of_the_wrong_types_are_misses(clean: Clean, tmp_path: Path) -> None:
    """(Slow: test_cachestore.py's test_a_well_sealed_entry_of_the_wrong_shape_is_a_miss and the forged proof
    below cover it fast.)"""
    cache = warm_copy(clean, tmp_path)
    for entry in entries(cache):  # the scenario proofs: see the test below
        forge(cache, entry, _wrong_types)
    assert len(entries(cache)) > 10
    assert_like_a_clean_run(clean, cache, tmp_path)


def test_a_well_sealed_scenario_proof_of_the_wrong_shape_is_a_miss(proofs: Clean, tmp_path: Path) -> None:
    cache, forged = attacked(proofs, tmp_path)
    for entry in forged:
        forge(cache, entry, lambda plain: {"forged": [1, 2, 3]})
    assert_validates_like_a_clean_run(proofs, cache)


# -- caches that cannot be written -----------------------------------------------------


def test_a_cache_that_cannot_be_written_is_skipped(clean: Clean, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    out = tmp_path / "out"
    result = run_cli("build", GAME, "--out", str(out), cache=blocker / "cache")
    assert (result.returncode, result.stderr) == (0, "")
    assert pdfs(out) == clean.pdfs
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "out"]
    assert not temporaries(out)


FULL_DISK_SCRIPT = """
mount -t tmpfs -o size=64k tmpfs "$1" || exit 99
PANTHEON_CACHE="$1/cache" "$2" -m pipeline build {game} --out "$3"
echo "exit=$?"
echo "temporaries=$(find "$1" -name '*.tmp' | wc -l)"
echo "available=$(df --output=avail "$1" | tail -1 | tr -d ' ')"
"""


def test_a_full_disk_under_the_cache_is_skipped(clean: Clean, tmp_path: Path) -> None:
    """A real full disk: the cache on a 64 KiB tmpfs (mounted in a private namespace, so it needs
    user namespaces; skipped where the machine does not allow them)."""
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode:
        pytest.skip("needs unshare with user and mount namespaces")
    tiny, out = tmp_path / "tiny", tmp_path / "out"
    tiny.mkdir()
    script = FULL_DISK_SCRIPT.format(game=GAME)
    result = subprocess.run(
        ["unshare", "-rm", "sh", "-c", script, "sh", str(tiny), sys.executable, str(out)], capture_output=True, text=True
    )
    if result.returncode == 99:
        pytest.skip(f"cannot mount a tmpfs here: {result.stderr.strip()}")
    report = dict(line.split("=", 1) for line in result.stdout.splitlines() if "=" in line)
    assert report["exit"] == "0", result.stderr
    assert "error" not in result.stderr
    assert report["available"] == "0"  # the disk did fill up
    assert report["temporaries"] == "0"
    assert pdfs(out) == clean.pdfs
    assert not temporaries(out)
