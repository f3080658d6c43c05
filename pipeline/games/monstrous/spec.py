"""The game contract of Monstrous: what this package gives the core (see pipeline/data/gamespec.py).

Each part is named directly (importing the spec imports the game's code, all but its command group and
balance study, imported when they are used); mypy checks each against the contract's Protocols.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.checks.rulecontract import Examples, Rulings
from pipeline.data.gamespec import GameSpec
from pipeline.games.monstrous import GAME_ID, TITLE, checks
from pipeline.games.monstrous.checks import component_counts, replay_examples
from pipeline.games.monstrous.docs import documents
from pipeline.games.monstrous.engine import RULINGS
from pipeline.games.monstrous.model import MonstrousModel, build
from pipeline.games.monstrous.powers import LANGUAGE
from pipeline.games.monstrous.render import print_cards
from pipeline.games.monstrous.setups import set_ups

if TYPE_CHECKING:
    import typer

    from pipeline.analysis.balance.study import Study
    from pipeline.data.dataset import GameData


def commands() -> typer.Typer:
    """The game's command group, imported when `pantheon monstrous ...` runs (the other commands never need it)."""
    from pipeline.games.monstrous.cli import app

    return app


def study(game: GameData[MonstrousModel]) -> Study:
    """The game's balance study (its balance.py), imported when a balance command runs (validate and build never do)."""
    from pipeline.games.monstrous.balance import study as game_study

    return game_study(game)


SPEC: GameSpec[MonstrousModel] = GameSpec(
    id=GAME_ID,
    title=TITLE,
    summary="Monstrous: resolve declared throws with the rules engine, or simulate seeded games.",
    model=build,
    checks=checks,
    engine=set_ups,
    counts=component_counts,
    cards=print_cards,
    documents=documents,
    commands=commands,
    balance=study,
    effects=LANGUAGE,
    # The rulebook's sections (the documents print the components, rulings, scenarios and examples into theirs).
    rule_sections=("overview", "components", "faith", "god-boards-and-aids", "monsters", "locations", "setup",
                   "turns", "throw-steps", "throwing", "hitting", "card-powers", "trap-monsters", "reading-powers",
                   "end-and-scoring", "scenarios", "variants", "rulings", "examples"),
    rulings=Rulings(followed=RULINGS, title="question", text="answer"),
    examples=(Examples(replay=replay_examples),),
    where=__file__,
)
