"""Every schema the project ships is valid JSON Schema 2020-12 and forbids unknown keys."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest

from pipeline.base.errors import UserError
from pipeline.data.dataset import default_data_root
from pipeline.data.schemas import check_schema_file

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
