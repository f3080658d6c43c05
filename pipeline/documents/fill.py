"""The fill check: no page of a built document is left more than a third empty, except a chapter's last.

Measured on the finished PDF, after layout: each page is rasterised (PDFium,
at a low resolution) and, in each column of its text area, the lowest inked
pixel gives how far down the column is used; what is left under it is the
column's empty height. A page's empty share is the empty height of its
columns over their whole height. A page may be emptier when it is the cover,
the document's last page or the last page of a chapter (the next page opens
with a chapter heading); every other page over :data:`MAX_EMPTY_SHARE` is a
layout fault, refused naming the document, the paper, the page and the share.

It runs on every PDF the build writes (``documents/render.py``), inside the
build's validation for the paper it sets in full (``documents/docscheck.py``),
or when the build sets a document itself. A plain ``validate`` only measures
layouts, paints no page, and so does not run it.
"""
from __future__ import annotations

from dataclasses import dataclass

import pypdfium2
from PIL import Image

from pipeline.base.errors import UserError

MAX_EMPTY_SHARE = 1 / 3  # issue 27: no page more than a third empty, except a chapter's last
MEASURE_DPI = 36  # a pixel is 0.7 mm: finer than a line of text, cheap to render
PT_PER_INCH = 72.0
INKED_BELOW = 250  # a grey pixel darker than this is ink (table stripes included; paper is 255)

Box = tuple[float, float, float, float]  # x, y (from the bottom), width, height, in points


@dataclass(frozen=True)
class TextArea:
    """Where a document's text goes, as its layout settled: the columns of a body page (points, the full text
    height) and the pages allowed to be emptier (1-based: the cover, each chapter's last page, the last page)."""

    columns: tuple[Box, ...]
    exempt: frozenset[int]


def empty_shares(pdf: bytes, area: TextArea) -> list[float]:
    """The share of the text area left empty under the content of each page of ``pdf`` (0 full, 1 blank)."""
    scale = MEASURE_DPI / PT_PER_INCH
    document = pypdfium2.PdfDocument(pdf)
    shares = []
    try:
        for index in range(len(document)):
            page = document[index]
            image = page.render(scale=scale, grayscale=True).to_pil().convert("L")
            height_pt = page.get_height()
            shares.append(_page_empty(image, height_pt, area.columns, scale))
    finally:
        document.close()
    return shares


def _page_empty(image: Image.Image, page_height_pt: float, columns: tuple[Box, ...], scale: float) -> float:
    """The empty share of one page's columns: under each column's lowest inked pixel, over the columns' height."""
    ink = image.point(lambda value: 255 if value < INKED_BELOW else 0)
    empty = total = 0.0
    for x, y, width, height in columns:
        left, top = round(x * scale), round((page_height_pt - y - height) * scale)
        box = (left, top, left + round(width * scale), top + round(height * scale))
        used = ink.crop(box).getbbox()
        bottom_px = used[3] if used is not None else 0
        empty += max(0.0, height - bottom_px / scale)
        total += height
    return empty / total if total else 0.0


def check_fill(title: str, paper: str, pdf: bytes, area: TextArea) -> None:
    """Refuse a document with a page more than a third empty that is not a cover, a chapter's last page or its
    last page (one message listing every such page and its empty share)."""
    faults = [f"page {number} is {share:.0%} empty" for number, share in enumerate(empty_shares(pdf, area), start=1)
              if share > MAX_EMPTY_SHARE and number not in area.exempt]
    if faults:
        raise UserError(f"{title} ({paper}): " + "; ".join(faults) + f": at most {MAX_EMPTY_SHARE:.0%} of a page may be "
                        f"left empty, except a chapter's last (move a page break or a figure, or shorten the text)")
