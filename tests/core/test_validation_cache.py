"""validate keeps a clean game's verdict in the store (pipeline/checks/validcache.py): whatever was
validated before, every edit to what a game's checks read is reported, in this game or in another that
refers to it; and an unchanged game validated again is still handed on, loaded when asked for."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pipeline.checks import validate as validation
from pipeline.games.registry import catalogue

GAMES = ["heavenly-father", "theocracy", "monstrous"]  # not monotheism: its first check plays 20,000 deals


def _messages(root: Path) -> list[str]:
    return [p.message for p in validation.validate(root, catalogue(), GAMES).problems]


def _reword(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_game_validated_again_is_handed_on_and_loaded_when_asked_for(data_copy: Path) -> None:
    assert _messages(data_copy) == []
    loaded = validation.RecordCatalogue(data_copy, catalogue())
    report = validation.validate(data_copy, loaded.specs, GAMES, loaded)
    assert report.ok and sorted(report.games) == sorted(GAMES)
    assert report.game("monstrous").game == "monstrous"


def test_an_edit_that_breaks_a_game_is_reported(data_copy: Path) -> None:
    assert _messages(data_copy) == []
    _reword(data_copy / "theocracy" / "glossary.yaml", "see_also: [transcendence]", "see_also: [nowhere]")
    assert _messages(data_copy) == ["term eternal-memory: see_also 'nowhere' is not a term"]
    assert _messages(data_copy) == ["term eternal-memory: see_also 'nowhere' is not a term"]  # every time


def test_a_stricter_shared_schema_is_applied_to_every_game(data_copy: Path) -> None:
    assert _messages(data_copy) == []
    schema_path = data_copy / "schemas" / "common.schema.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    schema["$defs"]["text"] = {"type": "string", "maxLength": 1}
    schema_path.write_text(json.dumps(schema), encoding="utf-8")
    found = validation.validate(data_copy, catalogue(), GAMES).problems
    assert {game for game in GAMES if any(f"/{game}/" in str(p.at) for p in found)} == set(GAMES)


def test_a_record_removed_from_a_game_another_refers_to_is_reported_in_the_other(data_copy: Path) -> None:
    _reword(data_copy / "theocracy" / "glossary.yaml", "The score.",
            "The score (compare [[heavenly-father:glossary/one-true-god]]).")
    assert _messages(data_copy) == []
    _reword(data_copy / "heavenly-father" / "glossary.yaml", "id: one-true-god", "id: one-true-deity")
    found = validation.validate(data_copy, catalogue(), GAMES).problems
    assert any("theocracy" in str(p.at) and "one-true-god" in p.message for p in found), found



@pytest.mark.parametrize("stray", ["fifo", "folder", "device link"])
def test_a_game_remembered_clean_is_checked_again_when_an_entry_that_is_no_file_appears(data_copy: Path, stray: str) -> None:
    """The verdict never depends on the cache: what a cold validation refuses, a warm one refuses too."""
    assert _messages(data_copy) == []  # checked, and remembered clean
    path = data_copy / "theocracy" / "stray.yaml"
    if stray == "fifo":
        os.mkfifo(path)
    elif stray == "folder":
        path.mkdir()
    else:
        path.symlink_to("/dev/zero")
    found = _messages(data_copy)
    assert len(found) == 1 and found[0].startswith("cannot read file: it is a"), found
