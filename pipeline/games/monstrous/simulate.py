"""Seeded Monstrous simulations, for every variant the engine plays.

``starter`` makes a variant's games for the balance study
(:mod:`pipeline.games.monstrous.balance`), which both ``pantheon simulate
monstrous`` and ``pantheon monstrous simulate --variant`` play;
``simulate_games`` plays N games of ``players`` gods with a variant and a
policy, one ``random.Random(seed)`` driving them all (the kit's
``simulate``), returning each game's final state. Where a throw
lands is the engine's chance model (``LandingModel``), not skill, so the
policies differ only in the choices a god makes:

- ``random``: a uniformly random legal action;
- ``simple``: throws a Monster's unique side up, uses a young god's re-throw
  whenever it may, hands a drawn card to a teammate whose hand is empty,
  keeps the scenario and the decks as they are in Wars, and otherwise picks
  at random.

Variants: ``standard``, ``epic`` (all 12 Monsters), ``young-gods`` (every god
a young god), ``team`` (``players`` gods in teams of two: 4 to 10),
``wars`` and ``team-wars`` (three-game campaigns; a state is a Campaign).
"""
from __future__ import annotations

import random
from typing import Any, Callable, Optional, Sequence

from pipeline.engine import Policy, State, random_policy
from pipeline.engine import simulate as play_games
from pipeline.games.monstrous.campaign import WarsGame
from pipeline.games.monstrous.engine import KEEP, UNIQUE, Game
from pipeline.games.monstrous.variants import EPIC, STANDARD, TEAM, TEAM_WARS, WARS, YOUNG_GODS, Table

VARIANTS = (STANDARD, EPIC, YOUNG_GODS, TEAM, WARS, TEAM_WARS)
TEAM_VARIANTS = (TEAM, TEAM_WARS)


def simple_policy(state: Any, rng: random.Random) -> Any:
    """The ``simple`` player of the module docstring."""
    actions = state.legal_actions()
    kind = _pending_kind(state)
    if kind == "throw":
        unique = [a for a in actions if a.endswith(f" {UNIQUE}")]
        return rng.choice(unique or actions)
    if kind == "rethrow":
        return next((a for a in actions if a.endswith(f" {UNIQUE}")), actions[0])
    if kind == "share":
        board = _board(state)
        empty = [a for a in actions if a != KEEP and not board.hands[a.split(" ", 1)[1]]]
        return empty[0] if empty else KEEP
    if kind == "swap" and KEEP in actions:
        return KEEP
    return rng.choice(actions)


def _board(state: Any) -> Any:
    return state.inner.board if hasattr(state, "inner") else state.board


def _pending_kind(state: Any) -> Any:
    inner = getattr(state, "inner", state)
    return inner.pending_kind() if inner is not None else None


POLICIES: dict[str, Policy] = {"random": random_policy, "simple": simple_policy}


def starter(game: Game, players: int, variant: str = STANDARD,
            locations: Optional[Sequence[str]] = None) -> Callable[[], State[Any]]:
    """What makes the first state of a game of ``players`` gods (the first gods of gods.yaml) with ``variant``.

    Team variants seat ``players`` gods in teams (their God Boards are the first ``players / team size``
    colours); ValueError for a variant or a count the rules do not allow. ``locations`` lays out the table
    (default: the first game's); a Wars campaign draws its own scenarios and ignores it.
    """
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r} (variants: {', '.join(VARIANTS)})")
    if variant in TEAM_VARIANTS:
        rules = game.variants.teams
        teams, odd = divmod(players, rules.size)
        if odd or not rules.teams_min <= teams <= rules.teams_max:
            raise ValueError(f"{players} gods: {variant} is for {rules.players(rules.teams_min)} to "
                             f"{rules.players(rules.teams_max)} gods in teams of {rules.size}")
        colours = game.gods[:teams]
        if variant == TEAM_WARS:
            return WarsGame(game, teams=colours).new_initial_state
        return lambda: game.new_team_state(colours, locations)
    if not game.rules.min_players <= players <= game.rules.max_players:
        raise ValueError(f"{players} gods: Monstrous is for {game.rules.min_players} to {game.rules.max_players}")
    gods = game.gods[:players]
    if variant == WARS:
        return WarsGame(game, seats=gods).new_initial_state
    if variant == EPIC:
        return lambda: game.new_initial_state(gods, locations, underworld_cards=0)
    table = Table(young_gods=frozenset(gods)) if variant == YOUNG_GODS else Table()
    return lambda: game.new_initial_state(gods, locations, table=table)


def simulate_games(game: Game, *, players: int, variant: str = STANDARD, games: int, seed: int,
                   policy: Policy = random_policy) -> list[State[Any]]:
    """The final states of ``games`` seeded games (see :func:`starter` for ``players`` and ``variant``)."""
    if games < 1:
        raise ValueError(f"simulate needs at least 1 game, got {games}")
    return list(play_games(starter(game, players, variant), policy, games=games, seed=seed))
