"""theocracy documents, read back from the PDFs: the sheets only this game has.

What every game's rulebook must hold is tested once, in tests/core/test_documents_every_game.py.
"""
from __future__ import annotations

from typing import Any

from tests.core.docs_helpers import project_texts, project_yaml

GAME = "theocracy"


def texts() -> dict[str, str]:
    return project_texts(GAME)


def _yaml(kind: str) -> Any:
    return project_yaml(GAME, kind)


def test_bid_tables_cover_every_combination() -> None:
    reference = texts()["reference"]
    for players, combos in ((2, 15), (3, 35), (4, 70)):
        assert f"{players} players: {combos} combinations" in reference
    assert "5 vs 1" in reference and "1 wins" in reference
