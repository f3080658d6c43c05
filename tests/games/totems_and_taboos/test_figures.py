"""The Totems + Taboos tower example is judged by the engine's build check, colour by colour."""
from __future__ import annotations

from pipeline.checks.validate import load_valid_game
from pipeline.data.dataset import default_data_root
from pipeline.games.registry import catalogue
from pipeline.games.totems_and_taboos.diagrams import COLOUR_HEX
from pipeline.games.totems_and_taboos.figures import tower_example


def test_tower_example_marks_exactly_the_stackable_colours() -> None:
    model = load_valid_game(catalogue(), "totems-and-taboos", default_data_root()).model
    diagram = tower_example(model, COLOUR_HEX)
    top = model.tower.examples[0].tower[-1]
    verdicts = {line.split(":")[0]: "may go on top" in line for line in diagram.alt[1:]}
    names = {c.id: c.name for c in model.colours}
    assert verdicts == {names[c]: model.may_stack(top, c) for c in model.wheel.order}
    assert verdicts == {"Yellow": False, "Green": True, "Blue": True, "Purple": True, "Red": False, "Orange": False}
