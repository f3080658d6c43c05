"""The checks a card build makes on the PDF it is about to publish: one back per deck, every font embedded.

Before a card sheet is written, its very bytes are read back (pypdf) for two
checks: one back per shuffled deck (:mod:`decks`) and every font embedded
(:mod:`pdfcheck`).
"""
from __future__ import annotations

import io
from typing import Sequence

from pypdf import PdfReader

from pipeline.cards import decks
from pipeline.cards.pdfcheck import fonts_not_embedded


def sheet_problems(data: bytes, game: str, backs: Sequence[decks.BackPlacement]) -> tuple[list[str], list[str]]:
    """(backs that differ within a deck, fonts not embedded) in the PDF ``data``, one line each."""
    written = PdfReader(io.BytesIO(data))
    different = list(decks.problems(written, backs))
    # the print-shop font check of `pantheon preflight`
    missing = [f"{game}: card sheets: font {name} is not embedded" for name in sorted(fonts_not_embedded(written))]
    return different, missing
