"""The fill check: no page of a document is left more than a third empty, except a chapter's last.

A fact of the layout, not of the painted page: as the document is laid out
(on any canvas, the measuring one included: :mod:`pipeline.documents.measuring`),
the template notes, on each page and in each column, the lowest point any
flowable (text, table, drawing, card face) reaches, and where the columns
start under figures floated to the page's top. What is left under it is the
column's empty height; a page's empty share is the empty height of its columns
over their whole height. A page may be emptier when it is the cover, the
document's last page or the last page of a chapter (the next page opens with a
chapter heading); every other page over :data:`MAX_EMPTY_SHARE` is a layout
fault, refused naming the document, the paper, the page and the share.

Validate runs it on every document on both papers (``documents/docscheck.py``),
from the layouts it makes anyway; the build runs it on every PDF it sets
itself (``documents/render.py``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from pipeline.base.errors import UserError

MAX_EMPTY_SHARE = 1 / 3  # issue 27: no page more than a third empty, except a chapter's last

Box = tuple[float, float, float, float]  # x, y (from the bottom), width, height, in points


@dataclass(frozen=True)
class TextArea:
    """Where a document's text went, as its layout settled: the columns of a body page (points, the full text
    height), the pages allowed to be emptier (1-based: the cover, each chapter's last page, the last page) and,
    per page and per column, the lowest point used (points from the bottom; None: nothing in that column) and
    the first document text placed there (None: none)."""

    columns: tuple[Box, ...]
    exempt: frozenset[int]
    lowest: tuple[tuple[Optional[float], ...], ...]
    first_texts: tuple[tuple[Optional[str], ...], ...]

    def moved_on(self, page: int) -> Optional[str]:
        """The text that would not fit under the emptiest column of ``page`` (1-based): the first text of the
        next column, or of the first column of the next page that holds one (None: no text follows)."""
        empties = _column_empties(self, page)
        column = max(range(len(empties)), key=lambda n: (empties[n], -n))
        after = [(page - 1, n) for n in range(column + 1, len(self.columns))]
        after += [(p, n) for p in range(page, len(self.first_texts)) for n in range(len(self.columns))]
        return next((self.first_texts[p][n] for p, n in after if self.first_texts[p][n]), None)


class PageTooEmpty(UserError):
    """A document with a page left too empty (the message names the pages); ``text``: the text that would not
    fit under the first such page's emptiest column (None: none)."""

    def __init__(self, message: str, text: Optional[str]) -> None:
        super().__init__(message)
        self.text = text


def _column_empties(area: TextArea, page: int) -> list[float]:
    """The empty height (points) of each column of ``page`` (1-based)."""
    return [height if low is None else min(height, max(0.0, low - y))
            for (_, y, _, height), low in zip(area.columns, area.lowest[page - 1])]


def empty_shares(area: TextArea) -> list[float]:
    """The share of the text area left empty under the content of each page (0 full, 1 blank)."""
    total = sum(height for _, _, _, height in area.columns)
    return [sum(_column_empties(area, page)) / total if total else 0.0 for page in range(1, len(area.lowest) + 1)]


def check_fill(title: str, paper: str, area: TextArea) -> None:
    """Refuse a document with a page more than a third empty that is not a cover, a chapter's last page or its
    last page (PageTooEmpty: one message listing every such page and its empty share)."""
    pages = [(number, share) for number, share in enumerate(empty_shares(area), start=1)
             if share > MAX_EMPTY_SHARE and number not in area.exempt]
    if pages:
        faults = "; ".join(f"page {number} is {share:.0%} empty" for number, share in pages)
        raise PageTooEmpty(f"{title} ({paper}): {faults}: at most {MAX_EMPTY_SHARE:.0%} of a page may be left empty, "
                           f"except a chapter's last (move a page break or a figure, or shorten the text)",
                           area.moved_on(pages[0][0]))
