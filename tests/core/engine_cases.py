"""The conformance suite's cases: every set-up of every registered game's engine, and each game's own invariants.

The set-ups come from the games' specs (their ``engine`` part, see
pipeline/engine/setup.py), so a game is in the suite once it is registered;
the toy game (tests/core/toy_game.py, data in tests/fixtures/toy-data) stands
for a sixth game. What this module adds is test knowledge beyond the contract:
``INVARIANTS``, by game, checks what only that game knows (cards conserved, no
debt ...); ``invariants(state, previous)`` gets the state before the last
action as ``previous``, None for the first state. A game without invariants
here is held to the contract alone.
"""
from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

from pipeline.data.dataset import default_data_root, load_game
from pipeline.data.gamespec import GameSpec
from pipeline.engine import Restorable, State
from pipeline.games import registry
from pipeline.games.theocracy.engine import ASIDE
from tests.core.cli_helpers import TOY
from tests.core.toy_game import SPEC as TOY_SPEC

MONSTERS_PER_GOD = 12
Invariants = Callable[[Any, Optional[Any]], None]


@dataclass(frozen=True)
class EngineCase:
    """One set-up of one engine (``<game>-<set-up>``), with its game's invariants."""

    id: str
    game: Restorable  # what restores a serialised state of this case
    start: Callable[[int], State[Any]]
    invariants: Invariants
    max_actions: int
    must_end: bool  # random play always ends within max_actions (not so in Totems + Taboos' duels)


# ------------------------------------------------------------------ Monotheism
def _monotheism_invariants(state: Any, previous: Optional[Any]) -> None:
    labels = [card[0] for card in state.deck]
    assert len(labels) == len(set(labels)), "a card is in the deck twice"
    if previous is not None:
        assert set(labels) <= {card[0] for card in previous.deck}, "a card came (back) into the deck"


# ------------------------------------------------------------------ Theocracy
def _theocracy_invariants(state: Any, previous: Optional[Any]) -> None:
    g = state.game
    assert all(h == ASIDE or 0 <= h < g.num_players for h in state.holder)
    assert Counter(g.owner(b) for b in range(g.num_believers)) == {s: g.believers_per_player for s in range(g.num_players)}
    placed = [d for d in state.die_on if d is not None]
    assert len(placed) == len(set(placed)), "a die on two believers"
    assert not set(placed) & state.dice_aside, "a die both placed and aside"
    assert all(state.die_on[b] is None for b, h in enumerate(state.holder) if h == ASIDE)
    rolled = [v for v in state.die_values if v is not None]
    assert len(rolled) == len(set(rolled)), "a die value twice in a round"
    assert state.is_terminal() or set(range(state.turn)) == set(placed) | state.dice_aside, "a die went missing"
    for seat in range(g.num_players):
        hand = state.hands[seat]
        assert len(hand) == len(set(hand)) and state.bids[seat] not in hand
        in_play = state.turn + (state.bids[seat] is not None)
        assert state.is_terminal() or len(hand) == len(g.power_values) - in_play, "power cards not conserved"
    if previous is not None:
        assert all(now >= before for now, before in zip(state.scores, previous.scores)), "a score went down"


# ------------------------------------------------------------------ Monstrous
def _monstrous_invariants(state: Any, previous: Optional[Any]) -> None:
    game_state = getattr(state, "inner", state)  # a Wars campaign: the game being played (None between games)
    if game_state is None:
        return
    board = game_state.board
    gods = set(board.underworlds)  # one per God Board: a god, or a team
    assert game_state.card_count() == MONSTERS_PER_GOD * len(gods), "a Monster was made or lost"
    assert all(f >= 0 for f in board.faith.values()), "negative Faith"
    assert set(board.faith) == gods and all(board.team_of.get(p, p) in gods for p in board.seats)


# ------------------------------------------------------------------ Who's Your Heavenly Father?
def _heavenly_father_invariants(state: Any, previous: Optional[Any]) -> None:
    game = state.game
    assert all(n >= 0 for tokens in state.tokens for n in tokens.values()), "tokens in debt"
    assert state.card_count() == len(game.mortal_cards), "a Mortal card was made or lost"
    cards = [c for h in state.hands for c in h] + list(state.pile) + state.discard + [p.card for p in state.table]
    cards += [c for p in state.prayers for c in p]
    assert len(cards) == len(set(cards)), "a card in two places"
    dealt = len(state.player_gods) if state.god_deck else 0  # own gods join the row once all are dealt
    assert len(state.row) + (state.true_god is not None) + len(state.god_deck) + dealt == len(game.god_order)
    if state.is_terminal():
        assert not any(state.prayers), "prayers left unsettled at Judgment Day"


# ------------------------------------------------------------------ Totems + Taboos
def _totems_invariants(state: Any, previous: Optional[Any]) -> None:
    model = state.game.model
    assert state.pile >= 0
    assert state.pile + sum(r.souls() for r in state.religions) == model.components["soul-cubes"], "souls not conserved"
    assert sum(state.supply.values()) + sum(len(r.tower) for r in state.religions) == model.components["totem-blocks"]
    for r in state.religions:
        assert min(r.clerics, r.clerics_used, r.servants, r.servants_used, r.shrines) >= 0
        assert len(r.hand) <= model.turn.hand_limit
        assert all(model.may_stack(below, above) for below, above in zip(r.tower, r.tower[1:]))
    if not state.steps:  # no card is in flight
        cards = sum(sum(state.game.deck_cards(c).values()) for c in model.colour_ids)
        held = sum(len(r.hand) for r in state.religions)
        piles = sum(sum(d.values()) for d in state.decks.values()) + sum(sum(d.values()) for d in state.discards.values())
        assert piles + held == cards, "a card was made or lost"


def _no_invariants(state: Any, previous: Optional[Any]) -> None:
    """A game with no invariants here: held to the engine contract alone."""


INVARIANTS: dict[str, Invariants] = {
    "monotheism": _monotheism_invariants, "theocracy": _theocracy_invariants, "monstrous": _monstrous_invariants,
    "heavenly-father": _heavenly_father_invariants, "totems-and-taboos": _totems_invariants,
}


def games() -> list[tuple[GameSpec[Any], Path]]:
    """Every game the suite plays, with its data root: the registered games, then the toy (a sixth game)."""
    return [(spec, default_data_root()) for spec in registry.REGISTERED] + [(TOY_SPEC, TOY)]


@functools.lru_cache(maxsize=None)
def game_cases(game: str) -> tuple[EngineCase, ...]:
    """Every set-up of one game's engine, as its spec makes them from its data (made once per process, never
    changed: the tests share them read-only)."""
    spec, root = next((spec, root) for spec, root in games() if spec.id == game)
    model = load_game(root, spec).model
    return tuple(EngineCase(f"{spec.id}-{s.id}", s.game, s.start, INVARIANTS.get(spec.id, _no_invariants),
                            s.max_actions, s.must_end) for s in spec.engine(model))


def all_cases() -> tuple[EngineCase, ...]:
    """Every case of every game (loads every game)."""
    return tuple(c for spec, _ in games() for c in game_cases(spec.id))


def case(case_id: str) -> EngineCase:
    """One case, loading only its own game."""
    game = next(spec.id for spec, _ in games() if case_id.startswith(f"{spec.id}-"))
    return next(c for c in game_cases(game) if c.id == case_id)
