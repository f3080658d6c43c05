"""Golden playthroughs: every stored game replays, action by action, to its stored Outcome and events.

The files are written by ``python -m tests.core.engine_goldens`` (see that module).
"""
from __future__ import annotations

import json
from typing import Any

import pytest

from pipeline.engine import replay
from tests.core.engine_cases import case
from tests.core.engine_goldens import PLAYTHROUGHS, event_tally, golden_path

GOLDENS = [(game, index) for game, playthroughs in PLAYTHROUGHS.items() for index in range(len(playthroughs))]


def stored(game: str) -> list[dict[str, Any]]:
    return json.loads(golden_path(game).read_text(encoding="utf-8"))


def test_every_game_has_a_golden_file_listing_its_playthroughs() -> None:
    for game, playthroughs in PLAYTHROUGHS.items():
        assert [(p["case"], p["seed"]) for p in stored(game)] == list(playthroughs), \
            f"{golden_path(game)} is stale: run python -m tests.core.engine_goldens"


@pytest.mark.parametrize("game, index", GOLDENS)
def test_golden_playthrough_replays_to_its_outcome(game: str, index: int) -> None:
    golden = stored(game)[index]
    states = list(replay(case(golden["case"]).game, golden["state"]))
    final = states[-1]
    assert final.is_terminal() and final.outcome().as_data() == golden["outcome"]
    assert event_tally(states) == golden["events"]
    assert final.to_data() == golden["state"]
