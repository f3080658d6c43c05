"""resolve_bid: every stored example, every rulebook example, and properties of the resolver."""
from __future__ import annotations

from itertools import permutations
from typing import Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.data.dataset import default_data_root, load_game
from pipeline.games.registry import spec as spec_of
from pipeline.games.theocracy import GAME_ID
from pipeline.games.theocracy.engine import (
    BID_RULE_IDS,
    RULE_HIGHER,
    RULE_OUROBOROS,
    RULE_RUIN,
    RULE_RUIN_VOID,
    RULE_TIE,
    RULE_UPSET,
    BidResult,
    beats,
    resolve_bid,
)
from pipeline.games.theocracy.model import build

EXAMPLES = build(load_game(default_data_root(), spec_of(GAME_ID))).bid_examples
VALUES = st.integers(min_value=1, max_value=5)


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.id for e in EXAMPLES])
def test_stored_example_replays(example) -> None:
    assert resolve_bid(example.bids) == BidResult(example.winner, example.rule, example.ruined)


# The rulebook's own examples, written out here as well so a data edit cannot hide a change.
@pytest.mark.parametrize(
    "bids, winner, rule",
    [
        ((1, 2, 4, 5), None, RULE_OUROBOROS),
        ((4, 4, 1, 5), 2, RULE_UPSET),
        ((2, 3, 4, 5), 3, RULE_HIGHER),
        ((1, 1, 1, 3), 3, RULE_RUIN),
        ((2, 2, 3, 3), None, RULE_RUIN_VOID),
        ((4, 4, 2), 2, RULE_RUIN),
        ((1, 5, 3), None, RULE_OUROBOROS),
        ((1, 5), 0, RULE_UPSET),
        ((5, 3), 0, RULE_HIGHER),
        ((3, 1), 0, RULE_HIGHER),
    ],
)
def test_rulebook_example(bids: tuple[int, ...], winner: Optional[int], rule: str) -> None:
    result = resolve_bid(bids)
    assert (result.winner, result.rule) == (winner, rule)


def test_one_beats_five_only() -> None:
    assert beats(1, 5) and not beats(5, 1)
    assert all(beats(v, 1) for v in (2, 3, 4))
    assert all(beats(5, v) for v in (2, 3, 4))
    assert resolve_bid([5, 1]) == BidResult(1, RULE_UPSET)
    assert resolve_bid([1, 2]) == BidResult(1, RULE_HIGHER)


def test_two_player_tie_is_a_draw() -> None:
    assert resolve_bid([4, 4]) == BidResult(None, RULE_TIE)


def test_all_equal_with_more_players_is_ruin_void() -> None:
    assert resolve_bid([3, 3, 3]) == BidResult(None, RULE_RUIN_VOID, (0, 1, 2))
    assert resolve_bid([5, 5, 5, 5]) == BidResult(None, RULE_RUIN_VOID, (0, 1, 2, 3))


def test_ruin_comes_before_the_circle() -> None:
    # Without Ruin, 4 1 5 would be a circle; with it, the 4s go and 1 beats 5.
    assert resolve_bid([4, 1, 5]).rule == RULE_OUROBOROS
    assert resolve_bid([4, 4, 1, 5]) == BidResult(2, RULE_UPSET, (0, 1))


def test_too_few_bids_rejected() -> None:
    with pytest.raises(ValueError):
        resolve_bid([3])


@settings(max_examples=300, deadline=None)
@given(st.lists(VALUES, min_size=2, max_size=4))
def test_result_follows_the_seats(values: list[int]) -> None:
    """Reordering the seats moves the winner with its card and never changes the rule."""
    base = resolve_bid(values)
    assert base.rule in BID_RULE_IDS
    for order in set(permutations(range(len(values)))):
        shuffled = resolve_bid([values[i] for i in order])
        assert shuffled.rule == base.rule
        expected = None if base.winner is None else order.index(base.winner)
        assert shuffled.winner == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(VALUES, min_size=2, max_size=4))
def test_winner_beats_every_card_left(values: list[int]) -> None:
    result = resolve_bid(values)
    if result.winner is None:
        return
    left = [s for s in range(len(values)) if s not in result.ruined]
    assert result.winner in left
    assert all(beats(values[result.winner], values[s]) for s in left if s != result.winner)
    assert values.count(values[result.winner]) == 1


def test_ouroboros_exactly_when_one_five_and_a_middle_card_are_left() -> None:
    """Ruling ouroboros-test: with cards 1-5 a circle needs a 1, a 5 and a 2, 3 or 4 left."""
    for n in (3, 4):
        for values in _all_bids(n):
            left = [v for v in values if values.count(v) == 1]
            circle = 1 in left and 5 in left and any(v in left for v in (2, 3, 4))
            assert (resolve_bid(values).rule == RULE_OUROBOROS) == circle, values


def _all_bids(n: int) -> list[list[int]]:
    if n == 0:
        return [[]]
    return [[v] + rest for v in range(1, 6) for rest in _all_bids(n - 1)]
