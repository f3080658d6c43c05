"""`pantheon sheet export|import`: a game's cards as a spreadsheet (.xlsx, or .csv per card kind) and back.

Export writes one sheet per card kind (the documents whose records the card
plan prints), one row per card, the columns of ``data.sheettable``. Import
reads such a file, turns every changed cell into an edit of the YAML made in
place (``data.yamlsplice``: comments, key order and formatting kept), checks
the edited data on a copy and only then writes the changed files, each
atomically: a refused sheet changes nothing. A sheet that changes nothing
writes nothing, so data/ stays byte-identical.
"""
from __future__ import annotations

import csv
import io
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.base.errors import UserError
from pipeline.cards.build import plan
from pipeline.cards.pdfwrite import write_atomic
from pipeline.checks.rulebook_facts import FACTS_KIND
from pipeline.checks.validate import validate
from pipeline.data.dataset import GameData, display_path, load_game
from pipeline.data.gamespec import Specs
from pipeline.data.kinds import COMPONENTS_KIND, GLOSSARY_KIND, RULES_KIND
from pipeline.data.sheettable import SheetCell, SheetRows, Table, edits, table
from pipeline.data.yamlsplice import SpliceError, apply

MARK = "pantheon sheet: "  # the workbook's subject, a CSV's first line: which game (and kind) the sheet holds
XLSX, CSV = ".xlsx", ".csv"
READ_ONLY_GREY = "DDDDDD"  # the header fill of a read-only column
# Kinds every game shares that are never cards (a fact's or a term's id may equal a card's)
NOT_CARDS = frozenset({RULES_KIND, GLOSSARY_KIND, COMPONENTS_KIND, FACTS_KIND})


@dataclass(frozen=True)
class Imported:
    """What an import changed: the number of cells, and the files written."""

    cells: int
    files: tuple[Path, ...]


def card_tables(game: GameData[Any]) -> list[Table]:
    """The tables of the documents whose records the game's card plan prints, in file order."""
    cards = plan(game.root.parent, game.game, game).cards
    records = {card.record for card in cards if card.record is not None}
    plain = {card.id for card in cards if card.record is None}  # printed from the record of the card's own id
    tables = []
    for doc in game.docs.values():
        found = table(doc) if doc.kind not in NOT_CARDS else None
        if found is not None and any(f"{doc.kind}/{record['id']}" in records or str(record["id"]) in plain
                                     for record in found.records):
            tables.append(found)
    return tables


def _loaded(data_root: Path, specs: Specs, game_id: str) -> GameData[Any]:
    game = load_game(data_root, specs.spec(game_id))
    if game.load_problems:
        raise UserError(f"{game.load_problems[0]} (fix the YAML before exporting or importing a sheet)")
    return game


# ------------------------------------------------------------------------------ export
def export(data_root: Path, specs: Specs, game_id: str, out: Path) -> list[Path]:
    """Write the game's cards to ``out`` (.xlsx: one workbook; .csv: one file per card kind, named
    ``<stem>-<kind>.csv`` when the game has several); the files written."""
    game = _loaded(data_root, specs, game_id)
    tables = card_tables(game)
    if not tables:
        raise UserError(f"{game_id}: no card records to export")
    if out.suffix == XLSX:
        write_atomic(out, _workbook(game_id, tables))
        return [out]
    if out.suffix != CSV:
        raise UserError(f"{display_path(out)}: the sheet file must end in {XLSX} or {CSV}")
    written = []
    for found in tables:
        path = out if len(tables) == 1 else out.with_name(f"{out.stem}-{found.kind}{CSV}")
        write_atomic(path, _csv(game_id, found).encode("utf-8"))
        written.append(path)
    return written


def _workbook(game_id: str, tables: list[Table]) -> bytes:
    # openpyxl is imported here, not at the top: only .xlsx needs it, and its import (about 0.1 s) would
    # otherwise be paid by every command at start-up, a cold validate's included.
    from openpyxl import Workbook
    from openpyxl.comments import Comment
    from openpyxl.styles import Font, PatternFill

    book = Workbook()
    for empty in list(book.worksheets):  # the blank sheet a new workbook starts with
        book.remove(empty)
    book.properties.subject = MARK + game_id
    for found in tables:
        sheet = book.create_sheet(found.title)
        sheet.append([column.header for column in found.columns])
        for row in found.rows():
            sheet.append(row)
        for at, column in enumerate(found.columns, 1):
            head = sheet.cell(row=1, column=at)
            head.font = Font(bold=True)
            if not column.editable:
                head.fill = PatternFill("solid", fgColor=READ_ONLY_GREY)
                head.comment = Comment("Read-only: edit this field in the YAML.", "pantheon")
            sheet.column_dimensions[_letter(at - 1)].width = min(60, max(8, len(column.header) + 2))
        sheet.freeze_panes = "B2"
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _csv(game_id: str, found: Table) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([f"# {MARK}{game_id}/{found.kind}"])
    writer.writerow([column.header for column in found.columns])
    for row in found.rows():
        writer.writerow(["" if value is None else _csv_text(value) for value in row])
    return buffer.getvalue()


def _csv_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# ------------------------------------------------------------------------------ import
def read_sheets(path: Path) -> tuple[str, dict[str, SheetRows]]:
    """(game id, the sheets by title, or by kind for a CSV) of a file ``export`` wrote."""
    name = path.name
    if path.suffix == XLSX:
        from openpyxl import load_workbook  # only .xlsx needs it (see _workbook)

        try:
            book = load_workbook(path, data_only=False)
        except Exception as exc:  # openpyxl raises many kinds for a file that is not a workbook
            raise UserError(f"{display_path(path)}: not a spreadsheet openpyxl can read ({exc.__class__.__name__})") from None
        subject = book.properties.subject or ""
        if not subject.startswith(MARK):
            raise UserError(f"{display_path(path)}: not a sheet written by `pantheon sheet export` (no game named)")
        sheets = {}
        for sheet in book.worksheets:
            rows = [[SheetCell(c.value, f"{name}!{sheet.title}!{c.coordinate}", c.data_type == "f") for c in row]
                    for row in sheet.iter_rows()]
            sheets[sheet.title] = SheetRows(rows[0] if rows else [], rows[1:])
        return subject[len(MARK):], sheets
    if path.suffix != CSV:
        raise UserError(f"{display_path(path)}: the sheet file must end in {XLSX} or {CSV}")
    try:
        lines = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise UserError(f"{display_path(path)}: cannot read it as CSV ({exc})") from None
    if not lines or not lines[0] or not lines[0][0].startswith(f"# {MARK}") or "/" not in lines[0][0]:
        raise UserError(f"{name}!A1: not a sheet written by `pantheon sheet export` (its first line names the game)")
    game_id, kind = lines[0][0][len(f"# {MARK}"):].split("/", 1)
    cells = [[SheetCell(value, f"{name}!{_letter(at)}{number}") for at, value in enumerate(line)]
             for number, line in enumerate(lines, 1)]
    return game_id, {kind: SheetRows(cells[1] if len(cells) > 1 else [], cells[2:])}


def _letter(index: int) -> str:
    """A spreadsheet's column letters of the 0-based ``index`` (A, ..., Z, AA, ...)."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def import_sheet(path: Path, data_root: Path, specs: Specs) -> Imported:
    """Write the edits of the sheet at ``path`` into the YAML under ``data_root``, once the edited data
    validates; a UserError (naming the cell, or the problem) and no change otherwise."""
    game_id, sheets = read_sheets(path)
    if specs.find(game_id) is None:
        raise UserError(f"{display_path(path)}: game {game_id!r} is not one of {', '.join(specs.ids())}")
    game = _loaded(data_root, specs, game_id)
    tables = {found.title: found for found in card_tables(game)} | {found.kind: found for found in card_tables(game)}
    texts: dict[Path, str] = {}
    count = 0
    for title, rows in sheets.items():
        found = tables.get(title)
        if found is None:
            raise UserError(f"{path.name}!{title}: not a card kind of {game_id} (the sheets are "
                            f"{', '.join(sorted({t.title for t in tables.values()}))})")
        made = edits(found, rows)
        if not made:
            continue
        count += len(made)
        try:
            texts[found.doc.path] = apply(found.doc.path.read_text(encoding="utf-8"), made)
        except SpliceError as exc:
            raise UserError(f"{found.doc.file}: {exc}") from None
    if texts:
        _check_on_copy(data_root, specs, game_id, texts)
        for target, text in texts.items():
            write_atomic(target, text.encode("utf-8"))
    return Imported(count, tuple(texts))


def _check_on_copy(data_root: Path, specs: Specs, game_id: str, texts: dict[Path, str]) -> None:
    """Validate the game with the edited files on a copy of the data root; a UserError naming the first
    problems (at the real files' lines) when it does not validate."""
    with tempfile.TemporaryDirectory(prefix="pantheon-sheet-") as temp:
        copy = Path(temp) / "data"
        shutil.copytree(data_root / "schemas", copy / "schemas")
        shutil.copytree(data_root / game_id, copy / game_id)
        for target, text in texts.items():
            (copy / game_id / target.name).write_text(text, encoding="utf-8")
        report = validate(copy, specs, [game_id])
        if report.ok:
            return
        real = display_path(data_root / game_id)
        shown = [str(problem).replace(display_path(copy / game_id), real) for problem in report.problems[:3]]
        more = len(report.problems) - len(shown)
        raise UserError("not imported (the edited data does not validate): " + "; ".join(shown)
                        + (f" (and {more} more)" if more else ""))
