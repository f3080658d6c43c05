"""Safe YAML loading that remembers where every node came from, and refuses hostile input fast.

The loader returns plain Python data (what JSON Schema validates) and a side
table of marks keyed by the node's path, so any later stage can point a user
at ``file:line:column`` without the data itself carrying positions.

Data is built straight from libyaml's event stream (an iterative parser, no
recursion and no node tree), so everything the conventions forbid is refused
where it is met, before anything is expanded or composed: tags (``!!str``,
``!!python/object:...``, ``!local``, on scalars and collections), anchors and
aliases (an alias bomb is refused at its first ``&``), nesting deeper than
MAX_NESTING, merge keys, keys that are not text, duplicate keys, and values
or keys holding control characters (see :mod:`pipeline.base.textsafety`).
Files that are not regular files, or larger than MAX_FILE_BYTES, are refused
before they are read (see :mod:`pipeline.base.safefile`).
"""
from __future__ import annotations

from pathlib import Path

from pipeline.base.safefile import FileRefused, read_regular_file
from pipeline.data import yamlparse

# The parser's types, named here too: every reader of data takes them from this module.
from pipeline.data.yamlparse import MAX_NESTING, Mark, MarkedData, PathKey, YamlLoadError, mark, position

__all__ = ["MAX_FILE_BYTES", "MAX_NESTING", "Mark", "MarkedData", "PathKey", "YamlLoadError", "load_marked", "loads_marked",
           "mark", "position"]

# The largest data file is under 40 kB; fifty times that is still a fraction of a second to parse.
MAX_FILE_BYTES = 2 * 1024 * 1024


def load_marked(path: Path, *, strict_text: bool = True) -> MarkedData:
    """Read ``path`` as safe YAML; raise YamlLoadError with a position on any problem.

    ``strict_text`` refuses a comment after unquoted text (see yamlparse._Builder.refuse_trailing_comment);
    card data wants it, settings files with annotated values do not.
    """
    try:
        raw = read_regular_file(path, MAX_FILE_BYTES)
    except FileRefused as exc:
        raise YamlLoadError(str(exc)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise YamlLoadError(f"cannot read file: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # what reading in text mode did
    return loads_marked(text, strict_text=strict_text)


def loads_marked(text: str, *, strict_text: bool = True) -> MarkedData:
    """Parse YAML text; see load_marked."""
    return yamlparse.loads_marked(text, strict_text=strict_text)
