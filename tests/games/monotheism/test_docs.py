"""monotheism documents, read back from the PDFs: the sheets only this game has.

What every game's rulebook must hold is tested once, in tests/core/test_documents_every_game.py.
"""
from __future__ import annotations

from typing import Any

from tests.core.docs_helpers import project_texts, project_yaml

GAME = "monotheism"


def texts() -> dict[str, str]:
    return project_texts(GAME)


def _yaml(kind: str) -> Any:
    return project_yaml(GAME, kind)


def test_five_scenarios_with_deck_diagrams() -> None:
    rulebook = texts()["rulebook"]
    for scenario in _yaml("scenarios")["scenarios"]:
        assert f"Scenario {scenario['number']}: {scenario['title']}" in rulebook
        assert f"{scenario['card_count']} cards, from the top" in rulebook
