"""Deterministic, atomic PDF files, and the lock that lets builds share an output folder.

reportlab's invariant mode fixes the creation date and document id, so the
same data and options give the same bytes. The file is written next to its
destination under a temporary name and renamed over it only when complete:
a build that fails leaves the previous good PDF untouched.

Every write into an output folder happens while holding that folder's lock
(``output_lock``), so two builds into one folder take turns. Each write's
temporary file has a name of its own (``mkstemp``, created exclusively) and
only that file is ever removed: a build deletes nothing it did not create.
"""
from __future__ import annotations

import io
import os
import tempfile
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Mapping, Optional

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from pipeline.base import locks
from pipeline.base.errors import UserError
from pipeline.cards import fonts
from pipeline.data.dataset import display_path

PRODUCER = "Pantheon Press"
TEMP_PREFIX = ".tmp-"
OUTPUT_LOCK = ".pantheon-build.lock"


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
    pdfdoc.PDFFormXObject.format = _form_format_with_extgstate


def new_canvas(buffer: io.BytesIO, meta: Metadata) -> Canvas:
    """A canvas in invariant mode, with compressed pages and the document's metadata set.

    Its initial font is the embedded family's (reportlab's default, Helvetica, is one of the 14
    standard fonts a PDF names without embedding, which pre-press checks refuse)."""
    fonts.register()
    canvas = Canvas(buffer, invariant=1, pageCompression=1, initialFontName=fonts.font_name())
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
        raise UserError(f"cannot create output folder {display_path(folder)}: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK):
        raise UserError(f"cannot write to output folder {display_path(folder)}: permission denied")


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
        raise UserError(f"cannot write {display_path(path)}: {exc.strerror or exc}") from None
    finally:
        if handle is not None:
            os.close(handle)
        if temp is not None:  # this write's own temporary file, never another's
            with suppress(FileNotFoundError):
                os.unlink(temp)


@contextmanager
def output_lock(out_dir: Path, *, on_wait: Optional[Callable[[], None]] = None) -> Iterator[None]:
    """Hold the lock of output folder ``out_dir`` (created if missing) for the duration.

    Decide what is up to date and write the folder's files while holding it:
    another build into the same folder waits (``on_wait`` is called if it has
    to wait), so an output and its manifest entry always come from one build.
    A link planted where the lock file goes is refused, never followed.
    """
    ensure_dir(out_dir)
    with ExitStack() as held:
        try:
            held.enter_context(locks.holding(out_dir, OUTPUT_LOCK, on_wait=on_wait))
        except locks.NotAcquired as exc:
            raise UserError(f"cannot lock output folder {display_path(out_dir)}: {exc}") from None
        yield
