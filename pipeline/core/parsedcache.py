"""Parsed data files kept between runs: a text parsed before is read back instead of parsed again.

An entry holds the data and the line marks of one YAML text (keyed by the
text, the loader's options and its code; see ``yamlmarks``) as JSON through
``resultcache``. The marks are checked field by field when read back; the
data needs no check beyond being JSON, which is all a YAML file can hold
here (a file whose data JSON cannot hold, such as a date, is not kept).
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from pipeline.core import cachestore, resultcache, shape

NAMESPACE = "yaml"
# The YAML parser is part of what produced the result.
PARSER_LIBRARIES = ("pyyaml",)

Marks = dict[tuple[Any, ...], tuple[int, int]]
Parsed = tuple[Any, Marks, Marks]


def cached_parse(key_parts: Iterable[str], parse: Callable[[], Parsed]) -> Parsed:
    """``parse()``'s (data, value marks, key marks), from the cache when this key was parsed before."""
    return resultcache.cached_json(
        NAMESPACE, [cachestore.library_versions(*PARSER_LIBRARIES), *key_parts], parse, encode=_encode, decode=_decode
    )


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
