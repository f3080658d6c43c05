"""monotheism documents, read back from the PDFs: the sheets only this game has.

What every game's rulebook must hold is tested once, in tests/core/test_documents_every_game.py.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from pipeline.data.dataset import default_data_root
from tests.core.docs_helpers import page_texts, project_yaml, render_game

GAME = "monotheism"


@lru_cache(maxsize=None)
def pages() -> dict[str, list[str]]:
    """Each page's text of each document built from the project's data, by kind (rendered once)."""
    return {kind: page_texts(pdf) for kind, (pdf, _) in render_game(default_data_root(), GAME).items()}


def texts() -> dict[str, str]:
    return {kind: " ".join(found) for kind, found in pages().items()}


def _yaml(kind: str) -> Any:
    return project_yaml(GAME, kind)


def test_five_scenarios_with_deck_diagrams() -> None:
    rulebook = texts()["rulebook"]
    for scenario in _yaml("scenarios")["scenarios"]:
        assert f"Scenario {scenario['number']}: {scenario['title']}" in rulebook
        assert f"{scenario['card_count']} cards, from the top" in rulebook


def test_scenario_pages_print_the_measured_difficulty() -> None:
    rulebook = texts()["rulebook"]
    rated = [scenario for scenario in _yaml("scenarios")["scenarios"] if "rating" in scenario]
    assert rated
    for scenario in rated:  # (a rulebook scenario may be unrated: its shortest solution out of reach)
        rating = scenario["rating"]
        assert (f"Difficulty: {rating['difficulty']}. {rating['winning_first_moves']} of {rating['first_moves']} "
                f"possible first turns") in rulebook
        assert f"The shortest solution takes {rating['solution_turns']} turns" in rulebook


def test_one_puzzle_sheet_per_scenario_with_its_solution_at_the_foot() -> None:
    sheets = pages()["puzzles"]
    scenarios = _yaml("scenarios")["scenarios"]
    assert len(sheets) == len(scenarios)
    for page, scenario in zip(sheets, scenarios):
        assert f"Puzzle {scenario['number']}: {scenario['title']}" in page
        assert "Goal:" in page and "Solution (try it first)" in page
        assert page.index("Solution") > page.index(f"{scenario['card_count']} cards, from the top")
