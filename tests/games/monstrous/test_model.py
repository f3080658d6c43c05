"""Monstrous model: the shipped data builds into the expected counts and resolved cards."""
from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from pipeline.data.dataset import default_data_root, load_game
from pipeline.games.monstrous import checks
from pipeline.games.monstrous.model import MonstrousModel, build
from pipeline.games.monstrous.powers import OP_PARAMS, TRIGGER_LABELS, Owner, op_problems, render_power
from pipeline.games.registry import spec as spec_of


@pytest.fixture(scope="module")
def model() -> MonstrousModel:
    return build(load_game(default_data_root(), spec_of("monstrous")))


def test_counts(model: MonstrousModel) -> None:
    assert len(model.gods) == 5
    assert len(model.designs) == 12
    assert len(model.cards) == 60
    assert len(model.locations) == 11
    assert len(model.throw_steps) == 7
    assert len(model.scenarios) == checks.SCENARIO_COUNT
    assert sum(t.count for t in model.faith_tokens) == model.component_counts["faith-tokens"] == 56


def test_every_monster_in_every_colour_once(model: MonstrousModel) -> None:
    pairs = Counter((card.god.colour, card.design.id) for card in model.cards)
    assert set(pairs.values()) == {1}
    assert len(pairs) == 60
    for god in model.gods:
        assert len(model.deck_of(god.id)) == 12


def test_cards_have_both_sides(model: MonstrousModel) -> None:
    for card in model.cards:
        unique, common = card.sides
        assert unique.plate in {"red", "bronze"}
        assert common.plate == "iron"
        assert (unique.plate == "red") == card.design.trap
        assert card.card_format.width_mm == 63


def test_traps(model: MonstrousModel) -> None:
    assert {d.id for d in model.designs if d.trap} == {"gorgon", "siren", "phoenix"}


def test_deck_table_is_twelve_minus_n(model: MonstrousModel) -> None:
    assert [(r.players, r.deck, r.underworld) for r in model.deck_table] == [(n, 12 - n, n) for n in range(2, 6)]


def test_locations(model: MonstrousModel) -> None:
    assert model.location("naxos").faith == 4
    assert model.location("athens").power.effects[0].name == "choose_one"
    assert model.location("athens").card_format.height_mm == 127


def test_scenarios_have_centres(model: MonstrousModel) -> None:
    locations = {loc.id for loc in model.locations}
    assert all(s.centre in locations for s in model.scenarios)


def test_examples_and_rulings(model: MonstrousModel) -> None:
    assert [e.id for e in model.examples] == ["dragon-at-naxos", "phoenix-then-cyclops-at-athens"]
    assert any(r.verdict_value == 3 for r in model.rulings)


@pytest.mark.parametrize("op, fragment", [
    ({"op": "steal_faith"}, "unknown op 'steal_faith'"),
    ({"op": "gain_faith"}, "op gain_faith needs parameter 'amount'"),
    ({"op": "gain_faith", "amount": 0}, "amount must be a positive whole number"),
    ({"op": "discard", "target": "everyone"}, "target 'everyone' is not one of"),
    ({"op": "draw_cards", "amount": 1, "per": "hit_monster"}, "op draw_cards has no parameter 'per'"),
    ({"op": "choose_one", "options": [{"op": "choose_one", "options": []}, {"op": "gain_throw", "amount": 1}]},
     "cannot be nested"),
])
def test_op_problems(op: dict[str, Any], fragment: str) -> None:
    assert any(fragment in message for message in op_problems(op))


def test_every_op_has_a_phrase() -> None:
    samples = {"gain_faith": {"amount": 1}, "take_faith": {"amount": 1, "from": "one_hit_monster_god"},
               "discard": {"target": "hit_monsters"}, "move_monster": {"target": "self", "to": "owner_hand"},
               "gain_throw": {"amount": 2}, "draw_cards": {"amount": 2},
               "choose_one": {"options": [{"op": "gain_throw", "amount": 1}, {"op": "draw_cards", "amount": 1}]},
               "throw_hit_monster": {"count": 1, "either_side": False, "gain_location_faith": False},
               "retrieve_from_underworld": {"whose": "other_god", "pick": "top", "to": "deck_top"},
               "majority_bonus": {"amount": 2, "ties": "nobody"}}
    assert set(samples) == set(OP_PARAMS)
    for name, params in samples.items():
        op = {"op": name, **params}
        assert list(op_problems(op)) == []
        text = render_power({"trigger": "hit_monsters", "effects": [op]}, Owner("monster", "Kraken"))
        assert text.startswith("HIT MONSTERS: ") and text.endswith(".")


def _monster_schema_defs() -> dict[str, Any]:
    path = default_data_root() / "schemas" / "monstrous" / "monsters.schema.json"
    return json.loads(path.read_text(encoding="utf-8"))["$defs"]


def test_schema_and_code_share_one_op_vocabulary() -> None:
    defs = _monster_schema_defs()
    assert defs["op"]["properties"]["op"]["enum"] == list(OP_PARAMS)
    for name, params in OP_PARAMS.items():
        branch = defs[f"op_{name}"]["properties"]
        assert set(branch) - {"op"} == set(params), name
        for param, allowed in params.items():
            if isinstance(allowed, tuple):
                assert branch[param]["enum"] == list(allowed), (name, param)


def test_schema_and_code_share_triggers() -> None:
    assert _monster_schema_defs()["trigger"]["enum"] == list(TRIGGER_LABELS)
