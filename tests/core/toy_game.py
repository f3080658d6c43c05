"""The toy game as a sixth game would be added: a spec naming a model, checks, engine, card plan and commands.

Registered only for the tests that use it (``pipeline.games.registry.registered``);
``tests/fixtures/toy-data`` is its data and ``tests/fixtures/render-templates/toy``
its card templates. Its one cross-check (no card is named
:data:`FORBIDDEN_NAME`) lets a test see that validate reaches a registered
game's checks. Its engine (two players take cards in turn, each scoring the
card's cost; a coin decides who starts) is played by the conformance suite
once the toy is registered, as any registered game's engine is.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any, Hashable, Iterator, Mapping, Optional

import typer

from pipeline.cards.plan import Face, PrintCard
from pipeline.data.dataset import GameData
from pipeline.data.gamespec import GameSpec
from pipeline.data.problems import Problem
from pipeline.engine import TERMINAL, Decision, IllegalAction, Outcome, SetUp, State
from pipeline.games.commands import valid_game
from tests.core.toy_effects import LANGUAGE

GAME_ID = "toy"
FORBIDDEN_NAME = "Nothing"
SEATS = 2
HEADS, TAILS = "heads", "tails"  # the coin: heads, seat 0 starts


@dataclass(frozen=True)
class ToyCard:
    id: str
    name: str
    cost: int


ToyModel = tuple[ToyCard, ...]


def build(game: GameData[ToyModel]) -> ToyModel:
    return tuple(ToyCard(c["id"], c["name"], c["cost"]) for c in game.doc("cards").data["cards"])


class _Checks:
    """The toy's checks (what a game package's checks module holds), as one object."""

    @staticmethod
    def cross_checks(game: GameData[ToyModel]) -> Iterator[Problem]:
        doc = game.doc("cards")
        for index, card in enumerate(game.model):
            if card.name == FORBIDDEN_NAME:
                yield doc.problem(("cards", index, "name"), f"card {card.id}: the name {FORBIDDEN_NAME!r} is kept for no card")


def print_cards(game: GameData[ToyModel]) -> list[PrintCard]:
    return [PrintCard(card.id, card.name, Face("toy/front.svg.j2", {"name": card.name, "body": ""}),
                      Face("toy/back.svg.j2", {"name": card.name}), record=f"cards/{card.id}")
            for card in game.model]


# ------------------------------------------------------------------ the engine
@dataclass(frozen=True)
class ToyGame:
    """The toy's rules: the cards on the table and their costs."""

    cards: ToyModel

    def new_initial_state(self) -> "ToyState":
        return ToyState(self, tuple(card.id for card in self.cards), (0,) * SEATS, None)._started({"cards": len(self.cards)})

    def state_from_setup(self, setup: Mapping[str, Any]) -> "ToyState":
        if setup.get("cards") != len(self.cards):
            raise IllegalAction(f"a game of {setup.get('cards')} cards cannot be restored in a game of {len(self.cards)}")
        return self.new_initial_state()


class ToyState(State[str]):
    game_id = GAME_ID

    def __init__(self, game: ToyGame, table: tuple[str, ...], scores: tuple[int, ...], turn: Optional[int]) -> None:
        self.game, self.table, self.scores, self.turn = game, table, scores, turn

    @property
    def num_players(self) -> int:
        return SEATS

    def _decide(self) -> Decision[str]:
        if self.turn is None:
            return Decision.chance([(HEADS, Fraction(1, 2)), (TAILS, Fraction(1, 2))])
        if not self.table:
            return Decision(TERMINAL, ())
        return Decision(self.turn, self.table)

    def outcome(self) -> Optional[Outcome]:
        if self.turn is None or self.table:
            return None
        best = max(self.scores)
        return Outcome("table-empty", tuple(s for s in range(SEATS) if self.scores[s] == best), tuple(map(float, self.scores)))

    def key(self) -> Hashable:
        return self.table, self.scores, self.turn

    def _copy(self) -> "ToyState":
        return copy.copy(self)  # every field is immutable: a shallow copy (history and events kept) is independent

    def _successor(self, action: str) -> "ToyState":
        if self.turn is None:
            return ToyState(self.game, self.table, self.scores, 0 if action == HEADS else 1)
        cost = next(card.cost for card in self.game.cards if card.id == action)
        scores = tuple(s + cost if seat == self.turn else s for seat, s in enumerate(self.scores))
        return ToyState(self.game, tuple(c for c in self.table if c != action), scores, (self.turn + 1) % SEATS)


def _first_state(game: ToyGame, seed: int) -> State[Any]:
    return game.new_initial_state()


def set_ups(model: ToyModel) -> list[SetUp]:
    game = ToyGame(model)
    return [SetUp(f"{SEATS}p", game, partial(_first_state, game))]


# ------------------------------------------------------------------ the commands
app = typer.Typer(help="Toy: count the cards of the toy game.", no_args_is_help=True, add_completion=False)


@app.command()
def count(ctx: typer.Context, data: Optional[str] = typer.Option(None, "--data")) -> None:
    """Print how many cards the toy game has."""
    typer.echo(f"{len(valid_game(ctx, GAME_ID, Path(data) if data else None).model)} cards")


@app.command()
def forbidden() -> None:  # a second command keeps `pantheon toy` a group
    """Print the name no toy card may have."""
    typer.echo(FORBIDDEN_NAME)


SPEC: GameSpec[ToyModel] = GameSpec(
    id=GAME_ID,
    title="Toy Game",
    summary="Toy: count the cards of the toy game.",
    model=build,
    checks=_Checks(),
    engine=set_ups,
    cards=print_cards,
    commands=lambda: app,
    effects=LANGUAGE,
)
