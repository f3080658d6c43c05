"""The one cache entry format: sealed JSON, every bad entry a miss, writes atomic, skipped when impossible."""
from __future__ import annotations

import errno
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pipeline import store as cachestore
from pipeline.base import shape

from .render_helpers import PickleBomb, hold_lock

NAMESPACE = "results/test"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache root, which this process has not swept yet (each test's folder is new)."""
    root = tmp_path / "cache"
    monkeypatch.setenv(cachestore.CACHE_ENV, str(root))
    return root


def read_in_a_new_process(name: str) -> None:
    """Read entry ``name`` from the cache (``PANTHEON_CACHE``) in a process of its own, as the next command would."""
    subprocess.run([sys.executable, "-c", "import sys; from pipeline import store as cachestore; "
                    f"cachestore.read({NAMESPACE!r}, sys.argv[1], lambda value: value)", name],
                   check=True, capture_output=True, text=True)


def pairs(plain: Any) -> list[tuple[str, int]]:
    """A reader that wants [text, whole number] pairs."""
    return [(shape.text(a), shape.integer(b)) for a, b in (shape.sequence(p, 2) for p in shape.sequence(plain))]


VALUE = [["zeus", 3], ["hera", 4]]


def test_an_entry_is_sealed_json_and_reads_back(cache: Path) -> None:
    assert cachestore.write(NAMESPACE, "a", VALUE)
    raw = cachestore.entry_path(NAMESPACE, "a").read_bytes()
    header, _, payload = raw.partition(b"\n")
    assert header.startswith(cachestore.FORMAT.encode() + b" ")
    assert json.loads(payload) == VALUE
    assert cachestore.read(NAMESPACE, "a", pairs) == [("zeus", 3), ("hera", 4)]


def _edited(raw: bytes) -> bytes:
    return raw.replace(b"zeus", b"ares")


def _truncated(raw: bytes) -> bytes:
    return raw[: len(raw) // 2]


def _old_format(raw: bytes) -> bytes:
    return raw.replace(cachestore.FORMAT.encode(), b"pantheon-cache/0")


def _no_header(raw: bytes) -> bytes:
    return raw.partition(b"\n")[2]


DAMAGE = {
    "edited": _edited,
    "truncated": _truncated,
    "emptied (a touched file)": lambda raw: b"",
    "old format": _old_format,
    "payload alone": _no_header,
    "garbage": lambda raw: b"\x80\x04\x95 not a cache entry",
}


@pytest.mark.parametrize("kind", DAMAGE)
def test_a_damaged_entry_is_a_miss_and_a_write_repairs_it(cache: Path, kind: str) -> None:
    cachestore.write(NAMESPACE, "a", VALUE)
    path = cachestore.entry_path(NAMESPACE, "a")
    good = path.read_bytes()
    path.write_bytes(DAMAGE[kind](good))
    assert cachestore.read(NAMESPACE, "a", pairs) is None
    cachestore.write(NAMESPACE, "a", VALUE)
    assert path.read_bytes() == good


def test_every_single_bit_flip_is_a_miss(cache: Path) -> None:
    cachestore.write(NAMESPACE, "a", VALUE)
    path = cachestore.entry_path(NAMESPACE, "a")
    good = path.read_bytes()
    for position in range(len(good)):
        for bit in (0, 3, 7):
            flipped = bytearray(good)
            flipped[position] ^= 1 << bit
            path.write_bytes(bytes(flipped))
            assert cachestore.read(NAMESPACE, "a", pairs) is None, (position, bit)


def test_an_entry_swapped_with_another_is_a_miss(cache: Path) -> None:
    """The digest covers the entry's name and namespace, so right content under the wrong key fails."""
    cachestore.write(NAMESPACE, "a", VALUE)
    cachestore.write(NAMESPACE, "b", [["ares", 9]])
    cachestore.write("results/other", "a", [["ares", 9]])
    a, b, other = (cachestore.entry_path(ns, n) for ns, n in ((NAMESPACE, "a"), (NAMESPACE, "b"), ("results/other", "a")))
    a_bytes, b_bytes = a.read_bytes(), b.read_bytes()
    a.write_bytes(b_bytes)
    b.write_bytes(a_bytes)
    assert cachestore.read(NAMESPACE, "a", pairs) is None
    assert cachestore.read(NAMESPACE, "b", pairs) is None
    a.write_bytes(other.read_bytes())  # the same name in another namespace
    assert cachestore.read(NAMESPACE, "a", pairs) is None


@pytest.mark.parametrize(
    "stored",
    [{"zeus": 3}, [["zeus", "3"]], [["zeus", 3.0]], [["zeus", True]], [["zeus"]], [[3, "zeus"]], "zeus", None, [[["zeus"], 3]]],
)
def test_a_well_sealed_entry_of_the_wrong_shape_is_a_miss(cache: Path, stored: Any) -> None:
    assert cachestore.write(NAMESPACE, "a", stored)
    assert cachestore.read(NAMESPACE, "a", pairs) is None


def test_deeply_nested_json_is_a_miss_not_a_crash(cache: Path) -> None:
    path = cachestore.entry_path(NAMESPACE, "a")
    path.parent.mkdir(parents=True)
    payload = b"[" * 100_000 + b"]" * 100_000
    path.write_bytes(cachestore.sealed(NAMESPACE, "a", payload))
    assert cachestore.read(NAMESPACE, "a", lambda plain: plain) is None


def test_stored_code_is_never_run(cache: Path, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    bomb = pickle.dumps(PickleBomb(marker))
    pickle.loads(bomb)  # the payload is live: loading it with pickle runs it
    assert marker.exists()
    marker.unlink()
    path = cachestore.entry_path(NAMESPACE, "a")
    path.parent.mkdir(parents=True)
    path.write_bytes(bomb)
    assert cachestore.read(NAMESPACE, "a", lambda plain: plain) is None
    path.write_bytes(cachestore.sealed(NAMESPACE, "a", bomb))  # even well sealed
    assert cachestore.read(NAMESPACE, "a", lambda plain: plain) is None
    assert not marker.exists()


@pytest.mark.parametrize("value", [float("nan"), {1, 2}, b"bytes", object()])
def test_a_value_json_cannot_hold_is_not_written(cache: Path, value: Any) -> None:
    assert not cachestore.write(NAMESPACE, "a", value)
    assert not list(cache.rglob("*.json")) and not list(cache.rglob("*.tmp"))


def test_a_cache_that_cannot_be_created_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(cachestore.CACHE_ENV, str(blocker / "cache"))
    assert not cachestore.write(NAMESPACE, "a", VALUE)
    assert cachestore.read(NAMESPACE, "a", pairs) is None


def test_a_full_disk_leaves_the_old_entry_and_no_temporary_file(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cachestore.write(NAMESPACE, "a", VALUE)
    good = cachestore.entry_path(NAMESPACE, "a").read_bytes()
    real_write = Path.write_bytes

    def disk_full(self: Path, data: bytes) -> int:
        real_write(self, data[: len(data) // 2])  # part of it reached the disk
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with monkeypatch.context() as patch:
        patch.setattr(Path, "write_bytes", disk_full)
        assert not cachestore.write(NAMESPACE, "a", [["ares", 1]])
        assert not cachestore.write(NAMESPACE, "b", VALUE)
    assert cachestore.entry_path(NAMESPACE, "a").read_bytes() == good
    assert not cachestore.entry_path(NAMESPACE, "b").exists()
    assert not list(cache.rglob("*.tmp"))


def test_temporaries_a_killed_writer_left_are_swept_by_the_next_process(cache: Path) -> None:
    cachestore.write(NAMESPACE, "a", VALUE)
    left = [cache / "art" / "x.json.4242.tmp", cachestore.entry_path(NAMESPACE, "a").with_name("a.json.77.tmp")]
    for path in left:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"half an entry")
    assert cachestore.read(NAMESPACE, "a", pairs) is not None  # (this process swept once, when it wrote)
    read_in_a_new_process("a")
    assert not any(path.exists() for path in left)


def test_a_live_writers_temporary_is_not_swept(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While another process holds the cache's lock its temporaries are live: they stay (and a write
    that would wait too long for the lock is skipped)."""
    monkeypatch.setattr(cachestore, "WRITE_LOCK_TIMEOUT_S", 0.2)
    cache.mkdir()
    live = cache / "art" / "y.json.999.tmp"
    live.parent.mkdir()
    live.write_bytes(b"being written")
    holder = hold_lock(cache, cachestore.LOCK_NAME)
    try:
        cachestore.read(NAMESPACE, "a", pairs)
        assert not cachestore.write(NAMESPACE, "a", VALUE)
        assert live.exists()
    finally:
        holder.communicate("")
    read_in_a_new_process("a")  # the lock is free now: what is left was left by a process gone
    assert not live.exists()
