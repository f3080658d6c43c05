"""PNG previews of one card (front and back side by side) for quick looks.

The card is drawn exactly as in a build (same forms), written as a one-page
PDF, and rasterised by ``pdftoppm`` (Debian package poppler-utils), which
renders PDF faithfully; reportlab's own bitmap renderer would need extra
native packages and draws forms differently from a printer.
"""
from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from pipeline.base.errors import UserError
from pipeline.cards.pdfwrite import ensure_dir
from pipeline.data.dataset import display_path

RASTERISER = "pdftoppm"
DEFAULT_DPI = 150


def pdf_to_png(pdf: bytes, target: Path, dpi: int = DEFAULT_DPI) -> None:
    """Rasterise the first page of ``pdf`` into ``target`` (written atomically)."""
    tool = shutil.which(RASTERISER)
    if tool is None:
        raise UserError(f"{RASTERISER} not found: install poppler-utils (apt-get install poppler-utils)")
    ensure_dir(target.parent)
    with tempfile.TemporaryDirectory(prefix=".preview-", dir=target.parent) as work:
        source = Path(work) / "card.pdf"
        source.write_bytes(pdf)
        stem = Path(work) / "card"
        result = subprocess.run(
            [tool, "-png", "-r", str(dpi), "-singlefile", str(source), str(stem)], capture_output=True, text=True
        )
        if result.returncode != 0:
            raise UserError(f"{RASTERISER} failed: {result.stderr.strip() or result.returncode}")
        try:
            stem.with_suffix(".png").replace(target)
        except OSError as exc:
            raise UserError(f"cannot write {display_path(target)}: {exc.strerror or exc}") from None
