"""The registration page: a cross and rulers on the front, the matching cross on the back.

One page is printed in each orientation the card sheets use (a landscape
sheet goes through the printer driver turned, so it is measured turned).
Printed duplex and held against a light, the back cross shows how far this
printer shifts the second side. The rulers are labelled in paper terms
(``across`` and ``along`` the sheet, see ``imposition.paper_axes``), the
terms the offsets are given in and applied in on every page, so one
measurement serves portrait and landscape sheets alike.
"""
from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from pipeline.cards import fonts
from pipeline.cards.imposition import LANDSCAPE, Duplex, Paper, Sheets, back_shift, paper_axes
from pipeline.cards.units import mm

TICK_MM = 1.0
LONG_TICK_EVERY = 5
TICK_PT, LONG_TICK_PT = 4.0, 8.0
LABEL_PT, TEXT_PT, TITLE_PT = 6.0, 9.0, 14.0
LINE_PT = 0.4
LINE_SPACING = 1.4
TEXT_TOP_MM = 25.0
TEXT_LEFT_MM = 15.0
RULER_CLEARANCE_MM = 8.0  # from the end of the cross's reach to its ruler
CAPTION_GAP_PT = 3.0
LABEL_GAP_PT = 1  # between a tick's end and the number under it
SIDE_LABEL_GAP_PT = 2  # between the vertical ruler and the numbers left of it
LABEL_CENTRE = 3  # a number beside a tick drops by its size divided by this, to centre its digits on the tick
INSTRUCTIONS_GAP_MM = 10.0  # from the title's baseline to the first line of the instructions


def page_size(paper: Paper, orientation: str) -> tuple[float, float]:
    """The page size (points) of ``paper`` in ``orientation``."""
    width, height = mm(paper.width_mm), mm(paper.height_mm)
    return (height, width) if orientation == LANDSCAPE else (width, height)


def _cross(canvas: Canvas, cx: float, cy: float, arm: float) -> None:
    canvas.setLineWidth(LINE_PT)
    canvas.line(cx - arm, cy, cx + arm, cy)
    canvas.line(cx, cy - arm, cx, cy + arm)
    canvas.circle(cx, cy, arm / 2, stroke=1, fill=0)


def ruler_labels(orientation: str) -> tuple[str, int, str, int]:
    """(axis, sign) of the horizontal ruler then of the vertical one: the paper axis each measures and
    whether its numbers grow (+1) or shrink (-1) towards the page's right / top."""
    axes = paper_axes(orientation)
    horizontal = next(name for name, (x, _) in axes.items() if x)
    vertical = next(name for name, (_, y) in axes.items() if y)
    return horizontal, axes[horizontal][0], vertical, axes[vertical][1]


def _label(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _rulers(canvas: Canvas, orientation: str, cx: float, cy: float, reach: int) -> None:
    """A ruler under the cross and one to its left, ticked every millimetre, numbered in paper terms."""
    h_axis, h_sign, v_axis, v_sign = ruler_labels(orientation)
    base_y = cy - mm(reach + RULER_CLEARANCE_MM)
    base_x = cx - mm(reach + RULER_CLEARANCE_MM)
    canvas.setFont(fonts.font_name(fonts.REGULAR), LABEL_PT)
    for step in range(-reach, reach + 1):
        offset = mm(step * TICK_MM)
        tick = LONG_TICK_PT if step % LONG_TICK_EVERY == 0 else TICK_PT
        canvas.line(cx + offset, base_y, cx + offset, base_y + tick)
        canvas.line(base_x, cy + offset, base_x + tick, cy + offset)
        if step % LONG_TICK_EVERY == 0:
            canvas.drawCentredString(cx + offset, base_y - LABEL_PT - LABEL_GAP_PT, _label(step * h_sign))
            canvas.drawRightString(base_x - SIDE_LABEL_GAP_PT, cy + offset - LABEL_PT / LABEL_CENTRE, _label(step * v_sign))
    canvas.setFont(fonts.font_name(fonts.BOLD), LABEL_PT)
    canvas.drawCentredString(cx, base_y - 2 * LABEL_PT - CAPTION_GAP_PT, f"{h_axis.upper()} (mm)")
    canvas.drawCentredString(base_x, cy + mm(reach) + LABEL_PT + CAPTION_GAP_PT, f"{v_axis.upper()} (mm)")


def _instructions(duplex: Duplex, orientation: str, across_mm: float, along_mm: float) -> list[str]:
    return [
        f"Print this {orientation} page on both sides ({duplex.value}-edge duplex) at 100% scale (no 'fit to page'),",
        "with the same settings as the card sheets. Hold it against a light, this side towards you,",
        "and read where the centre of the cross printed on the back falls: ACROSS on the ruler marked ACROSS,",
        "ALONG on the ruler marked ALONG (millimetres, with their signs). Then build with",
        f"    --offset-across = {across_mm:g} - ACROSS      --offset-along = {along_mm:g} - ALONG",
        "(or keep them for this printer: pantheon printer set NAME --offset-across ... --offset-along ...).",
        "The offsets are in paper terms and apply to sheets of every orientation.",
    ]


def draw_calibration(
    canvas: Canvas, sheets: Sheets, paper: Paper, orientation: str, duplex: Duplex, across_mm: float, along_mm: float
) -> int:
    """One front page in ``orientation`` (and its back, unless ``duplex`` is none); the number of pages drawn."""
    width, height = page_size(paper, orientation)
    cx, cy, arm = width / 2, height / 2, mm(sheets.cross_mm)
    canvas.setPageSize((width, height))
    canvas.setFont(fonts.font_name(fonts.BOLD), TITLE_PT)
    canvas.drawCentredString(cx, height - mm(TEXT_TOP_MM), f"Registration page: {paper.name}, {orientation}")
    canvas.setFont(fonts.font_name(fonts.REGULAR), TEXT_PT)
    for index, line in enumerate(_instructions(duplex, orientation, across_mm, along_mm)):
        canvas.drawString(mm(TEXT_LEFT_MM), height - mm(TEXT_TOP_MM + INSTRUCTIONS_GAP_MM) - index * TEXT_PT * LINE_SPACING, line)
    _cross(canvas, cx, cy, arm)
    _rulers(canvas, orientation, cx, cy, sheets.ruler_mm)
    canvas.showPage()
    if duplex == Duplex.NONE:
        return 1
    canvas.setPageSize((width, height))
    dx, dy = back_shift(orientation, duplex, across_mm, along_mm)
    _cross(canvas, cx + dx, cy + dy, arm)  # the centre mirrors onto itself
    canvas.setFont(fonts.font_name(fonts.REGULAR), TEXT_PT)
    canvas.drawCentredString(
        cx, mm(TEXT_TOP_MM), f"back of the registration page (offsets across {across_mm:+g} mm, along {along_mm:+g} mm)"
    )
    canvas.showPage()
    return 2
