"""``model.build`` on the shipped data: counts, lookups and the tower helpers."""
from __future__ import annotations

from collections import Counter

import pytest

from pipeline.data.dataset import default_data_root, load_game
from pipeline.games.registry import spec as spec_of
from pipeline.games.totems_and_taboos import GAME_ID, checks
from pipeline.games.totems_and_taboos.model import TotemsModel, build


@pytest.fixture(scope="module")
def model() -> TotemsModel:
    return build(load_game(default_data_root(), spec_of(GAME_ID)))


def test_counts(model: TotemsModel) -> None:
    assert len(model.colours) == checks.COLOUR_COUNT
    assert len(model.cards) == checks.COLOUR_COUNT * (checks.COMMANDMENTS_PER_COLOUR + checks.MIRACLES_PER_COLOUR)
    assert model.card_count == checks.CARD_COUNT == 162
    assert all(sum(c.copies for c in model.cards_of(colour)) == 27 for colour in model.colour_ids)
    assert len(model.guides) == 6
    assert Counter(c.level for c in model.cards) == Counter({1: 18, 2: 12, 3: 6, None: 6})


def test_wheel(model: TotemsModel) -> None:
    assert model.wheel.order == ("yellow", "green", "blue", "purple", "red", "orange")
    assert model.wheel.opposite_of("yellow") == "purple"
    assert model.wheel.opposite_of("green") == "red"
    assert model.wheel.opposite_of("orange") == "blue"
    assert model.wheel.neighbours("yellow") == frozenset({"orange", "green"})


def test_stacking_follows_the_rulebook_example(model: TotemsModel) -> None:
    assert {c for c in model.colour_ids if model.may_stack("blue", c)} == {"blue", "green", "purple"}


def test_tower_table(model: TotemsModel) -> None:
    assert [(r.level, r.shrines, r.servants) for r in model.tower.levels] == [
        (1, 0, 0), (2, 2, 1), (3, 4, 2), (4, 6, 3), (5, 8, 4), (6, 10, 5),
    ]
    assert model.tower.needs(6).shrines == 10
    assert model.tower.needs(7) is None
    assert model.tower.win_level == 6


def test_starting_resources(model: TotemsModel) -> None:
    by_colour = {r.colour: r for r in model.setup.resources}
    assert set(by_colour) == set(model.colour_ids)
    assert by_colour["green"].servants == 4
    assert by_colour["red"].rolled_souls == 3
    assert max(r.souls for r in model.setup.resources) == 4


def test_cards_carry_structured_effects(model: TotemsModel) -> None:
    unrequited = next(c for c in model.cards if c.id == "red-unrequited")
    assert unrequited.timing == "reaction" and unrequited.trigger == "affects-you"
    assert unrequited.cost is not None and unrequited.cost.sacrifice == ("servant", 1)
    harvest = next(c for c in model.cards if c.id == "yellow-bountiful-harvest")
    assert harvest.is_miracle and harvest.level is None and harvest.bonus is None
    assert all(op.per_block for op in harvest.ops)


def test_solo(model: TotemsModel) -> None:
    assert {d.difficulty: (d.passive_blocks, d.passive_shrines) for d in model.solo.difficulties} == {
        "easy": (4, 6), "normal": (5, 8), "hard": (6, 10),
    }
    assert model.solo.removed_levels == (3,)
    solo_die = next(d for d in model.dice if d.id == model.solo.die)
    assert sorted(solo_die.faces) == sorted(model.colour_ids)
