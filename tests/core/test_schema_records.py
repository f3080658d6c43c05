"""A document shown valid record by record (pipeline/data/schemarecords.py) is exactly a valid document."""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Iterator

import pytest

from pipeline.data.dataset import Document, game_ids, load_game
from pipeline.data.schemarecords import KEPT_EARLIER, record_lists, valid_by_records
from pipeline.data.schemas import SchemaSet, load_schemas
from pipeline.games.registry import spec as spec_of
from tests.conftest import REPO_DATA


@pytest.fixture(scope="module")
def schemas() -> SchemaSet:
    return load_schemas(REPO_DATA)


def list_documents(schemas: SchemaSet) -> Iterator[tuple[str, str, Document, Any, list[str]]]:
    """Every shipped document whose schema has record lists: game, kind, document, validator, lists."""
    for game in game_ids(REPO_DATA):
        for kind, doc in load_game(REPO_DATA, spec_of(game)).docs.items():
            validator = schemas.validator(game, kind)
            lists = record_lists(validator.schema) if validator is not None else []
            if lists:
                yield game, kind, doc, validator, lists


def key(schemas: SchemaSet, game: str, kind: str) -> list[str]:
    return [schemas.fingerprint, game, kind]


def test_most_shipped_documents_take_the_record_route_and_each_is_shown_valid(schemas: SchemaSet) -> None:
    found = list(list_documents(schemas))
    assert len(found) >= 40  # every file of records; components, rules and glossaries are validated whole
    for game, kind, doc, validator, lists in found:
        assert list(validator.iter_errors(doc.data)) == []
        assert valid_by_records(validator, doc.data, lists, key(schemas, game, kind)), f"{game}/{kind}"
        assert valid_by_records(validator, doc.data, lists, key(schemas, game, kind)), f"{game}/{kind} (records known)"


def _middle_record(records: list[Any]) -> Any:
    return records[len(records) // 2] if records else None


def _unknown_field(records: list[Any]) -> bool:
    record = _middle_record(records)
    if not isinstance(record, dict):
        return False
    record["zz_not_a_field"] = 1
    return True


def _wrong_type(records: list[Any]) -> bool:
    if not records:
        return False
    records[len(records) // 2] = 12345
    return True


def _missing_id(records: list[Any]) -> bool:
    record = _middle_record(records)
    if not isinstance(record, dict) or "id" not in record:
        return False
    del record["id"]
    return True


def _no_records(records: list[Any]) -> bool:
    records.clear()
    return True


@pytest.mark.parametrize("breaks", [_unknown_field, _wrong_type, _missing_id, _no_records],
                         ids=["unknown-field", "wrong-type", "missing-id", "empty-list"])
def test_a_broken_record_beside_records_known_valid_is_never_vouched_for(schemas: SchemaSet, breaks: Any) -> None:
    """Every list of every shipped document: with all its records known valid, one broken record (or a list
    too short) makes the route say "not shown", whenever the whole document has problems."""
    broken = 0
    for game, kind, doc, validator, lists in list_documents(schemas):
        assert valid_by_records(validator, doc.data, lists, key(schemas, game, kind))  # every record known valid
        for name in lists:
            data = copy.deepcopy(doc.data)
            if not breaks(data[name]):
                continue
            whole = list(validator.iter_errors(data))
            assert valid_by_records(validator, data, lists, key(schemas, game, kind)) is not bool(whole), f"{game}/{kind} {name}"
            broken += bool(whole)
    assert broken >= 10  # the break is a schema problem in most lists


class CountingValidator:
    """A validator whose record checks are counted (the route evolves it once per list)."""

    def __init__(self, inner: Any, checked: list[Any]) -> None:
        self.inner, self.checked, self.schema = inner, checked, inner.schema

    def evolve(self, **changes: Any) -> Any:
        evolved = self.inner.evolve(**changes)
        checked = self.checked

        class Counted:
            def is_valid(self, instance: Any) -> bool:
                checked.append(instance)
                return bool(evolved.is_valid(instance))

        return Counted()


def test_after_a_one_record_edit_only_that_record_is_validated_again(schemas: SchemaSet) -> None:
    game, kind = "totems-and-taboos", "commandments"
    doc = load_game(REPO_DATA, spec_of(game)).docs[kind]
    validator = schemas.validator(game, kind)
    lists = record_lists(validator.schema)
    assert lists == ["commandments"]
    data = copy.deepcopy(doc.data)
    checked: list[Any] = []
    first = valid_by_records(CountingValidator(validator, checked), data, lists, key(schemas, game, "edited"))
    assert first and len(checked) == 1 + len(data["commandments"])  # the document without its list, every record
    data["commandments"][7]["name"] = data["commandments"][7]["name"] + " Again"
    checked.clear()
    assert valid_by_records(CountingValidator(validator, checked), data, lists, key(schemas, game, "edited"))
    assert checked == [data, data["commandments"][7]]


def test_an_edit_undone_validates_no_record_again_and_old_records_are_let_go(schemas: SchemaSet) -> None:
    """Back and forth between two versions of a card (an editor's undo) checks neither again; a list keeps at most
    KEPT_EARLIER times its length of earlier records, the most recent ones."""
    game, kind = "totems-and-taboos", "commandments"
    validator = schemas.validator(game, kind)
    lists = record_lists(validator.schema)
    original = copy.deepcopy(load_game(REPO_DATA, spec_of(game)).docs[kind].data)
    records = len(original["commandments"])
    checked: list[Any] = []

    def shown(data: Any) -> list[Any]:
        checked.clear()
        assert valid_by_records(CountingValidator(validator, checked), data, lists, key(schemas, game, "undone"))
        return checked[1:]  # the records validated (the first check is the document without its list)

    edited = copy.deepcopy(original)
    edited["commandments"][7]["name"] += " Again"
    assert len(shown(original)) == records
    assert shown(edited) == [edited["commandments"][7]]
    assert shown(original) == [] and shown(edited) == []
    for step in range(KEPT_EARLIER * records + 1):  # as many other versions of one card as the list may keep, and one
        suffix = "ABCDEFGHIJ"[step // 10] + "abcdefghij"[step % 10]
        shown({**original, "commandments": [{**record, "name": f"{record['name']} {suffix}"} if i == 7 else record
                                            for i, record in enumerate(original["commandments"])]})
    assert shown(edited) == [edited["commandments"][7]]  # the oldest version was let go


@pytest.mark.parametrize("schema", [
    {"type": "object", "properties": {"cards": {"type": "array", "items": {"type": "object"}, "uniqueItems": True}}},
    {"type": "object", "properties": {"cards": {"type": "array", "items": {"type": "object"}, "contains": {}}}},
    {"type": "object", "properties": {"cards": {"type": "array", "prefixItems": [{}], "items": {}}}},
    {"type": "object", "properties": {"cards": {"type": "array", "items": {"$id": "urn:x", "type": "object"}}}},
    {"type": "object", "unevaluatedProperties": False, "properties": {"cards": {"type": "array", "items": {}}}},
    {"type": "object", "if": {"required": ["a"]}, "then": {}, "properties": {"cards": {"type": "array", "items": {}}}},
    {"type": "object", "properties": {"cards": {"type": "array", "items": {"$dynamicRef": "#x"}}}},
    {"type": "object", "properties": {"cards": {"type": "array", "items": True}}},
    {"$ref": "common.schema.json#/$defs/rules"},
], ids=["uniqueItems", "contains", "prefixItems", "items-with-id", "unevaluated", "conditional", "dynamic-ref",
        "boolean-items", "whole-ref"])
def test_schemas_whose_records_relate_are_validated_whole(schema: dict[str, Any]) -> None:
    assert record_lists(schema) == []


def test_the_validation_of_an_edited_card_file_is_as_before(data_copy_of: Any, validate: Any, edit_yaml: Any) -> None:
    """Through validate: a record made invalid after its file was validated (its other records known valid)
    is reported at its place, with the whole document's message."""
    root: Path = data_copy_of("totems-and-taboos")
    assert validate(root, ["totems-and-taboos"]) == []
    path = root / "totems-and-taboos" / "commandments.yaml"
    edit_yaml(path, lambda data: data["commandments"][3].update(zz_not_a_field=1))
    problems = [str(p) for p in validate(root, ["totems-and-taboos"])]
    assert any(f"{path}:" in p and "zz_not_a_field" in p for p in problems), problems
