"""Writing a Document as Markdown, so that a rulebook can be diffed in review.

Diagrams become their ``alt`` lines; icons in a legend become their names.
The text is the same text the PDF sets, so a diff here is a diff there: our
markup (:mod:`pipeline.data.markup`) is written back as Markdown emphasis,
and literal stars, underscores and backslashes are escaped the Markdown way.
"""
from __future__ import annotations

import re
from typing import Iterator, Optional

from pipeline.base.errors import UserError
from pipeline.data import markup
from pipeline.documents import structure as m

HEADING_MARKS = {1: "##", 2: "###", 3: "####"}
_NOT_IN_SLUG = re.compile(r"[^\w\- ]")
EMPHASIS_MARKS = {markup.BOLD: "**", markup.ITALIC: "_"}
_MARKDOWN_SPECIAL = re.compile(r"([\\*_])")
PERCENT = 100
CONTENTS = "Contents"
TOC_LEVELS = 2  # headings of levels 1 and 2 are listed, as in the PDF


def md(text: str) -> str:
    """Document text (our markup) as Markdown."""
    return "".join(_markdown(markup.parse(text)))


def _markdown(nodes: tuple[markup.Inline, ...]) -> Iterator[str]:
    for node in nodes:
        if isinstance(node, markup.Text):
            yield _MARKDOWN_SPECIAL.sub(r"\\\1", node.text)
        elif isinstance(node, markup.Styled):
            mark = EMPHASIS_MARKS[node.style]
            yield mark
            yield from _markdown(node.children)
            yield mark
        elif isinstance(node, markup.Icon):
            yield f":{node.name}:"
        elif isinstance(node, markup.Reference):
            yield node.source
        else:
            yield "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _table(header: tuple[str, ...], rows: tuple[tuple[str, ...], ...]) -> list[str]:
    """A Markdown table of cells already written as Markdown."""
    columns = len(header or rows[0])
    head = header or tuple("" for _ in range(columns))
    lines = ["| " + " | ".join(_cell(h) for h in head) + " |", "|" + "---|" * columns]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return lines


def _number(value: Optional[float], percent: bool) -> str:
    if value is None:
        return ""
    return f"{value * PERCENT:.1f}%" if percent else f"{value:.3g}"


def _chart_table(first: str, labels: tuple[str, ...], series: tuple[m.ChartSeries, ...], percent: bool,
                 caption: str) -> list[str]:
    """A chart's numbers as a table: one row per category (or x), one column per series."""
    rows = tuple((md(label), *(_number(s.values[i], percent) for s in series)) for i, label in enumerate(labels))
    lines = [f"_Chart: {md(caption)}_", ""] if caption else ["_Chart_", ""]
    return lines + _table((md(first), *(md(s.name) for s in series)), rows)


def block_lines(block: m.Block) -> list[str]:
    """The Markdown of one block (without the blank line that separates blocks)."""
    if isinstance(block, m.Heading):
        return [f"{HEADING_MARKS.get(block.level, '####')} {md(block.text)}"]
    if isinstance(block, m.Paragraph):
        return [f"_{md(block.text)}_" if block.style in ("note", "caption") else md(block.text)]
    if isinstance(block, m.ListBlock):
        return [f"{i}. {md(item)}" if block.numbered else f"- {md(item)}" for i, item in enumerate(block.items, start=1)]
    if isinstance(block, m.Table):
        rows = tuple(tuple(md(c) for c in row) for row in block.rows)
        table = _table(tuple(md(h) for h in block.header), rows)
        return table + ([""] + [f"_{md(block.caption)}_"] if block.caption else [])
    if isinstance(block, m.Legend):
        rows = tuple((f"`{e.icon or e.label or e.colour}`", md(e.name), md(e.meaning)) for e in block.entries)
        return _table(("Symbol", "Name", "Meaning"), rows)
    if isinstance(block, m.Diagram):
        caption = [f"_Diagram: {md(block.caption)}_", ""] if block.caption else ["_Diagram_", ""]
        return caption + [f"    {line}" for line in block.alt]
    if isinstance(block, m.CardFigure):
        caption = [f"_Figure: {md(block.caption)}_", ""] if block.caption else ["_Figure_", ""]
        return caption + [f"    {block.alt[0]}", ""] + [f"{c.number}. {md(c.key)}" for c in block.callouts]
    if isinstance(block, m.CardSpread):
        caption = [f"_Figure: {md(block.caption)}_", ""] if block.caption else ["_Figure_", ""]
        return caption + [f"- {e.count} x {md(e.label)}" for e in block.entries]
    if isinstance(block, m.BarChart):
        return _chart_table("", block.categories, block.series, block.percent, block.caption)
    if isinstance(block, m.LineChart):
        return _chart_table(block.x_label, tuple(f"{x:g}" for x in block.x), block.series, block.percent, block.caption)
    if isinstance(block, m.PageBreak):
        return ["---"]
    if isinstance(block, m.Group):
        lines: list[str] = []
        for inner in block.blocks:
            lines += ([""] if lines else []) + block_lines(inner)
        return lines
    raise TypeError(f"unknown block {block!r}")


def slug(text: str) -> str:
    """A heading's anchor as GitHub and most Markdown viewers make it: lower case, punctuation dropped, spaces as hyphens."""
    return _NOT_IN_SLUG.sub("", text.strip().lower()).replace(" ", "-")


def _anchors(headings: list[str]) -> list[str]:
    """The anchor of each heading in order; a repeated one gets -1, -2, ... as the viewers number them."""
    seen: dict[str, int] = {}
    out = []
    for text in headings:
        base = slug(text)
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.append(base if count == 0 else f"{base}-{count}")
    return out


def _headings(blocks: tuple[m.Block, ...]) -> Iterator[tuple[int, str, str]]:
    """Every heading's level, Markdown text and plain text in print order, those inside groups included."""
    for block in blocks:
        if isinstance(block, m.Heading):
            yield block.level, md(block.text), markup.plain(markup.parse(block.text))
        elif isinstance(block, m.Group):
            yield from _headings(block.blocks)


def _contents(doc: m.Document) -> list[str]:
    """The table of contents: a link to each heading of levels 1 and 2 (the title and this list's own heading
    come first in the file, so they take part in numbering repeated anchors)."""
    title = markup.plain(markup.parse(doc.title))
    headings = [(0, "", title), (0, "", CONTENTS), *_headings(doc.blocks)]
    anchors = _anchors([plain for _, _, plain in headings])
    return [f"{'  ' * (level - 1)}- [{text}](#{anchor})"
            for (level, text, _), anchor in zip(headings, anchors) if 1 <= level <= TOC_LEVELS]


def render_markdown(doc: m.Document) -> str:
    """The whole document as Markdown text (ends with one newline)."""
    try:
        parts = [[f"# {md(doc.title)}"]]
        if doc.subtitle:
            parts.append([f"_{md(doc.subtitle)}_"])
        if doc.toc:
            parts.append([f"## {CONTENTS}"])
            parts.append(_contents(doc))
        parts += [block_lines(b) for b in doc.blocks]
    except markup.MarkupError as exc:  # validate refuses such data text; this is text a document composed
        raise UserError(f"{doc.title}: text cannot be printed: {exc}") from None
    return "\n\n".join("\n".join(p) for p in parts if p) + "\n"
