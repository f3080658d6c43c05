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
    for scenario in rated:
        rating = scenario["rating"]
        assert (f"Difficulty: {rating['difficulty']}. {rating['winning_first_moves']} of {rating['first_moves']} "
                f"possible first turns") in rulebook
        if rating["no_win_within"] + 1 == rating["solution_turns"]:
            assert f"The shortest solution takes {rating['solution_turns']} turns" in rulebook
        else:  # the fewest turns are known only between the two: the page says so
            assert (f"The shortest solution found takes {rating['solution_turns']} turns (none takes "
                    f"{rating['no_win_within']} or fewer)") in rulebook


def test_the_puzzle_book_shows_a_difficulty_for_every_puzzle() -> None:
    """Every puzzle is rated (scenario 1's shortest line is beyond the breadth-first search, yet its first
    moves alone prove it medium), and its page prints the difficulty as stars and in words."""
    book = pages()["puzzles"]
    for scenario in _yaml("scenarios")["scenarios"]:
        assert "rating" in scenario, f"scenario {scenario['id']} has no rating"
        title = f"Puzzle {scenario['number']}: {scenario['title']}"
        page = next(page for page in book if title in page)
        assert f"Difficulty: {scenario['rating']['difficulty']}" in page, title


def test_the_puzzle_book_sets_out_every_puzzle_then_every_solution_at_the_back() -> None:
    book = pages()["puzzles"]
    scenarios = _yaml("scenarios")["scenarios"]
    solutions = next(n for n, page in enumerate(book) if "Solutions" in page and "Unveil" in page)
    for scenario in scenarios:
        title = f"Puzzle {scenario['number']}: {scenario['title']}"
        puzzle = next(n for n, page in enumerate(book) if title in page)
        assert puzzle < solutions, title  # the puzzle comes before the solutions
        assert any(title in page for page in book[solutions:]), title  # and its solution is at the back
        assert f"{scenario['card_count']} cards, from the top" in book[puzzle]
