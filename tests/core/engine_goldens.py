"""Golden playthroughs of the five rules engines: one stored, seeded random game per engine case below.

Each file ``tests/fixtures/engines/<game>.json`` holds, per playthrough, the
serialised final state (its setup and every action as a string), the Outcome
and how many events of each kind the game caused. ``test_engine_goldens``
replays the actions and must reach the same Outcome with the same events: a
change to the rules shows up as a failing golden.

Regenerate them (after a rules change you meant, then review the diff) with:

    .venv/bin/python -m tests.core.engine_goldens      (or: make engine-goldens)
"""
from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any, Iterable

from pipeline.engine import State, play, random_policy
from tests.core.engine_cases import case

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "engines"
# (case, seed) per game: seeded random games that end within their case's bound.
PLAYTHROUGHS: dict[str, tuple[tuple[str, int], ...]] = {
    "monotheism": (("monotheism-deal-three-monks", 3),),
    "theocracy": (("theocracy-3p", 1),),
    "monstrous": (("monstrous-3p", 1),),
    "heavenly-father": (("heavenly-father-4p", 1),),
    "totems-and-taboos": (("totems-and-taboos-solo-normal", 1), ("totems-and-taboos-2p", 3)),
}


def event_tally(states: Iterable[State[Any]]) -> dict[str, int]:
    """How many events of each kind the states record (each state: what its action caused)."""
    counts = Counter(event.kind for state in states for event in state.events)
    return dict(sorted(counts.items()))


def record(case_id: str, seed: int) -> dict[str, Any]:
    """One seeded random game of the case, as a golden playthrough."""
    c = case(case_id)
    states = list(play(c.start(seed), random_policy, random.Random(seed), max_actions=c.max_actions))
    final = states[-1]
    outcome = final.outcome()
    if outcome is None:
        raise SystemExit(f"{case_id} seed {seed}: no end after {c.max_actions} actions; choose another seed")
    return {"case": case_id, "seed": seed, "outcome": outcome.as_data(), "events": event_tally(states),
            "state": final.to_data()}


def golden_path(game: str) -> Path:
    return GOLDEN_DIR / f"{game}.json"


def main() -> int:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for game, playthroughs in PLAYTHROUGHS.items():
        stored = [record(case_id, seed) for case_id, seed in playthroughs]
        text = json.dumps(stored, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
        path = golden_path(game)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(path)
        actions = sum(len(p["state"]["actions"]) for p in stored)
        print(f"wrote {path.relative_to(GOLDEN_DIR.parents[2])}: {len(stored)} playthrough(s), {actions} actions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
