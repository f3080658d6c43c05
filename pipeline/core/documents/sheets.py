"""Printable sheets drawn as diagrams: rows of round tokens to cut out, and cut-line helpers.

Sizes are true millimetres (a token must come out the size the game needs),
so a sheet that does not fit the paper's text area is split over pages.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

from pipeline.core.documents import model as m

TOKEN_LABEL_RATIO = 0.32  # label size (pt) per mm of token diameter
ICON_RATIO = 0.55  # icon height as a share of the diameter


@dataclass(frozen=True)
class Token:
    label: str
    fill: str
    icon: Optional[str] = None
    ink: str = "#ffffff"
    sublabel: str = ""


def token_pages(tokens: list[Token], frame: tuple[float, float], diameter: float, gap: float, caption: str, reserve: float = 30.0) -> list[m.Block]:
    """Tokens in rows (cut along the circles), as many diagrams as the pages need."""
    width, height = frame
    per_row = max(1, int((width + gap) // (diameter + gap)))
    rows_per_page = max(1, int((height - reserve + gap) // (diameter + gap)))
    per_page = per_row * rows_per_page
    out: list[m.Block] = []
    for start in range(0, len(tokens), per_page):
        page = tokens[start:start + per_page]
        shapes: list[m.Shape] = []
        for i, token in enumerate(page):
            cx = (i % per_row) * (diameter + gap) + diameter / 2
            cy = (i // per_row) * (diameter + gap) + diameter / 2
            shapes.append(m.Circle(cx, cy, diameter / 2, fill=token.fill, stroke="cut", line="cut"))
            if token.icon:
                shapes.append(m.IconShape(token.icon, cx, cy - diameter * 0.08, diameter * ICON_RATIO, colour=token.ink))
            if token.label:
                y = cy + diameter * (0.36 if token.icon else 0.12)
                size = diameter * TOKEN_LABEL_RATIO * (0.5 if token.icon else 1.0) * (1.0 if len(token.label) < 3 else 0.7)
                shapes.append(m.Label(cx, y, token.label, size=size, bold=True, colour=token.ink))
            if token.sublabel:
                shapes.append(m.Label(cx, cy + diameter * 0.33, token.sublabel, size=diameter * 0.16, colour=token.ink))
        rows = (len(page) + per_row - 1) // per_row
        used_w = min(len(page), per_row) * (diameter + gap) - gap
        alt = tuple(f"{sum(1 for t in page if t.label == label and t.fill == fill)} x token '{label}' ({fill})"
                    for label, fill in dict.fromkeys((t.label, t.fill) for t in page))
        out.append(m.Diagram(used_w, rows * (diameter + gap) - gap, tuple(shapes), alt, caption=caption))
        if start + per_page < len(tokens):
            out.append(m.PageBreak())
    return out


def _shift(shape: m.Shape, dx: float, dy: float) -> m.Shape:
    if isinstance(shape, m.Rect):
        return replace(shape, x=shape.x + dx, y=shape.y + dy)
    if isinstance(shape, (m.Circle, m.IconShape)):
        return replace(shape, cx=shape.cx + dx, cy=shape.cy + dy)
    if isinstance(shape, m.Line):
        return replace(shape, x1=shape.x1 + dx, y1=shape.y1 + dy, x2=shape.x2 + dx, y2=shape.y2 + dy)
    if isinstance(shape, m.Polygon):
        return replace(shape, points=tuple((x + dx, y + dy) for x, y in shape.points))
    return replace(shape, x=shape.x + dx, y=shape.y + dy)


def side_by_side(diagrams: list[m.Diagram], frame_width: float, gap: float, caption_pt: float = 7.5) -> list[m.Block]:
    """Diagrams placed in rows across the text area, each captioned under its drawing."""
    out: list[m.Block] = []
    row: list[m.Diagram] = []

    def flush() -> None:
        if not row:
            return
        shapes: list[m.Shape] = []
        x = 0.0
        height = max(d.height for d in row)
        for d in row:
            shapes += [_shift(s, x, 0) for s in d.shapes]
            shapes.append(m.Label(x + d.width / 2, height + caption_pt * 0.55, d.caption, size=caption_pt, bold=True))
            x += d.width + gap
        alt = tuple(line for d in row for line in (f"{d.caption}:", *(f"  {a}" for a in d.alt)))
        out.append(m.Diagram(x - gap, height + caption_pt * 0.7, tuple(shapes), alt))
        row.clear()

    used = 0.0
    for diagram in diagrams:
        if row and used + gap + diagram.width > frame_width:
            flush()
            used = 0.0
        used += (gap if row else 0.0) + diagram.width
        row.append(diagram)
    flush()
    return out
