"""The game contract of Monotheism: what this package gives the core (see pipeline/data/gamespec.py).

Each part is named directly (importing the spec imports the game's code, all but its command group and
balance study, imported when they are used); mypy checks each against the contract's Protocols.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.checks.rulecontract import Rulings
from pipeline.data.gamespec import GameSpec
from pipeline.data.kinds import RULES_KIND
from pipeline.games.monotheism import GAME_ID, TITLE, checks
from pipeline.games.monotheism.checks import component_counts
from pipeline.games.monotheism.consequences import consequences
from pipeline.games.monotheism.docs import documents
from pipeline.games.monotheism.dsl import LANGUAGE
from pipeline.games.monotheism.model import MonotheismModel, build
from pipeline.games.monotheism.render import print_cards
from pipeline.games.monotheism.setups import set_ups

if TYPE_CHECKING:
    import typer

    from pipeline.analysis.balance.study import Study
    from pipeline.data.dataset import GameData


def commands() -> typer.Typer:
    """The game's command group, imported when `pantheon monotheism ...` runs (the other commands never need it)."""
    from pipeline.games.monotheism.cli import app

    return app


def study(game: GameData[MonotheismModel]) -> Study:
    """The game's balance study (its balance.py), imported when a balance command runs (validate and build never do)."""
    from pipeline.games.monotheism.balance import study as game_study

    return game_study(game)


SPEC: GameSpec[MonotheismModel] = GameSpec(
    id=GAME_ID,
    title=TITLE,
    summary="Monotheism: replay the scenarios' winning lines; solve, rate, generate and add puzzles; play a game.",
    model=build,
    checks=checks,
    engine=set_ups,
    counts=component_counts,
    cards=print_cards,
    documents=documents,
    commands=commands,
    balance=study,
    consequences=consequences,
    effects=LANGUAGE,
    # One rules section per rulebook section, plus the engine rulings.
    rule_sections=(
        "overview", "components", "set-up", "play", "acts", "essences", "veiled-gods",
        "consuming-gods", "timing", "worshipers", "ending-the-game", "playing-in-hand",
        "designers-mistakes", "scenarios", "advice", "engine-rulings",
        # looked up by the documents (the reference and cheat sheet, the figures)
        "act", "essences-in-play", "submerge", "starting-over",
    ),
    rulings=Rulings(kind=RULES_KIND, key="engine-rulings", text="paragraphs"),  # the engine-rulings subsections
    where=__file__,
)
