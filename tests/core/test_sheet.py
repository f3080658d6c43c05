"""`pantheon sheet export|import`: the cards as a spreadsheet and back, byte for byte, edits kept in place,
bad sheets refused naming the cell with no change to the data."""
from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook
from typer.testing import CliRunner

from pipeline.cli.main import app

GAMES = ("monotheism", "theocracy", "monstrous", "heavenly-father", "totems-and-taboos")


def _bytes(root: Path) -> dict[str, bytes]:
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_an_unchanged_sheet_leaves_every_byte_of_the_data(data_copy: Path, tmp_path: Path, suffix: str) -> None:
    before = _bytes(data_copy)
    for game in GAMES:
        code, out = _run("sheet", "export", game, "--out", str(tmp_path / f"{game}{suffix}"), "--data", str(data_copy))
        assert code == 0, out
    sheets = sorted(tmp_path.glob(f"*{suffix}"))
    assert len(sheets) >= len(GAMES)
    for sheet in sheets:
        code, out = _run("sheet", "import", str(sheet), "--data", str(data_copy))
        assert code == 0 and "no change" in out, (sheet, out)
    assert _bytes(data_copy) == before


def _export(data: Path, tmp_path: Path, game: str = "theocracy") -> Path:
    sheet = tmp_path / "cards.xlsx"
    code, out = _run("sheet", "export", game, "--out", str(sheet), "--data", str(data))
    assert code == 0, out
    return sheet


def _edit(sheet: Path, title: str, edit) -> None:
    """Change the workbook as a spreadsheet application saves it (openpyxl writes the same format)."""
    book = load_workbook(sheet)
    edit(book[title])
    book.save(sheet)


def _column(sheet, header: str) -> str:
    return next(cell.column_letter for cell in sheet[1] if cell.value == header)


def test_an_edit_reaches_the_yaml_in_place_with_comments_kept(data_copy: Path, tmp_path: Path) -> None:
    cards = data_copy / "theocracy" / "power-cards.yaml"
    cards.write_text("# a designer's comment\n" + cards.read_text(encoding="utf-8"), encoding="utf-8")
    before = cards.read_text(encoding="utf-8").splitlines()
    sheet = _export(data_copy, tmp_path)

    def edit(page) -> None:
        page[f"{_column(page, 'flavour')}2"] = "A spark: small, but it opens the sky."
        page[f"{_column(page, 'flavour')}3"] = "Two hands, one prayer."

    _edit(sheet, "Power Cards", edit)
    code, out = _run("sheet", "import", str(sheet), "--data", str(data_copy))
    assert code == 0 and out.startswith("imported 2 cells into"), out
    after = cards.read_text(encoding="utf-8").splitlines()
    changed = [(old, new) for old, new in zip(before, after) if old != new]
    assert len(after) == len(before) and len(changed) == 2, changed
    assert after[0] == "# a designer's comment"
    assert any(new.endswith('"A spark: small, but it opens the sky."') for _, new in changed)  # quoted: ": " inside
    assert any(new.endswith("flavour: Two hands, one prayer.") for _, new in changed)  # plain, as it was
    assert _run("validate", "theocracy", "--data", str(data_copy))[0] == 0


def _refused(data: Path, sheet: Path, *expected: str) -> None:
    before = _bytes(data)
    code, out = _run("sheet", "import", str(sheet), "--data", str(data))
    assert code == 1, out
    for text in expected:
        assert text in out, out
    assert "Traceback" not in out
    assert _bytes(data) == before


def test_a_renamed_column_is_refused_naming_the_cell(data_copy: Path, tmp_path: Path) -> None:
    sheet = _export(data_copy, tmp_path)
    _edit(sheet, "Power Cards", lambda page: setattr(page[f"{_column(page, 'title')}1"], "value", "Title"))
    _refused(data_copy, sheet, "cards.xlsx!Power Cards!D1: column 'Title' is not a field of power-cards")


def test_a_deleted_row_is_refused_naming_the_yaml_line(data_copy: Path, tmp_path: Path) -> None:
    sheet = _export(data_copy, tmp_path)
    _edit(sheet, "Power Cards", lambda page: page.delete_rows(3))
    _refused(data_copy, sheet, "the row of id 'gold-power-2' was deleted", "power-cards.yaml:")


@pytest.mark.parametrize("value", ["five", "2.5", True])
def test_a_type_error_is_refused_naming_the_cell_and_the_yaml_line(data_copy: Path, tmp_path: Path, value) -> None:
    sheet = _export(data_copy, tmp_path)
    _edit(sheet, "Power Cards", lambda page: setattr(page[f"{_column(page, 'value')}12"], "value", value))
    _refused(data_copy, sheet, "cards.xlsx!Power Cards!C12:", "is not a whole number", "power-cards.yaml:")


def test_a_formula_is_refused(data_copy: Path, tmp_path: Path) -> None:
    sheet = _export(data_copy, tmp_path)
    _edit(sheet, "Power Cards", lambda page: setattr(page[f"{_column(page, 'value')}5"], "value", "=C4+1"))
    _refused(data_copy, sheet, "cards.xlsx!Power Cards!C5: a formula (=C4+1)")


def test_a_read_only_cell_and_an_edit_that_breaks_validation_change_nothing(data_copy: Path, tmp_path: Path) -> None:
    sheet = _export(data_copy, tmp_path, "monotheism")
    _edit(sheet, "Deities", lambda page: setattr(page[f"{_column(page, 'upright.numbers (read-only)')}3"], "value", "[1]"))
    _refused(data_copy, sheet, "cards.xlsx!Deities!D3: column 'upright.numbers (read-only)' is read-only",
             "deities.yaml:")
    sheet = _export(data_copy, tmp_path, "monotheism")
    _edit(sheet, "Deities", lambda page: setattr(page[f"{_column(page, 'provenance.source')}4"], "value", "guessed"))
    _refused(data_copy, sheet, "not imported (the edited data does not validate)", "deities.yaml:")


def test_a_csv_edit_is_imported(data_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "cards.csv"
    assert _run("sheet", "export", "theocracy", "--out", str(out), "--data", str(data_copy))[0] == 0
    sheet = tmp_path / "cards-power-cards.csv"
    text = sheet.read_text(encoding="utf-8")
    sheet.write_text(text.replace("The smallest spark still opens the sky.", "The least spark opens the sky.", 1),
                     encoding="utf-8")
    code, output = _run("sheet", "import", str(sheet), "--data", str(data_copy))
    assert code == 0 and "imported 1 cell into" in output, output
    assert "flavour: The least spark opens the sky." in (data_copy / "theocracy" / "power-cards.yaml").read_text(encoding="utf-8")
