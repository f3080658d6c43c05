"""totems-and-taboos documents, read back from the PDFs: the sheets only this game has.

What every game's rulebook must hold is tested once, in tests/core/test_documents_every_game.py.
"""
from __future__ import annotations

from typing import Any

from tests.core.docs_helpers import project_texts, project_yaml

GAME = "totems-and-taboos"


def texts() -> dict[str, str]:
    return project_texts(GAME)


def _yaml(kind: str) -> Any:
    return project_yaml(GAME, kind)


def test_cheat_sheet_and_die() -> None:
    sheet = texts()["cheatsheet"]
    for colour in _yaml("colours")["colours"]:
        assert colour["principle"] in sheet
    for guide in _yaml("guides")["guides"]:
        assert guide["name"] in sheet
    assert "Yellow" in texts()["extras"] and "Orange" in texts()["extras"]
