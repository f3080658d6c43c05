"""The toy game as a sixth game would be added: a spec naming a model, checks, card plan and commands.

Registered only for the tests that use it (``pipeline.games.registry.registered``);
``tests/fixtures/toy-data`` is its data and ``tests/fixtures/render-templates/toy``
its card templates. Its one cross-check (no card is named
:data:`FORBIDDEN_NAME`) lets a test see that validate reaches a registered
game's checks.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator, Optional

import typer

from pipeline.data.gamespec import GameSpec, Part

if TYPE_CHECKING:  # imported when used, as a game package does, so that registering the spec costs nothing
    from pipeline.cards.plan import PrintCard
    from pipeline.data.dataset import GameData
    from pipeline.data.problems import Problem

GAME_ID = "toy"
FORBIDDEN_NAME = "Nothing"
MODULE = __name__

SPEC = GameSpec(
    id=GAME_ID,
    title="Toy Game",
    summary="Toy: count the cards of the toy game.",
    model=Part(f"{MODULE}:build"),
    checks=Part(MODULE),
    cards=Part(f"{MODULE}:print_cards"),
    commands=Part(f"{MODULE}:app"),
    effects=Part("tests.core.toy_effects:LANGUAGE"),
)


@dataclass(frozen=True)
class ToyCard:
    id: str
    name: str
    cost: int


def build(game: GameData) -> tuple[ToyCard, ...]:
    return tuple(ToyCard(c["id"], c["name"], c["cost"]) for c in game.doc("cards").data["cards"])


def cross_checks(game: GameData) -> Iterator[Problem]:
    doc = game.doc("cards")
    for index, card in enumerate(game.model):
        if card.name == FORBIDDEN_NAME:
            yield doc.problem(("cards", index, "name"), f"card {card.id}: the name {FORBIDDEN_NAME!r} is kept for no card")


def print_cards(game: GameData) -> list[PrintCard]:
    from pipeline.cards.plan import Face, PrintCard

    return [PrintCard(card.id, card.name, Face("toy/front.svg.j2", {"name": card.name, "body": ""}),
                      Face("toy/back.svg.j2", {"name": card.name}), record=f"cards/{card.id}")
            for card in game.model]


app = typer.Typer(help=SPEC.summary, no_args_is_help=True, add_completion=False)


@app.command()
def count(data: Optional[str] = typer.Option(None, "--data")) -> None:
    """Print how many cards the toy game has."""
    from pathlib import Path

    from pipeline.checks.validate import load_valid_game

    typer.echo(f"{len(load_valid_game(GAME_ID, Path(data) if data else None).model)} cards")


@app.command()
def forbidden() -> None:  # a second command keeps `pantheon toy` a group
    """Print the name no toy card may have."""
    typer.echo(FORBIDDEN_NAME)
