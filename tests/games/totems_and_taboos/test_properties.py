"""Random legal play keeps the invariants; clones share the future; the solo simulation orders the difficulties."""
from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from pipeline.games.totems_and_taboos.engine import Game, State
from pipeline.games.totems_and_taboos.lookahead import lookahead_policy
from pipeline.games.totems_and_taboos.simulate import random_policy, simple_policy, simulate_solo

from tests.games.totems_and_taboos.test_engine import the_model

ORDERING_GAMES = 60  # seeded solo games per difficulty
ORDERING_SLACK = 0.02  # tolerance on win shares: a near-tie between two hard modes is not a reversal

MAX_STEPS = 400
GAMES = st.sampled_from([("multi", 2), ("multi", 3), ("multi", 4), ("solo", "easy"), ("solo", "normal"), ("solo", "hard")])


def make(kind: tuple) -> Game:
    model = the_model()
    return Game.multiplayer(model, kind[1]) if kind[0] == "multi" else Game.solo_game(model, kind[1])


def total_cards(s: State) -> int:
    in_hands = sum(len(r.hand) for r in s.religions)
    return sum(sum(d.values()) for d in s.decks.values()) + sum(sum(d.values()) for d in s.discards.values()) + in_hands


def check_invariants(s: State, cards: int) -> None:
    model = s.game.model
    assert s.pile >= 0
    assert s.pile + sum(r.souls() for r in s.religions) == model.components["soul-cubes"]
    assert sum(s.supply.values()) + sum(len(r.tower) for r in s.religions) == model.components["totem-blocks"]
    for r in s.religions:
        assert min(r.clerics, r.clerics_used, r.servants, r.servants_used, r.shrines) >= 0
        assert len(r.hand) <= model.turn.hand_limit
        assert all(model.may_stack(below, above) for below, above in zip(r.tower, r.tower[1:]))
    if not s.steps:  # no card is in flight
        assert total_cards(s) == cards


def step(s: State, rng: random.Random) -> None:
    s.apply_action(s.sample_chance(rng) if s.is_chance_node() else random_policy(s, rng))


@settings(max_examples=50, deadline=None)
@given(kind=GAMES, seed=st.integers(0, 10**6))
def test_random_play_keeps_invariants(kind: tuple, seed: int) -> None:
    rng = random.Random(seed)
    s = make(kind).new_initial_state()
    cards = total_cards(s)
    for _ in range(MAX_STEPS):
        if s.is_terminal():
            break
        assert s.legal_actions() or s.is_chance_node()
        step(s, rng)
        check_invariants(s, cards)


@settings(max_examples=50, deadline=None)
@given(kind=GAMES, seed=st.integers(0, 10**6), cut=st.integers(0, 150))
def test_a_clone_has_the_same_future(kind: tuple, seed: int, cut: int) -> None:
    rng = random.Random(seed)
    s = make(kind).new_initial_state()
    for _ in range(cut):
        if s.is_terminal():
            return
        step(s, rng)
    twin = s.clone()
    assert twin.key() == s.key()
    future = random.Random(seed + 1)
    replay = random.Random(seed + 1)
    for _ in range(100):
        if s.is_terminal():
            break
        step(s, future)
        step(twin, replay)
        assert twin.key() == s.key()
    assert twin.outcome() == s.outcome()


def test_solo_difficulties_are_ordered() -> None:
    """Seeded, with the look-ahead player: easy is won, and easy >= normal >= hard in win share and length."""
    model = the_model()
    runs = {d: simulate_solo(lambda x: Game.solo_game(model, x), d, ORDERING_GAMES, 2024, policy=lookahead_policy)
            for d in ("easy", "normal", "hard")}
    assert runs["easy"].wins > 0
    assert runs["easy"].win_share + ORDERING_SLACK >= runs["normal"].win_share
    assert runs["normal"].win_share + ORDERING_SLACK >= runs["hard"].win_share
    assert runs["easy"].mean_turns > runs["normal"].mean_turns > runs["hard"].mean_turns
    assert all(run.unfinished == 0 for run in runs.values())


def test_the_simple_player_never_beats_the_look_ahead_on_easy() -> None:
    model = the_model()
    simple, strong = (simulate_solo(lambda x: Game.solo_game(model, x), "easy", ORDERING_GAMES, 7, policy=p)
                      for p in (simple_policy, lookahead_policy))
    assert strong.win_share >= simple.win_share and strong.wins > 0


def test_a_card_in_play_when_the_game_ends_reaches_its_discard() -> None:
    """Found by the random-play test: a build that won the game mid-card dropped the card being played."""
    rng = random.Random(191824)
    s = make(("multi", 2)).new_initial_state()
    cards = total_cards(s)
    while not s.is_terminal():
        step(s, rng)
    assert total_cards(s) == cards
