"""heavenly-father documents, read back from the PDFs: the sheets only this game has.

What every game's rulebook must hold is tested once, in tests/core/test_documents_every_game.py.
"""
from __future__ import annotations

from typing import Any

from tests.core.docs_helpers import project_texts, project_yaml

GAME = "heavenly-father"


def texts() -> dict[str, str]:
    return project_texts(GAME)


def _yaml(kind: str) -> Any:
    return project_yaml(GAME, kind)


def test_cheat_sheets_and_tokens() -> None:
    sheets = texts()["cheatsheet"]
    count = _yaml("cheat-sheets")["cheat_sheets"][0]["count"]
    assert f"needs {count} sheets, 2 to a page: print this page {-(-count // 2)} times" in sheets
    for god in _yaml("gods")["gods"]:
        assert god["name"] in sheets
    assert "120 tokens" in texts()["extras"] and "Judgment Day" in texts()["extras"]
