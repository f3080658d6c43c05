"""The game contract of Monotheism: what this package gives the core (see pipeline/data/gamespec.py).

Parts are named by import path and imported only when a stage asks for them.
"""
from __future__ import annotations

from pipeline.data.gamespec import GameSpec, Part
from pipeline.games.monotheism import GAME_ID, TITLE

SPEC = GameSpec(
    id=GAME_ID,
    title=TITLE,
    summary="Monotheism: replay the scenarios' winning lines; solve, rate, generate and add puzzles; play a game.",
    model=Part("pipeline.games.monotheism.model:build"),
    checks=Part("pipeline.games.monotheism.checks"),
    counts=Part("pipeline.games.monotheism.checks:component_counts"),
    cards=Part("pipeline.games.monotheism.render:print_cards"),
    documents=Part("pipeline.games.monotheism.docs:documents"),
    commands=Part("pipeline.games.monotheism.cli:app"),
    balance=Part("pipeline.games.monotheism.balance:study"),
    consequences=Part("pipeline.games.monotheism.consequences:consequences"),
    effects=Part("pipeline.games.monotheism.dsl:LANGUAGE"),
    # One rules section per rulebook section, plus the engine rulings.
    rule_sections=(
        "overview", "components", "set-up", "play", "acts", "essences", "veiled-gods",
        "consuming-gods", "timing", "worshipers", "ending-the-game", "playing-in-hand",
        "designers-mistakes", "scenarios", "advice", "engine-rulings",
    ),
    where=__file__,
)
