"""Parsed data files kept between runs: a text parsed before is read back instead of parsed again.

An entry holds the data and the line marks of one YAML text (keyed by the
text, the loader's options and its code; see ``yamlmarks``) as JSON through
``resultcache``. The marks are checked field by field when read back; the
data needs no check beyond being JSON, which is all a YAML file can hold
here (a file whose data JSON cannot hold, such as a date, is not kept).

Within one process a text parsed (or read back) before is not even read back
again: a validation, a build and a test run read the same unchanged files
many times. The process keeps its data as JSON text, so each caller still gets
data of its own to change, and its marks, which nobody changes, as they are.
"""
from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any, Callable, Iterable

from pipeline import store as cachestore
from pipeline.base import shape
from pipeline.data import resultcache

NAMESPACE = "yaml"
# The YAML parser is part of what produced the result.
PARSER_LIBRARIES = ("pyyaml",)

Marks = dict[tuple[Any, ...], tuple[int, int]]
Parsed = tuple[Any, Marks, Marks]
# Texts this process parsed or read back, by key: the data as JSON, and the marks. Bounded, since a
# long-lived process (`pantheon watch`, a test run) meets ever new versions of the files it edits.
_SEEN_LIMIT = 512
_seen: "OrderedDict[str, tuple[str, Marks, Marks]]" = OrderedDict()


def cached_parse(key_parts: Iterable[str], parse: Callable[[], Parsed]) -> Parsed:
    """``parse()``'s (data, value marks, key marks), from the cache when this key was parsed before."""
    parts = [cachestore.library_versions(*PARSER_LIBRARIES), *key_parts]
    seen_key = cachestore.key_of(parts)
    seen = _seen.get(seen_key)
    if seen is not None:
        _seen.move_to_end(seen_key)
        text, value_marks, key_marks = seen
        return json.loads(text), value_marks, key_marks
    data, value_marks, key_marks = resultcache.cached_json(NAMESPACE, parts, parse, encode=_encode, decode=_decode)
    try:
        text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError):  # not JSON data (a date): parsed afresh each time
        return data, value_marks, key_marks
    _seen[seen_key] = (text, value_marks, key_marks)
    if len(_seen) > _SEEN_LIMIT:
        _seen.popitem(last=False)
    return data, value_marks, key_marks


def _encode(parsed: Parsed) -> list[Any]:
    data, value_marks, key_marks = parsed
    return [data, _marks_plain(value_marks), _marks_plain(key_marks)]


def _marks_plain(marks: Marks) -> list[list[Any]]:
    return [[list(path), line, column] for path, (line, column) in marks.items()]


def _decode(plain: Any) -> Parsed:
    data, value_marks, key_marks = shape.sequence(plain, 3)
    return data, _marks(value_marks), _marks(key_marks)


def _marks(plain: Any) -> Marks:
    """A mark table back from its JSON: paths of text keys and list indexes, each with line and column."""
    try:
        marks = {tuple(path): (line, column) for path, line, column in shape.sequence(plain)}
    except (TypeError, ValueError):
        raise shape.ShapeError("expected [path, line, column] triples") from None
    # One pass over every value by type (exact types: a bool is not a position or an index).
    if not all(type(line) is int and type(column) is int for line, column in marks.values()):
        raise shape.ShapeError("bad mark position")
    if not all(type(step) is str or type(step) is int for path in marks for step in path):
        raise shape.ShapeError("bad mark path")
    return marks
