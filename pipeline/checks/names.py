"""Record names: plain text, and unique among the records of one list except declared twins.

A record's name (its ``name``, ``title``, ``term`` or ``label``, see
:mod:`pipeline.checks.references`) is what a card prints and what every
``[[kind/id]]`` reference to it prints, as written: it cannot hold a
reference or inline markup. Two records of one list (two deities, two
Locations, two options of one dilemma) with the same name cannot be told
apart, so a repeated name is a problem. Comparison ignores case and runs of
spaces.

A game declares its exceptions in its ``checks`` module:

- ``NAME_TWINS = {(kind, list key): fields}``: records that repeat a name on
  purpose. They may share a name when they differ in one of ``fields``
  (Theocracy: ``("player",)`` for the five power cards every player holds;
  ``("id",)`` for its four identical dice, each its own record).
- ``PROSE_TITLES = {(kind, list key), ...}``: lists whose ``title`` is a
  document heading written as prose, which renderers resolve like any prose
  (Monstrous's worked examples name the Monsters and Locations they show, so
  a renamed card is renamed in the heading too). Nothing prints such a title
  as a name, and it must still be unique.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping

from pipeline.data.dataset import Document
from pipeline.data.problems import Problem
from pipeline.data.schemas import describe_path, singular
from pipeline.data.yamlmarks import PathKey

# Fields that carry a record's display name, in order of preference.
NAME_FIELDS = ("name", "title", "term", "label")


def display_name(record: dict[str, Any], fallback: str) -> str:
    """What a record is called: its name, title, term or label (the first it has), else ``fallback``."""
    for field_name in NAME_FIELDS:
        value = record.get(field_name)
        if isinstance(value, str) and value:
            return value
    return fallback


ListKey = tuple[str, str]  # (document kind, key of a top-level list)
PROSE_TITLE = "title"

# What a printed name cannot hold: a reference or markup opener ([ ] * _ \), a line break, or an
# icon token (:name:). Names are printed as written, so any of these would print as raw markup.
NOT_PLAIN = re.compile(r"[\[\]*_\\\n\r]|:[a-z][a-z0-9]*(?:-[a-z0-9]+)*:")
PLAIN_TEXT_RULE = "names are printed as written: no [[references]], **bold**, _italic_, :icons:, backslashes or line breaks"


@dataclass(frozen=True)
class NameRules:
    """A game's declared exceptions (see the module docstring)."""

    twins: Mapping[ListKey, tuple[str, ...]] = field(default_factory=dict)
    prose_titles: frozenset[ListKey] = frozenset()

    @classmethod
    def of(cls, checks: Any) -> "NameRules":
        """The rules a game's ``checks`` module declares (none when it has no module or declares none)."""
        return cls(getattr(checks, "NAME_TWINS", {}), frozenset(getattr(checks, "PROSE_TITLES", ())))


def name_problems(doc: Document, rules: NameRules = NameRules()) -> Iterator[Problem]:
    """Every name in ``doc`` that is not plain text or repeats another name of its list."""
    for path, records in _record_lists(doc.data):
        list_key = str(path[-1])
        top = (doc.kind, list_key) if len(path) == 1 else None
        allowed = rules.twins.get(top, ()) if top else ()
        prose = {PROSE_TITLE} if top in rules.prose_titles else set()
        first_seen: dict[tuple[str, str], tuple[int, str, Any]] = {}
        for index, record in records:
            for name_field in NAME_FIELDS:
                value = record.get(name_field)
                if isinstance(value, str) and name_field not in prose and NOT_PLAIN.search(value):
                    label, _ = describe_path(doc.data, path + (index, name_field))
                    yield doc.problem(path + (index, name_field),
                                      f"{label}{name_field} {value!r} is not plain text: {PLAIN_TEXT_RULE}")
            named_by = next((f for f in NAME_FIELDS if isinstance(record.get(f), str)), None)
            if named_by is None:
                continue
            key = (normal_name(record[named_by]), _twin_key(record, allowed))
            if key not in first_seen:
                first_seen[key] = (index, named_by, record["id"])
                continue
            other, other_field, other_id = first_seen[key]
            label, _ = describe_path(doc.data, path + (index, named_by))
            first = f"{singular(list_key)} {other_id}"
            yield doc.problem(path + (index, named_by), (
                f"{label}{named_by} {record[named_by]!r} is also the {other_field} of {first} "
                f"(line {doc.at(*path, other, other_field).line}): names are unique among the {list_key.replace('_', ' ')}"
                + (f" of one {' and '.join(allowed)}" if allowed and allowed != ("id",) else "")))


def _record_lists(data: Any) -> Iterator[tuple[PathKey, list[tuple[int, dict[str, Any]]]]]:
    """Every list (under a mapping key) holding records with ids, with the records and their indices."""
    stack: list[tuple[PathKey, Any]] = [((), data)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, dict):
            stack.extend((path + (key,), value) for key, value in node.items() if isinstance(value, (dict, list)))
            continue
        records = [(i, item) for i, item in enumerate(node) if isinstance(item, dict) and "id" in item]
        if records and path and isinstance(path[-1], str):
            yield path, records
        stack.extend((path + (i,), item) for i, item in enumerate(node) if isinstance(item, (dict, list)))


def normal_name(name: str) -> str:
    """The form in which two names count as the same: case and runs of spaces ignored."""
    return " ".join(name.split()).casefold()


def _twin_key(record: Mapping[str, Any], fields: tuple[str, ...]) -> str:
    if not fields:
        return ""
    return json.dumps([record.get(field) for field in fields], sort_keys=True, default=str)
