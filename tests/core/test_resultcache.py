"""The result cache computes once per key, survives a new process, and never serves a stale or bad entry."""
from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import pytest

from pipeline import store as cachestore
from pipeline.base import shape
from pipeline.data import parsedcache, resultcache, yamlmarks


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(cachestore.CACHE_ENV, str(tmp_path))
    return tmp_path


def entries(cache: Path, namespace: str) -> list[Path]:
    return sorted((cache / resultcache.RESULTS_DIR / namespace).glob("*.json"))


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
    assert len(entries(cache, "ns")) == 2


def test_a_corrupt_entry_is_recomputed_and_rewritten(cache: Path) -> None:
    resultcache.cached_json("ns", ["k"], lambda: {"x": 1})
    [entry] = entries(cache, "ns")
    good = entry.read_bytes()
    entry.write_bytes(good.replace(b'"x":1', b'"x":7'))  # an edit that keeps the JSON well-formed
    assert resultcache.cached_json("ns", ["k"], lambda: {"x": 1}) == {"x": 1}
    assert entry.read_bytes() == good


def test_an_entry_of_the_wrong_shape_is_recomputed(cache: Path) -> None:
    def pairs(plain: Any) -> list[tuple[str, int]]:
        return [(shape.text(a), shape.integer(b)) for a, b in (shape.sequence(p, 2) for p in shape.sequence(plain))]

    compute = lambda: [["a", 1]]  # noqa: E731
    assert resultcache.cached_json("ns", ["k"], compute, decode=pairs) == [["a", 1]]
    assert resultcache.cached_json("ns", ["k"], lambda: pytest.fail("computed again"), decode=pairs) == [("a", 1)]
    [entry] = entries(cache, "ns")
    cachestore.write(f"{resultcache.RESULTS_DIR}/ns", entry.stem, [["a", "one"]])  # well sealed, wrong type
    assert resultcache.cached_json("ns", ["k"], compute, decode=pairs) == [["a", 1]]


def test_a_yes_no_result_is_known_only_from_a_sealed_entry(cache: Path) -> None:
    assert not resultcache.known("flags", ["k"])
    resultcache.remember("flags", ["k"])
    assert resultcache.known("flags", ["k"])
    [entry] = entries(cache, "flags")
    entry.write_bytes(b"")  # what touching a file makes: not a remembered key
    assert not resultcache.known("flags", ["k"])


def test_source_hash_changes_with_the_code(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text("x = 1\n")
    before = resultcache.source_hash.__wrapped__(package)
    (package / "a.py").write_text("x = 2\n")
    assert resultcache.source_hash.__wrapped__(package) != before


def test_a_result_json_cannot_hold_is_computed_every_time_and_never_wrong(cache: Path) -> None:
    today = datetime.date(2026, 11, 21)
    assert resultcache.cached_json("d", ["k"], lambda: today) == today
    assert resultcache.cached_json("d", ["k"], lambda: today) == today
    assert not list(cache.rglob("*.json")) and not list(cache.rglob("*.tmp"))


def test_parsed_yaml_read_back_from_the_cache_keeps_values_and_marks(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = "cards:\n  zeus:\n    name: Zeus\n    cost: 3\n    weight: 1.0\n    tags: [a, b]\n"
    first = yamlmarks.loads_marked_cached(text)
    with monkeypatch.context() as patch:
        patch.setattr(yamlmarks, "loads_marked", lambda *a, **k: pytest.fail("parsed again"))
        again = yamlmarks.loads_marked_cached(text)
    assert (again.data, again.value_marks, again.key_marks) == (first.data, first.value_marks, first.key_marks)
    assert type(again.data["cards"]["zeus"]["weight"]) is float
    assert again.value_marks[("cards", "zeus", "cost")] == (4, 11)
    assert again.value_marks[("cards", "zeus", "tags", 1)][0] == 6
    edited = yamlmarks.loads_marked_cached(text.replace("3", "4"))
    assert edited.data["cards"]["zeus"]["cost"] == 4


def test_parsed_yaml_with_marks_of_the_wrong_type_is_parsed_again(cache: Path) -> None:
    text = "cards:\n  zeus:\n    cost: 3\n"
    first = yamlmarks.loads_marked_cached(text)
    [entry] = entries(cache, parsedcache.NAMESPACE)
    namespace = f"{resultcache.RESULTS_DIR}/{parsedcache.NAMESPACE}"
    data, value_marks, key_marks = cachestore.read(namespace, entry.stem, lambda plain: plain)
    cachestore.write(namespace, entry.stem, [data, [[path, True, "7"] for path, _, _ in value_marks], key_marks])
    again = yamlmarks.loads_marked_cached(text)
    assert again.value_marks == first.value_marks
