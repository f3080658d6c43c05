"""The game contract of Theocracy: what this package gives the core (see pipeline/data/gamespec.py).

Each part is named directly (importing the spec imports the game's code, all but its command group and
balance study, imported when they are used); mypy checks each against the contract's Protocols.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.checks.rulecontract import Examples, Rulings
from pipeline.data.gamespec import GameSpec
from pipeline.games.theocracy import GAME_ID, TITLE, checks
from pipeline.games.theocracy.checks import component_counts, replay_bid_examples
from pipeline.games.theocracy.docs import documents
from pipeline.games.theocracy.model import TheocracyModel, build
from pipeline.games.theocracy.render import print_cards
from pipeline.games.theocracy.setups import set_ups

if TYPE_CHECKING:
    import typer

    from pipeline.analysis.balance.study import Study
    from pipeline.data.dataset import GameData


def commands() -> typer.Typer:
    """The game's command group, imported when `pantheon theocracy ...` runs (the other commands never need it)."""
    from pipeline.games.theocracy.cli import app

    return app


def study(game: GameData[TheocracyModel]) -> Study:
    """The game's balance study (its balance.py), imported when a balance command runs (validate and build never do)."""
    from pipeline.games.theocracy.balance import study as game_study

    return game_study(game)


SPEC: GameSpec[TheocracyModel] = GameSpec(
    id=GAME_ID,
    title=TITLE,
    summary='Theocracy: resolve bids and simulate games with the reference engine.',
    model=build,
    checks=checks,
    engine=set_ups,
    counts=component_counts,
    cards=print_cards,
    documents=documents,
    commands=commands,
    balance=study,
    # No ``effects``: Theocracy's cards carry no effects (a power card is a value, a believer card a colour);
    # the ``op`` steps of phases.yaml and added-rules.yaml are rules of the round, read by its engine.
    # The rulebook's sections, and the clarifications that list the rulings.
    rule_sections=("overview", "components", "roles", "game-structure", "round-setup", "turn", "end-of-round",
                   "end-of-game", "three-players", "four-players", "clarifications", "grace"),  # grace: its figure
    rulings=Rulings(listed_in=("clarifications",)),
    examples=(Examples(replay_bid_examples, kind="bid-examples",
                       key="bid_examples", label="bid example"),),
    where=__file__,
)
