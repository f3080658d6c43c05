"""Writing a Document as Markdown, so that a rulebook can be diffed in review.

Diagrams become their ``alt`` lines; icons in a legend become their names.
The text is the same text the PDF sets, so a diff here is a diff there.
"""
from __future__ import annotations

from pipeline.core.documents import model as m

HEADING_MARKS = {1: "##", 2: "###", 3: "####"}


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _table(header: tuple[str, ...], rows: tuple[tuple[str, ...], ...]) -> list[str]:
    columns = len(header or rows[0])
    head = header or tuple("" for _ in range(columns))
    lines = ["| " + " | ".join(_cell(h) for h in head) + " |", "|" + "---|" * columns]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return lines


def block_lines(block: m.Block) -> list[str]:
    """The Markdown of one block (without the blank line that separates blocks)."""
    if isinstance(block, m.Heading):
        return [f"{HEADING_MARKS.get(block.level, '####')} {block.text}"]
    if isinstance(block, m.Paragraph):
        return [f"_{block.text}_" if block.style in ("note", "caption") else block.text]
    if isinstance(block, m.ListBlock):
        return [f"{i}. {item}" if block.numbered else f"- {item}" for i, item in enumerate(block.items, start=1)]
    if isinstance(block, m.Table):
        lines = _table(block.header, block.rows)
        return lines + ([""] + [f"_{block.caption}_"] if block.caption else [])
    if isinstance(block, m.Legend):
        return _table(("Symbol", "Name", "Meaning"), tuple((f"`{e.icon or e.label or e.colour}`", e.name, e.meaning) for e in block.entries))
    if isinstance(block, m.Diagram):
        caption = [f"_Diagram: {block.caption}_", ""] if block.caption else ["_Diagram_", ""]
        return caption + [f"    {line}" for line in block.alt]
    if isinstance(block, m.PageBreak):
        return ["---"]
    if isinstance(block, m.Group):
        lines: list[str] = []
        for inner in block.blocks:
            lines += ([""] if lines else []) + block_lines(inner)
        return lines
    raise TypeError(f"unknown block {block!r}")


def render_markdown(doc: m.Document) -> str:
    """The whole document as Markdown text (ends with one newline)."""
    parts = [[f"# {doc.title}"]]
    if doc.subtitle:
        parts.append([f"_{doc.subtitle}_"])
    if doc.toc:
        parts.append(["## Contents"])
        toc = [f"{'  ' * (h.level - 1)}- {h.text}" for h in doc.headings if h.level <= 2]
        parts.append(toc)
    parts += [block_lines(b) for b in doc.blocks]
    return "\n\n".join("\n".join(p) for p in parts if p) + "\n"
