"""Record names: plain text, and unique among the records of one list except declared twins.

A record's name (its ``name``, ``title``, ``term`` or ``label``, see
:mod:`pipeline.core.references`) is what a card prints and what every
``[[kind/id]]`` reference to it prints, as written: it cannot hold a
reference or inline markup. Two records of one list (two deities, two
Locations, two options of one dilemma) with the same name cannot be told
apart, so a repeated name is a problem. Comparison ignores case and runs of
spaces.

Some games repeat names on purpose: Theocracy prints the same five power
cards once per player, and its four resource dice are identical. A game
declares such twins in its ``checks`` module as ``NAME_TWINS``:
``{(kind, list key): fields}``; records of that list may share a name when
they differ in one of those fields (``("player",)``: one of each name per
player; ``("id",)``: identical copies, each its own record).
"""
from __future__ import annotations

import json
import re
from typing import Any, Iterator, Mapping, Optional

from pipeline.core.dataset import Document
from pipeline.core.problems import Problem
from pipeline.core.schemas import describe_path, singular
from pipeline.core.yamlmarks import PathKey

NameTwins = Mapping[tuple[str, str], tuple[str, ...]]

# What a printed name cannot hold: a reference or markup opener ([ ] * _ \), a line break, or an
# icon token (:name:). Names are printed as written, so any of these would print as raw markup.
NOT_PLAIN = re.compile(r"[\[\]*_\\\n\r]|:[a-z][a-z0-9]*(?:-[a-z0-9]+)*:")
PLAIN_TEXT_RULE = "names are printed as written: no [[references]], **bold**, _italic_, :icons:, backslashes or line breaks"


def name_problems(doc: Document, twins: Optional[NameTwins] = None) -> Iterator[Problem]:
    """Every name in ``doc`` that is not plain text or repeats another name of its list."""
    from pipeline.core.references import NAME_FIELDS  # references imports validate, which imports this module

    for path, records in _record_lists(doc.data):
        list_key = str(path[-1])
        allowed = (twins or {}).get((doc.kind, list_key), ()) if len(path) == 1 else ()
        first_seen: dict[tuple[str, str], tuple[int, str, Any]] = {}
        for index, record in records:
            for field in NAME_FIELDS:
                value = record.get(field)
                if isinstance(value, str) and NOT_PLAIN.search(value):
                    label, _ = describe_path(doc.data, path + (index, field))
                    yield doc.problem(path + (index, field), f"{label}{field} {value!r} is not plain text: {PLAIN_TEXT_RULE}")
            field = next((f for f in NAME_FIELDS if isinstance(record.get(f), str)), None)
            if field is None:
                continue
            key = (normal_name(record[field]), _twin_key(record, allowed))
            if key not in first_seen:
                first_seen[key] = (index, field, record["id"])
                continue
            other, other_field, other_id = first_seen[key]
            label, _ = describe_path(doc.data, path + (index, field))
            first = f"{singular(list_key)} {other_id}"
            yield doc.problem(path + (index, field), (
                f"{label}{field} {record[field]!r} is also the {other_field} of {first} "
                f"(line {doc.at(*path, other, other_field).line}): names are unique among the {list_key.replace('_', ' ')}"
                + (f" of one {' and '.join(allowed)}" if allowed and allowed != ("id",) else "")))


def _record_lists(data: Any, path: PathKey = ()) -> Iterator[tuple[PathKey, list[tuple[int, dict[str, Any]]]]]:
    """Every list (under a mapping key) holding records with ids, with the records and their indices."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _record_lists(value, path + (key,))
    elif isinstance(data, list):
        records = [(i, item) for i, item in enumerate(data) if isinstance(item, dict) and "id" in item]
        if records and path and isinstance(path[-1], str):
            yield path, records
        for index, item in enumerate(data):
            yield from _record_lists(item, path + (index,))


def normal_name(name: str) -> str:
    """The form in which two names count as the same: case and runs of spaces ignored."""
    return " ".join(name.split()).casefold()


def _twin_key(record: Mapping[str, Any], fields: tuple[str, ...]) -> str:
    return json.dumps([record.get(field) for field in fields], sort_keys=True, default=str)
