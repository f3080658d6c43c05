"""The game contract of Who's Your Heavenly Father?: what this package gives the core (see pipeline/data/gamespec.py).

Parts are named by import path and imported only when a stage asks for them.
"""
from __future__ import annotations

from pipeline.checks.rulecontract import Examples
from pipeline.data.gamespec import GameSpec, Part
from pipeline.games.heavenly_father import GAME_ID, TITLE

SPEC = GameSpec(
    id=GAME_ID,
    title=TITLE,
    summary="Who's Your Heavenly Father?: score Judgment Day with the reference engine.",
    model=Part("pipeline.games.heavenly_father.model:build"),
    checks=Part("pipeline.games.heavenly_father.checks"),
    counts=Part("pipeline.games.heavenly_father.checks:component_counts"),
    cards=Part("pipeline.games.heavenly_father.render:print_cards"),
    documents=Part("pipeline.games.heavenly_father.docs:documents"),
    commands=Part("pipeline.games.heavenly_father.cli:app"),
    balance=Part("pipeline.games.heavenly_father.balance:study"),
    effects=Part("pipeline.games.heavenly_father.effects:LANGUAGE"),
    examples=(
        Examples(Part("pipeline.games.heavenly_father.checks:replay_scoring_examples"), kind="examples",
                 key="scoring_examples", label="scoring example"),
        Examples(Part("pipeline.games.heavenly_father.checks:replay_dilemma_examples"), kind="examples",
                 key="dilemma_examples", label="dilemma example"),
    ),
    rule_sections=(
        "object", "components", "setup", "advanced-game", "virtues", "balance", "turns", "moral-dilemmas",
        "dilemma-example", "gains-and-losses", "philosophers", "philosopher-kinds", "reclaiming", "judgment-day",
        "empty-draw-pile", "prayers-at-the-end", "scoring", "scoring-example", "credits", "clarifications",
    ),
    where=__file__,
)
