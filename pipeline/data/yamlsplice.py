"""Change one scalar of a YAML file in place, leaving every other byte as it was.

A spreadsheet import (``pantheon sheet import``) edits a few values of files
that designers format by hand: comments, key order, quoting, line wrapping and
flow mappings must all survive. A round-trip dump of the whole document does
not keep them all (tried with ruamel.yaml on this project's data: 9 files
changed bytes with no edit at all: re-wrapped plain scalars, flow mappings of
one pair, escapes), so this module replaces only the text of the edited value
node, located by the safe composer's marks, in the style it was written in
where that style can hold the new value.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Sequence, Union

import yaml

from pipeline.data.yamlmarks import PathKey

Scalar = Union[str, int, float, bool, None]


class SpliceError(ValueError):
    """The edit cannot be made in place (the path names no scalar of a block mapping)."""


@dataclass(frozen=True)
class Edit:
    """Set the scalar at ``path`` (keys and list indices from the document's top) to ``value``."""

    path: PathKey
    value: Scalar


def apply(text: str, edits: Sequence[Edit]) -> str:
    """``text`` with every edit made; edits at the same path: the last wins. The result is read back and
    must hold exactly the edited values (else SpliceError), so a splice never changes anything else."""
    wanted = {edit.path: edit for edit in edits}
    spans = []
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    if root is None:
        raise SpliceError("the file holds no document")
    for edit in wanted.values():
        spans.append(_span(text, root, edit))
    for start, end, replacement in sorted(spans, key=lambda span: span[0], reverse=True):
        text = text[:start] + replacement + text[end:]
    data = yaml.safe_load(text)
    for edit in wanted.values():
        if _value_at(data, edit.path) != edit.value or type(_value_at(data, edit.path)) is not type(edit.value):
            raise SpliceError(f"{_dotted(edit.path)}: the value could not be written in place")
    return text


def _dotted(path: PathKey) -> str:
    return ".".join(str(step) for step in path)


def _value_at(data: Any, path: PathKey) -> Any:
    for step in path:
        data = data[step]
    return data


def _child(node: yaml.Node, step: Union[str, int]) -> tuple[yaml.Node, yaml.Node] | None:
    """(key node, value node) of ``step`` in a mapping node, or (value, value) of an index in a sequence."""
    if isinstance(node, yaml.MappingNode) and isinstance(step, str):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == step:
                return key, value
    if isinstance(node, yaml.SequenceNode) and isinstance(step, int) and 0 <= step < len(node.value):
        return node.value[step], node.value[step]
    return None


def _span(text: str, root: yaml.Node, edit: Edit) -> tuple[int, int, str]:
    """(start, end, new text) of the edit: the value node's own text, or a new ``key: value`` line."""
    node = root
    for depth, step in enumerate(edit.path):
        found = _child(node, step)
        if found is None:
            if depth == len(edit.path) - 1:
                return _new_key(text, node, str(step), edit)
            raise SpliceError(f"{_dotted(edit.path[:depth + 1])} is not in the file")
        node = found[1]
    if not isinstance(node, yaml.ScalarNode):
        raise SpliceError(f"{_dotted(edit.path)} is not a single value")
    start, end = node.start_mark.index, node.end_mark.index
    if node.style in ("|", ">"):
        return start, end, _block(text, node, edit.value)
    return start, end, render(edit.value, node.style)


def _new_key(text: str, mapping: yaml.Node, key: str, edit: Edit) -> tuple[int, int, str]:
    """A line ``key: value`` after the last entry of a block mapping."""
    if not isinstance(mapping, yaml.MappingNode) or mapping.flow_style or not mapping.value:
        raise SpliceError(f"{_dotted(edit.path)}: add it in the YAML (its mapping is not a block of lines)")
    first_key = mapping.value[0][0]
    indent = " " * first_key.start_mark.column
    end = mapping.value[-1][1].end_mark.index
    line_end = text.find("\n", end - 1 if text[end - 1:end] == "\n" else end)
    at = len(text) if line_end < 0 else line_end + 1
    return at, at, f"{indent}{key}: {render(edit.value, None)}\n"


def _block(text: str, node: yaml.ScalarNode, value: Scalar) -> str:
    """A block scalar (``|`` or ``>``) rewritten as a literal block at its own indentation (text with line
    breaks), or as a quoted value on the key's line (other values); the text after it stays as it was."""
    original = text[node.start_mark.index:node.end_mark.index]
    trailing = original[len(original.rstrip("\n")):] or "\n"
    body_lines = original.split("\n")[1:]
    indent = next((line[: len(line) - len(line.lstrip(" "))] for line in body_lines if line.strip()), "  ")
    if isinstance(value, str) and "\n" in value.rstrip("\n"):
        chomp = "" if value.endswith("\n") else "-"
        lines = [indent + line if line else "" for line in value.rstrip("\n").split("\n")]
        return f"|{chomp}\n" + "\n".join(lines) + trailing
    return render(value, '"') + trailing


def render(value: Scalar, style: Any) -> str:
    """``value`` as YAML text: plain where the original was plain and plain text reads back the same,
    single-quoted where it was single-quoted, else double-quoted (JSON escapes are YAML's too)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if style in (None, "") and _plain_ok(value):
        return value
    if style == "'" and "\n" not in value:
        return "'" + value.replace("'", "''") + "'"
    return json.dumps(value, ensure_ascii=False)


def _plain_ok(value: str) -> bool:
    if not value or "\n" in value or value != value.strip() or value[0] in "!&*[]{}|>'\"%@`#,?:-":
        return False
    if ": " in value or " #" in value:
        return False
    try:
        return bool(yaml.safe_load(value) == value)
    except yaml.YAMLError:
        return False
