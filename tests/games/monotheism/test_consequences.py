"""The engine figures `pantheon diff` compares for Monotheism: one question per scenario, asked again
only when the scenario's deck or the engine definition of a card in it changed."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from pipeline.analysis.diff.compare import consequences as moved
from pipeline.data.dataset import load_game
from pipeline.games.monotheism.consequences import consequences
from pipeline.games.registry import spec as spec_of


def _questions(root: Path) -> dict[str, Any]:  # read, not validated: the edits below move stored ratings
    return {q.name: q for q in consequences(load_game(root, spec_of("monotheism")), budget=2_000)}


def test_a_renamed_god_or_one_outside_a_scenario_leaves_it_unasked(data_copy: Path, edit_yaml: Callable[..., None]) -> None:
    before = _questions(data_copy)
    scenario = load_game(data_copy, spec_of("monotheism")).model.scenarios[0]
    inside = scenario.deities[0].ref
    outside = next(f"{n:02d}" for n in range(1, 30) if f"{n:02d}" not in {c.ref for c in scenario.deities})

    def swap_numbers(god: str) -> Callable[[Any], None]:
        def edit(data: Any) -> None:
            record = next(d for d in data["deities"] if d["id"] == god)
            record["upright"]["numbers"] = list(reversed(record["upright"]["numbers"]))
            record["provenance"] = {"source": "authored"}
        return edit

    edit_yaml(data_copy / "monotheism" / "deities.yaml", swap_numbers(outside))
    after_outside = _questions(data_copy)
    name = f"scenario {scenario.id}"
    assert after_outside[name].inputs == before[name].inputs

    def rename(data: Any) -> None:
        next(d for d in data["deities"] if d["id"] == inside)["name"] = "A Brand New Name"

    edit_yaml(data_copy / "monotheism" / "deities.yaml", rename)  # a renamed god plays the same
    assert _questions(data_copy)[name].inputs == before[name].inputs
    edit_yaml(data_copy / "monotheism" / "deities.yaml", swap_numbers(inside))
    assert _questions(data_copy)[name].inputs != before[name].inputs


def test_the_answer_names_status_and_losing_share() -> None:
    root = Path(__file__).resolve().parents[3] / "data"
    question = next(iter(_questions(root).values()))
    figures = question.answer()
    assert figures["status"] in ("win", "no-win", "limit")
    assert 0.0 <= figures["losing share"] <= 1.0 and " of " in figures["losing first moves"]


def test_unchanged_data_has_no_consequences() -> None:
    root = Path(__file__).resolve().parents[3] / "data"
    game = load_game(root, spec_of("monotheism"))
    assert list(moved(game, load_game(root, spec_of("monotheism")), 2_000)) == []
