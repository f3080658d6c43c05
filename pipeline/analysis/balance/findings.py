"""The figures of a balance report as data: tables, bar and line charts, notes and flagged outliers.

A study builds :class:`Section` objects from its tallies; :mod:`document`
turns them into PDF pages and JSON alike, so what the PDF shows and what
``--json`` prints are one set of numbers. A cell or a bar holds a
:class:`~pipeline.analysis.balance.stats.Rate` or
:class:`~pipeline.analysis.balance.stats.Mean` (printed with its interval) or a
plain value.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Sequence, Union

from pipeline.analysis.balance.stats import Figure, Mean, Rate, far_from, pooled

Cell = Union[str, int, float, Rate, Mean, None]
DIGITS = 6  # JSON keeps this many decimals: enough for any figure, short enough to diff


@dataclass(frozen=True)
class Table:
    id: str
    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    note: str = ""
    widths: Optional[tuple[float, ...]] = None


@dataclass(frozen=True)
class Series:
    """One series of a chart: a value per category (bars) or per x (lines); None where there is none."""

    name: str
    values: tuple[Union[Rate, Mean, float, None], ...]


@dataclass(frozen=True)
class Bars:
    """Bars per category, one per series, each with its interval; ``percent``: the values are rates."""

    id: str
    title: str
    categories: tuple[str, ...]
    series: tuple[Series, ...]
    axis: str
    percent: bool = True
    horizontal: bool = False
    # Lines across the bars, each (value, label): a fair share (one per player count), a pooled figure.
    references: tuple[tuple[float, str], ...] = ()
    note: str = ""


THIN_HALF_WIDTH = 0.10  # an interval wider than +/- 10 points: the chart says its cells are thin


def thin_note(chart: Bars) -> str:
    """A sentence when some rate on ``chart`` has an interval wider than +/- THIN_HALF_WIDTH (too few games for
    the precision the bars suggest), naming the fewest games behind one; empty otherwise."""
    rates = [v for s in chart.series for v in s.values if isinstance(v, Rate) and v.interval is not None]
    thin = [rate for rate in rates if (rate.interval[1] - rate.interval[0]) / 2 > THIN_HALF_WIDTH]  # type: ignore[index]
    if not thin:
        return ""
    fewest = min(rate.trials for rate in thin)
    return (f"Thin cells: {len(thin)} of {len(rates)} bars rest on so few games (as few as {fewest}) that their "
            f"interval reaches more than {THIN_HALF_WIDTH:.0%} either way; read the whiskers, not the bar tops.")


@dataclass(frozen=True)
class Lines:
    """Lines over a shared x axis (a distribution: the share of games at each length or score)."""

    id: str
    title: str
    x: tuple[float, ...]
    series: tuple[Series, ...]
    x_label: str
    y_label: str
    percent: bool = True
    note: str = ""


@dataclass(frozen=True)
class Text:
    text: str


Item = Union[Table, Bars, Lines, Text]


@dataclass(frozen=True)
class Outlier:
    """A member of a family whose interval lies entirely outside the family's pooled interval."""

    family: str
    member: str
    figure: Figure
    pool: Figure

    @property
    def direction(self) -> str:
        own, pool = self.figure.interval, self.pool.interval
        assert own is not None and pool is not None
        return "above" if own[0] > pool[1] else "below"


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    intro: str
    items: tuple[Item, ...]
    outliers: tuple[Outlier, ...] = ()


@dataclass(frozen=True)
class GameFigures:
    """A game's whole report: what was run (``settings``), how (``method``) and its sections."""

    game: str
    title: str
    settings: tuple[tuple[str, Any], ...]
    method: str
    sections: tuple[Section, ...] = field(default_factory=tuple)

    @property
    def outliers(self) -> list[Outlier]:
        return [o for section in self.sections for o in section.outliers]

    def as_data(self) -> dict[str, Any]:
        return {"game": self.game, "title": self.title, "settings": dict(self.settings), "method": self.method,
                "outliers": [_outlier_data(o) for o in self.outliers],
                "sections": [_section_data(s) for s in self.sections]}


def outliers(family: str, members: Sequence[tuple[str, Figure]]) -> tuple[Outlier, ...]:
    """The members of ``family`` far from its pooled figure (the rule of :mod:`stats`)."""
    figures = [figure for _, figure in members]
    if len(figures) < 2:
        return ()
    pool = pooled(figures)
    return tuple(Outlier(family, name, figure, pool) for name, figure in members if far_from(figure, pool))


def value_data(value: Cell) -> Any:
    """A cell or bar value as JSON data."""
    if isinstance(value, (Rate, Mean)):
        return {k: _round(v) for k, v in value.as_data().items()}
    return _round(value)


def _round(value: Any) -> Any:
    return round(value, DIGITS) if isinstance(value, float) else value


def _outlier_data(outlier: Outlier) -> dict[str, Any]:
    return {"family": outlier.family, "member": outlier.member, "direction": outlier.direction,
            "figure": value_data(outlier.figure), "pooled": value_data(outlier.pool)}


def _item_data(item: Item) -> dict[str, Any]:
    if isinstance(item, Table):
        return {"kind": "table", "id": item.id, "title": item.title, "header": list(item.header),
                "rows": [[value_data(c) for c in row] for row in item.rows], "note": item.note}
    if isinstance(item, Bars):
        return {"kind": "bars", "id": item.id, "title": item.title, "axis": item.axis, "categories": list(item.categories),
                "series": {s.name: [value_data(v) for v in s.values] for s in item.series},
                "references": [[_round(value), label] for value, label in item.references], "note": item.note}
    if isinstance(item, Lines):
        return {"kind": "lines", "id": item.id, "title": item.title, "x_label": item.x_label, "y_label": item.y_label,
                "x": list(item.x), "series": {s.name: [value_data(v) for v in s.values] for s in item.series},
                "note": item.note}
    return {"kind": "text", "text": item.text}


def _section_data(section: Section) -> dict[str, Any]:
    return {"id": section.id, "title": section.title, "intro": section.intro,
            "items": [_item_data(i) for i in section.items if not isinstance(i, Text)],
            "outliers": [_outlier_data(o) for o in section.outliers]}
