"""Every schema the project ships is valid JSON Schema 2020-12 and forbids unknown keys."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest

from pipeline.base.errors import UserError
from pipeline.data.dataset import default_data_root
from pipeline.data.schemas import check_schema_file, load_checked_yaml

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
