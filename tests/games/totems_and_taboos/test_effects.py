"""The op vocabulary: code and schema agree, and the phrase table reads well."""
from __future__ import annotations

import json

import pytest

from pipeline.data.dataset import default_data_root
from pipeline.games.totems_and_taboos import effects as fx

SCHEMA = default_data_root() / "schemas" / "totems-and-taboos" / "commandments.schema.json"


@pytest.fixture(scope="module")
def op_defs() -> dict:
    return json.loads(SCHEMA.read_text(encoding="utf-8"))["$defs"]


def test_schema_ops_are_the_vocabulary(op_defs: dict) -> None:
    assert op_defs["op"]["properties"]["op"]["enum"] == list(fx.OPS)
    assert {name[len("op_"):] for name in op_defs if name.startswith("op_")} == set(fx.OPS)


def test_schema_parameters_are_op_fields(op_defs: dict) -> None:
    fields = set(fx.Op.__dataclass_fields__)
    for name in fx.OPS:
        assert set(op_defs[f"op_{name}"]["properties"]) <= fields, name


@pytest.mark.parametrize("name", sorted(fx.SELF_ONLY))
def test_self_only_ops(op_defs: dict, name: str) -> None:
    assert op_defs[f"op_{name}"]["properties"]["who"]["enum"] == [fx.SELF]


@pytest.mark.parametrize("name", sorted(fx.HOSTILE_ONLY))
def test_hostile_only_ops(op_defs: dict, name: str) -> None:
    assert fx.SELF not in op_defs[f"op_{name}"]["properties"]["who"]["enum"]


def test_scalable_ops_accept_per_block(op_defs: dict) -> None:
    for name in fx.OPS:
        assert ("per_block" in op_defs[f"op_{name}"]["properties"]) == (name in fx.SCALABLE), name


@pytest.mark.parametrize(
    ("ops", "text"),
    [
        ([fx.Op(fx.RECRUIT, role=fx.SERVANT, count=3), fx.Op(fx.RECRUIT, role=fx.CLERIC, count=2)], "Gain 3 servants and 2 clerics."),
        ([fx.Op(fx.KILL, who=fx.EACH, role=fx.CLERIC)], "Each player kills 1 of their clerics; it becomes a shrine."),
        ([fx.Op(fx.ROLL, who=fx.OWNERS, per_block=True)], "Each player with an orange block rolls 1 soul cube for each orange block they own."),
        ([fx.Op(fx.BUILD, servants=2)], "Build a block now, needing 2 fewer servants than usual."),
        ([fx.Op(fx.EXHAUST, who=fx.TARGET, role=fx.CLERIC, count=2), fx.Op(fx.EXHAUST, who=fx.TARGET, role=fx.SERVANT)],
         "Target player exhausts 2 of their available clerics and 1 servant."),
    ],
)
def test_phrases(ops: list, text: str) -> None:
    assert fx.render_ops(ops, "Orange") == text


def test_reaction_and_sacrifice_lead_the_text() -> None:
    text = fx.render_effect([fx.Op(fx.CANCEL, who=fx.TARGET)], "Red", trigger=fx.TRIGGER_AFFECTS_YOU, sacrifice=(fx.SERVANT, 1))
    assert text == (
        "Play when another player plays a commandment that affects you. "
        "Extra cost: kill 1 of your servants; its soul returns to the pile. Cancel that commandment's effect."
    )


def test_power_estimate_signs() -> None:
    assert fx.op_value(fx.Op(fx.KILL, who=fx.TARGET, role=fx.SERVANT)) > 0
    assert fx.op_value(fx.Op(fx.KILL, who=fx.SELF, role=fx.SERVANT)) < 0
    assert fx.op_value(fx.Op(fx.CANCEL, who=fx.TARGET)) == fx.CANCEL_WORTH
