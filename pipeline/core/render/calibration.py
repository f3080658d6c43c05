"""The registration page: a cross and rulers on the front, the matching cross on the back.

Printed duplex and held against a light, the back cross shows how far this
printer shifts the second side; the page says which offsets correct it.
"""
from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from pipeline.core.render import fonts
from pipeline.core.render.imposition import PORTRAIT, Duplex, Paper, Sheets, flips_about_vertical_axis
from pipeline.core.render.units import mm

TICK_MM = 1.0
LONG_TICK_EVERY = 5
TICK_PT, LONG_TICK_PT = 4.0, 8.0
LABEL_PT, TEXT_PT, TITLE_PT = 6.0, 9.0, 14.0
LINE_PT = 0.4
TEXT_TOP_MM = 25.0


def _cross(canvas: Canvas, cx: float, cy: float, arm: float) -> None:
    canvas.setLineWidth(LINE_PT)
    canvas.line(cx - arm, cy, cx + arm, cy)
    canvas.line(cx, cy - arm, cx, cy + arm)
    canvas.circle(cx, cy, arm / 2, stroke=1, fill=0)


def _rulers(canvas: Canvas, cx: float, cy: float, reach: int) -> None:
    canvas.setFont(fonts.font_name(fonts.REGULAR), LABEL_PT)
    for step in range(-reach, reach + 1):
        offset = mm(step * TICK_MM)
        tick = LONG_TICK_PT if step % LONG_TICK_EVERY == 0 else TICK_PT
        base_y = cy - mm(reach + 8)
        base_x = cx - mm(reach + 8)
        canvas.line(cx + offset, base_y, cx + offset, base_y + tick)
        canvas.line(base_x, cy + offset, base_x + tick, cy + offset)
        if step % LONG_TICK_EVERY == 0:
            canvas.drawCentredString(cx + offset, base_y - LABEL_PT - 1, f"{step:+d}" if step else "0")
            canvas.drawRightString(base_x - 2, cy + offset - LABEL_PT / 3, f"{step:+d}" if step else "0")


def _instructions(sheets: Sheets, duplex: Duplex) -> list[str]:
    vertical = flips_about_vertical_axis(PORTRAIT, duplex)
    x_rule = "current --offset-x + reading x" if vertical else "current --offset-x - reading x"
    y_rule = "current --offset-y - reading y" if vertical else "current --offset-y + reading y"
    return [
        f"Print this page on both sides ({duplex.value}-edge duplex), at 100% scale (no 'fit to page').",
        "Hold it against a light. Seen from this side, read on the rulers where the centre",
        "of the cross printed on the back falls (right and up are positive, in millimetres).",
        f"Then build again with  --offset-x = {x_rule}",
        f"                       --offset-y = {y_rule}",
        "The two crosses should then coincide; check with a new calibration page.",
    ]


def draw_calibration(canvas: Canvas, sheets: Sheets, paper: Paper, duplex: Duplex, offset_x_mm: float, offset_y_mm: float) -> None:
    """One front page (and its back, unless ``duplex`` is none)."""
    width, height = mm(paper.width_mm), mm(paper.height_mm)
    cx, cy, arm = width / 2, height / 2, mm(sheets.cross_mm)
    canvas.setPageSize((width, height))
    canvas.setFont(fonts.font_name(fonts.BOLD), TITLE_PT)
    canvas.drawCentredString(cx, height - mm(TEXT_TOP_MM), f"Registration page: {paper.name}")
    canvas.setFont(fonts.font_name(fonts.REGULAR), TEXT_PT)
    for index, line in enumerate(_instructions(sheets, duplex)):
        canvas.drawString(mm(sheets.margin_mm + 5), height - mm(TEXT_TOP_MM + 10) - index * TEXT_PT * 1.4, line)
    _cross(canvas, cx, cy, arm)
    _rulers(canvas, cx, cy, sheets.ruler_mm)
    canvas.showPage()
    if duplex == Duplex.NONE:
        return
    canvas.setPageSize((width, height))
    bx, by = cx + mm(offset_x_mm), cy + mm(offset_y_mm)  # the centre mirrors onto itself
    _cross(canvas, bx, by, arm)
    canvas.setFont(fonts.font_name(fonts.REGULAR), TEXT_PT)
    canvas.drawCentredString(cx, mm(TEXT_TOP_MM), f"back of the registration page (offsets {offset_x_mm:+g} mm, {offset_y_mm:+g} mm)")
    canvas.showPage()
