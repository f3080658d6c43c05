"""theocracy documents, read back from the PDFs: the sheets only this game has.

What every game's rulebook must hold is tested once, in tests/core/test_documents_every_game.py.
"""
from __future__ import annotations

import re
from typing import Any

from tests.core.docs_helpers import project_texts, project_yaml

GAME = "theocracy"


def texts() -> dict[str, str]:
    return project_texts(GAME)


def _yaml(kind: str) -> Any:
    return project_yaml(GAME, kind)


def test_player_aid_holds_the_turn_grace_bids_and_the_end_not_a_table_of_every_bid() -> None:
    reference = texts()["reference"]
    for phase in _yaml("phases")["phases"]:
        assert phase["name"] in reference
    for rule in _yaml("bid-rules")["bid_rules"]:
        assert rule["name"] in reference
    for end in _yaml("round-end")["end_conditions"]:
        assert end["name"] in reference
    assert "resolved by the rules engine" not in reference and "combinations" not in reference


def test_clarifications_name_grace_steps_by_the_numbers_the_rulebook_prints() -> None:
    steps = sorted(_yaml("phases")["grace_steps"], key=lambda s: s["order"])
    rulebook = texts()["rulebook"]
    for ruling in _yaml("rulings")["rulings"]:
        text = ruling["ruling"]
        assert not re.search(r"\bsteps? [a-e]\)", text), ruling["id"]
        for number in re.findall(r"Grace step (\d+)", text):
            assert 1 <= int(number) <= len(steps), ruling["id"]
    assert "Grace step 1" in rulebook and "step a)" not in rulebook


def test_score_sheet_names_the_houses_as_the_cards_do() -> None:
    extras = texts()["extras"]
    for player in _yaml("players")["players"]:
        assert player["lineage"] in extras
        assert player["name"] not in extras.replace(player["lineage"], "")
