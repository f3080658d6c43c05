"""The proof PDF's "Balance before/after" pages: the legend, then a table per changed game of the figures
that moved (figure, before, after, significant), continued over as many pages as it needs."""
from __future__ import annotations

import io
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph, Table, TableStyle

from pipeline.analysis.diff.balance import LEGEND, BalanceDiff, ordered, shown
from pipeline.analysis.diff.compare import Diff
from pipeline.cards import fonts
from pipeline.cards.pdfwrite import Metadata, new_canvas
from pipeline.cards.units import mm

MARGIN_MM = 15.0
TITLE_PT, TEXT_PT = 12.0, 8.0
WIDTHS = (0.58, 0.18, 0.18, 0.06)  # shares of the text width: figure, before, after, significant
HEADING = colors.Color(0.9, 0.9, 0.9)
FLAGGED = colors.Color(1.0, 0.8, 0.0, alpha=0.35)  # as the proof marks changed text


def _style(bold: bool = False) -> ParagraphStyle:
    return ParagraphStyle("cell", fontName=fonts.font_name(fonts.BOLD if bold else fonts.REGULAR),
                          fontSize=TEXT_PT, leading=TEXT_PT * 1.25)


def _cell(text: str, bold: bool = False) -> Paragraph:
    return Paragraph(escape(text), _style(bold))


def _table(found: BalanceDiff, width: float) -> Table:
    rows: list[list[Any]] = [[_cell(h, bold=True) for h in ("figure", "before", "after", "sig.")]]
    style: list[tuple[Any, ...]] = [("GRID", (0, 0), (-1, -1), 0.25, colors.grey), ("VALIGN", (0, 0), (-1, -1), "TOP"),
                                    ("BACKGROUND", (0, 0), (-1, 0), HEADING)]
    for game in found.studied:
        moved = ordered(game)
        rows.append([_cell(f"{game.title}: {len(game.figures)} figures compared, {len(moved)} moved, "
                           f"{sum(f.significant for f in moved)} significant", bold=True), "", "", ""])
        style += [("SPAN", (0, len(rows) - 1), (-1, len(rows) - 1)), ("BACKGROUND", (0, len(rows) - 1), (-1, len(rows) - 1), HEADING)]
        for figure in moved:
            rows.append([_cell(figure.label), _cell(shown(figure.old)), _cell(shown(figure.new)),
                         _cell("*" if figure.significant else "")])
            if figure.significant:
                style.append(("BACKGROUND", (0, len(rows) - 1), (-1, len(rows) - 1), FLAGGED))
    for name, why in found.skipped:
        rows.append([_cell(f"{name}: not compared ({why})", bold=True), "", "", ""])
        style.append(("SPAN", (0, len(rows) - 1), (-1, len(rows) - 1)))
    return Table(rows, colWidths=[share * width for share in WIDTHS], repeatRows=1, style=TableStyle(style))


def balance_pages(diff: Diff, found: BalanceDiff, size: tuple[float, float]) -> bytes:
    """The pages as a PDF of their own (the proof joins it after the changelog)."""
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, Metadata("Proof: balance before/after", "diff",
                                         {"old": diff.old.label, "new": diff.new.label}))
    margin = mm(MARGIN_MM)
    width = size[0] - 2 * margin
    intro = [Paragraph(f"<b>Balance before/after: {escape(diff.old.label)} -&gt; {escape(diff.new.label)}</b>",
                       ParagraphStyle("title", fontName=fonts.font_name(fonts.BOLD), fontSize=TITLE_PT,
                                      leading=TITLE_PT * 1.3)),
             _cell(f"Seed {found.seed}, {found.games} games per set-up on each side. {LEGEND}. Figures that did "
                   "not move are left out (--json lists them all).")]
    pending: list[Any] = [*intro, _table(found, width)]
    while pending:
        canvas.setPageSize(size)
        top = size[1] - margin
        drawn = 0
        while pending:
            flowable = pending[0]
            _, height = flowable.wrapOn(canvas, width, top - margin)
            if height > top - margin and drawn:
                parts = flowable.split(width, top - margin) if isinstance(flowable, Table) else []
                if len(parts) < 2:  # nothing more fits on this page
                    break
                pending[0:1] = parts
                continue
            if height > top - margin:  # a fresh page: split it, or draw it anyway (one row taller than a page)
                parts = flowable.split(width, top - margin) if isinstance(flowable, Table) else []
                if len(parts) >= 2:
                    pending[0:1] = parts
                    continue
            flowable.drawOn(canvas, margin, top - height)
            top -= height + TEXT_PT
            drawn += 1
            pending.pop(0)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()
