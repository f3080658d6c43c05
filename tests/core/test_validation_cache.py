"""validate remembers a clean game (core/validcache.py): an unchanged game is not checked again (nor loaded
until a later stage asks for it), and any change to what its checks read checks it again."""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any, Callable

import pytest

from pipeline import store as cachestore
from pipeline.checks import validate as validation
from pipeline.checks.validcache import NAMESPACE
from pipeline.data.dataset import default_data_root
from pipeline.games import registry

GAMES = ["heavenly-father", "theocracy", "monstrous"]  # not monotheism: its first check plays 20,000 deals
Edit = Callable[[Path, Callable[[Any], Any]], None]


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache holding what validating GAMES keeps besides the remembered validations (the loaded YAML,
    schema and card layout results, keyed by content, not by folder): from a copy, a test's first
    validation costs ~0.3 s instead of ~2 s, while the cache under test starts empty."""
    cache = tmp_path_factory.mktemp("warm") / "cache"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(cachestore.CACHE_ENV, str(cache))
        assert validation.validate(default_data_root(), registry.catalogue(), GAMES).ok
    shutil.rmtree(cache / NAMESPACE)
    return cache


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, warm: Path) -> list[str]:
    """The games whose checks ran, in order; each test starts with no remembered validation, in a cache
    of its own."""
    shutil.copytree(warm, tmp_path / "cache")
    monkeypatch.setenv(cachestore.CACHE_ENV, str(tmp_path / "cache"))
    ran: list[str] = []
    real = validation.game_problems

    def recording(loaded: Any, *args: Any, **kwargs: Any) -> Any:
        ran.append(loaded.game)
        return real(loaded, *args, **kwargs)

    monkeypatch.setattr(validation, "game_problems", recording)
    return ran


def _validate(root: Path, checked: list[str]) -> list[str]:
    checked.clear()
    report = validation.validate(root, registry.catalogue(), GAMES)
    assert report.ok, report.problems
    assert sorted(report.games) == sorted(GAMES)  # a remembered game is still handed on, loaded
    return sorted(checked)


def _reword(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_an_unchanged_game_is_not_checked_again(data_copy: Path, checked: list[str]) -> None:
    assert _validate(data_copy, checked) == sorted(GAMES)
    assert _validate(data_copy, checked) == []


def test_an_edited_game_is_checked_again_and_only_it(data_copy: Path, checked: list[str]) -> None:
    _validate(data_copy, checked)
    _reword(data_copy / "theocracy" / "glossary.yaml", "The score.", "The score, kept.")
    assert _validate(data_copy, checked) == ["theocracy"]
    assert _validate(data_copy, checked) == []


def test_a_remembered_game_is_loaded_only_when_asked_for(data_copy: Path, checked: list[str]) -> None:
    _validate(data_copy, checked)
    _reword(data_copy / "theocracy" / "glossary.yaml", "The score.", "The score, kept.")
    catalogue = validation.RecordCatalogue(data_copy, registry.catalogue())
    report = validation.validate(data_copy, registry.catalogue(), GAMES, catalogue)
    assert report.ok and sorted(report.games) == sorted(GAMES)
    assert set(catalogue.file_digests) == {"theocracy"}  # the others were remembered clean, not read
    assert report.game("monstrous").game == "monstrous" and "monstrous" in catalogue.file_digests  # loaded on use


def test_an_edit_that_breaks_a_game_is_reported(data_copy: Path, checked: list[str]) -> None:
    _validate(data_copy, checked)
    _reword(data_copy / "theocracy" / "glossary.yaml", "see_also: [transcendence]", "see_also: [nowhere]")
    found = validation.validate(data_copy, registry.catalogue(), GAMES).problems
    assert [p.message for p in found] == ["term eternal-memory: see_also 'nowhere' is not a term"]


def test_a_shared_schema_edit_checks_every_game(data_copy: Path, checked: list[str]) -> None:
    _validate(data_copy, checked)
    schema = data_copy / "schemas" / "common.schema.json"
    schema.write_text(json.dumps(json.loads(schema.read_text(encoding="utf-8")), indent=1), encoding="utf-8")
    assert _validate(data_copy, checked) == sorted(GAMES)


def test_a_template_edit_checks_every_game(data_copy: Path, checked: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from pipeline.base import locations
    from pipeline.checks import validcache

    templates = data_copy.parent / "templates"
    shutil.copytree(locations.template_root(), templates)
    real = validcache.ValidationMemo.__init__

    def with_copy(self: Any, root: Path, games: Any, template_root: Any = None) -> None:
        real(self, root, games, templates)

    monkeypatch.setattr(validcache.ValidationMemo, "__init__", with_copy)
    _validate(data_copy, checked)
    icon = next((templates / "icons").glob("*.svg"))
    icon.write_bytes(icon.read_bytes() + b"\n")
    assert _validate(data_copy, checked) == sorted(GAMES)


def test_a_game_that_refers_to_an_edited_game_is_checked_again(data_copy: Path, checked: list[str]) -> None:
    _reword(data_copy / "theocracy" / "glossary.yaml", "The score.",
            "The score (compare [[heavenly-father:glossary/one-true-god]]).")
    _validate(data_copy, checked)
    _reword(data_copy / "heavenly-father" / "glossary.yaml", "Only its scores count", "Only its scores ever count")
    assert _validate(data_copy, checked) == ["heavenly-father", "theocracy"]


def test_a_damaged_entry_is_not_trusted(data_copy: Path, checked: list[str]) -> None:
    _validate(data_copy, checked)
    entries = sorted((cachestore.cache_root() / NAMESPACE).glob("*.json"))
    assert len(entries) == len(GAMES)
    for entry in entries:
        raw = bytearray(entry.read_bytes())
        raw[-3] ^= 1  # one bit of the payload
        entry.write_bytes(bytes(raw))
    assert _validate(data_copy, checked) == sorted(GAMES)
    assert _validate(data_copy, checked) == []  # rewritten sound


def test_a_game_with_problems_is_checked_every_time(data_copy: Path, checked: list[str]) -> None:
    _reword(data_copy / "theocracy" / "glossary.yaml", "see_also: [transcendence]", "see_also: [nowhere]")
    for _ in range(2):
        checked.clear()
        assert validation.validate(data_copy, registry.catalogue(), GAMES).problems
        assert "theocracy" in checked
