"""A card sheet's PDF checks before it is published: every font embedded."""
from __future__ import annotations

import io

from reportlab.pdfgen.canvas import Canvas

from pipeline.cards import fonts, sheetcheck


def sheet(text: str = "", width: float = 100) -> bytes:
    """A one-page PDF in the project's embedded font; with ``text``, Helvetica too (one of the standard 14,
    never embedded)."""
    fonts.register()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(200, 200), invariant=True, initialFontName=fonts.font_name())
    canvas.rect(10, 10, width, 50, fill=1)
    canvas.drawString(20, 150, "Card")
    if text:
        canvas.setFont("Helvetica", 10)
        canvas.drawString(20, 100, text)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_a_sheet_in_the_embedded_family_passes() -> None:
    assert sheetcheck.sheet_problems(sheet(), "toy", []) == ([], [])


def test_a_sheet_with_a_font_not_embedded_is_refused() -> None:
    assert sheetcheck.sheet_problems(sheet("Hello"), "toy", []) == ([], ["toy: card sheets: font Helvetica is not embedded"])
