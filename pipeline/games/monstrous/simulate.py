"""Seeded Monstrous simulations, for every variant the engine plays.

``simulate_games`` is the entry point for reports: N games of ``players``
gods with a variant and a policy, one ``random.Random(seed)`` driving them all
(the kit's ``simulate``), returning each game's final state. Where a throw
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
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from pipeline.core.engine import Outcome, Policy, State, random_policy
from pipeline.core.engine import simulate as play_games
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


@dataclass(frozen=True)
class Summary:
    """What ``pantheon monstrous simulate`` reports: per seat, the mean final score and the share of wins."""

    players: int
    variant: str
    games: int
    seed: int
    policy: str
    seats: tuple[str, ...]
    mean_score: tuple[float, ...]
    win_share: tuple[float, ...]  # a shared win splits its game between the winning gods
    mean_actions: float

    def as_json(self) -> dict[str, Any]:
        return {"players": self.players, "variant": self.variant, "games": self.games, "seed": self.seed,
                "policy": self.policy, "seats": list(self.seats), "mean_score": list(self.mean_score),
                "win_share": list(self.win_share), "mean_actions": self.mean_actions}


def summarise(finals: Sequence[State[Any]], *, players: int, variant: str, seed: int, policy: str) -> Summary:
    """Mean scores and win shares per seat over finished games (a team's teammates share its figures)."""
    seats = len(_finished(finals[0]).scores)
    score, share, actions = [0.0] * seats, [0.0] * seats, 0
    for final in finals:
        outcome = _finished(final)
        gods = {_god_label(final, seat) for seat in outcome.winners}
        for seat in range(seats):
            score[seat] += outcome.scores[seat]
            if seat in outcome.winners:
                share[seat] += 1 / len(gods)
        actions += len(final.history())
    n = len(finals)
    return Summary(players, variant, n, seed, policy, _seat_names(finals[0]), tuple(s / n for s in score),
                   tuple(s / n for s in share), actions / n)


def _finished(final: State[Any]) -> Outcome:
    """The outcome of a game that is over (the simulation plays every game to its end)."""
    outcome = final.outcome()
    if outcome is None:
        raise ValueError("summarise: a game in the list is not over")
    return outcome


def _seat_names(state: Any) -> tuple[str, ...]:
    wars = getattr(state, "wars", None)
    return wars.players if wars is not None else state.board.seats


def _god_label(state: Any, seat: int) -> str:
    wars = getattr(state, "wars", None)
    if wars is not None:
        return wars.god_of(seat)
    board = state.board
    return board.team_of.get(board.seats[seat], board.seats[seat])
