"""A document's bytes in one of the formats documents are written in: PDF (to print) or Markdown (to review)."""
from __future__ import annotations

from pipeline.documents import structure as m
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
