"""Deterministic, atomic PDF files.

reportlab's invariant mode fixes the creation date and document id, so the
same data and options give the same bytes. The file is written next to its
destination under a temporary name and renamed over it only when complete:
a build that fails leaves the previous good PDF untouched.
"""
from __future__ import annotations

import io
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from pipeline.core.errors import UserError

PRODUCER = "Pantheon Press"
TEMP_PREFIX = ".tmp-"


@dataclass(frozen=True)
class Metadata:
    """What the PDF says about itself: title, game, and the options it was built with."""

    title: str
    game: str
    options: Mapping[str, str]

    @property
    def keywords(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in sorted(self.options.items()))


def _form_format_with_extgstate(self: pdfdoc.PDFFormXObject, document: pdfdoc.PDFDocument) -> bytes:
    """reportlab (5.x) records a form's transparency states but leaves them out of its resources,
    so a form using fill-opacity refers to an undefined /gRLsN. Build the resources with them."""
    if not self.Resources and self.ExtGState:
        resources = pdfdoc.PDFResourceDictionary()
        resources.basicFonts()
        resources.allProcs() if self.hasImages else resources.basicProcs()
        if self.XObjects:
            resources.XObject = self.XObjects
        resources.ExtGState = self.ExtGState
        self.Resources = resources
    return _ORIGINAL_FORM_FORMAT(self, document)


_ORIGINAL_FORM_FORMAT = pdfdoc.PDFFormXObject.format
if getattr(pdfdoc.PDFFormXObject.format, "__name__", "") != _form_format_with_extgstate.__name__:
    pdfdoc.PDFFormXObject.format = _form_format_with_extgstate  # type: ignore[method-assign]


def new_canvas(buffer: io.BytesIO, meta: Metadata) -> Canvas:
    """A canvas in invariant mode, with compressed pages and the document's metadata set."""
    canvas = Canvas(buffer, invariant=1, pageCompression=1)
    canvas.setTitle(meta.title)
    canvas.setAuthor(PRODUCER)
    canvas.setCreator(f"{PRODUCER} pantheon build")
    canvas.setSubject(f"game: {meta.game}")
    canvas.setKeywords(meta.keywords)
    return canvas


def ensure_dir(folder: Path) -> None:
    """Create ``folder`` (and parents) or fail with a plain message."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create output folder {folder}: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK):
        raise UserError(f"cannot write to output folder {folder}: permission denied")


def write_atomic(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder and a rename.

    ``durable`` flushes the file to disk before the rename (outputs); a cache
    entry, which is checked when read back and rebuilt when damaged, skips that
    (one fsync per converted art was the largest cost of a cold build after svglib).
    """
    ensure_dir(path.parent)
    handle, temp = None, None
    try:
        handle, temp = tempfile.mkstemp(prefix=TEMP_PREFIX + path.name + ".", dir=path.parent)
        with os.fdopen(handle, "wb") as out:
            handle = None
            out.write(data)
            if durable:
                out.flush()
                os.fsync(out.fileno())
        os.chmod(temp, 0o644)
        os.replace(temp, path)
        temp = None
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if handle is not None:
            os.close(handle)
        if temp is not None and os.path.exists(temp):
            os.unlink(temp)
