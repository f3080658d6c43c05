"""A game's balance figures as a document (set as PDF by the documents package) and as JSON.

The page furniture, fonts, tables and the way a PDF is written are the
documents package's (:mod:`pipeline.documents`); this module only says
what the report holds: how to read it, the flagged outliers first, then each
section's tables and charts. Every rate is printed with its 95% interval.
"""
from __future__ import annotations

from typing import Optional, Sequence, Union

from pipeline.analysis.balance import findings as f
from pipeline.analysis.balance.stats import CONFIDENCE, MIN_MEAN_COUNT, Mean, Rate, distance
from pipeline.base.words import count
from pipeline.data import markup
from pipeline.documents import structure as m

PERCENT = 100
RATE_DIGITS = 1
MEAN_DIGITS = 2
MISSING = "–"
KIND = "balance"
SHOWN_PER_FAMILY = 3  # the Outliers page lists this many flags per family (each section lists all of its own)
KEEP_ROWS = 24  # a table or horizontal chart this long (or shorter) moves whole with its heading

READING = (
    "Every simulated rate is printed as a percentage followed by its {confidence:.0%} confidence interval in "
    "brackets, the Wilson score interval of the hits over the trials; bars carry the same interval as whiskers. "
    "A mean is printed the same way with the normal interval mean ± 1.96 standard errors (it needs at least "
    "{min_count} observations). Exact figures (a solver's proofs) have no interval."
)
RULE = (
    "**Outlier rule.** Within a family (the seats of one set-up, the cards of one kind, the colours of one "
    "difficulty), a member is flagged when its whole interval lies outside the interval of the family's pooled "
    "figure: all members' hits over all their trials, or all their observations together. A flag says the "
    "difference is unlikely to be chance at this sample size; it does not say how much it matters."
)
DETERMINISM = (
    "Games are played in seeded chunks; the same seed and sizes give the same figures, byte for byte, however "
    "many processes played them."
)


def _rate_text(rate: Rate) -> str:
    if rate.value is None or rate.interval is None:
        return MISSING
    low, high = rate.interval
    return (f"{rate.value * PERCENT:.{RATE_DIGITS}f}% "
            f"({low * PERCENT:.{RATE_DIGITS}f}–{high * PERCENT:.{RATE_DIGITS}f})")


def _mean_text(value: Mean) -> str:
    if value.value is None:
        return MISSING
    if value.interval is None:
        return f"{value.value:.{MEAN_DIGITS}f}"
    low, high = value.interval
    return f"{value.value:.{MEAN_DIGITS}f} ({low:.{MEAN_DIGITS}f}–{high:.{MEAN_DIGITS}f})"


def cell_text(value: f.Cell) -> str:
    """A table cell as printed (rates and means with their intervals), escaped for the markup reader."""
    if isinstance(value, Rate):
        return _rate_text(value)
    if isinstance(value, Mean):
        return _mean_text(value)
    if value is None:
        return MISSING
    if isinstance(value, float):
        return f"{value:.{MEAN_DIGITS}f}"
    return markup.escape(str(value))


def figure_text(value: Union[Rate, Mean]) -> str:
    return cell_text(value)


def _bar_numbers(values: tuple[Union[Rate, Mean, float, None], ...]) -> tuple[tuple[Optional[float], ...], ...]:
    """Values, interval lows and highs of a series, for the chart."""
    points, lows, highs = [], [], []
    for value in values:
        interval = value.interval if isinstance(value, (Rate, Mean)) else None
        points.append(value.value if isinstance(value, (Rate, Mean)) else value)
        lows.append(interval[0] if interval else None)
        highs.append(interval[1] if interval else None)
    return tuple(points), tuple(lows), tuple(highs)


def _series(series: tuple[f.Series, ...]) -> tuple[m.ChartSeries, ...]:
    made = []
    for s in series:
        values, lows, highs = _bar_numbers(s.values)
        made.append(m.ChartSeries(s.name, values, lows, highs))
    return tuple(made)


def _item_blocks(item: f.Item) -> list[m.Block]:
    if isinstance(item, f.Text):
        return [m.Paragraph(item.text)]
    blocks: list[m.Block] = [m.Heading(markup.escape(item.title), 2)]
    if isinstance(item, f.Table):
        rows = [tuple(cell_text(c) for c in row) for row in item.rows]
        blocks.append(m.Table(tuple(markup.escape(h) for h in item.header), tuple(rows), item.widths, item.note))
    elif isinstance(item, f.Bars):
        blocks.append(m.BarChart(tuple(item.categories), _series(item.series), item.axis, item.percent,
                                 item.horizontal, item.references, " ".join(filter(None, (item.note, f.thin_note(item))))))
    else:
        blocks.append(m.LineChart(tuple(item.x), _series(item.series), item.x_label, item.y_label, item.percent,
                                  item.note))
    return blocks


def _fits_a_page(item: f.Item) -> bool:
    """Short enough to keep with the heading above it (a long table or chart may run over pages)."""
    if isinstance(item, f.Table):
        return len(item.rows) <= KEEP_ROWS
    if isinstance(item, f.Bars):
        return not item.horizontal or len(item.categories) * len(item.series) <= KEEP_ROWS
    return True


OUTLIER_HEADER = ("figure", "its value", "family (pooled)", "vs family")
OUTLIER_WIDTHS = (2.2, 1.5, 2.6, 0.8)


def _outlier_row(outlier: f.Outlier) -> tuple[str, ...]:
    return (markup.escape(outlier.member), figure_text(outlier.figure),
            f"{markup.escape(outlier.family)}: {figure_text(outlier.pool)}", outlier.direction)


def most_extreme(flagged: Sequence[f.Outlier], per_family: int) -> list[f.Outlier]:
    """At most ``per_family`` flags of each family, the farthest from their family first."""
    kept: list[f.Outlier] = []
    for family in dict.fromkeys(o.family for o in flagged):
        members = sorted((o for o in flagged if o.family == family), key=lambda o: -distance(o.figure, o.pool))
        kept += members[:per_family]
    return kept


def _outlier_table(flagged: Sequence[f.Outlier], caption: str) -> m.Table:
    ordered = sorted(flagged, key=lambda o: -distance(o.figure, o.pool))
    return m.Table(OUTLIER_HEADER, tuple(_outlier_row(o) for o in ordered), OUTLIER_WIDTHS, caption)


def document(report: f.GameFigures) -> m.Document:
    """The report of one game as a document (contents, running headers and page numbers come with the PDF)."""
    b = m.Blocks()
    b.h("How to read this report")
    b.p(report.method)
    b.ul([f"{markup.escape(name)}: {markup.escape(str(value))}" for name, value in report.settings])
    b.p(READING.format(confidence=CONFIDENCE, min_count=MIN_MEAN_COUNT))
    b.p(RULE)
    b.p(DETERMINISM, style="note")
    b.h("Outliers")
    flagged = report.outliers
    if flagged:
        shown = most_extreme(flagged, SHOWN_PER_FAMILY)
        families = len({o.family for o in flagged})
        lie = "lies" if len(flagged) == 1 else "lie"
        b.p(f"{count(len(flagged), 'figure')} in {count(families, 'family', 'families')} {lie} far from the rest of "
            f"their family. The {SHOWN_PER_FAMILY} farthest of each family are listed here, farthest first (by the gap "
            "between the intervals, relative to the pooled figure); every flag is listed at the end of its section.")
        b.add(_outlier_table(shown, ""))
    else:
        b.p("No figure lies far from the rest of its family at this sample size.")
    for section in report.sections:
        opening: list[m.Block] = [m.Heading(markup.escape(section.title))]
        if section.intro:
            opening.append(m.Paragraph(section.intro))
        items = [_item_blocks(item) for item in section.items]
        if items and _fits_a_page(section.items[0]):  # the section's title and words stay with its first figure
            b.add(m.Group(tuple(opening + items.pop(0))))
        else:
            b.add(*opening)
        for blocks in items:
            b.add(*blocks)
        if section.outliers:
            b.h(f"Flagged in {markup.escape(section.title.lower())}", 2)
            b.add(_outlier_table(section.outliers, "Each flagged figure, its interval, and its family's pooled "
                                                  "figure and interval; farthest first."))
    return m.Document(f"{report.title}: balance report", report.title, KIND, b.done(),
                      subtitle="Figures from the reference engines, for judging a rules or card edit", toc=True)
