"""The game contract of Totems + Taboos: what this package gives the core (see pipeline/data/gamespec.py).

Parts are named by import path and imported only when a stage asks for them.
"""
from __future__ import annotations

from pipeline.data.gamespec import GameSpec, Part
from pipeline.games.totems_and_taboos import GAME_ID, TITLE

SPEC = GameSpec(
    id=GAME_ID,
    title=TITLE,
    summary='Totems + Taboos: check a tower build, or simulate solo games with a simple or look-ahead player.',
    model=Part("pipeline.games.totems_and_taboos.model:build"),
    checks=Part("pipeline.games.totems_and_taboos.checks"),
    counts=Part("pipeline.games.totems_and_taboos.checks:component_counts"),
    cards=Part("pipeline.games.totems_and_taboos.render:print_cards"),
    documents=Part("pipeline.games.totems_and_taboos.docs:documents"),
    commands=Part("pipeline.games.totems_and_taboos.cli:app"),
    balance=Part("pipeline.games.totems_and_taboos.balance:study"),
    effects=Part("pipeline.games.totems_and_taboos.effects:LANGUAGE"),
    # The rulebook's sections, and our rulings.
    rule_sections=("aim", "components", "souls", "colours", "tower", "cards", "guides", "setup", "turn", "solo",
                   "rulings"),
    where=__file__,
)
