"""The five rules engines as cases of the conformance suite: how to start a game, and each game's own invariants.

A case names one set-up (a game at a player count, a solo difficulty, a
Monotheism deal or scenario). ``start(seed)`` makes its first state (the
seed matters only where the deal is not one of the engine's chance nodes:
Monotheism's shuffle). ``invariants(state, previous)`` checks what only that
game knows (cards conserved, no debt ...); ``previous`` is the state before
the last action, or None for the first state.
"""
from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Optional

from pipeline.data.dataset import default_data_root, load_game
from pipeline.engine import Restorable, State
from pipeline.games.heavenly_father import engine as heavenly_father
from pipeline.games.heavenly_father.model import build as build_heavenly_father
from pipeline.games.monotheism.play import Loaded, deal, load
from pipeline.games.monstrous import campaign as monstrous_campaign
from pipeline.games.monstrous import engine as monstrous
from pipeline.games.monstrous import variants as monstrous_variants
from pipeline.games.monstrous.model import build as build_monstrous
from pipeline.games.theocracy import engine as theocracy
from pipeline.games.theocracy.model import build as build_theocracy
from pipeline.games.totems_and_taboos import engine as totems
from pipeline.games.totems_and_taboos.model import build as build_totems

MONSTERS_PER_GOD = 12
Invariants = Callable[[Any, Optional[Any]], None]


@dataclass(frozen=True)
class EngineCase:
    """One set-up of one engine."""

    id: str
    game: Restorable  # what restores a serialised state of this case
    start: Callable[[int], State[Any]]
    invariants: Invariants
    max_actions: int = 5_000  # a random game longer than this is cut off
    must_end: bool = True  # random play always ends within max_actions (not so in Totems + Taboos' duels)


# ------------------------------------------------------------------ Monotheism
@functools.lru_cache(maxsize=1)
def _monotheism() -> Loaded:
    return load(default_data_root())


def _monotheism_invariants(state: Any, previous: Optional[Any]) -> None:
    labels = [card[0] for card in state.deck]
    assert len(labels) == len(set(labels)), "a card is in the deck twice"
    if previous is not None:
        assert set(labels) <= {card[0] for card in previous.deck}, "a card came (back) into the deck"


def _monotheism_cases() -> list[EngineCase]:
    loaded = _monotheism()
    cases = [EngineCase(f"monotheism-deal-{s.id}", loaded.game, functools.partial(deal, loaded, s.id),
                        _monotheism_invariants) for s in loaded.model.worshiper_sets]
    cases += [EngineCase(f"monotheism-scenario-{s.id}", loaded.game,
                         lambda seed, s=s: loaded.game.scenario_state(s), _monotheism_invariants)
              for s in loaded.model.scenarios]
    return cases


# ------------------------------------------------------------------ Theocracy
def _theocracy_invariants(state: Any, previous: Optional[Any]) -> None:
    g = state.game
    assert all(h == theocracy.ASIDE or 0 <= h < g.num_players for h in state.holder)
    assert Counter(g.owner(b) for b in range(g.num_believers)) == {s: g.believers_per_player for s in range(g.num_players)}
    placed = [d for d in state.die_on if d is not None]
    assert len(placed) == len(set(placed)), "a die on two believers"
    assert not set(placed) & state.dice_aside, "a die both placed and aside"
    assert all(state.die_on[b] is None for b, h in enumerate(state.holder) if h == theocracy.ASIDE)
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


def _theocracy_cases() -> list[EngineCase]:
    model = build_theocracy(load_game(default_data_root(), "theocracy"))
    games = {n: theocracy.Game.from_model(model, n) for n in model.player_counts}
    return [EngineCase(f"theocracy-{n}p", g, lambda seed, g=g: g.new_initial_state(), _theocracy_invariants)
            for n, g in games.items()]


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


def _monstrous_cases() -> list[EngineCase]:
    game = monstrous.Game(build_monstrous(load_game(default_data_root(), "monstrous")))
    rules = game.rules
    cases = [EngineCase(f"monstrous-{n}p", game, lambda seed, n=n: game.new_initial_state(list(game.gods[:n])),
                        _monstrous_invariants) for n in range(rules.min_players, rules.max_players + 1)]
    young = monstrous_variants.Table(young_gods=frozenset(game.gods[:3]))
    cases.append(EngineCase("monstrous-young-gods-3p", game,
                            lambda seed: game.new_initial_state(game.gods[:3], table=young), _monstrous_invariants))
    teams = game.variants.teams
    for count in (teams.teams_min, teams.teams_max):
        cases.append(EngineCase(f"monstrous-team-{teams.players(count)}p", game,
                                lambda seed, count=count: game.new_team_state(game.gods[:count]), _monstrous_invariants))
    wars = monstrous_campaign.WarsGame(game, seats=game.gods[:2])
    cases.append(EngineCase("monstrous-wars-2p", wars, lambda seed: wars.new_initial_state(), _monstrous_invariants,
                            max_actions=20_000))
    team_wars = monstrous_campaign.WarsGame(game, teams=game.gods[:2], young_gods=frozenset({"green-1"}))
    cases.append(EngineCase("monstrous-team-wars-4p", team_wars, lambda seed: team_wars.new_initial_state(),
                            _monstrous_invariants, max_actions=20_000))
    return cases


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


def _heavenly_father_cases() -> list[EngineCase]:
    model = build_heavenly_father(load_game(default_data_root(), "heavenly-father"))
    low, high = model.parameters[heavenly_father.P_MIN], model.parameters[heavenly_father.P_MAX]
    games = {n: heavenly_father.Game.from_model(model, n) for n in range(low, high + 1)}
    return [EngineCase(f"heavenly-father-{n}p", g, lambda seed, g=g: g.new_initial_state(),
                       _heavenly_father_invariants) for n, g in games.items()]


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


def _totems_cases() -> list[EngineCase]:
    model = build_totems(load_game(default_data_root(), "totems-and-taboos"))
    cases = []
    for n in range(model.setup.min_players, model.setup.max_players + 1):
        g = totems.Game.multiplayer(model, n)
        cases.append(EngineCase(f"totems-and-taboos-{n}p", g, lambda seed, g=g: g.new_initial_state(),
                                _totems_invariants, max_actions=1_500, must_end=False))
    for difficulty in (d.id for d in model.solo.difficulties):
        g = totems.Game.solo_game(model, difficulty)
        cases.append(EngineCase(f"totems-and-taboos-solo-{difficulty}", g, lambda seed, g=g: g.new_initial_state(),
                                _totems_invariants))
    return cases


# The cases by id, known without loading any data (the tests are parametrized by them at collection, which
# must stay cheap); test_engine_conformance checks them against the cases the data makes.
CASE_IDS: tuple[str, ...] = (
    "monotheism-deal-haruspex-of-scriptures", "monotheism-deal-three-monks", "monotheism-deal-autotheistic-pretender",
    "monotheism-deal-poet-and-spirit-guide", *(f"monotheism-scenario-{n}" for n in range(1, 6)),
    *(f"theocracy-{n}p" for n in range(2, 5)),
    *(f"monstrous-{n}p" for n in range(2, 6)), "monstrous-young-gods-3p", "monstrous-team-4p", "monstrous-team-10p",
    "monstrous-wars-2p", "monstrous-team-wars-4p",
    *(f"heavenly-father-{n}p" for n in range(2, 7)),
    *(f"totems-and-taboos-{n}p" for n in range(2, 5)), *(f"totems-and-taboos-solo-{d}" for d in ("easy", "normal", "hard")),
)

# Each game's cases, built (its data loaded) the first time one of them is asked for.
_GAMES: dict[str, Callable[[], list[EngineCase]]] = {
    "monotheism": _monotheism_cases, "theocracy": _theocracy_cases, "monstrous": _monstrous_cases,
    "heavenly-father": _heavenly_father_cases, "totems-and-taboos": _totems_cases,
}


@functools.lru_cache(maxsize=None)
def game_cases(game: str) -> tuple[EngineCase, ...]:
    """Every case of one game's engine, as its data makes them."""
    return tuple(_GAMES[game]())


def all_cases() -> tuple[EngineCase, ...]:
    """Every case of every engine (loads every game)."""
    return tuple(c for game in _GAMES for c in game_cases(game))


def case(case_id: str) -> EngineCase:
    """One case, loading only its own game."""
    game = next(g for g in _GAMES if case_id.startswith(f"{g}-"))
    return next(c for c in game_cases(game) if c.id == case_id)
