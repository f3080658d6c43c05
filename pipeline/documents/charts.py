"""Bar and line charts of documents, drawn with reportlab's own charting (``reportlab.graphics.charts``).

Every size, colour and font size comes from the layout's ``chart`` section
(``templates/docs/layout.yaml``). Series are told apart by colour AND by the
legend (and, on line charts, by the marker shape), never by colour alone.
Bars carry their interval as whiskers (a reportlab chart annotation); a
reference value is a dashed line across. A horizontal bar chart taller than
the text area is cut into drawings that each fit a page.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Optional, Sequence

from reportlab.graphics.charts.barcharts import BarChart as RLBarChart
from reportlab.graphics.charts.barcharts import HorizontalBarChart, VerticalBarChart
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Group, Line, Rect, String
from reportlab.graphics.widgets.markers import makeMarker
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth

from pipeline.cards import fonts
from pipeline.cards.units import mm
from pipeline.documents import structure as m
from pipeline.documents.layout import Layout
from pipeline.documents.measuring import Drawing

MARKERS = ("FilledCircle", "FilledSquare", "FilledTriangle", "FilledDiamond", "Circle", "Square")
NICE_STEPS = (1.0, 2.0, 2.5, 5.0, 10.0)
WHOLE_STEPS = (1.0, 2.0, 5.0, 10.0)  # an axis of whole numbers (turns, scores) never ticks at 2.5
REFERENCE_KEY = 2.0  # the dashed sample before a reference line's label, in legend font sizes
PERCENT = 100
LEGEND_SWATCH = 0.9  # a legend swatch's side, in legend font sizes
LEGEND_GAP = 0.6  # between legend entries, in legend font sizes
LABEL_ANGLE = 30  # degrees: vertical-chart category names that do not fit their band are slanted
FIT_TOLERANCE_PT = 0.01
# Room round a plot, in axis font sizes: beside it the value axis' numbers and title, below it the tick
# numbers and the axis title (TITLE_ROOM) or the category names and nothing else (CATEGORY_ROOM).
SIDE_ROOM, TITLE_ROOM, CATEGORY_ROOM = 2, 4, 2.5
TITLE_BASELINE = 0.4  # a horizontal axis title's baseline above the drawing's bottom edge
LEGEND_NAME_RISE = 0.1  # a legend name's baseline above its swatch's bottom, in swatch sides
REFERENCE_KEY_RISE = 3  # the dashed key line's height above the label baseline is the legend size divided by this
SCALE_EPSILON = 1e-9  # rounding slack when an axis end is snapped to a whole number of steps


class ChartStyle:
    """The layout's chart settings, in points."""

    def __init__(self, layout: Layout) -> None:
        get = lambda key: layout.get("chart", key)  # noqa: E731
        self.layout = layout
        self.plot_height = mm(get("height_mm"))
        self.bar = mm(get("bar_mm"))
        self.group_gap = mm(get("group_gap_mm"))
        self.axis_room = mm(get("axis_room_mm"))
        self.legend_row = mm(get("legend_row_mm"))
        self.pad = mm(get("pad_mm"))
        self.axis_pt = get("axis_pt")
        self.legend_pt = get("legend_pt")
        self.whisker_pt = get("whisker_pt")
        self.cap = mm(get("whisker_cap_mm"))
        self.line_pt = get("line_pt")
        self.marker = mm(get("marker_mm"))
        self.ticks = get("ticks")
        self.max_label_share = get("max_label_share")
        self.palette = [colors.HexColor(layout.colour(c)) for c in get("palette")]
        self.text = colors.HexColor(layout.colour("text"))
        self.muted = colors.HexColor(layout.colour("muted"))
        self.grid = colors.HexColor(layout.colour("table_grid"))
        self.reference_dash = list(layout.line("fold").dash)
        self.font = fonts.font_name(fonts.REGULAR)

    def colour(self, index: int) -> Any:
        return self.palette[index % len(self.palette)]

    def width_of(self, text: str, size: Optional[float] = None) -> float:
        return stringWidth(text, self.font, size or self.axis_pt)


# ---------------------------------------------------------------------------------------------- scales


def nice_scale(low: float, high: float, ticks: int, *, whole: bool = False) -> tuple[float, float, float]:
    """An axis from ``low`` to ``high`` (0 included) in about ``ticks`` round steps: (minimum, maximum, step);
    ``whole``: the values are whole numbers, so is every step."""
    low, high = min(0.0, low), max(0.0, high)
    if high - low <= 0:
        high = 1.0
    raw = (high - low) / ticks
    power = 10 ** math.floor(math.log10(raw))
    steps = WHOLE_STEPS if whole else NICE_STEPS
    step = next(s * power for s in steps if s * power >= raw - 1e-12)
    if whole:
        step = max(1.0, step)
    return math.floor(low / step + SCALE_EPSILON) * step, math.ceil(high / step - SCALE_EPSILON) * step, step


def _decimals(step: float) -> int:
    """Decimals that print every multiple of ``step`` exactly (2.5 needs one, 20 none)."""
    text = f"{step:.10f}".rstrip("0")
    return len(text.split(".")[1]) if "." in text else 0


def _formatter(percent: bool, step: float) -> Callable[[float], str]:
    if percent:
        digits = _decimals(step * PERCENT)
        return lambda v: f"{v * PERCENT:.{digits}f}%"
    digits = _decimals(step)
    return lambda v: f"{v:.{digits}f}"


def _extent(series: Sequence[m.ChartSeries], references: Sequence[tuple[float, str]] = ()) -> tuple[float, float]:
    values = [v for s in series for v in (*s.values, *s.low, *s.high) if v is not None]
    values += [value for value, _ in references]
    return (min(values), max(values)) if values else (0.0, 1.0)


def _check(texts: Sequence[str], where: str) -> None:
    for text in texts:
        fonts.check_glyphs(text, where, fonts.REGULAR)


# ---------------------------------------------------------------------------------------------- legend


def _legend_rows(style: ChartStyle, names: Sequence[str], width: float) -> list[list[tuple[int, str, float]]]:
    """Legend entries (series index, name, width) in rows that fit ``width``, in series order."""
    size = style.legend_pt
    rows: list[list[tuple[int, str, float]]] = [[]]
    used = 0.0
    for index, name in enumerate(names):
        entry = size * (LEGEND_SWATCH + LEGEND_GAP / 2) + style.width_of(name, size)
        if rows[-1] and used + size * LEGEND_GAP + entry > width:
            rows.append([])
            used = 0.0
        used += (size * LEGEND_GAP if rows[-1] else 0.0) + entry
        rows[-1].append((index, name, entry))
    return rows


def _legend(style: ChartStyle, names: Sequence[str], width: float, y: float, *, lines: bool) -> Group:
    """Rows of swatches (markers on line charts) and series names, right-aligned, the first row on top at ``y``."""
    group = Group()
    size = style.legend_pt
    swatch, gap = size * LEGEND_SWATCH, size * LEGEND_GAP
    rows = _legend_rows(style, names, width)
    for number, row in enumerate(rows):
        x = width - sum(entry for _, _, entry in row) - gap * (len(row) - 1)
        top = y + (len(rows) - 1 - number) * style.legend_row
        for index, name, entry in row:
            colour = style.colour(index)
            if lines:
                marker = makeMarker(MARKERS[index % len(MARKERS)], size=swatch, fillColor=colour, strokeColor=colour)
                marker.x, marker.y = x + swatch / 2, top + swatch / 2
                group.add(marker)
            else:
                fill, outline = _bar_look(style, index)
                group.add(Rect(x, top, swatch, swatch, fillColor=fill, strokeColor=outline,
                               strokeWidth=style.whisker_pt * 2))
            group.add(String(x + swatch + gap / 2, top + swatch * LEGEND_NAME_RISE, name, fontName=style.font, fontSize=size,
                             fillColor=style.text))
            x += entry + gap
    return group


# ---------------------------------------------------------------------------------------------- bar charts


def _whiskers(block: m.BarChart, style: ChartStyle, horizontal: bool) -> Callable[..., Group]:
    """A chart annotation: each bar's interval as a line with end caps, across the bar's middle."""
    def draw(chart: RLBarChart, category_scale: Any, value_scale: Any) -> Group:
        group = Group()
        positions = chart._barPositions  # (x, y, width, height) per series and category (calcBarPositions)
        for row, series in enumerate(block.series):
            for col, (low, high) in enumerate(zip(series.low, series.high)):
                if low is None or high is None or series.values[col] is None:
                    continue
                x, y, w, h = positions[row][col]
                a, b = value_scale(low), value_scale(high)
                if horizontal:
                    mid = y + h / 2
                    ends = [(a, mid, b, mid), (a, mid - style.cap, a, mid + style.cap), (b, mid - style.cap, b, mid + style.cap)]
                else:
                    mid = x + w / 2
                    ends = [(mid, a, mid, b), (mid - style.cap, a, mid + style.cap, a), (mid - style.cap, b, mid + style.cap, b)]
                for x1, y1, x2, y2 in ends:
                    group.add(Line(x1, y1, x2, y2, strokeColor=style.text, strokeWidth=style.whisker_pt))
        return group
    return draw


def _references(block: m.BarChart, style: ChartStyle, horizontal: bool, above: float) -> Callable[..., Group]:
    """A chart annotation: a dashed line across the plot at each reference value, each with its own dash
    pattern (told apart without colour); their labels, each keyed by a sample of its dash, sit side by side
    in a row ``above`` the plot's top left corner (over the series legend), clear of the bars."""
    def draw(chart: RLBarChart, category_scale: Any, value_scale: Any) -> Group:
        group = Group()
        x = chart.x
        for number, (value, label) in enumerate(block.references):
            at = value_scale(value)
            if horizontal:
                line = Line(at, chart.y, at, chart.y + chart.height)
            else:
                line = Line(chart.x, at, chart.x + chart.width, at)
            group.add(_dashed(line, style, number))
            if label:
                key = style.legend_pt * REFERENCE_KEY
                y = chart.y + chart.height + style.pad + above
                rise = style.legend_pt / REFERENCE_KEY_RISE
                group.add(_dashed(Line(x, y + rise, x + key, y + rise), style, number))
                x += key + style.legend_pt * LEGEND_GAP
                group.add(String(x, y, label, fontName=style.font, fontSize=style.legend_pt, fillColor=style.text))
                x += style.width_of(label, style.legend_pt) + style.legend_pt * LEGEND_GAP * 2
        return group
    return draw


def _dashed(line: Line, style: ChartStyle, number: int = 0) -> Line:
    """``line`` in the reference style; the ``number``-th reference's dashes are ``number`` times longer."""
    dash = [part * (1 + number) if index % 2 == 0 else part for index, part in enumerate(style.reference_dash)]
    line.strokeColor, line.strokeWidth, line.strokeDashArray = style.muted, style.whisker_pt, dash
    return line


def _bar_look(style: ChartStyle, index: int) -> tuple[Any, Any]:
    """(fill, outline) of the ``index``-th series' bars: every other series hollow (a white bar outlined in its
    colour), so neighbouring series differ in print and to a reader who cannot tell the colours apart."""
    colour = style.colour(index)
    return (colors.white, colour) if index % 2 else (colour, None)


def _configure_bars(chart: RLBarChart, block: m.BarChart, style: ChartStyle, extent: tuple[float, float],
                    legend: float) -> None:
    """Data, axes, colours and annotations of ``block`` (already cut to the categories this chart shows);
    ``legend``: the height of the series legend above the plot (the reference labels go over it)."""
    horizontal = isinstance(chart, HorizontalBarChart)
    chart.data = [list(series.values) for series in block.series]
    chart.categoryAxis.categoryNames = list(block.categories)
    chart.categoryAxis.labels.fontName = style.font
    chart.categoryAxis.labels.fontSize = style.axis_pt
    chart.categoryAxis.labels.fillColor = style.text
    chart.categoryAxis.strokeColor = style.muted
    chart.categoryAxis.tickShift = 1
    minimum, maximum, step = nice_scale(*extent, style.ticks)
    axis = chart.valueAxis
    axis.valueMin, axis.valueMax, axis.valueStep = minimum, maximum, step
    axis.labelTextFormat = _formatter(block.percent, step)
    axis.labels.fontName, axis.labels.fontSize, axis.labels.fillColor = style.font, style.axis_pt, style.text
    axis.strokeColor = style.muted
    axis.visibleGrid = 1
    axis.gridStrokeColor, axis.gridStrokeWidth = style.grid, style.whisker_pt / 2
    for index in range(len(block.series)):
        chart.bars[index].fillColor, chart.bars[index].strokeColor = _bar_look(style, index)
        chart.bars[index].strokeWidth = style.whisker_pt * 2
    chart.barSpacing = 0
    chart.annotations = [_whiskers(block, style, horizontal)]
    if block.references:
        chart.annotations.append(_references(block, style, horizontal, legend))


def bar_chart(block: m.BarChart, style: ChartStyle, width: float, heights: tuple[float, float],
              where: str) -> list[Drawing]:
    """The chart as drawings ``width`` wide: one, or (horizontal and tall) several; ``heights``: the most
    the first may take (it shares its page with a heading) and the most each later one may."""
    _check([*block.categories, *(s.name for s in block.series), block.value_label,
            *(label for _, label in block.references)], where)
    if block.horizontal:
        return _horizontal(block, style, width, heights)
    return [_vertical(block, style, width)]


def _series_legend(block: m.BarChart | m.LineChart, style: ChartStyle, width: float) -> float:
    """The height of the series legend's rows (a chart of one series has none)."""
    if len(block.series) > 1:
        return style.legend_row * len(_legend_rows(style, [s.name for s in block.series], width))
    return 0.0


def _legend_room(block: m.BarChart | m.LineChart, style: ChartStyle, width: float) -> float:
    """Room above the plot: the series legend's rows and a row of reference labels, or a little air."""
    room = _series_legend(block, style, width)
    if any(label for _, label in getattr(block, "references", ())):
        room += style.legend_row
    return room or style.pad


def _vertical(block: m.BarChart, style: ChartStyle, width: float) -> Drawing:
    chart = VerticalBarChart()
    left = style.axis_room + style.axis_pt * SIDE_ROOM  # tick numbers, then the value axis title
    band = (width - left - style.pad) / max(1, len(block.categories))
    widest = max((style.width_of(c) for c in block.categories), default=0.0)
    slanted = widest > band
    bottom = (widest * math.sin(math.radians(LABEL_ANGLE)) if slanted else 0.0) + style.axis_pt * CATEGORY_ROOM
    top = _legend_room(block, style, width)
    chart.x, chart.y = left, bottom
    chart.width, chart.height = width - left - style.pad, style.plot_height
    _configure_bars(chart, block, style, _extent(block.series, block.references), _series_legend(block, style, width))
    if slanted:
        chart.categoryAxis.labels.angle = LABEL_ANGLE
        chart.categoryAxis.labels.boxAnchor = "ne"
    chart.groupSpacing = style.group_gap
    drawing = Drawing(width, bottom + style.plot_height + top)
    drawing.add(chart)
    drawing.add(_axis_title(block.value_label, style, style.axis_pt, bottom + style.plot_height / 2, turned=True))
    if len(block.series) > 1:
        drawing.add(_legend(style, [s.name for s in block.series], width, bottom + style.plot_height + style.pad, lines=False))
    return drawing


def _horizontal(block: m.BarChart, style: ChartStyle, width: float, heights: tuple[float, float]) -> list[Drawing]:
    label_width = min(max((style.width_of(c) for c in block.categories), default=0.0) + style.pad,
                      width * style.max_label_share)
    per_category = style.bar * len(block.series) + style.group_gap
    bottom = style.axis_pt * TITLE_ROOM  # tick numbers, then the value axis title
    top = _legend_room(block, style, width)
    first, later = (max(1, int((h - bottom - top + FIT_TOLERANCE_PT) // per_category)) for h in heights)
    extent = _extent(block.series, block.references)  # one scale for every page of the chart
    drawings = []
    starts = [0, *range(first, len(block.categories), later)]
    for start, stop in zip(starts, [*starts[1:], len(block.categories)]):
        page = _cut(block, start, stop)
        chart = HorizontalBarChart()
        chart.x, chart.y = label_width, bottom
        chart.width, chart.height = width - label_width - style.pad, per_category * len(page.categories)
        _configure_bars(chart, page, style, extent, _series_legend(block, style, width))
        chart.categoryAxis.reverseDirection = 1  # the first category on top, as in the tables
        chart.reversePlotOrder = 1  # and within a category, the first series on top, as in the legend
        chart.categoryAxis.labels.boxAnchor = "e"
        chart.groupSpacing = style.group_gap
        chart.barWidth = style.bar
        chart.useAbsolute = "b"  # bar width fixed, groups placed by the category axis (1 fixed all three and the
        # groups drifted: with several series the last bars fell below the plot)
        drawing = Drawing(width, bottom + chart.height + top)
        drawing.add(chart)
        drawing.add(_axis_title(block.value_label, style, label_width + chart.width / 2, style.axis_pt * TITLE_BASELINE, turned=False))
        if len(block.series) > 1:
            drawing.add(_legend(style, [s.name for s in block.series], width, bottom + chart.height + style.pad, lines=False))
        drawings.append(drawing)
    return drawings


def _cut(block: m.BarChart, start: int, stop: int) -> m.BarChart:
    """``block`` with categories ``start:stop`` only (one page of a long horizontal chart)."""
    series = tuple(m.ChartSeries(s.name, s.values[start:stop], s.low[start:stop], s.high[start:stop]) for s in block.series)
    return m.BarChart(block.categories[start:stop], series, block.value_label, block.percent, block.horizontal,
                      block.references, block.caption)


def _axis_title(text: str, style: ChartStyle, x: float, y: float, *, turned: bool) -> Group:
    """An axis title centred on (x, y); ``turned`` reads upwards, beside a vertical axis."""
    group = Group(String(0, 0, text, fontName=style.font, fontSize=style.axis_pt, fillColor=style.muted,
                         textAnchor="middle"))
    group.transform = (0, 1, -1, 0, x, y) if turned else (1, 0, 0, 1, x, y)
    return group


# ---------------------------------------------------------------------------------------------- line charts


def line_chart(block: m.LineChart, style: ChartStyle, width: float, where: str) -> Drawing:
    """The chart as one drawing ``width`` wide."""
    _check([*(s.name for s in block.series), block.x_label, block.y_label], where)
    plot = LinePlot()
    left = style.axis_room + style.axis_pt * SIDE_ROOM
    bottom = style.axis_pt * TITLE_ROOM
    top = _legend_room(block, style, width)
    plot.x, plot.y = left, bottom
    plot.width, plot.height = width - left - style.pad, style.plot_height
    plot.data = [[(x, y) for x, y in zip(block.x, s.values) if y is not None] for s in block.series]
    whole = all(float(x).is_integer() for x in block.x)
    x_low, x_high, x_step = nice_scale(min(block.x), max(block.x), style.ticks * 2, whole=whole)
    y_low, y_high, y_step = nice_scale(*_extent(block.series), style.ticks)
    x_axis, y_axis = plot.xValueAxis, plot.yValueAxis
    x_axis.valueMin, x_axis.valueMax, x_axis.valueStep = max(x_low, min(block.x)) if min(block.x) > 0 else x_low, x_high, x_step
    y_axis.valueMin, y_axis.valueMax, y_axis.valueStep = y_low, y_high, y_step
    x_axis.labelTextFormat = _formatter(False, x_step)
    y_axis.labelTextFormat = _formatter(block.percent, y_step)
    for axis in (x_axis, y_axis):
        axis.labels.fontName, axis.labels.fontSize, axis.labels.fillColor = style.font, style.axis_pt, style.text
        axis.strokeColor = style.muted
    y_axis.visibleGrid = 1
    y_axis.gridStrokeColor, y_axis.gridStrokeWidth = style.grid, style.whisker_pt / 2
    for index in range(len(block.series)):
        colour = style.colour(index)
        plot.lines[index].strokeColor = colour
        plot.lines[index].strokeWidth = style.line_pt
        plot.lines[index].symbol = makeMarker(MARKERS[index % len(MARKERS)], size=style.marker, fillColor=colour,
                                              strokeColor=colour)
    drawing = Drawing(width, bottom + style.plot_height + top)
    drawing.add(plot)
    drawing.add(_axis_title(block.x_label, style, left + plot.width / 2, style.axis_pt * TITLE_BASELINE, turned=False))
    drawing.add(_axis_title(block.y_label, style, style.axis_pt, bottom + style.plot_height / 2, turned=True))
    if len(block.series) > 1:
        drawing.add(_legend(style, [s.name for s in block.series], width, bottom + style.plot_height + style.pad, lines=True))
    return drawing
