"""The drawing numbers kept as data (templates/docs/layout.yaml): a changed value changes the PDF, and a
malformed layout file is one clear error naming its file and line, with nothing written."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.data.dataset import display_path
from pipeline.documents import layout
from pipeline.documents import structure as m
from pipeline.documents.pdf import PdfRenderer

LEGEND = m.Document("Layout", "Test", "rulebook", (
    m.Legend((m.LegendEntry(None, "Red", "the red team's tokens", "#b8322e", "R"),
              m.LegendEntry(None, "Blue", "the blue team's tokens", "#2f5f9e", "B"))),
))


def _layout_copy(tmp_path: Path, old: str = "", new: str = "") -> Path:
    """A copy of the project's layout file with ``old`` (which must occur once) replaced by ``new``."""
    text = layout.LAYOUT_FILE.read_text(encoding="utf-8")
    if old:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "layout.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _legend_pdf(path: Path) -> bytes:
    pdf, _ = PdfRenderer(layout.load_layout("a4", path)).render(LEGEND)
    return pdf


@pytest.mark.parametrize("old, new", [
    ("  columns: [1.4, 2.6]   # relative widths of an entry's name", "  columns: [2.0, 2.0]   # relative widths of an entry's name"),
    ("  swatch_corner: 6 ", "  swatch_corner: 3 "),
    ("  swatch_label_pt: 7 ", "  swatch_label_pt: 9 "),
], ids=["legend columns", "swatch corner", "swatch label size"])
def test_a_changed_layout_value_changes_the_pdf(tmp_path: Path, old: str, new: str) -> None:
    same = _legend_pdf(_layout_copy(tmp_path / "same"))
    assert same == _legend_pdf(layout.LAYOUT_FILE)  # the copy alone changes nothing: the value does
    assert _legend_pdf(_layout_copy(tmp_path / "changed", old, new)) != same


def test_table_columns_are_read_from_the_layout_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert layout.table_columns("components") == (2.2, 4.0, 8.0)
    changed = _layout_copy(tmp_path, "components: [2.2, 4.0, 8.0]", "components: [1.0, 5.0, 9.0]")
    monkeypatch.setattr(layout, "LAYOUT_FILE", changed)
    assert layout.table_columns("components") == (1.0, 5.0, 9.0)


@pytest.mark.parametrize("old, new, says", [
    ("  swatch_corner: 6 ", "  swatch_corner: round ", "'round' is not of type 'number'"),
    ("  icon_mm: 7\n", "  icon_mm: 7\n  icon_mm: 8\n", "duplicate key"),
    ("    glossary: [1.35, 3.0]", "    glossary: [1.0]", "[1.0] is too short"),
], ids=["wrong type", "duplicate key", "too few columns"])
def test_a_malformed_layout_is_one_error_naming_file_and_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], old: str, new: str, says: str
) -> None:
    from pipeline.cli.main import app

    bad = _layout_copy(tmp_path, old, new)
    line = 1 + bad.read_text(encoding="utf-8")[: bad.read_text(encoding="utf-8").index(new.strip())].count("\n")
    if says == "duplicate key":
        line += 1  # the second icon_mm is the fault
    monkeypatch.setattr(layout, "LAYOUT_FILE", bad)
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as ended:
        app(["docs", "theocracy", "--out", str(out)], prog_name="pantheon")
    err = capsys.readouterr().err
    assert ended.value.code == 1, err
    assert err.count("\n") == 1 and err.startswith(f"error: {display_path(bad)}:{line}:"), err
    assert says in err and "Traceback" not in err
    assert not list(out.rglob("*.pdf")) and not list(out.rglob("*.md"))
