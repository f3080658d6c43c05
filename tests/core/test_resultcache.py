"""The result cache computes once per key, survives a new process, and never serves a stale key."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.core import resultcache


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(resultcache.CACHE_ENV, str(tmp_path))
    return tmp_path


def test_computes_once_per_key(cache: Path) -> None:
    calls: list[int] = []

    def compute() -> list[int]:
        calls.append(1)
        return [1, 2]

    assert resultcache.cached_json("ns", ["a", "b"], compute) == [1, 2]
    assert resultcache.cached_json("ns", ["a", "b"], compute) == [1, 2]
    assert len(calls) == 1
    assert resultcache.cached_json("ns", ["a", "c"], compute) == [1, 2]
    assert len(calls) == 2
    assert len(list((cache / resultcache.RESULTS_DIR / "ns").glob("*.json"))) == 2


def test_a_corrupt_entry_is_recomputed(cache: Path) -> None:
    resultcache.cached_json("ns", ["k"], lambda: {"x": 1})
    [entry] = (cache / resultcache.RESULTS_DIR / "ns").glob("*.json")
    entry.write_text("{ not json")
    assert resultcache.cached_json("ns", ["k"], lambda: {"x": 2}) == {"x": 2}


def test_source_hash_changes_with_the_code(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text("x = 1\n")
    before = resultcache.source_hash.__wrapped__(package)
    (package / "a.py").write_text("x = 2\n")
    assert resultcache.source_hash.__wrapped__(package) != before
