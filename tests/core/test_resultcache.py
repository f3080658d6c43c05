"""The result cache computes once per key, survives a new process, and never serves a stale key."""
from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from pipeline.core import resultcache, yamlmarks


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


def test_marshal_cache_keeps_tuple_keys_and_skips_what_it_cannot_store(cache: Path) -> None:
    marks = {("cards", 0, "name"): (3, 7)}
    assert resultcache.cached_marshal("m", ["k"], lambda: marks) == marks
    assert resultcache.cached_marshal("m", ["k"], lambda: pytest.fail("computed again")) == marks
    today = datetime.date(2026, 11, 21)  # marshal cannot store a date: computed every time, never wrong
    assert resultcache.cached_marshal("m", ["d"], lambda: today) == today
    assert not list((cache / resultcache.RESULTS_DIR / "m").glob("*.tmp"))


def test_parsed_yaml_read_back_from_the_cache_keeps_values_and_marks(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = "cards:\n  zeus:\n    name: Zeus\n    cost: 3\n"
    first = yamlmarks.loads_marked_cached(text)
    monkeypatch.setattr(yamlmarks, "loads_marked", lambda *a, **k: pytest.fail("parsed again"))
    again = yamlmarks.loads_marked_cached(text)
    assert (again.data, again.value_marks, again.key_marks) == (first.data, first.value_marks, first.key_marks)
    assert again.value_marks[("cards", "zeus", "cost")] == (4, 11)
    monkeypatch.undo()
    edited = yamlmarks.loads_marked_cached(text.replace("3", "4"))
    assert edited.data["cards"]["zeus"]["cost"] == 4
