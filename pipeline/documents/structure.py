"""The document model: what a rulebook or a sheet is made of, independent of PDF or Markdown.

Inline text is markup (``**bold**``, ``_italic_``, icons, escapes; see
:mod:`pipeline.data.markup`); references are already resolved to names when
blocks are built (see :mod:`pipeline.checks.references`).
Diagrams are lists of vector shapes in millimetres, origin at the top-left,
y growing downwards, with an ``alt`` text for Markdown. Charts (bar and line)
hold their numbers; the PDF draws them with reportlab's charts, Markdown
prints the numbers as a table.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, NamedTuple, Optional, Sequence, Union

from pipeline.cards.plan import Face
from pipeline.documents.layout import Layout

# --------------------------------------------------------------------------- diagram shapes


class Rect(NamedTuple):
    x: float
    y: float
    w: float
    h: float
    fill: Optional[str] = None  # '#rrggbb' or a layout colour name; None = no fill
    stroke: Optional[str] = "text"
    line: str = "outline"  # a line style of the layout
    radius: float = 0.0


class Circle(NamedTuple):
    cx: float
    cy: float
    r: float
    fill: Optional[str] = None
    stroke: Optional[str] = "text"
    line: str = "outline"


class Line(NamedTuple):
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "text"
    line: str = "outline"
    arrow: bool = False  # an arrow head at (x2, y2)


class Polygon(NamedTuple):
    points: tuple[tuple[float, float], ...]
    fill: Optional[str] = None
    stroke: Optional[str] = "text"
    line: str = "outline"


class Label(NamedTuple):
    """Text; ``anchor`` is start, middle or end; ``y`` is the baseline. ``size`` in pt (None = layout default)."""

    x: float
    y: float
    text: str
    size: Optional[float] = None
    anchor: str = "middle"
    bold: bool = False
    colour: str = "text"
    angle: float = 0.0


class IconShape(NamedTuple):
    """An icon of templates/icons centred on (cx, cy), ``size`` mm tall."""

    name: str
    cx: float
    cy: float
    size: float
    colour: str = "text"


Shape = Union[Rect, Circle, Line, Polygon, Label, IconShape]

# --------------------------------------------------------------------------- blocks


class Heading(NamedTuple):
    """A heading; levels 1 and 2 go into the table of contents when the document has one."""

    text: str
    level: int = 1


class Paragraph(NamedTuple):
    text: str
    style: str = "body"  # a text style of the layout: body, note, small, ...


class ListBlock(NamedTuple):
    items: tuple[str, ...]
    numbered: bool = False
    style: str = "body"  # the text style of the items


class Table(NamedTuple):
    """A table; ``widths`` are relative column widths (None = equal)."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    widths: Optional[tuple[float, ...]] = None
    caption: str = ""


class LegendEntry(NamedTuple):
    """A symbol: drawn as an icon of templates/icons, or (icon None) as a swatch of ``colour`` with ``label`` in it."""

    icon: Optional[str]
    name: str
    meaning: str
    colour: str = "text"
    label: str = ""


class Legend(NamedTuple):
    """A symbol legend: each icon drawn beside its name and meaning; ``columns`` > 1 sets entries side by side (compact sheets)."""

    entries: tuple[LegendEntry, ...]
    columns: int = 1


class Diagram(NamedTuple):
    width: float  # mm
    height: float  # mm
    shapes: tuple[Shape, ...]
    alt: tuple[str, ...]  # what Markdown prints instead of the drawing
    caption: str = ""


class ChartSeries(NamedTuple):
    """One series of a chart: a value per category (bar chart) or per x (line chart), None where there is
    none; ``low``/``high`` (when given) are each value's interval, drawn as whiskers on bars."""

    name: str
    values: tuple[Optional[float], ...]
    low: tuple[Optional[float], ...] = ()
    high: tuple[Optional[float], ...] = ()


class BarChart(NamedTuple):
    """Bars per category, one per series (side by side), drawn with reportlab's charts.

    ``percent``: values are shares (0-1) shown as percentages. each of ``references``
    draws a dashed line across at its value (its own dash pattern) (a fair share, a pooled figure).
    A horizontal chart taller than a page continues on the next.
    """

    categories: tuple[str, ...]
    series: tuple[ChartSeries, ...]
    value_label: str
    percent: bool = False
    horizontal: bool = False
    references: tuple[tuple[float, str], ...] = ()  # (value, label) of each line across
    caption: str = ""


class LineChart(NamedTuple):
    """Lines over shared x values (one per series), drawn with reportlab's line plot."""

    x: tuple[float, ...]
    series: tuple[ChartSeries, ...]
    x_label: str
    y_label: str
    percent: bool = False
    caption: str = ""


class Callout(NamedTuple):
    """A numbered pointer at a part of a card: ``x``, ``y`` (mm from the trim's top-left) is where its
    leader line ends; ``key`` is what the text key says of that part."""

    number: int
    x: float
    y: float
    key: str


class CardFigure(NamedTuple):
    """A card face drawn as the card sheets draw it, ``width`` mm wide, with numbered callouts and their
    key beside it (see :mod:`pipeline.documents.figures`); Markdown prints ``alt`` and the key."""

    face: Face
    trim: tuple[float, float]  # the card's trim size, mm
    width: float
    callouts: tuple[Callout, ...]
    alt: tuple[str, ...]
    caption: str = ""


@dataclass(frozen=True)
class SpreadEntry:
    """One kind of card in a components spread: its front (and back) as printed, how many the box holds."""

    label: str
    count: int
    front: Face
    back: Optional[Face]
    trim: tuple[float, float]  # mm


class CardSpread(NamedTuple):
    """The box's cards laid out, one of each kind (front and back), drawn as the card sheets draw them at
    ``scale``, each with its count; Markdown prints the counts."""

    entries: tuple[SpreadEntry, ...]
    scale: float
    caption: str = ""


@dataclass(frozen=True)
class PageBreak:
    pass


class Group(NamedTuple):
    """Blocks printed on one page when they fit one (a scenario, a player aid); Markdown prints them in order."""

    blocks: tuple["Block", ...]


class OnPaper(NamedTuple):
    """Blocks sized by the paper (a figure a column wide, a sheet a page tall): ``build`` makes them from the
    layout of the paper a document is set on (:meth:`Document.on`). The rest of a document does not depend on
    the paper, so a game's documents are assembled once and set on every paper."""

    build: Callable[[Layout], tuple["Block", ...]]


Block = Union[Heading, Paragraph, ListBlock, Table, Legend, Diagram, CardFigure, CardSpread, BarChart, LineChart, PageBreak, Group,
              OnPaper]


class Cover(NamedTuple):
    """A rulebook's cover: the box facts printed under the title (players, time, ages; each a short line)
    and the icon of templates/icons at the heart of its composed emblem."""

    facts: tuple[str, ...]
    emblem: str
    tagline: str = ""


class Document(NamedTuple):
    """One output file: its title, the game it belongs to, and its blocks in order.

    ``columns`` > 1 sets the text in that many columns (a rulebook's measure); ``cover`` gives the document
    a cover page of its own (the title moves there, the contents open page 2)."""

    title: str
    game_title: str
    kind: str  # rulebook, reference, cheatsheet, extras, glossary
    blocks: tuple[Block, ...]
    subtitle: str = ""
    toc: bool = False
    page_budget: Optional[int] = None  # at most this many pages (a sheet for the table: 1); checked when set in PDF
    columns: int = 1
    cover: Optional[Cover] = None

    @property
    def headings(self) -> list[Heading]:
        return [b for b in self.blocks if isinstance(b, Heading)]

    def on(self, layout: Layout) -> "Document":
        """This document as set on the paper of ``layout``: every :class:`OnPaper` part built for it (the
        renderers never see one)."""
        return self._replace(blocks=_on_paper(self.blocks, layout))


def _on_paper(blocks: tuple[Block, ...], layout: Layout) -> tuple[Block, ...]:
    out: list[Block] = []
    for block in blocks:
        if isinstance(block, OnPaper):
            out += _on_paper(block.build(layout), layout)
        elif isinstance(block, Group):
            out.append(Group(_on_paper(block.blocks, layout)))
        else:
            out.append(block)
    return tuple(out)


@dataclass
class Blocks:
    """A small builder: ``b.h1("Set-up"); b.p("...")`` collects blocks in order."""

    items: list[Block] = field(default_factory=list)

    def add(self, *blocks: Block) -> "Blocks":
        self.items.extend(blocks)
        return self

    def h(self, text: str, level: int = 1) -> "Blocks":
        return self.add(Heading(text, level))

    def p(self, text: str, style: str = "body") -> "Blocks":
        return self.add(Paragraph(text, style))

    def ul(self, items: list[str] | tuple[str, ...], numbered: bool = False, style: str = "body") -> "Blocks":
        return self.add(ListBlock(tuple(items), numbered, style)) if items else self

    def table(
        self, header: tuple[str, ...], rows: Sequence[tuple[str, ...]], widths: Optional[tuple[float, ...]] = None, caption: str = ""
    ) -> "Blocks":
        return self.add(Table(header, tuple(rows), widths, caption))

    def done(self) -> tuple[Block, ...]:
        return tuple(self.items)
