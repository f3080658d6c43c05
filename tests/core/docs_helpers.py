"""Helpers for document tests: render a game's documents without writing, read PDFs back."""
from __future__ import annotations

import io
import re
from pathlib import Path

from pypdf import PdfReader

from pipeline.core.documents.build import game_documents
from pipeline.core.documents.layout import load_layout
from pipeline.core.documents.pdf import PdfRenderer, TocEntry

_SPACE = re.compile(r"\s+")


def page_texts(pdf: bytes) -> list[str]:
    """Each page's text, whitespace collapsed."""
    return [_SPACE.sub(" ", p.extract_text() or "") for p in PdfReader(io.BytesIO(pdf)).pages]


def render_game(data_root: Path, game: str, paper: str = "a4") -> dict[str, tuple[bytes, list[TocEntry]]]:
    """Every document of ``game`` as PDF bytes with its contents entries (data assumed valid)."""
    renderer = PdfRenderer(load_layout(paper))
    return {kind: renderer.render(doc) for kind, doc in game_documents(data_root, game, paper).items()}


def squash(text: str) -> str:
    return _SPACE.sub(" ", text).strip()
