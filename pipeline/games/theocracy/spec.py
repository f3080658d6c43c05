"""The game contract of Theocracy: what this package gives the core (see pipeline/data/gamespec.py).

Parts are named by import path and imported only when a stage asks for them.
"""
from __future__ import annotations

from pipeline.checks.rulecontract import Examples, Rulings
from pipeline.data.gamespec import GameSpec, Part
from pipeline.games.theocracy import GAME_ID, TITLE

SPEC = GameSpec(
    id=GAME_ID,
    title=TITLE,
    summary='Theocracy: resolve bids and simulate games with the reference engine.',
    model=Part("pipeline.games.theocracy.model:build"),
    checks=Part("pipeline.games.theocracy.checks"),
    counts=Part("pipeline.games.theocracy.checks:component_counts"),
    cards=Part("pipeline.games.theocracy.render:print_cards"),
    documents=Part("pipeline.games.theocracy.docs:documents"),
    commands=Part("pipeline.games.theocracy.cli:app"),
    balance=Part("pipeline.games.theocracy.balance:study"),
    # No ``effects``: Theocracy's cards carry no effects (a power card is a value, a believer card a colour);
    # the ``op`` steps of phases.yaml and added-rules.yaml are rules of the round, read by its engine.
    # The rulebook's sections, and the clarifications that list the rulings.
    rule_sections=("overview", "components", "roles", "game-structure", "round-setup", "turn", "end-of-round",
                   "end-of-game", "three-players", "four-players", "clarifications"),
    rulings=Rulings(listed_in="clarifications"),
    examples=(Examples(Part("pipeline.games.theocracy.checks:replay_bid_examples"), kind="bid-examples",
                       key="bid_examples", label="bid example"),),
    where=__file__,
)
