"""Every PDF the project writes embeds every font it uses, and none of the standard 14 appears anywhere.

A pre-press check refuses a PDF that names a font without embedding it, as
reportlab does by default with Helvetica (the canvas's initial font, list
bullets, table cells, the drawings' initial state).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.app.documents import render
from pipeline.cards.build import BuildOptions, face_preview_pdf, render_pdf
from pipeline.checks.references import References
from pipeline.checks.validate import RecordCatalogue
from pipeline.data.dataset import default_data_root, game_ids
from pipeline.documents.glossary import combined_glossary
from pipeline.games.registry import catalogue

from .render_helpers import fonts_not_embedded, reader, toy_plan, toy_template_root


def test_the_checker_sees_a_standard_font(tmp_path: Path) -> None:
    from io import BytesIO

    from reportlab.pdfgen.canvas import Canvas

    buffer = BytesIO()
    canvas = Canvas(buffer)
    canvas.drawString(10, 10, "plain")
    canvas.showPage()
    canvas.save()
    assert fonts_not_embedded(reader(buffer.getvalue())) == {"Helvetica"}


@pytest.mark.parametrize("ink_saver", [False, True])
def test_card_sheets_with_registration_pages_and_previews(tmp_path: Path, ink_saver: bool) -> None:
    templates = toy_template_root(tmp_path)
    plan = toy_plan(3)
    data, _ = render_pdf(plan, BuildOptions(calibration=True, ink_saver=ink_saver), template_root=templates)
    assert fonts_not_embedded(reader(data)) == set()
    preview = face_preview_pdf(plan, plan.cards[0].id, template_root=templates)
    assert fonts_not_embedded(reader(preview)) == set()


def test_the_combined_glossary() -> None:
    """Each game's own documents are checked where they are rendered once for every document test
    (tests/core/test_documents_every_game.py::test_every_document_embeds_every_font_it_uses); the glossary of
    every game, the one document no game owns, is checked here. The data is valid (its own tests check it):
    what is tested is the rendering."""
    root = default_data_root()
    pdf = render(combined_glossary(game_ids(root), References(RecordCatalogue(root, catalogue()))), "a4", "pdf")
    assert fonts_not_embedded(reader(pdf)) == set()


def test_a_card_sheet_naming_a_standard_font_is_refused_by_the_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Defence in depth: should any drawing code fall back to Helvetica, the build refuses the sheet."""
    from pipeline.base.errors import UserError
    from pipeline.cards import build

    real = build.draw_calibration

    def careless_calibration(canvas, *args, **kwargs):  # type: ignore[no-untyped-def]
        canvas.setFont("Helvetica", 8)
        canvas.drawString(20, 20, "printed in a font nobody embedded")
        return real(canvas, *args, **kwargs)

    monkeypatch.setattr(build, "draw_calibration", careless_calibration)
    with pytest.raises(UserError, match="card sheets: font Helvetica is not embedded"):
        render_pdf(toy_plan(2), BuildOptions(calibration=True), template_root=toy_template_root(tmp_path))
