"""Editors and standard tools read the schemas as files: check-jsonschema, and the shipped VS Code schema map."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

from pipeline.data.dataset import default_data_root
from pipeline.data.editorschemas import SETTINGS, schema_pairs, settings_text

DATA = default_data_root()
PROJECT = DATA.parent
SCHEMAS = DATA / "schemas"
CHECK_JSONSCHEMA = Path(sys.executable).parent / "check-jsonschema"


def check_jsonschema(schema: Path, instance: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CHECK_JSONSCHEMA), "--schemafile", str(schema), str(instance)],
                          capture_output=True, text=True, timeout=120)


def refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from refs(item)


def pointer(node: Any, fragment: str) -> Any:
    for step in fragment.lstrip("/").split("/"):
        node = node[step]
    return node


# Two files that exercise references across files: to common.schema.json, and to a sibling schema's definitions.
@pytest.mark.parametrize("game, kind", [("monstrous", "locations"), ("totems-and-taboos", "guides")])
def test_check_jsonschema_passes_on_good_data(game: str, kind: str) -> None:
    result = check_jsonschema(SCHEMAS / game / f"{kind}.schema.json", DATA / game / f"{kind}.yaml")
    assert result.returncode == 0, result.stdout + result.stderr


def test_check_jsonschema_fails_on_bad_data(tmp_path: Path) -> None:
    """A location whose power's text is empty breaks a rule that lives in common.schema.json, two files away."""
    good = (DATA / "monstrous" / "locations.yaml").read_text(encoding="utf-8")
    lines = good.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("text:"))
    indent = lines[at][: len(lines[at]) - len(lines[at].lstrip())]
    lines[at] = f'{indent}text: ""\n'
    bad = tmp_path / "locations.yaml"
    bad.write_text("".join(lines), encoding="utf-8")
    result = check_jsonschema(SCHEMAS / "monstrous" / "locations.schema.json", bad)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "should be non-empty" in result.stdout + result.stderr


def test_no_schema_names_itself_by_urn() -> None:
    """Without an ``$id`` a schema's relative references resolve against its own file, in every tool."""
    for path in sorted(SCHEMAS.rglob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        assert "$id" not in schema, path
        for ref in refs(schema):
            assert ref.startswith(("#", "../common.schema.json#")) or "/" not in ref.split("#")[0], (path, ref)
            assert not ref.startswith("urn:"), (path, ref)


def test_definitions_used_from_other_files_refer_only_within_their_own() -> None:
    """check-jsonschema resolves a second hop (A -> B -> common) against A's folder, so a definition that another
    file uses must not itself leave its file."""
    for path in sorted(SCHEMAS.rglob("*.schema.json")):
        for ref in refs(json.loads(path.read_text(encoding="utf-8"))):
            target, _, fragment = ref.partition("#")
            if not target or target.startswith("../"):
                continue  # within the file, or common.schema.json (which refers only within itself)
            other = json.loads((path.parent / target).read_text(encoding="utf-8"))
            seen, todo = set(), [pointer(other, fragment)]
            while todo:
                for inner in refs(todo.pop()):
                    assert inner.startswith("#"), f"{path.name} uses {ref}, which refers on to {inner}"
                    if inner not in seen:
                        seen.add(inner)
                        todo.append(pointer(other, inner[1:]))


def test_location_power_matches_monster_power() -> None:
    """locations.schema.json spells out a monster's power (see its description); the two shapes stay the same."""
    monsters = json.loads((SCHEMAS / "monstrous" / "monsters.schema.json").read_text(encoding="utf-8"))
    locations = json.loads((SCHEMAS / "monstrous" / "locations.schema.json").read_text(encoding="utf-8"))
    spelt = dict(locations["properties"]["locations"]["items"]["properties"]["power"])
    spelt.pop("description")
    local = json.dumps(monsters["$defs"]["power"]).replace('"#/$defs/', '"monsters.schema.json#/$defs/')
    assert spelt == json.loads(local)


def test_editor_schema_map_is_current() -> None:
    assert (PROJECT / SETTINGS).read_text(encoding="utf-8") == settings_text(DATA)
    for schema, data in schema_pairs(DATA):
        assert (PROJECT / schema).is_file() and (PROJECT / data).is_file(), (schema, data)


def test_project_validation_still_reads_the_linked_schemas(tmp_path: Path) -> None:
    """The project's own validator resolves the same relative references (and the legacy urn names code uses)."""
    from pipeline.data.schemas import SchemaValidator, load_schemas

    root = tmp_path / "data"
    shutil.copytree(SCHEMAS, root / "schemas")
    schemas = load_schemas(root)
    validator = schemas.validator("monstrous", "locations")
    assert validator is not None
    assert not validator.is_valid({"locations": [{"id": "x", "name": "X", "faith": 1,
                                                  "power": {"trigger": "?", "text": "", "effects": []}}]})
    record = SchemaValidator({"$ref": "urn:pantheon:monotheism:scenarios#/$defs/scenario"}, registry=schemas.registry)
    assert list(record.iter_errors({"id": "x"}))  # resolved (a missing reference would raise, not report)
