"""Safe YAML loading that remembers where every node came from.

The loader returns plain Python data (what JSON Schema validates) and a side
table of marks keyed by the node's path, so any later stage can point a user
at ``file:line:column`` without the data itself carrying positions.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from pipeline.core import parsedcache, resultcache

# libyaml's parser is several times faster; the pure-Python one is the fallback.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

PathKey = tuple[Union[str, int], ...]
STR_TAG = "tag:yaml.org,2002:str"
Mark = tuple[int, int]  # 1-based line, column
PARSED_NAMESPACE = "yaml"


class YamlLoadError(Exception):
    """The file could not be turned into data; carries a 1-based position."""

    def __init__(self, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


@dataclass
class MarkedData:
    """Loaded data plus where each value (and each mapping key) starts."""

    data: Any
    value_marks: dict[PathKey, Mark] = field(default_factory=dict)
    key_marks: dict[PathKey, Mark] = field(default_factory=dict)


def _mark_of(node: Node) -> Mark:
    return node.start_mark.line + 1, node.start_mark.column + 1


def load_marked(path: Path, *, strict_text: bool = True) -> MarkedData:
    """Read ``path`` as safe YAML; raise YamlLoadError with a position on any problem.

    ``strict_text`` refuses a comment after unquoted text (see _refuse_trailing_comment);
    card data wants it, settings files with annotated values do not.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise YamlLoadError(f"cannot read file: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise YamlLoadError(f"cannot read file: {exc.strerror or exc}") from None
    return loads_marked_cached(text, strict_text=strict_text)


def loads_marked_cached(text: str, *, strict_text: bool = True) -> MarkedData:
    """``loads_marked``, with the result of a text parsed before read back from the cache (a build
    or validation reads every data file; unchanged files then cost a fraction of a parse).
    The key holds the text, the option and this module's code."""
    key = [resultcache.file_hash(Path(__file__)), str(strict_text), text]

    def parse() -> tuple[Any, dict[PathKey, Mark], dict[PathKey, Mark]]:
        marked = loads_marked(text, strict_text=strict_text)
        return marked.data, marked.value_marks, marked.key_marks

    data, value_marks, key_marks = parsedcache.cached_parse(key, parse)
    return MarkedData(data, value_marks, key_marks)


def loads_marked(text: str, *, strict_text: bool = True) -> MarkedData:
    """Parse YAML text; see load_marked."""
    loader = _Loader(text)
    try:
        try:
            root = loader.get_single_node()
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            where = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            what = exc.problem or exc.context or "syntax error"
            raise YamlLoadError(f"malformed YAML: {what}", *where) from None
        except yaml.YAMLError as exc:
            raise YamlLoadError(f"malformed YAML: {exc}") from None
        if root is None:
            raise YamlLoadError("file is empty: expected a mapping of records")
        marked = MarkedData(data=None)
        marked.data = _Builder(loader, marked, text.splitlines() if strict_text else None).build(root, ())
        return marked
    finally:
        loader.dispose()


class _Builder:
    """Turns a composed node tree into plain data, recording marks as it goes."""

    def __init__(self, loader: Any, marked: MarkedData, lines: Optional[list[str]]) -> None:
        self._loader = loader
        self._marked = marked
        self._lines = lines
        self._active: set[int] = set()

    def build(self, node: Node, path: PathKey) -> Any:
        self._marked.value_marks[path] = _mark_of(node)
        if id(node) in self._active:
            raise YamlLoadError("recursive alias is not allowed", *_mark_of(node))
        self._active.add(id(node))
        try:
            if isinstance(node, MappingNode):
                return self._mapping(node, path)
            if isinstance(node, SequenceNode):
                return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
            return self._scalar(node)
        finally:
            self._active.discard(id(node))

    def _scalar(self, node: ScalarNode) -> Any:
        self._refuse_trailing_comment(node)
        if node.tag == STR_TAG:  # what the safe constructor returns for text, without its dispatch (most scalars)
            return node.value
        try:
            return self._loader.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            problem = getattr(exc, "problem", None) or str(exc)
            raise YamlLoadError(f"bad value: {problem}", *_mark_of(node)) from None

    def _refuse_trailing_comment(self, node: ScalarNode) -> None:
        """A ``#`` after a plain value starts a comment and silently cuts the text short.

        In card text that is nearly always a mistake ("numbered #01 to #29"
        would load as "numbered"), so an unquoted value followed by a comment
        is refused: quote the value, or put the comment on a line of its own.
        """
        if self._lines is None or node.style not in (None, "") or node.tag != STR_TAG:
            return
        if node.end_mark.line >= len(self._lines):
            return
        rest = self._lines[node.end_mark.line][node.end_mark.column :]
        if rest.lstrip().startswith("#") and rest[:1].isspace():
            raise YamlLoadError(
                "'#' after an unquoted value starts a comment and cuts the text short: "
                "quote the value, or move the comment to its own line",
                node.end_mark.line + 1,
                node.end_mark.column + 1 + len(rest) - len(rest.lstrip()),
            )

    def _mapping(self, node: MappingNode, path: PathKey) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise YamlLoadError("merge keys ('<<') are not allowed: write the keys out", *_mark_of(key_node))
            if not isinstance(key_node, ScalarNode):
                raise YamlLoadError("a mapping key must be a plain word", *_mark_of(key_node))
            key = self._scalar(key_node)
            if not isinstance(key, str):
                raise YamlLoadError(
                    f"key {key!r} must be text: quote it (\"{key_node.value}\")", *_mark_of(key_node)
                )
            if key in result:
                first_line = self._marked.key_marks[path + (key,)][0]
                raise YamlLoadError(f"duplicate key '{key}' (first at line {first_line})", *_mark_of(key_node))
            self._marked.key_marks[path + (key,)] = _mark_of(key_node)
            result[key] = self.build(value_node, path + (key,))
        return result
