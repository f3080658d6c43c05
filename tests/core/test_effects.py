"""The core effect registry: every game with card effects keeps one, its schema is checked against it, and a
drifted op, an op without handler or phrase, or one its engine does not read is one line naming the op."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

from pipeline.data.dataset import default_data_root, load_game
from pipeline.data.effects import (
    READS_OPS,
    EffectRegistry,
    dispatcher,
    keyed_defs,
    keyed_op_schema,
    language_problems,
    schema_drift,
    tagged_defs,
)
from pipeline.games import registry as games
from pipeline.games.registry import spec as spec_of
from tests.core.cli_helpers import copy_toy

WITH_EFFECTS = ("monotheism", "monstrous", "heavenly-father", "totems-and-taboos")


def _toy_registry(usage: str = "calls handlers") -> EffectRegistry:
    registry = EffectRegistry("toy", usage=usage)
    registry.op("gain", keyed_op_schema("gain", {"amount": {"type": "integer", "minimum": 1}}, ["amount"]),
                lambda op: f"Gain {op['amount']}.")
    registry.op("pass", keyed_op_schema("pass", {}, []), lambda op: "Pass.")
    return registry


@pytest.mark.parametrize("game", WITH_EFFECTS)
def test_every_game_with_card_effects_names_its_language_and_it_is_whole(game: str) -> None:
    language = games.spec(game).effects
    assert language is not None
    assert language.registry.game == game
    assert list(language.registry.problems()) == []
    schema = json.loads((default_data_root() / "schemas" / game / f"{language.kind}.schema.json").read_text(encoding="utf-8"))
    assert list(schema_drift(language.defs(), schema["$defs"], prefix=language.prefix)) == []


def test_theocracy_has_no_card_effects() -> None:
    assert games.spec("theocracy").effects is None


def test_an_op_without_handler_or_phrase_is_named() -> None:
    registry = _toy_registry()
    registry.attach("gain", lambda *a: None)
    registry.get("op", "gain").phrase = None
    assert list(registry.problems()) == ["op 'gain' has no phrase for printed text", "op 'pass' has no engine handler"]


def test_an_engine_that_reads_ops_names_the_ones_it_supports() -> None:
    registry = _toy_registry(READS_OPS)
    registry.supported({"gain", "smite"})
    assert list(registry.problems()) == ["op 'pass' is not supported by the rules engine",
                                         "the rules engine supports op 'smite', which is not registered"]


def test_handlers_attach_once_and_only_to_registered_ops() -> None:
    registry = _toy_registry()
    registry.attach_all({"gain": lambda *a: 1, "pass": lambda *a: 2})
    assert registry.handler_of("op", "pass")() == 2
    with pytest.raises(ValueError, match="two handlers"):
        registry.attach("gain", lambda *a: None)
    with pytest.raises(ValueError, match="unregistered ops smite"):
        _toy_registry().attach_all({"smite": lambda *a: None})
    with pytest.raises(ValueError, match="registered twice"):
        registry.op("gain", {})


def _keyed(registry: EffectRegistry) -> dict[str, Any]:
    return {**keyed_defs(registry), "op": dispatcher(registry.effects())}


@pytest.mark.parametrize(("layout", "edit", "message"), [
    ("keyed", lambda d: d["op_gain"]["properties"]["amount"].update(maximum=9),
     ("op_gain", "op 'gain' differs from the effects registry ($defs/op_gain)")),
    ("keyed", lambda d: d.pop("op_pass"), ("op_pass", "op 'pass' is registered but the schema has no $defs/op_pass")),
    ("keyed", lambda d: d.update(op_smite={}), ("op_smite", "op 'smite' is in the schema ($defs/op_smite) but not registered")),
    ("tagged", lambda d: d["op"]["oneOf"][0]["properties"]["gain"].update(minimum=0),
     ("op", "op 'gain' differs from the effects registry")),
    ("tagged", lambda d: d["op"]["oneOf"].pop(), ("op", "op 'pass' is registered but missing from the schema")),
])
def test_schema_drift_names_the_op(layout: str, edit: Callable[[dict[str, Any]], Any], message: tuple[str, str]) -> None:
    registry = _toy_registry()
    generate = (lambda: _keyed(registry)) if layout == "keyed" else (lambda: {"op": tagged_defs(registry)})
    found = json.loads(json.dumps(generate()))
    assert list(schema_drift(generate(), found, prefix="op_" if layout == "keyed" else "")) == []
    edit(found)
    assert list(schema_drift(generate(), found, prefix="op_" if layout == "keyed" else "")) == [message]


def _drift(data_copy: Path, game: str, kind: str, edit: Callable[[dict[str, Any]], Any]) -> list[str]:
    path = data_copy / "schemas" / game / f"{kind}.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    edit(schema["$defs"])
    path.write_text(json.dumps(schema, indent=2) + "\n", encoding="utf-8")
    return [str(p) for p in language_problems(load_game(data_copy, spec_of(game)), games.spec(game).effects)]


def test_a_drifted_monstrous_op_is_one_line_at_its_definition(data_copy: Path) -> None:
    [line] = _drift(data_copy, "monstrous", "monsters",
                    lambda d: d["op_gain_faith"]["properties"]["amount"].update(maximum=99))
    text = (data_copy / "schemas" / "monstrous" / "monsters.schema.json").read_text(encoding="utf-8").splitlines()
    number = next(i for i, row in enumerate(text, 1) if row.strip().startswith('"op_gain_faith":'))
    assert line.endswith(f"schemas/monstrous/monsters.schema.json:{number}:1: effects language: "
                         "op 'gain_faith' differs from the effects registry ($defs/op_gain_faith)")


def test_a_heavenly_father_op_missing_from_the_schema_is_named(data_copy: Path) -> None:
    [line] = _drift(data_copy, "heavenly-father", "philosopher-kinds", lambda d: d["op"]["oneOf"].pop())
    assert line.endswith("effects language: op 'randomize-virtues' is registered but missing from the schema")


def test_a_drifted_monotheism_selector_names_it_and_how_to_regenerate(data_copy: Path) -> None:
    def edit(defs: dict[str, Any]) -> None:
        defs["selector"]["oneOf"] = [alt for alt in defs["selector"]["oneOf"] if "bottom" not in alt["required"]]

    [line] = _drift(data_copy, "monotheism", "deities", edit)
    assert line.endswith("effects language: selector 'bottom' is registered but missing from the schema "
                         "(regenerate: python -m pipeline.games.monotheism.dsl)")


def test_a_totems_op_the_schema_lacks_is_named(data_copy: Path) -> None:
    [line] = _drift(data_copy, "totems-and-taboos", "commandments", lambda d: d.pop("op_protect"))
    assert line.endswith("effects language: op 'protect' is registered but the schema has no $defs/op_protect")


def test_validate_reports_a_drifted_op_in_one_line_and_exits_1(pantheon, data_copy: Path, tmp_path: Path) -> None:
    path = data_copy / "schemas" / "totems-and-taboos" / "commandments.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    schema["$defs"]["op_draw"]["properties"]["count"]["maximum"] = 5
    path.write_text(json.dumps(schema, indent=2) + "\n", encoding="utf-8")
    result = pantheon("validate", "totems-and-taboos", "--data", str(data_copy))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    drift = [row for row in (result.stdout + result.stderr).splitlines() if "effects language" in row]
    assert len(drift) == 1
    assert drift[0].endswith("effects language: op 'draw' differs from the effects registry ($defs/op_draw)")


def test_a_sixth_game_gets_the_check_by_declaring_its_language(pantheon, tmp_path: Path) -> None:
    """The toy game (tests/core/toy_game.py) declares ``effects`` in its spec and nothing else: validate checks
    it, and a drifted op in its schema is one line, exit 1."""
    root = copy_toy(tmp_path)
    assert pantheon("validate", "--data", str(root)).returncode == 0
    path = root / "schemas" / "toy" / "cards.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    schema["$defs"]["op_gain"]["properties"]["amount"]["maximum"] = 4
    path.write_text(json.dumps(schema, indent=2) + "\n", encoding="utf-8")
    result = pantheon("validate", "--data", str(root))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    [line] = [row for row in (result.stdout + result.stderr).splitlines() if "effects language" in row]
    assert line.endswith("effects language: op 'gain' differs from the effects registry ($defs/op_gain)")
