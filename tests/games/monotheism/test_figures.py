"""The Monotheism submerge diagram shows what the engine's submerge does, for every place of the old top card;
the unveil figure turns the veiled top card face up."""
from __future__ import annotations

from pipeline.games.monotheism.engine import moved_stack
from pipeline.documents.structure import Label
from pipeline.games.monotheism.figures import sections, submerge_orderings, unveil_picture


def test_submerge_orderings_follow_the_engine() -> None:
    diagram = submerge_orderings(3, "PQRST")
    assert diagram.alt[0] == "Before: P Q R S T (top first)"
    after = [line.split(": ", 1)[1].removesuffix(" (top first)").split() for line in diagram.alt[1:]]
    assert len(after) == 3
    for place, deck in enumerate(after, start=1):
        moved = [c[0] for c in moved_stack([(x, False, False, 0) for x in "PQR"], place)]
        assert deck == ["S", "T", *moved]
    assert after[0] == ["S", "T", "P", "Q", "R"] and after[2] == ["S", "T", "Q", "R", "P"]


def test_the_unveil_figure_turns_only_the_top_card_and_sits_in_step_1() -> None:
    diagram = unveil_picture("XYZ")
    labels = [shape.text for shape in diagram.shapes if isinstance(shape, Label)]
    assert labels == ["Before", "?", "Y", "Z", "Unveiled", "X", "Y", "Z"]  # face down, then face up; the rest stay
    assert diagram.alt == ("Before: a veiled god (face down) on top of Y Z", "Unveiled: X Y Z, the top card face up")
    assert "unveil" in sections()  # printed with the rulebook's "Step 1: unveil"
