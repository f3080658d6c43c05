"""A game's card records as tables (one row per card, one column per field) and a table read back as edits.

``pantheon sheet export`` writes these tables to a spreadsheet; ``pantheon sheet
import`` reads one back and turns every changed cell into an
:class:`~pipeline.data.yamlsplice.Edit` of the YAML. Columns are the fields the
records hold, in the YAML's key order (``id`` first); a nested mapping gives
dotted columns (``upright.name``). A value that is not a single value (a list,
an effect) is shown as JSON in a read-only column, marked ``(read-only)`` in its
header: edit it in the YAML. Refusals name the cell (``cards.xlsx!Deities!C12``)
and the YAML line of the field.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional, Sequence

from pipeline.base.errors import UserError
from pipeline.data.dataset import Document
from pipeline.data.yamlmarks import PathKey
from pipeline.data.yamlsplice import Edit, Scalar

ID = "id"
READ_ONLY = " (read-only)"
MISSING = object()  # a field the record does not have


@dataclass(frozen=True)
class Column:
    """One column: the field's path inside a record, and whether the sheet may change it."""

    path: tuple[str, ...]
    editable: bool

    @property
    def header(self) -> str:
        return ".".join(self.path) + ("" if self.editable else READ_ONLY)


@dataclass
class Table:
    """The card records of one document: ``doc.data[key]`` is their list."""

    doc: Document
    key: str
    columns: list[Column] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return self.doc.kind

    @property
    def title(self) -> str:
        """The sheet's name: the kind in words (``monster-cards`` -> ``Monster Cards``)."""
        return self.kind.replace("-", " ").replace("_", " ").title()

    @property
    def records(self) -> list[dict[str, Any]]:
        return list(self.doc.data[self.key])

    def rows(self) -> list[list[Any]]:
        """Each record's cells, as the export writes them (None for an empty cell)."""
        return [[cell(record, column) for column in self.columns] for record in self.records]


def record_list(doc: Document) -> Optional[str]:
    """The key of a document's list of records with ids (``deities``), or None when it holds none."""
    data = doc.data
    if not isinstance(data, dict):
        return None
    keys = [key for key, value in data.items()
            if isinstance(value, list) and value and all(isinstance(r, dict) and ID in r for r in value)]
    return keys[0] if len(keys) == 1 else None


def table(doc: Document) -> Optional[Table]:
    """The table of ``doc``'s records (None when it holds no list of records with ids)."""
    key = record_list(doc)
    if key is None:
        return None
    found = Table(doc, key)
    seen: dict[tuple[str, ...], bool] = {(ID,): False}
    for record in doc.data[key]:
        for path, editable in _leaves(record, ()):
            seen[path] = seen.get(path, True) and editable
    found.columns = [Column(path, editable) for path, editable in seen.items()]
    return found


def _leaves(node: dict[str, Any], prefix: tuple[str, ...]) -> Iterable[tuple[tuple[str, ...], bool]]:
    for key, value in node.items():
        path = (*prefix, str(key))
        if isinstance(value, dict) and value:
            yield from _leaves(value, path)
        else:
            yield path, not isinstance(value, (dict, list))


def _get(record: Any, path: Sequence[str]) -> Any:
    for step in path:
        if not isinstance(record, dict) or step not in record:
            return MISSING
        record = record[step]
    return record


def cell(record: dict[str, Any], column: Column) -> Any:
    """What the sheet shows for ``record`` in ``column``."""
    value = _get(record, column.path)
    if value is MISSING or value is None:
        return None
    if column.editable or column.path == (ID,):
        return value if column.path != (ID,) else str(value)
    return json.dumps(value, ensure_ascii=False, sort_keys=False)


# -------------------------------------------------------------------- reading a sheet back
@dataclass(frozen=True)
class SheetCell:
    """A cell as read from the file: its value, its name for messages and whether it holds a formula."""

    value: Any
    name: str
    formula: bool = False


@dataclass(frozen=True)
class SheetRows:
    """One sheet as read: its header cells and its data rows."""

    header: list[SheetCell]
    rows: list[list[SheetCell]]


def edits(found: Table, sheet: SheetRows) -> list[Edit]:
    """The edits a sheet makes to ``found``'s document; a UserError naming the cell for anything else (a
    renamed or missing column, a deleted, added or repeated id, a formula, a value of the wrong type, a
    read-only cell changed, a value emptied)."""
    columns = _columns(found, sheet.header)
    records = found.records
    by_id = {str(record[ID]): index for index, record in enumerate(records)}
    seen: dict[str, str] = {}
    made: list[Edit] = []
    for row in sheet.rows:
        cells = {column: row[at] if at < len(row) else SheetCell(None, _blank_name(row, at)) for at, column in columns}
        id_cell = cells[Column((ID,), False)]
        if all(_empty(c.value) for c in cells.values()):
            continue  # a blank line a spreadsheet left at the end
        for c in cells.values():
            if c.formula or (isinstance(c.value, str) and c.value.startswith("=")):
                raise UserError(f"{c.name}: a formula ({c.value}); the sheet must hold values (paste values only)")
        card = _text(id_cell.value)
        if card not in by_id:
            raise UserError(f"{id_cell.name}: unknown id {card!r}; a sheet changes cards, it does not add them "
                            f"(add a card in {found.doc.file})")
        if card in seen:
            raise UserError(f"{id_cell.name}: id {card!r} is on two rows (also {seen[card]})")
        seen[card] = id_cell.name
        index = by_id[card]
        for column, sheet_cell in cells.items():
            made += _cell_edits(found, index, records[index], column, sheet_cell)
    for card, index in by_id.items():
        if card not in seen:
            where = found.doc.at(found.key, index)
            raise UserError(f"{sheet.header[0].name.rsplit('!', 1)[0]}: the row of id {card!r} was deleted; a sheet "
                            f"changes cards, it does not delete them (delete a card in the YAML: {where})")
    return made


def _blank_name(row: Sequence[SheetCell], at: int) -> str:
    return row[-1].name if row else "?"


def _columns(found: Table, header: Sequence[SheetCell]) -> list[tuple[int, Column]]:
    known = {column.header: column for column in found.columns}
    by_path = {".".join(column.path): column for column in found.columns}
    placed: list[tuple[int, Column]] = []
    for at, head in enumerate(header):
        title = _text(head.value).strip()
        if not title:
            continue
        if title not in known:
            hint = by_path.get(title.removesuffix(READ_ONLY))
            near = f"; it is {hint.header!r}" if hint is not None else ""
            raise UserError(f"{head.name}: column {title!r} is not a field of {found.kind} (renamed?){near}; the "
                            f"columns are {', '.join(repr(c.header) for c in found.columns)}")
        placed.append((at, known[title]))
    present = {column for _, column in placed}
    for column in found.columns:
        if column not in present:
            raise UserError(f"{header[0].name.rsplit('!', 1)[0] if header else found.title}: column {column.header!r} "
                            f"is missing (renamed or deleted?); every column the export wrote must stay")
    if placed[0][1].path != (ID,):
        raise UserError(f"{header[placed[0][0]].name}: the first column must be {ID!r}")
    return placed


def _cell_edits(found: Table, index: int, record: dict[str, Any], column: Column, sheet_cell: SheetCell) -> list[Edit]:
    path: PathKey = (found.key, index, *column.path)
    current = _get(record, column.path)
    where = found.doc.at(*path) if current is not MISSING else found.doc.at(found.key, index)
    shown = cell(record, column)
    if not column.editable:
        if _text(sheet_cell.value) != _text(shown):
            raise UserError(f"{sheet_cell.name}: column {column.header!r} is read-only; edit it in the YAML ({where})")
        return []
    if _empty(sheet_cell.value):
        if current is MISSING or current is None or current == "":
            return []
        raise UserError(f"{sheet_cell.name}: the cell is empty; to remove the value, edit the YAML ({where})")
    value = _typed(sheet_cell, current, where)
    if current is not MISSING and value == current and type(value) is type(current):
        return []
    return [Edit(path, value)]


def _typed(sheet_cell: SheetCell, current: Any, where: object) -> Scalar:
    """The cell's value in the type of the field it edits (a number field takes a number, ...)."""
    raw = sheet_cell.value
    converters: dict[type, Callable[[Any], Scalar]] = {bool: _boolean, int: _whole, float: _number, str: _text}
    kind = type(current) if current is not MISSING and current is not None else None
    try:
        if kind in converters:
            return converters[kind](raw)
        return raw if isinstance(raw, (str, int, float, bool)) else _text(raw)
    except ValueError as exc:
        raise UserError(f"{sheet_cell.name}: {exc} (the field at {where} holds {_kind_name(kind)})") from None


def _kind_name(kind: Optional[type]) -> str:
    return {bool: "true or false", int: "a whole number", float: "a number", str: "text"}.get(kind, "a value")  # type: ignore[arg-type]


def _boolean(raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.strip().lower() in ("true", "false"):
        return raw.strip().lower() == "true"
    raise ValueError(f"{raw!r} is not true or false")


def _whole(raw: Any) -> int:
    if isinstance(raw, bool):
        raise ValueError(f"{raw!r} is not a whole number")
    if isinstance(raw, int):
        return raw
    if isinstance(raw, float) and raw.is_integer():
        return int(raw)
    if isinstance(raw, str) and raw.strip().lstrip("-").isdigit():
        return int(raw.strip())
    raise ValueError(f"{raw!r} is not a whole number")


def _number(raw: Any) -> float:
    if isinstance(raw, bool):
        raise ValueError(f"{raw!r} is not a number")
    try:
        number = float(raw)
    except (TypeError, ValueError):
        raise ValueError(f"{raw!r} is not a number") from None
    if not math.isfinite(number):
        raise ValueError(f"{raw!r} is not a number")
    return number


def _text(raw: Any) -> str:
    if raw is None:
        return ""
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, float) and raw.is_integer():
        return str(int(raw))
    return str(raw)


def _empty(raw: Any) -> bool:
    return raw is None or (isinstance(raw, str) and raw == "")
