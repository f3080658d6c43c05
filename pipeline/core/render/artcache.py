"""Converted art kept between builds: svglib and reportlab's renderer run once per distinct piece of art.

Converting SVG art with svglib is the dearest step of a build (a few ms per
piece), and drawing the converted Drawing into a form is the next (about a
third of a ms). So each art's form is kept, under the project's git-ignored
``.cache/art/``, keyed by the art's content hash and the versions of the
libraries that made it:

- as its *content stream* (the form's PDF operators and the transparency
  states they name) when the form is self-contained: no text, no nested
  forms or images, no special colour spaces. A later build defines the form
  from these directly, byte for byte what drawing it would write;
- otherwise as the converted Drawing, drawn again in each document (art with
  text: its font encoding belongs to the document being written).

Only files this pipeline wrote there are read back (pickle, like jinja's own
bytecode cache uses marshal); a file that does not load is converted again.
Delete ``.cache`` to clear it; ``PANTHEON_CACHE`` points the cache elsewhere
(the benchmarks use an empty one to measure cold builds).
"""
from __future__ import annotations

import hashlib
import pickle
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Optional, Union

import reportlab
import svglib
from reportlab import rl_config
from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Drawing
from reportlab.pdfgen.canvas import Canvas

from pipeline.core.errors import UserError
from pipeline.core.resultcache import cache_root
from pipeline.core.render.pdfwrite import write_atomic

ART_DIR = "art"
PICKLE_PROTOCOL = 5
# Operators that tie a form's content to the document (fonts and their subset encoding, other XObjects).
DOCUMENT_BOUND_OPERATORS = ("BT", " Tf", " Do", "BI ")
# reportlab's renderer opens every drawing by stating the canvas's initial font (Helvetica, which every
# canvas registers first): such a line sets state only, and names the same font in every document.
FONT_STATE_LINE = re.compile(r"BT (?P<font>/\w+) [\d.]+ Tf [\d.]+ TL ET")


@dataclass(frozen=True)
class Stream:
    """A self-contained form: its size, its content lines and its transparency states (as reportlab names them)."""

    width: float
    height: float
    code: tuple[str, ...]
    states: tuple[tuple[tuple[str, object], str], ...]
    base_font: str  # the document's name for the initial font, which the code's font-state lines use


Art = Union[Stream, Drawing]


@lru_cache(maxsize=None)
def _version_dir(root: Path) -> Path:
    versions = f"{sys.version_info[:2]} reportlab {reportlab.Version} svglib {getattr(svglib, '__version__', '?')}"
    return root / ART_DIR / hashlib.blake2b(versions.encode(), digest_size=6).hexdigest()


class ArtCache:
    """Art by key: in memory for this process, on disk across builds."""

    def __init__(self, root: Optional[Path] = None) -> None:
        self.folder = _version_dir(root or cache_root())
        self._memory: dict[str, Art] = {}

    def has(self, key: str) -> bool:
        """Whether art ``key`` is at hand without converting it (read into memory if on disk)."""
        return self._get(key) is not None

    def define_form(self, canvas: Canvas, name: str, key: str, convert: Callable[[], Drawing]) -> tuple[float, float]:
        """Define form ``name`` on ``canvas`` from art ``key``, converting it only when no earlier build did;
        returns the form's size in points."""
        art = self._get(key)
        if isinstance(art, Stream) and art.base_font != _base_font(canvas):
            art = None
        if isinstance(art, Stream):
            _replay(canvas, name, art)
            return art.width, art.height
        drawing = art if art is not None else convert()
        stream = _draw(canvas, name, drawing)
        kept: Art = stream if stream is not None else drawing
        if art is None or kept is not art:
            self._store(key, kept)
        self._memory[key] = kept
        return drawing.width, drawing.height

    def _get(self, key: str) -> Optional[Art]:
        art = self._memory.get(key) or self._load(key)
        if art is not None:
            self._memory[key] = art
        return art

    def _path(self, key: str) -> Path:
        return self.folder / f"{key}.pickle"

    def _load(self, key: str) -> Optional[Art]:
        try:
            data = self._path(key).read_bytes()
        except OSError:
            return None
        try:
            art = pickle.loads(data)
        except Exception:  # a damaged or foreign file: convert again and overwrite it
            return None
        return art if isinstance(art, (Stream, Drawing)) else None

    def _store(self, key: str, art: Art) -> None:
        try:
            write_atomic(self._path(key), pickle.dumps(art, protocol=PICKLE_PROTOCOL), durable=False)
        except UserError:  # a read-only checkout still builds, only slower
            pass


def _draw(canvas: Canvas, name: str, drawing: Drawing) -> Optional[Stream]:
    """Draw ``drawing`` as form ``name``; its content stream when the form is self-contained, else None."""
    canvas.beginForm(name, 0, 0, drawing.width, drawing.height)
    start = len(canvas._code)
    renderPDF.draw(drawing, canvas, 0, 0)
    code = tuple(canvas._code[start:])
    base_font = _base_font(canvas)
    self_contained = (
        start == 0
        and not canvas._formsinuse
        and not canvas._colorsUsed
        and not canvas._shadingUsed
        and all(_self_contained_line(line, base_font) for line in code)
    )
    states = tuple(canvas._extgstate._c.items())
    canvas.endForm()
    return Stream(drawing.width, drawing.height, code, states, base_font) if self_contained else None


def _base_font(canvas: Canvas) -> str:
    return canvas._doc.getInternalFontName(rl_config.canvas_basefontname)


def _self_contained_line(line: object, base_font: str) -> bool:
    if not isinstance(line, str):
        return False
    if not any(op in line for op in DOCUMENT_BOUND_OPERATORS):
        return True
    state = FONT_STATE_LINE.fullmatch(line)
    return state is not None and state["font"] == base_font


def _replay(canvas: Canvas, name: str, stream: Stream) -> None:
    """Define form ``name`` from a recorded stream: what ``_draw`` wrote, without drawing again."""
    canvas.beginForm(name, 0, 0, stream.width, stream.height)
    canvas._code.extend(stream.code)
    canvas._extgstate._c.update(stream.states)
    canvas.endForm()


_shared: dict[Path, ArtCache] = {}


def shared() -> ArtCache:
    """The art cache of the current cache root (one per process)."""
    root = cache_root()
    if root not in _shared:
        _shared[root] = ArtCache(root)
    return _shared[root]
