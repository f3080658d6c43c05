"""model.build on the shipped data, and the single-scenario record a solver file will use."""
from __future__ import annotations

import pytest

from pipeline.data.dataset import default_data_root, load_game
from pipeline.data.schemas import SchemaValidator, load_schemas
from pipeline.games.monotheism import GAME_ID, TITLE
from pipeline.games.monotheism.checks import scenario_findings
from pipeline.games.monotheism.model import CardKind, MonotheismModel, build, scenario_from_record
from pipeline.games.registry import spec as spec_of

SCENARIO_RECORD_SCHEMA = {"$ref": "urn:pantheon:monotheism:scenarios#/$defs/scenario"}


@pytest.fixture(scope="module")
def model() -> MonotheismModel:
    return build(load_game(default_data_root(), spec_of(GAME_ID)))


def test_package_identity() -> None:
    assert (GAME_ID, TITLE) == ("monotheism", "Monotheism")


def test_counts(model: MonotheismModel) -> None:
    assert model.component("deity-cards").count == 29
    assert model.component("worshiper-cards").count == 7
    assert [len(s.worshipers) for s in model.worshiper_sets] == [1, 3, 1, 2]
    assert [w.id for w in model.worshiper_set("three-monks").worshipers] == ["mizaru", "kikazaru", "iwazaru"]
    assert model.worshiper("kikazaru").name == "Kikazaru, The Pious Monk"
    assert [s.id for s in model.worshiper_sets if s.zero_gods_victory] == ["autotheistic-pretender"]
    assert [(s.number, s.card_count, len(s.deck)) for s in model.scenarios] == [
        (1, 11, 11), (2, 9, 9), (3, 11, 11), (4, 11, 11), (5, 11, 11)
    ]


def test_decks_run_bottom_to_top(model: MonotheismModel) -> None:
    first = model.scenario(1)
    assert first.deck[0].ref == "01" and first.top.ref == "11" and first.top.veiled
    assert [(c.ref, c.cursed) for c in first.worshipers] == [("pretender", 3)]
    fourth = model.scenario(4)
    assert [c.ref for c in fourth.deck if c.transformed] == ["23"]
    assert fourth.deck[7].kind is CardKind.WORSHIPER and fourth.deck[7].cursed == 1
    fifth = model.scenario(5)
    assert fifth.deck[0].ref == "pretender" and fifth.deck[0].cursed == 2
    assert "07" in {c.ref for c in model.scenario(3).deities}  # When Atlas Falls holds #07


def test_every_scenario_record_stands_alone() -> None:
    """Each shipped scenario, and a bare one without number or provenance, passes $defs/scenario."""
    registry = load_schemas(default_data_root()).registry
    validator = SchemaValidator(SCENARIO_RECORD_SCHEMA, registry=registry)
    records = load_game(default_data_root(), spec_of(GAME_ID)).doc("scenarios").data["scenarios"]
    for record in records:
        assert list(validator.iter_errors(record)) == []
    bare = {"id": "mine", "title": "A test", "card_count": 3,
            "deck": [{"worshiper": "haruspex"}, {"deity": "05"}, {"deity": "06", "veiled": True}]}
    assert list(validator.iter_errors(bare)) == []
    assert list(validator.iter_errors({**bare, "deck": [{"deity": "05", "cursed": 1}]})) != []


def test_single_scenario_findings(model: MonotheismModel) -> None:
    set_of = {w.id: w.set_id for w in model.worshipers}
    record = {"id": "mine", "title": "A test", "card_count": 3,
              "deck": [{"worshiper": "haruspex"}, {"deity": "05"}, {"deity": "06", "veiled": True}]}
    assert list(scenario_findings(scenario_from_record(record), set_of)) == []
    record["deck"][2] = {"deity": "05"}
    found = list(scenario_findings(scenario_from_record(record), set_of))
    assert (("deck", 2), "card 3 from the bottom (#05) is already in the deck as card 2") in found
    assert (("deck", 2), "top card #05 must be a veiled god (every scenario begins by unveiling it)") in found
