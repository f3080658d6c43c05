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
    from tests.core.docs_helpers import page_texts, render_game
    from pipeline.core.dataset import default_data_root

    pages = page_texts(render_game(default_data_root(), GAME)["puzzles"][0])
    scenarios = _yaml("scenarios")["scenarios"]
    assert len(pages) == len(scenarios)
    for page, scenario in zip(pages, scenarios):
        assert f"Puzzle {scenario['number']}: {scenario['title']}" in page
        assert "Goal:" in page and "Solution (try it first)" in page
        assert page.index("Solution") > page.index(f"{scenario['card_count']} cards, from the top")
