"""A card sheet's PDF checks before it is published: every font embedded, one back per shuffled deck."""
from __future__ import annotations

import io

from reportlab.pdfgen.canvas import Canvas

from pipeline.cards import decks, fonts, sheetcheck


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


def backs_page(*forms: tuple[str, float]) -> bytes:
    """A PDF whose one page draws a back per entry of ``forms``, each placed as a build places a card (clip to
    its slot, ``cm``, the form): (form name, the width of the square it paints). A name given twice draws the
    same form object; two names make two form objects, alike or not as their widths are."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(400, 200), invariant=True)
    defined: set[str] = set()
    for name, width in forms:
        if name not in defined:
            canvas.beginForm(name, 0, 0, 50, 50)
            canvas.rect(5, 5, width, width, fill=1)
            canvas.endForm()
            defined.add(name)
    for slot, (name, _) in enumerate(forms):
        canvas.saveState()
        path = canvas.beginPath()
        path.rect(60 * slot, 0, 50, 50)
        canvas.clipPath(path, stroke=0, fill=0)
        canvas.translate(60 * slot, 0)
        canvas.doForm(name)
        canvas.restoreState()
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def deck_problems(pdf: bytes, count: int) -> list[str]:
    placements = [decks.BackPlacement(0, "draw", f"card {n}") for n in range(count)]
    return sheetcheck.sheet_problems(pdf, "toy", placements)[0]


def test_backs_drawing_one_form_are_one_back() -> None:
    assert deck_problems(backs_page(("back", 20), ("back", 20), ("back", 20)), 3) == []


def test_backs_drawn_by_two_forms_holding_the_same_are_one_back() -> None:
    assert deck_problems(backs_page(("back", 20), ("copy", 20)), 2) == []


def test_backs_drawn_by_forms_that_differ_are_refused_naming_both_cards() -> None:
    assert deck_problems(backs_page(("back", 20), ("back", 20), ("other", 21)), 3) == [
        "design rule one_back_per_deck: deck 'draw' is shuffled together but prints different backs: card 0 and card 2"
    ]


def test_a_card_with_no_back_drawn_differs_from_one_with_a_back() -> None:
    assert deck_problems(backs_page(("back", 20)), 2) == [
        "design rule one_back_per_deck: deck 'draw' is shuffled together but prints different backs: card 0 and card 1"
    ]
