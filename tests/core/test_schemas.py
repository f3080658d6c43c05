"""Every schema the project ships is valid JSON Schema 2020-12 and forbids unknown keys."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest
from jsonschema import Draft202012Validator, validators

from pipeline.base.errors import UserError
from pipeline.data.dataset import Document, default_data_root
from pipeline.data.schemas import (
    SchemaValidator,
    check_schema_file,
    key_equals_text,
    load_checked_yaml,
    load_schemas,
    plainly_valid,
    schema_problems,
)
from pipeline.data.yamlmarks import load_marked

SCHEMA_FILES = sorted((default_data_root() / "schemas").rglob("*.schema.json"))


def object_schemas(node: Any, where: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every sub-schema that declares properties (an object shape)."""
    if isinstance(node, dict):
        if "properties" in node:
            yield where, node
        for key, value in node.items():
            yield from object_schemas(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from object_schemas(value, f"{where}/{index}")


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=lambda p: str(p.relative_to(default_data_root())))
def test_schema_is_valid_and_closed(path: Path) -> None:
    schema = json.loads(path.read_text())
    check_schema_file(path, schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    for where, shape in object_schemas(schema):
        if shape.get("type") == "object" or "additionalProperties" in shape:
            assert shape.get("additionalProperties") is False, f"{path}:{where} allows unknown keys"


def test_invalid_schema_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "bad.schema.json"
    with pytest.raises(UserError, match="invalid schema"):
        check_schema_file(path, {"type": "strin"})


SETTINGS_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "required": ["size"],
    "properties": {"size": {"type": "number", "minimum": 1}},
}


def _settings(tmp_path: Path, text: str) -> tuple[Path, Path]:
    schema = tmp_path / "s.schema.json"
    schema.write_text(json.dumps(SETTINGS_SCHEMA))
    path = tmp_path / "s.yaml"
    path.write_text(text)
    return path, schema


def test_a_settings_file_found_valid_is_refused_once_it_breaks(tmp_path: Path) -> None:
    path, schema = _settings(tmp_path, "size: 3\n")
    assert load_checked_yaml(path, schema) == {"size": 3}
    path.write_text("size: 3\ncolour: red\n")
    with pytest.raises(UserError, match=r"s\.yaml:2:1: unknown key 'colour'"):
        load_checked_yaml(path, schema)
    path.write_text("size: 0\n")
    with pytest.raises(UserError, match=r"s\.yaml:1:7"):
        load_checked_yaml(path, schema)


def test_a_stricter_schema_refuses_a_file_found_valid_before(tmp_path: Path) -> None:
    path, schema = _settings(tmp_path, "size: 3\n")
    load_checked_yaml(path, schema)
    schema.write_text(json.dumps({**SETTINGS_SCHEMA, "properties": {"size": {"type": "number", "minimum": 5}}}))
    with pytest.raises(UserError, match=r"s\.yaml:1:7"):
        load_checked_yaml(path, schema)


LINKED_COMMON = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$defs": {
        "name": {"type": "string", "pattern": "^[A-Z][a-z]+$"},
        # recursive: a condition holds conditions (the copy linked to itself must stay finite to validate)
        "condition": {"type": "object", "additionalProperties": False, "required": ["test"],
                      "properties": {"test": {"enum": ["all", "any", "has"]},
                                     "of": {"type": "array", "items": {"$ref": "#/$defs/condition"}}}},
    },
}
LINKED_CARDS = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object", "additionalProperties": False, "required": ["cards"],
    "properties": {"cards": {"type": "array", "items": {
        "type": "object", "additionalProperties": False, "required": ["id", "name"],
        "properties": {"id": {"type": "string"}, "name": {"$ref": "../common.schema.json#/$defs/name"},
                       "when": {"$ref": "../common.schema.json#/$defs/condition", "description": "a sibling keyword"}},
    }}},
}
LINKED_DATA = """\
cards:
  - id: a1
    name: Ares
    when: {test: all, of: [{test: has}, {test: none, of: [{test: any, extra: 1}]}]}
  - id: a2
    name: hermes
    flavor: swift
  - name: 7
"""


def test_linked_references_report_what_jsonschema_resolving_them_reports(tmp_path: Path) -> None:
    """The schema check links each $ref to its subschema when the schemas load: across files, inside a file
    and recursively, the data meets the same subschemas, so its problems are those jsonschema finds by looking
    each reference up, word for word, in the same order."""
    (tmp_path / "schemas" / "toy").mkdir(parents=True)
    (tmp_path / "schemas" / "common.schema.json").write_text(json.dumps(LINKED_COMMON))
    (tmp_path / "schemas" / "toy" / "cards.schema.json").write_text(json.dumps(LINKED_CARDS))
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "cards.yaml").write_text(LINKED_DATA)
    schemas = load_schemas(tmp_path)
    doc = Document(kind="cards", path=tmp_path / "toy" / "cards.yaml", marked=load_marked(tmp_path / "toy" / "cards.yaml"))
    unlinked = SchemaValidator(schemas.by_path[schemas.schema_path("toy", "cards")], registry=schemas.registry)

    card = schemas.linked[schemas.schema_path("toy", "cards")]["properties"]["cards"]["items"]["properties"]
    common = schemas.linked[tmp_path / "schemas" / "common.schema.json"]["$defs"]
    assert card["name"] is common["name"]  # a schema that is only a reference: its target, linked once, in its place
    assert card["when"]["$ref"] is common["condition"]  # a reference beside another keyword stays a reference
    assert common["condition"]["properties"]["of"]["items"] is common["condition"]  # recursive: the copy holds itself

    linked = schemas.problems("toy", "cards", doc)
    assert linked is not None
    assert [str(p) for p in linked] == [str(p) for p in schema_problems(doc, unlinked)]
    messages = " | ".join(str(p) for p in linked)
    assert "'none' is not one of all, any, has" in messages  # two levels down the recursive condition
    assert "unknown key 'extra'" in messages and "'hermes' does not match" in messages  # and across files


def _conditions(node: Any) -> Iterator[Any]:
    """Every ``if`` condition of a schema."""
    if isinstance(node, dict):
        if "if" in node:
            yield node["if"]
        for value in node.values():
            yield from _conditions(value)
    elif isinstance(node, list):
        for value in node:
            yield from _conditions(value)


def test_a_key_equal_to_a_text_is_decided_as_jsonschema_decides_it() -> None:
    conditions = [c for path in SCHEMA_FILES for c in _conditions(json.loads(path.read_text()))]
    conditions += [{"properties": {"op": {"const": "draw"}}}, {"required": ["op"]}, {}, {"properties": {}}]
    texts = {rule["const"] for c in conditions for rule in c.get("properties", {}).values()
             if isinstance(rule, dict) and isinstance(rule.get("const"), str)}
    instances: list[Any] = [None, 1, "draw", ["op"], {}, {"other": "draw"}, {"op": 1}, {"op": None}, {"op": ["draw"]},
                            {"op": True}, {"op": "Draw"}, {"op": "draw "}]
    instances += [{key: text} for text in sorted(texts) for key in ("op", "event", "type", "timing", "source", "id", "kind")]
    decided = 0
    for condition in conditions:
        jsonschema_says = SchemaValidator(condition)
        for instance in instances:
            holds = key_equals_text(condition, instance, isinstance(instance, dict))
            if holds is not None:
                decided += 1
                assert holds == jsonschema_says.is_valid(instance), (condition, instance)
    assert decided > 1000  # most conditions the schemas write are of this form
    assert key_equals_text({"$ref": "#/$defs/condition"}, {}, True) is None  # others are left to jsonschema
    assert key_equals_text({"properties": {"on": {"const": True}}}, {"on": True}, True) is None
    assert key_equals_text({"properties": {"op": {"const": "a", "type": "string"}}}, {"op": "a"}, True) is None


def _subschemas(node: Any) -> Iterator[Any]:
    """Every schema inside a schema file (and the file's own), ``true`` and ``false`` included."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _subschemas(value)
    elif isinstance(node, list):
        for value in node:
            yield from _subschemas(value)
    elif isinstance(node, bool):
        yield node


def test_a_value_plainly_valid_is_valid_to_jsonschema() -> None:
    """plainly_valid (which spares jsonschema a descent) never vouches for a value jsonschema refuses, over
    every subschema of the schema files and values of every kind; and it does vouch for the leaves' values."""
    leaves = [schema for path in SCHEMA_FILES for schema in _subschemas(json.loads(path.read_text()))]
    leaves += [{"type": "integer", "minimum": 1.5}, {"type": ["string", "null"]}, {"enum": [1, True]}, {"const": 1},
               {"minLength": "2"}, {"type": "number", "exclusiveMaximum": 3}, {"format": "email"}, True, False]
    texts = {rule for leaf in leaves if isinstance(leaf, dict) for rule in
             [leaf.get("const"), *(leaf.get("enum") if isinstance(leaf.get("enum"), list) else [])] if isinstance(rule, str)}
    values: list[Any] = ["", "a", "ab", "07", "07\n", "x" * 500, 0, 1, 2, 3, -1, 10**9, 1.0, 1.5, True, False, None, [], {}]
    values += sorted(texts)
    vouched = 0
    for leaf in leaves:
        validator = SchemaValidator(leaf)
        for value in values:
            if plainly_valid(leaf, value):
                vouched += 1
                assert validator.is_valid(value), (leaf, value)
    assert vouched > 1000  # the leaves of the schema files are decided here, most of them
    assert not plainly_valid({"type": "integer"}, True) and not plainly_valid({"type": "integer"}, 1.0)
    assert not plainly_valid({"enum": [1, 2]}, 1)  # numbers' equality is left to jsonschema (1 == True there too)


def test_conditional_fields_give_the_errors_jsonschema_gives(tmp_path: Path) -> None:
    """An effect whose fields are picked by its ``op``: each wrong field is reported, word for word, as by
    jsonschema deciding every condition itself."""
    source = (default_data_root() / "totems-and-taboos" / "commandments.yaml").read_text(encoding="utf-8")
    broken = source.replace("role: servant\n", "role: servants\n", 1).replace("count: 2\n", "count: two\n", 1)
    broken = broken.replace("op: cycle\n", "op: recruit\n", 1)
    assert broken.count("\n") == source.count("\n") and broken != source
    path = tmp_path / "commandments.yaml"
    path.write_text(broken, encoding="utf-8")
    doc = Document(kind="commandments", path=path, marked=load_marked(path))
    schemas = load_schemas(default_data_root())
    schema = schemas.linked[schemas.schema_path("totems-and-taboos", "commandments")]
    own_if = validators.extend(SchemaValidator, {"if": Draft202012Validator.VALIDATORS["if"]})
    found = [str(p) for p in schema_problems(doc, SchemaValidator(schema, registry=schemas.registry))]
    assert found and found == [str(p) for p in schema_problems(doc, own_if(schema, registry=schemas.registry))]
