"""The page check: a sheet stays within its page budget, and no page of any document is an orphan.

The PDF renderer notes what it set on each page (:class:`PageContent`); after
the layout settles, :func:`check_pages` refuses the document when

- it has a page budget (a reference or cheat sheet: one sheet at the table)
  and runs to more pages than that, or
- a page holds nothing but headings, or a single table row, or a line or two
  of text (beside headings and captions): what a reader turns the page for is on
  the page before or after it.

Either is a layout fault the data author must fix (shorten the sheet, move a
page break), so it is a :class:`UserError` naming the document, paper and page.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from pipeline.base.errors import UserError

# A page whose only body text (beside headings) is at most this tall, in points, is an orphan:
# about two lines of body text. A real last paragraph or closing note is taller or shares its page.
ORPHAN_TEXT_PT = 30.0
ORPHAN_TABLE_ROWS = 1  # a page holding at most this many table rows (and nothing else) is an orphan


@dataclass
class PageContent:
    """What one page holds, as the renderer set it: headings, table body rows, text height, other drawings."""

    headings: int = 0
    table_rows: int = 0
    text_pt: float = 0.0
    drawings: int = 0  # diagrams, charts, the contents: content that stands on its own

    def orphan(self) -> Optional[str]:
        """Why this page is an orphan (None when it is not)."""
        if self.drawings:
            return None
        if not (self.headings or self.table_rows or self.text_pt):
            return "nothing"
        if self.table_rows > ORPHAN_TABLE_ROWS or self.text_pt > ORPHAN_TEXT_PT:
            return None
        if self.table_rows:
            return "only a single table row"
        return "only a title or heading" if self.text_pt == 0 else "only a heading and a line or two of text"


def check_pages(title: str, paper: str, pages: list[PageContent], budget: Optional[int]) -> None:
    """Refuse a document over its page budget or with an orphan page (one message listing every fault)."""
    faults: list[str] = []
    if budget is not None and len(pages) > budget:
        faults.append(f"runs to {len(pages)} pages on {paper}, its budget is {budget} (a sheet must fit one sheet)")
    for number, page in enumerate(pages, start=1):
        why = page.orphan()
        if why:
            faults.append(f"page {number} of {len(pages)} on {paper} holds {why}")
    if faults:
        raise UserError(f"{title}: " + "; ".join(faults))
