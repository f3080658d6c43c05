"""The game contract of Totems + Taboos: what this package gives the core (see pipeline/data/gamespec.py).

Each part is named directly (importing the spec imports the game's code, all but its command group and
balance study, imported when they are used); mypy checks each against the contract's Protocols.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.checks.rulecontract import Rulings
from pipeline.data.gamespec import GameSpec
from pipeline.games.totems_and_taboos import GAME_ID, TITLE, checks
from pipeline.games.totems_and_taboos.checks import component_counts
from pipeline.games.totems_and_taboos.docs import documents
from pipeline.games.totems_and_taboos.effects import LANGUAGE
from pipeline.games.totems_and_taboos.model import TotemsModel, build
from pipeline.games.totems_and_taboos.render import print_cards
from pipeline.games.totems_and_taboos.setups import set_ups

if TYPE_CHECKING:
    import typer

    from pipeline.analysis.balance.study import Study
    from pipeline.data.dataset import GameData


def commands() -> typer.Typer:
    """The game's command group, imported when `pantheon totems-and-taboos ...` runs (the other commands never need it)."""
    from pipeline.games.totems_and_taboos.cli import app

    return app


def study(game: GameData[TotemsModel]) -> Study:
    """The game's balance study (its balance.py), imported when a balance command runs (validate and build never do)."""
    from pipeline.games.totems_and_taboos.balance import study as game_study

    return game_study(game)


SPEC: GameSpec[TotemsModel] = GameSpec(
    id=GAME_ID,
    title=TITLE,
    summary='Totems + Taboos: check a tower build, or simulate solo games with a simple or look-ahead player.',
    model=build,
    checks=checks,
    engine=set_ups,
    counts=component_counts,
    cards=print_cards,
    documents=documents,
    commands=commands,
    balance=study,
    effects=LANGUAGE,
    # The rulebook's sections, and our rulings.
    rule_sections=("aim", "components", "souls", "colours", "tower", "cards", "guides", "setup", "turn", "solo",
                   "rulings", "ending", "tower-example"),  # the last two: looked up by the documents
    rulings=Rulings(listed_in=("rulings", "solo-rulings")),
    where=__file__,
)
