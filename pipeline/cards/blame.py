"""Which data field a card's printed text came from, so a text that cannot be printed names its line.

A template composes a text slot from the card's values (``{{ card.title }}``,
"Act: " + an act's wording, ...). When a slot fails (its text does not fit,
a glyph is missing), the error should point at the field the designer edits,
not at the record's first line. The slot's text is matched against the
record's own texts: the field that reads the same wins; else the longest
field the slot quotes in full; else the field named like the slot; else the
record itself.
"""
from __future__ import annotations

import re
from typing import Any, Iterator, Optional

from pipeline.data.dataset import Document
from pipeline.data.problems import Location
from pipeline.data.yamlmarks import PathKey

_NOT_WORD = re.compile(r"[\W_]+")


def _words(raw: str) -> str:
    """Text reduced to its words (markup, punctuation and typographic quotes do not count)."""
    return " ".join(_NOT_WORD.sub(" ", raw).split()).casefold()


def _texts(node: Any, path: PathKey) -> Iterator[tuple[PathKey, str]]:
    if isinstance(node, str):
        yield path, node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _texts(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _texts(value, (*path, index))


def _node(data: Any, path: PathKey) -> Any:
    for step in path:
        data = data[step]
    return data


def field_path(doc: Document, record: PathKey, printed: str, slot: str = "") -> PathKey:
    """The path of the field of the record at ``record`` that ``printed`` (a slot's text) shows."""
    wanted = _words(printed)
    best: Optional[tuple[int, PathKey]] = None
    for path, value in _texts(_node(doc.data, record), record):
        words = _words(value)
        if not words:
            continue
        if words == wanted:
            return path
        if f" {words} " in f" {wanted} " and (best is None or len(words) > best[0]):
            best = (len(words), path)
    if best is not None:
        return best[1]
    found = _node(doc.data, record)
    if slot and isinstance(found, dict) and slot in found:
        return (*record, slot)
    return record


def field_location(doc: Document, record: PathKey, printed: str, slot: str = "") -> Location:
    """Where the field ``field_path`` finds is written (its value's line and column)."""
    return doc.at(*field_path(doc, record, printed, slot))
