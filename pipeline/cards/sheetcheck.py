"""The checks a card build makes on the PDF it is about to publish, remembered by that PDF's bytes.

Before a card sheet is written, its very bytes are read back (pypdf) for two
checks: one back per shuffled deck (:mod:`decks`) and every font embedded
(:mod:`pdfcheck`). Reading a PDF costs about as much as a tenth of drawing it,
and a rebuild of unchanged cards (``--force``, another output folder) makes
the same bytes again; so a sheet that passed is remembered in the results
cache under a hash of its bytes, of the back placements the deck check is
given, of the checking code and of the installed libraries' versions (pypdf's among them). Only passes are kept: a
sheet with a problem is always read and refused.
"""
from __future__ import annotations

import hashlib
import io
from pathlib import Path
from typing import Sequence

from pipeline import store as cachestore
from pipeline.cards import decks
from pipeline.data import resultcache

NAMESPACE = "sheetcheck"
HERE = Path(__file__).resolve().parent
CHECKING_CODE = (HERE / "sheetcheck.py", HERE / "decks.py", HERE / "pdfcheck.py")


def sheet_problems(data: bytes, game: str, backs: Sequence[decks.BackPlacement]) -> tuple[list[str], list[str]]:
    """(backs that differ within a deck, fonts not embedded) in the PDF ``data``, one line each."""
    key = [hashlib.blake2b(data, digest_size=32).hexdigest(), game, repr(list(backs)),
           *(resultcache.file_hash(path) for path in CHECKING_CODE), cachestore.installed_libraries()]
    if resultcache.known(NAMESPACE, key):
        return [], []
    from pypdf import PdfReader  # only when the sheet is new: reading a PDF is what is remembered

    from pipeline.cards.pdfcheck import fonts_not_embedded

    written = PdfReader(io.BytesIO(data))
    different = list(decks.problems(written, backs))
    # the print-shop font check of `pantheon preflight`
    missing = [f"{game}: card sheets: font {name} is not embedded" for name in sorted(fonts_not_embedded(written))]
    if not different and not missing:
        resultcache.remember(NAMESPACE, key)
    return different, missing
