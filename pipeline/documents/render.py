"""A document's bytes in one of the formats documents are written in: PDF (to print) or Markdown (to review)."""
from __future__ import annotations

from pipeline.documents import structure as m
from pipeline.documents.fill import check_fill
from pipeline.documents.layout import load_layout
from pipeline.documents.markdown import render_markdown
from pipeline.documents.pdf import PdfRenderer

FORMATS = ("pdf", "md")


def render(doc: m.Document, paper: str, fmt: str) -> bytes:
    """One document as PDF (laid out for ``paper``) or Markdown bytes."""
    if fmt == "md":
        return render_markdown(doc).encode("utf-8")
    pdf, _ = PdfRenderer(load_layout(paper)).render(doc)
    return pdf


def render_for_print(doc: m.Document, paper: str, fmt: str) -> bytes:
    """As :func:`render`, for a document the build publishes: a PDF with a page left more than a third empty
    (not a cover, a chapter's last page or the last page) is refused (:mod:`pipeline.documents.fill`)."""
    if fmt == "md":
        return render(doc, paper, fmt)
    return filled_pdf(PdfRenderer(load_layout(paper)), doc)


def filled_pdf(renderer: PdfRenderer, doc: m.Document, *, paint: bool = True) -> bytes:
    """The PDF of ``doc`` set by ``renderer`` (empty bytes when not ``paint``ed: laid out only to be measured),
    its pages checked for fill as laid out (UserError on a page too empty)."""
    pdf, _, area = renderer.render_laid_out(doc, paint=paint)
    check_fill(doc.title, renderer.layout.paper, area)
    return pdf
