"""Printable sheets drawn as diagrams: tokens on a grid of straight cuts, and cut-line helpers.

Sizes are true millimetres (a token must come out the size the game needs),
so a sheet that does not fit the paper's text area is split over pages.
Every printable extra follows one convention, shown by :func:`cut_fold_legend`:
solid lines (line style ``cut``) are cut, dashed lines (``fold``) are folded.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from pipeline.documents import structure as m

TOKEN_LABEL_RATIO = 0.9  # label size (pt) per mm of token diameter, for a short label alone on its token
ICON_LABEL_RATIO = 0.32  # the same, for a label under an icon
SUBLABEL_RATIO = 0.3
LABEL_WIDTH_SHARE = 0.78  # a label spans at most this share of the diameter
GLYPH_WIDTH_EM = 0.7  # average bold glyph width, in em: enough to keep a label inside its token
PT_PER_MM = 72 / 25.4
ICON_RATIO = 0.55  # icon height as a share of the diameter
LEGEND_LINE_MM, LEGEND_GAP_MM, LEGEND_H_MM, LEGEND_PT = 12.0, 2.0, 5.0, 7.5
LEGEND_CHAR_EM = 0.19  # width a legend character takes, in mm per pt of size (a generous average, to space the entries)
LEGEND_BASELINE_MM = 1.0  # a legend or cut-line label's baseline, below its line
GLUE_SWATCH_INSET_MM = 0.5  # the glue swatch's top and bottom, inside the legend's height
# Where a token's parts sit, as shares of its diameter from the centre (positive is down):
ICON_RISE = 0.08  # the icon, raised above the centre
LABEL_DROP, LABEL_DROP_UNDER_ICON, SUBLABEL_DROP = 0.12, 0.36, 0.34  # the label alone, the label under an icon, the sublabel
TOKEN_PAGE_RESERVE_MM = 30.0  # of a page's height left for the headings and caption around a token sheet
CAPTION_PT = 7.5  # captions under diagrams placed side by side
CAPTION_BASELINE, CAPTION_ROOM = 0.55, 0.7  # the caption's baseline and the room it takes below the drawings, in caption sizes
FLAP_LABEL_PT = 6.5
FLAP_LABEL_OFFSET_MM = 0.9  # a flap's label from the middle of the flap, across its hinge (centres the glyphs on it)
TURNED = 90.0  # degrees: a label turned to run along an upright flap
CUT_LABEL_GAP_MM = 6.0  # the break either side of the middle of a cut line, where its label sits


@dataclass(frozen=True)
class Token:
    label: str
    fill: str
    icon: Optional[str] = None
    ink: str = "#ffffff"
    sublabel: str = ""


def token_pages(
    tokens: list[Token], frame: tuple[float, float], diameter: float, gap: float, caption: str, reserve: float = TOKEN_PAGE_RESERVE_MM
) -> list[m.Block]:
    """Tokens as squares on a grid, as many diagrams as the pages need: each token's disc centred in a square cell
    of ``diameter + gap``, the cells divided by straight cut lines running the whole block, so a sheet is cut
    with a few long guillotine or ruler cuts (a round token then only trims its corners)."""
    width, height = frame
    pitch = diameter + gap
    per_row = max(1, int(width // pitch))
    rows_per_page = max(1, int((height - reserve) // pitch))
    per_page = per_row * rows_per_page
    out: list[m.Block] = []
    for start in range(0, len(tokens), per_page):
        page = tokens[start:start + per_page]
        shapes: list[m.Shape] = []
        for i, token in enumerate(page):
            cx = (i % per_row) * pitch + pitch / 2
            cy = (i // per_row) * pitch + pitch / 2
            shapes.append(m.Circle(cx, cy, diameter / 2, fill=token.fill, stroke="text", line="outline"))
            if token.icon:
                shapes.append(m.IconShape(token.icon, cx, cy - diameter * ICON_RISE, diameter * ICON_RATIO, colour=token.ink))
            if token.label:
                y = cy + diameter * (LABEL_DROP_UNDER_ICON if token.icon else LABEL_DROP)
                shapes.append(
                    m.Label(cx, y, token.label, size=_label_size(token.label, diameter, bool(token.icon)), bold=True, colour=token.ink)
                )
            if token.sublabel:
                shapes.append(m.Label(cx, cy + diameter * SUBLABEL_DROP, token.sublabel, size=diameter * SUBLABEL_RATIO, colour=token.ink))
        rows = (len(page) + per_row - 1) // per_row
        columns = min(len(page), per_row)
        used_w, used_h = columns * pitch, rows * pitch
        shapes += _cut_grid(columns, rows, pitch)
        alt = tuple(f"{sum(1 for t in page if t.label == label and t.fill == fill)} x token '{label}' ({fill})"
                    for label, fill in dict.fromkeys((t.label, t.fill) for t in page))
        out.append(m.Diagram(used_w, used_h, tuple(shapes), (*alt, "cut along the grid lines"), caption=caption))
        if start + per_page < len(tokens):
            out.append(m.PageBreak())
    return out


def _cut_grid(columns: int, rows: int, pitch: float) -> list[m.Shape]:
    """Straight cut lines round and between ``columns`` x ``rows`` square cells, each the whole block long."""
    width, height = columns * pitch, rows * pitch
    lines: list[m.Shape] = [m.Line(c * pitch, 0, c * pitch, height, stroke="cut", line="cut") for c in range(columns + 1)]
    return lines + [m.Line(0, r * pitch, width, r * pitch, stroke="cut", line="cut") for r in range(rows + 1)]


def _label_size(label: str, diameter: float, under_icon: bool) -> float:
    """The largest label size (pt) that stays inside the token."""
    wanted = diameter * (ICON_LABEL_RATIO if under_icon else TOKEN_LABEL_RATIO)
    fits = diameter * LABEL_WIDTH_SHARE * PT_PER_MM / (GLYPH_WIDTH_EM * max(1, len(label)))
    return min(wanted, fits)


def cut_fold_legend(glue: bool = False, fold: bool = True) -> m.Diagram:
    """The key to every printable extra: a solid line is cut, a dashed line folded (and, if asked, a glue swatch)."""
    y = LEGEND_H_MM / 2
    keys = [("cut", "cut along solid lines")] + ([("fold", "fold along dashed lines")] if fold else [])
    shapes: list[m.Shape] = []
    alt: list[str] = []
    x = 0.0
    for line, text in keys:
        shapes += [m.Line(x, y, x + LEGEND_LINE_MM, y, stroke=line, line=line),
                   m.Label(x + LEGEND_LINE_MM + LEGEND_GAP_MM, y + LEGEND_BASELINE_MM, text, size=LEGEND_PT, anchor="start")]
        alt.append(f"{line}: {text}")
        x += LEGEND_LINE_MM + 2 * LEGEND_GAP_MM + len(text) * LEGEND_PT * LEGEND_CHAR_EM
    if glue:
        glue_text = "glue flap"
        shapes += [m.Rect(x, GLUE_SWATCH_INSET_MM, LEGEND_LINE_MM, LEGEND_H_MM - 2 * GLUE_SWATCH_INSET_MM, fill="fill_light",
                          stroke="cut", line="cut"),
                   m.Label(x + LEGEND_LINE_MM + LEGEND_GAP_MM, y + LEGEND_BASELINE_MM, glue_text, size=LEGEND_PT, anchor="start")]
        alt.append("glue: shaded flaps take glue")
        x += LEGEND_LINE_MM + 2 * LEGEND_GAP_MM + len(glue_text) * LEGEND_PT * LEGEND_CHAR_EM
    return m.Diagram(x, LEGEND_H_MM, tuple(shapes), tuple(alt))


def _shift(shape: m.Shape, dx: float, dy: float) -> m.Shape:
    if isinstance(shape, m.Rect):
        return shape._replace(x=shape.x + dx, y=shape.y + dy)
    if isinstance(shape, (m.Circle, m.IconShape)):
        return shape._replace(cx=shape.cx + dx, cy=shape.cy + dy)
    if isinstance(shape, m.Line):
        return shape._replace(x1=shape.x1 + dx, y1=shape.y1 + dy, x2=shape.x2 + dx, y2=shape.y2 + dy)
    if isinstance(shape, m.Polygon):
        return shape._replace(points=tuple((x + dx, y + dy) for x, y in shape.points))
    return shape._replace(x=shape.x + dx, y=shape.y + dy)


def side_by_side(diagrams: list[m.Diagram], frame_width: float, gap: float, caption_pt: float = CAPTION_PT) -> list[m.Block]:
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
            shapes.append(m.Label(x + d.width / 2, height + caption_pt * CAPTION_BASELINE, d.caption, size=caption_pt, bold=True))
            x += d.width + gap
        alt = tuple(line for d in row for line in (f"{d.caption}:", *(f"  {a}" for a in d.alt)))
        out.append(m.Diagram(x - gap, height + caption_pt * CAPTION_ROOM, tuple(shapes), alt))
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


Point = tuple[float, float]


def flap(a: Point, b: Point, outward: Point, depth: float, inset: float, label: str = "", fill: str = "fill_light") -> list[m.Shape]:
    """A trapezoid glue or tuck flap hinged on a-b, reaching ``depth`` mm along ``outward`` (a unit vector).

    The hinge is a fold; the three free edges are cuts. ``inset`` narrows the far edge at each end.
    """
    (ax, ay), (bx, by), (ox, oy) = a, b, outward
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    ux, uy = (bx - ax) / length, (by - ay) / length
    c = (bx + ox * depth - ux * inset, by + oy * depth - uy * inset)
    d = (ax + ox * depth + ux * inset, ay + oy * depth + uy * inset)
    shapes: list[m.Shape] = [
        m.Polygon((a, b, c, d), fill=fill, stroke=None),
        m.Line(*b, *c, stroke="cut", line="cut"), m.Line(*c, *d, stroke="cut", line="cut"), m.Line(*d, *a, stroke="cut", line="cut"),
        m.Line(*a, *b, stroke="fold", line="fold"),
    ]
    if label:
        mx, my = (ax + bx) / 2 + ox * depth * 0.5, (ay + by) / 2 + oy * depth * 0.5
        angle = TURNED if abs(ox) > abs(oy) else 0.0
        shapes.append(m.Label(mx + (FLAP_LABEL_OFFSET_MM if angle else 0), my + (0 if angle else FLAP_LABEL_OFFSET_MM), label,
                              size=FLAP_LABEL_PT, colour="muted", angle=angle))
    return shapes


CUT_LINE_ROOM_MM = 7.0


def cut_line(width: float) -> m.Diagram:
    """A solid line across the text area between two sheets printed on one page."""
    y = CUT_LINE_ROOM_MM / 2
    label = "cut"
    return m.Diagram(width, CUT_LINE_ROOM_MM, (
        m.Line(0, y, width / 2 - CUT_LABEL_GAP_MM, y, stroke="cut", line="cut"),
        m.Label(width / 2, y + LEGEND_BASELINE_MM, label, size=LEGEND_PT, colour="muted"),
        m.Line(width / 2 + CUT_LABEL_GAP_MM, y, width, y, stroke="cut", line="cut"),
    ), (f"--- {label} ---",))
