"""Record-by-record comparison of two versions of a game's data.

A record is a mapping with an ``id`` in a list under a document's top-level
key (``monsters: [...]``): its address is ``<game>/<kind>/<id>``. Anything
else at the top level of a document (a ``scoring`` block, an introduction)
is one record named by its key. Records are matched by address, never by
position, so reordering a list changes nothing; fields are compared as
paths (``powers/when_hit/effects``), a list of records by id, any other
list as a whole value.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from pipeline.data.dataset import GameData

ID = "id"
PROVENANCE = "provenance"  # where a value comes from: reported like any other field


@dataclass(frozen=True)
class FieldChange:
    """One field of a record: its path inside the record, the old and the new value (None: absent)."""

    field: str
    old: Any
    new: Any


@dataclass(frozen=True)
class RecordChange:
    """A record that was added, removed or changed between the two sides."""

    kind: str
    id: str
    status: str  # "added", "removed" or "changed"
    name: str
    fields: tuple[FieldChange, ...] = ()

    @property
    def address(self) -> str:
        return f"{self.kind}/{self.id}"


ADDED, REMOVED, CHANGED = "added", "removed", "changed"
NAME_KEYS = ("name", "title", "term", "label")


def _is_record_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) and ID in v for v in value)


def records(data: Any) -> dict[str, Any]:
    """The records of one document by id (a top-level value that is not a list of records: by its key)."""
    found: dict[str, Any] = {}
    if not isinstance(data, dict):
        return {"(document)": data}
    for key, value in data.items():
        if _is_record_list(value):
            for record in value:
                found.setdefault(str(record[ID]), record)
        else:
            found[f"({key})"] = value
    return found


def _name(record: Any, fallback: str) -> str:
    if isinstance(record, dict):
        for key in NAME_KEYS:
            if isinstance(record.get(key), str):
                return str(record[key])
    return fallback


def field_changes(old: Any, new: Any, path: str = "") -> Iterator[FieldChange]:
    """Every leaf that differs between ``old`` and ``new``, by path (a list of records steps by id)."""
    if old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in list(old) + [k for k in new if k not in old]:
            yield from field_changes(old.get(key), new.get(key), f"{path}/{key}" if path else str(key))
    elif _is_record_list(old) and _is_record_list(new):
        old_by_id = {str(r[ID]): r for r in old}
        new_by_id = {str(r[ID]): r for r in new}
        for key in list(old_by_id) + [k for k in new_by_id if k not in old_by_id]:
            yield from field_changes(old_by_id.get(key), new_by_id.get(key), f"{path}/{key}" if path else key)
    else:
        yield FieldChange(path or "(value)", old, new)


def document_changes(kind: str, old: Any, new: Any) -> Iterator[RecordChange]:
    """The records of one document (``kind``) that differ; ``old``/``new`` None when the file is absent."""
    old_records, new_records = records(old) if old is not None else {}, records(new) if new is not None else {}
    for key in list(old_records) + [k for k in new_records if k not in old_records]:
        before, after = old_records.get(key), new_records.get(key)
        if before == after:
            continue
        status = ADDED if key not in old_records else REMOVED if key not in new_records else CHANGED
        name = _name(after if after is not None else before, key)
        fields = tuple(field_changes(before, after)) if status == CHANGED else ()
        yield RecordChange(kind, key, status, name, fields)


def game_changes(old: GameData | None, new: GameData | None) -> list[RecordChange]:
    """Every record that differs between two versions of a game (None: the game is absent on that side)."""
    old_docs = _documents(old)
    new_docs = _documents(new)
    changes: list[RecordChange] = []
    for kind in sorted(set(old_docs) | set(new_docs)):
        changes += document_changes(kind, old_docs.get(kind), new_docs.get(kind))
    return changes


def _documents(game: GameData | None) -> Mapping[str, Any]:
    if game is None:
        return {}
    return {kind: doc.data for kind, doc in game.docs.items()}


def shown(value: Any) -> str:
    """A value as one line of text (absent: a dash)."""
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, ensure_ascii=False)
