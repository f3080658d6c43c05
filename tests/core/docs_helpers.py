"""Helpers for document tests: render a game's documents without writing, read PDFs back."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from pipeline.app.documents import game_documents
from pipeline.checks.references import References
from pipeline.checks.validate import RecordCatalogue
from pipeline.data.dataset import default_data_root
from pipeline.data.typography import typographic
from pipeline.documents import structure as m
from pipeline.documents.layout import load_layout
from pipeline.documents.pdf import PdfRenderer, TocEntry
from pipeline.games import registry
from tests.core.pdf_text import page_texts

__all__ = ["documents_of", "page_texts", "project_documents", "project_texts", "project_yaml", "render_game", "squash"]

_SPACE = re.compile(r"\s+")


def documents_of(data_root: Path, game: str, paper: str = "a4") -> dict[str, m.Document]:
    """Every document of ``game`` (data assumed valid), its data read from ``data_root`` for this call."""
    return game_documents(game, paper, References(RecordCatalogue(data_root, registry.catalogue())))


def render_game(data_root: Path, game: str, paper: str = "a4") -> dict[str, tuple[bytes, list[TocEntry]]]:
    """Every document of ``game`` as PDF bytes with its contents entries (data assumed valid)."""
    renderer = PdfRenderer(load_layout(paper))
    return {kind: renderer.render(doc) for kind, doc in documents_of(data_root, game, paper).items()}


def squash(text: str) -> str:
    """Text as a document prints it: typographic quotes and dashes, runs of space as one."""
    return _SPACE.sub(" ", typographic(text)).strip()


@lru_cache(maxsize=None)
def project_documents(game: str) -> dict[str, tuple[bytes, list[TocEntry]]]:
    """``render_game`` of the project's data, rendered once per test process (read-only: bytes and a list
    the caller must not change) for every test that reads it."""
    return render_game(default_data_root(), game)


@lru_cache(maxsize=None)
def project_texts(game: str) -> dict[str, str]:
    """The text of each of ``game``'s documents built from the project's data, by kind."""
    return {kind: " ".join(page_texts(pdf)) for kind, (pdf, _) in project_documents(game).items()}


def project_yaml(game: str, kind: str) -> Any:
    """The plain data of ``data/<game>/<kind>.yaml``."""
    return yaml.safe_load((default_data_root() / game / f"{kind}.yaml").read_text(encoding="utf-8"))
