"""Calibration round trip through a model of a duplex printer, built from first principles.

The model: a sheet of paper seen from its front, held portrait (x across, y
along, in points). A portrait page lands on it as it is; a landscape page is
turned a quarter turn anticlockwise (its top at the paper's left edge). The
back page lands the same way on the paper as it lies after the printer's
turn (about the long edge, or the short one), so seen through the sheet its
points are mirrored about that edge; the printer then shifts the whole back
by its own error. A test measures that error on the registration page the
way a user reads the rulers, builds with the offsets the page says, and
checks that every back then lies exactly behind its front, on portrait and
landscape sheets, for long- and short-edge duplex.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.cards.build import BuildOptions, render_pdf
from pipeline.cards.calibration import ruler_labels
from pipeline.cards.imposition import ACROSS, ALONG, LANDSCAPE, PORTRAIT, Duplex, load_sheets
from pipeline.cards.units import mm

from .pdf_text import page_texts
from .render_helpers import placements, reader, segments, toy_plan, toy_template_root

PAPER = load_sheets().paper("a4")
PAPER_W, PAPER_H = mm(PAPER.width_mm), mm(PAPER.height_mm)
PRINTER_ERROR = (mm(1.3), mm(-0.8))  # where this printer puts the back, seen from the front (across, along)
LAYOUT_OF = {PORTRAIT: "butted", LANDSCAPE: "gutter"}  # the toy poker cards go portrait butted, landscape in gutters
BLEED_BOX = (mm(63 + 6), mm(88 + 6))
ABS = 0.01  # points


def on_paper(x: float, y: float, orientation: str) -> tuple[float, float]:
    """A page point on the paper, seen from the side it is printed on."""
    return (x, y) if orientation == PORTRAIT else (PAPER_W - y, x)


def front_point(x: float, y: float, orientation: str) -> tuple[float, float]:
    return on_paper(x, y, orientation)


def back_point(x: float, y: float, orientation: str, duplex: Duplex, error: tuple[float, float]) -> tuple[float, float]:
    """A back-page point seen through the sheet from its front, after the printer's turn and error."""
    px, py = on_paper(x, y, orientation)
    px, py = (PAPER_W - px, py) if duplex == Duplex.LONG else (px, PAPER_H - py)  # the long edge is the paper's side
    return px + error[0], py + error[1]


def cross_centre(page: object) -> tuple[float, float]:
    """The centre of the registration cross: where its two longest lines meet."""
    lines = sorted(segments(page), key=lambda s: -((s[2] - s[0]) ** 2 + (s[3] - s[1]) ** 2))
    horizontal = next(s for s in lines if abs(s[1] - s[3]) < ABS)
    vertical = next(s for s in lines if abs(s[0] - s[2]) < ABS)
    return vertical[0], horizontal[1]


def build(templates: Path, orientation: str, duplex: Duplex, across: float = 0.0, along: float = 0.0, **more: object) -> object:
    options = BuildOptions(duplex=duplex, layout=LAYOUT_OF[orientation], offset_across_mm=across, offset_along_mm=along, **more)  # type: ignore[arg-type]
    data, _ = render_pdf(toy_plan(5), options, template_root=templates)
    return reader(data)


def measured_offsets(templates: Path, orientation: str, duplex: Duplex) -> tuple[float, float]:
    """What a user enters after reading the registration page printed on the model printer (offsets 0)."""
    pdf = build(templates, orientation, duplex, calibration=True)
    front, back = pdf.pages[0], pdf.pages[1]  # type: ignore[attr-defined]
    page_w, page_h = float(front.mediabox.width), float(front.mediabox.height)
    assert (page_w > page_h) == (orientation == LANDSCAPE)  # printed in the orientation it calibrates
    fx, fy = front_point(*cross_centre(front), orientation)
    bx, by = back_point(*cross_centre(back), orientation, duplex, PRINTER_ERROR)
    reading = {ACROSS: (bx - fx) / mm(1), ALONG: (by - fy) / mm(1)}  # what the rulers show, in mm (see below)
    return -reading[ACROSS], -reading[ALONG]  # "--offset-across = 0 - ACROSS", and so on


def misregistration(pdf: object, orientation: str, duplex: Duplex) -> list[tuple[float, float]]:
    """For every card: where its back's centre lies minus where its front's centre lies, on the paper."""
    width, height = BLEED_BOX
    found = []
    pages = pdf.pages  # type: ignore[attr-defined]
    for front_page, back_page in zip(pages[0::2], pages[1::2]):
        for (_, fx, fy, _), (_, bx, by, turned) in zip(placements(front_page), placements(back_page)):
            cx, cy = (bx - width / 2, by - height / 2) if turned else (bx + width / 2, by + height / 2)
            front = front_point(fx + width / 2, fy + height / 2, orientation)
            back = back_point(cx, cy, orientation, duplex, PRINTER_ERROR)
            found.append((back[0] - front[0], back[1] - front[1]))
    assert found
    return found


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return toy_template_root(tmp_path_factory.mktemp("calibration"))


@pytest.mark.parametrize("duplex", [Duplex.LONG, Duplex.SHORT])
@pytest.mark.parametrize("measured_on", [PORTRAIT, LANDSCAPE])
@pytest.mark.parametrize("sheet", [PORTRAIT, LANDSCAPE])
def test_a_measured_shift_is_cancelled_on_every_sheet(templates: Path, duplex: Duplex, measured_on: str, sheet: str) -> None:
    uncorrected = misregistration(build(templates, sheet, duplex), sheet, duplex)
    assert all(d == (pytest.approx(PRINTER_ERROR[0], abs=ABS), pytest.approx(PRINTER_ERROR[1], abs=ABS)) for d in uncorrected)
    across, along = measured_offsets(templates, measured_on, duplex)
    corrected = misregistration(build(templates, sheet, duplex, across, along), sheet, duplex)
    assert all(d == (pytest.approx(0, abs=ABS), pytest.approx(0, abs=ABS)) for d in corrected), corrected


@pytest.mark.parametrize("orientation", [PORTRAIT, LANDSCAPE])
def test_the_rulers_count_in_paper_terms(orientation: str) -> None:
    """A step of +1 on each ruler's numbers is a step of +1 mm along the paper axis it is named after."""
    h_axis, h_sign, v_axis, v_sign = ruler_labels(orientation)
    assert {h_axis, v_axis} == {ACROSS, ALONG}
    origin = on_paper(0, 0, orientation)
    for axis, step in ((h_axis, (h_sign * mm(1), 0)), (v_axis, (0, v_sign * mm(1)))):
        moved = on_paper(*step, orientation)
        delta = (moved[0] - origin[0], moved[1] - origin[1])
        expected = (mm(1), 0) if axis == ACROSS else (0, mm(1))
        assert delta == (pytest.approx(expected[0]), pytest.approx(expected[1]))


def test_one_registration_page_per_orientation_used(templates: Path) -> None:
    from pipeline.cards.build import Plan
    from pipeline.cards.plan import Face, PrintCard

    board = PrintCard("board", "Big Board", Face("toy/board.svg.j2", {"name": "Big Board"}))
    plan = Plan("toy", "Toy", [*toy_plan(2).cards, board])
    data, pages = render_pdf(plan, BuildOptions(layout="gutter", calibration=True), template_root=templates)
    texts = page_texts(data)
    assert pages == len(texts) == 4 + 4  # poker cards landscape, the board portrait: two registration pages
    titles = [texts[i] for i in (0, 2)]
    assert "A4, landscape" in titles[0] and "A4, portrait" in titles[1]
    assert "ACROSS (mm)" in titles[0] and "ALONG (mm)" in titles[0]
