"""The game contract of Who's Your Heavenly Father?: what this package gives the core (see pipeline/data/gamespec.py).

Each part is named directly (importing the spec imports the game's code, all but its command group and
balance study, imported when they are used); mypy checks each against the contract's Protocols.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.checks.rulecontract import Examples, Rulings
from pipeline.data.gamespec import GameSpec
from pipeline.games.heavenly_father import GAME_ID, TITLE, checks
from pipeline.games.heavenly_father.checks import component_counts, replay_dilemma_examples, replay_scoring_examples
from pipeline.games.heavenly_father.docs import documents
from pipeline.games.heavenly_father.effects import LANGUAGE
from pipeline.games.heavenly_father.model import HeavenlyFatherModel, build
from pipeline.games.heavenly_father.render import print_cards
from pipeline.games.heavenly_father.setups import set_ups

if TYPE_CHECKING:
    import typer

    from pipeline.analysis.balance.study import Study
    from pipeline.data.dataset import GameData


def commands() -> typer.Typer:
    """The game's command group, imported when `pantheon heavenly-father ...` runs (the other commands never need it)."""
    from pipeline.games.heavenly_father.cli import app

    return app


def study(game: GameData[HeavenlyFatherModel]) -> Study:
    """The game's balance study (its balance.py), imported when a balance command runs (validate and build never do)."""
    from pipeline.games.heavenly_father.balance import study as game_study

    return game_study(game)


SPEC: GameSpec[HeavenlyFatherModel] = GameSpec(
    id=GAME_ID,
    title=TITLE,
    summary="Who's Your Heavenly Father?: score Judgment Day with the reference engine.",
    model=build,
    checks=checks,
    engine=set_ups,
    counts=component_counts,
    cards=print_cards,
    documents=documents,
    commands=commands,
    balance=study,
    effects=LANGUAGE,
    examples=(
        Examples(replay_scoring_examples, kind="examples",
                 key="scoring_examples", label="scoring example"),
        Examples(replay_dilemma_examples, kind="examples",
                 key="dilemma_examples", label="dilemma example"),
    ),
    rule_sections=(
        "object", "components", "setup", "advanced-game", "virtues", "balance", "turns", "moral-dilemmas",
        "dilemma-example", "gains-and-losses", "philosophers", "philosopher-kinds", "reclaiming", "judgment-day",
        "empty-draw-pile", "prayers-at-the-end", "scoring", "scoring-example", "credits", "clarifications",
    ),
    rulings=Rulings(listed_in=("clarifications",)),
    where=__file__,
)
