"""The toy game's card effect language, as a sixth game declares one: two ops in a core effect registry.

A toy card may carry ``effects: [{op: gain, amount: 2}, {op: pass}]`` (none does
in the fixture: the core tests name its lines). Each op's schema fragment,
phrase and handler live here (the toy game has no engine module of its own:
its handlers, which add to a score, are attached here); validate checks ``$defs`` of the toy's cards.schema.json against the registry.
"""
from __future__ import annotations

from typing import Any, Mapping

from pipeline.data.effects import EffectLanguage, EffectRegistry, dispatcher, keyed_defs, keyed_op_schema

REGISTRY = EffectRegistry("toy")
REGISTRY.op("gain", keyed_op_schema("gain", {"amount": {"type": "integer", "minimum": 1, "maximum": 3}}, ["amount"]),
            lambda op: f"Gain {op['amount']}.")
REGISTRY.op("pass", keyed_op_schema("pass", {}, []), lambda op: "Pass.")


@REGISTRY.handler("gain")
def _gain(score: int, op: Mapping[str, Any]) -> int:
    return score + int(op["amount"])


@REGISTRY.handler("pass")
def _pass(score: int, op: Mapping[str, Any]) -> int:
    return score


def effect_defs() -> dict[str, Any]:
    return {**keyed_defs(REGISTRY), "op": dispatcher(REGISTRY.effects())}


LANGUAGE = EffectLanguage(REGISTRY, "cards", effect_defs, prefix="op_")
