"""A PDF's text read back with PDFium, for the tests that check what a sheet or document prints.

PDFium reads a page's text in a few milliseconds where pypdf's ``extract_text`` parses content streams and
font maps in Python for up to seconds a card sheet (the suite's largest test-side cost). pypdf stays for what
is cheap to read: page boxes, outlines, metadata.
"""
from __future__ import annotations

import ctypes
import re
from typing import Iterator

import pypdfium2
import pypdfium2.raw as pdfium

_SPACE = re.compile(r"\s+")
_NESTED_FORMS = 64  # deep enough for any face: a page draws a card's form, whose art layers draw theirs


def _pages(data: bytes) -> Iterator[tuple[pypdfium2.PdfPage, pypdfium2.PdfTextPage]]:
    document = pypdfium2.PdfDocument(data)
    try:
        for index in range(len(document)):
            page = document[index]
            yield page, page.get_textpage()
    finally:
        document.close()


def page_texts(data: bytes) -> list[str]:
    """Each page's text as a reader copying it from the PDF gets it, every run of whitespace one space."""
    return [_SPACE.sub(" ", text_page.get_text_range()) for _, text_page in _pages(data)]


def text_lines(data: bytes) -> list[str]:
    """Every line of text of every page, in reading order, as a reader copying it from the PDF gets them."""
    return [line for _, text_page in _pages(data) for line in text_page.get_text_range().splitlines()]


def page_runs(data: bytes) -> list[list[str]]:
    """Each page's text runs (one per text object: a card's name, a line of rules text), in drawing order,
    blank ones left out; forms are read where they are drawn, so a card drawn twice gives its runs twice."""
    found: list[list[str]] = []
    for page, text_page in _pages(data):
        runs = [_run_text(run, text_page) for run in page.get_objects(filter=(pdfium.FPDF_PAGEOBJ_TEXT,),
                                                                      max_depth=_NESTED_FORMS)]
        found.append([run for run in runs if run.strip()])
    return found


def _run_text(run: pypdfium2.PdfObject, text_page: pypdfium2.PdfTextPage) -> str:
    size = pdfium.FPDFTextObj_GetText(run.raw, text_page.raw, None, 0)  # bytes of UTF-16LE, with the final NUL
    buffer = (ctypes.c_ushort * (size // 2))()
    pdfium.FPDFTextObj_GetText(run.raw, text_page.raw, buffer, size)
    return bytes(buffer)[: max(size - 2, 0)].decode("utf-16-le")
