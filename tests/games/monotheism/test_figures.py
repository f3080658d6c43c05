"""The Monotheism submerge diagram shows what the engine's submerge does, for every place of the old top card."""
from __future__ import annotations

from pipeline.games.monotheism.engine import moved_stack
from pipeline.games.monotheism.figures import submerge_orderings


def test_submerge_orderings_follow_the_engine() -> None:
    diagram = submerge_orderings(3, "PQRST")
    assert diagram.alt[0] == "Before: P Q R S T (top first)"
    after = [line.split(": ", 1)[1].removesuffix(" (top first)").split() for line in diagram.alt[1:]]
    assert len(after) == 3
    for place, deck in enumerate(after, start=1):
        moved = [c[0] for c in moved_stack([(x, False, False, 0) for x in "PQR"], place)]
        assert deck == ["S", "T", *moved]
    assert after[0] == ["S", "T", "P", "Q", "R"] and after[2] == ["S", "T", "Q", "R", "P"]
