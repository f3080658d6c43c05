"""monstrous documents, read back from the PDFs: the sheets only this game has.

What every game's rulebook must hold is tested once, in tests/core/test_documents_every_game.py.
"""
from __future__ import annotations

from typing import Any

from pipeline.cards.svgtemplates import ICON_DIR, TEMPLATE_ROOT
from pipeline.checks.references import References
from pipeline.checks.validate import RecordCatalogue
from pipeline.data.dataset import default_data_root
from pipeline.games.registry import catalogue
from tests.core.docs_helpers import project_texts, project_yaml, squash

GAME = "monstrous"


def texts() -> dict[str, str]:
    return project_texts(GAME)


def _yaml(kind: str) -> Any:
    return project_yaml(GAME, kind)


def test_reference_holds_the_throw_steps_keywords_and_gods_and_rulebook_the_scenarios() -> None:
    reference, rulebook = texts()["reference"], texts()["rulebook"]
    for step in _yaml("throw-steps")["steps"]:
        assert step["name"] in reference
    for keyword in _yaml("player-aids")["keywords"]:
        assert keyword["label"] in reference
    for god in _yaml("gods")["gods"]:
        assert f"{god['name']} ({god['colour']})" in reference
        assert "Player aid:" not in reference  # the aids are cards; the sheet does not repeat them
    for scenario in _yaml("scenarios")["scenarios"]:
        assert scenario["name"] in rulebook and scenario["name"] not in reference
    assert "56 Faith tokens" in texts()["extras"]


def test_every_keyword_has_its_own_symbol() -> None:
    drawn = [(TEMPLATE_ROOT / ICON_DIR / f"keyword-{k['id']}.svg").read_bytes() for k in _yaml("player-aids")["keywords"]]
    assert len(set(drawn)) == len(drawn)


def test_worked_examples_are_printed_with_their_final_faith() -> None:
    rulebook = texts()["rulebook"]
    refs = References(RecordCatalogue(default_data_root(), catalogue()))
    gods = {g["id"]: g["name"] for g in _yaml("gods")["gods"]}
    for example in _yaml("examples")["examples"]:
        assert squash(refs.resolve(example["title"], GAME)) in rulebook, example["id"]
        figures = ", ".join(f"{gods[g]} {amount}" for g, amount in example["final"]["faith"].items())
        assert squash(f"Final Faith: {figures}.") in rulebook, (example["id"], figures)
