"""The game contract of Monstrous: what this package gives the core (see pipeline/data/gamespec.py).

Parts are named by import path and imported only when a stage asks for them.
"""
from __future__ import annotations

from pipeline.checks.rulecontract import Examples, Rulings
from pipeline.data.gamespec import GameSpec, Part
from pipeline.games.monstrous import GAME_ID, TITLE

SPEC = GameSpec(
    id=GAME_ID,
    title=TITLE,
    summary="Monstrous: resolve declared throws with the rules engine, or simulate seeded games.",
    model=Part("pipeline.games.monstrous.model:build"),
    checks=Part("pipeline.games.monstrous.checks"),
    counts=Part("pipeline.games.monstrous.checks:component_counts"),
    cards=Part("pipeline.games.monstrous.render:print_cards"),
    documents=Part("pipeline.games.monstrous.docs:documents"),
    commands=Part("pipeline.games.monstrous.cli:app"),
    balance=Part("pipeline.games.monstrous.balance:study"),
    effects=Part("pipeline.games.monstrous.powers:LANGUAGE"),
    # The rulebook's sections (the documents print the components, rulings, scenarios and examples into theirs).
    rule_sections=("overview", "components", "faith", "god-boards-and-aids", "monsters", "locations", "setup",
                   "turns", "throw-steps", "throwing", "hitting", "card-powers", "trap-monsters", "reading-powers",
                   "end-and-scoring", "scenarios", "variants", "rulings", "examples"),
    rulings=Rulings(followed=Part("pipeline.games.monstrous.engine:RULINGS")),
    examples=(Examples(replay=Part("pipeline.games.monstrous.checks:replay_examples")),),
    where=__file__,
)
