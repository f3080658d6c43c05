"""Converted art kept between builds: svglib and reportlab's renderer run once per distinct piece of art.

Converting SVG art with svglib is the dearest step of a build (a few ms per
piece), and drawing the converted Drawing into a form is the next (about a
third of a ms). So each art's form is kept, keyed by the art's content hash
(and, as every entry of the store, by all the code, templates and libraries):

- when the form is self-contained (no nested forms or images, no special
  colour spaces), as its *content stream*: the form's PDF operators, the
  transparency states they name and its text runs, stored as plain data
  in the store (namespace ``art``: JSON with a digest, checked on read). A later build defines the form from these directly, byte for byte
  what drawing it would write. A text run (a letter on an icon) is kept as
  its font, size, position and characters, not as PDF bytes: its encoding
  belongs to the document being written (the font subset and its codes), so
  replaying it writes it through the canvas, as drawing it did;
- otherwise, as the converted Drawing, in this process's memory only: a
  Drawing is a Python object, and nothing read from disk may become one.

A build whose art is all on disk imports neither svglib nor reportlab's
graphics (which pulls in platypus): a tenth of a second of a warm card build.
An entry that fails any check is converted again and rewritten.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from reportlab.graphics import renderPDF
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from pipeline import store
from pipeline.base import shape
from pipeline.base.shape import ShapeError
from pipeline.cards import fonts

if TYPE_CHECKING:
    from reportlab.graphics.shapes import Drawing

NAMESPACE = "art"
# Operators that tie a form's content to the document (fonts and their subset encoding, other XObjects).
DOCUMENT_BOUND_OPERATORS = ("BT", " Tf", " Do", "BI ")
# reportlab's renderer opens every drawing by stating its initial font (set to the embedded family's
# regular face, which every canvas registers first): such a line sets state only, and names the same
# font in every document.
FONT_STATE_LINE = re.compile(r"BT (?P<font>/\w+) [\d.]+ Tf [\d.]+ TL ET")


@dataclass(frozen=True)
class TextRun:
    """One ``drawString`` a drawing made, with the canvas's font state at that moment."""

    font: str
    size: float
    leading: float
    x: float
    y: float
    text: str
    mode: Optional[int]


@dataclass(frozen=True)
class Stream:
    """A self-contained form: its size, its content (PDF lines, and text runs in their place) and its
    transparency states (as reportlab names them)."""

    width: float
    height: float
    code: tuple[Union[str, TextRun], ...]
    states: tuple[tuple[tuple[str, object], str], ...]
    base_font: str  # the document's name for the initial font, which the code's font-state lines use


Art = Union[Stream, "Drawing"]


def _stream_plain(stream: Stream) -> dict[str, Any]:
    return {
        "width": stream.width,
        "height": stream.height,
        "code": [line if isinstance(line, str) else _run_plain(line) for line in stream.code],
        "states": [[list(state), name] for state, name in stream.states],
        "base_font": stream.base_font,
    }


def _run_plain(run: TextRun) -> dict[str, Any]:
    return {"font": run.font, "size": run.size, "leading": run.leading, "x": run.x, "y": run.y, "text": run.text,
            "mode": run.mode}


def _run_from_plain(plain: Any) -> TextRun:
    if not isinstance(plain, dict) or set(plain) != {"font", "size", "leading", "x", "y", "text", "mode"}:
        raise ShapeError("not a text run")
    mode = None if plain["mode"] is None else shape.integer(plain["mode"])
    font = shape.text(plain["font"])
    if font not in fonts.registered_names():
        raise ShapeError(f"a text run names font {font!r}, not one of the family's")
    return TextRun(font, shape.number(plain["size"]), shape.number(plain["leading"]), shape.number(plain["x"]),
                   shape.number(plain["y"]), shape.text(plain["text"]), mode)


def _stream_from_plain(plain: Any) -> Stream:
    """The Stream a stored entry describes; ShapeError unless every part has its type."""
    if not isinstance(plain, dict) or set(plain) != {"width", "height", "code", "states", "base_font"}:
        raise ShapeError("not a stream")
    states = []
    for entry in shape.sequence(plain["states"]):
        state, name = shape.sequence(entry, 2)
        setting, value = shape.sequence(state, 2)
        if not isinstance(value, (str, bool)):
            shape.number(value)
        states.append(((shape.text(setting), value), shape.text(name)))
    return Stream(
        shape.number(plain["width"]),
        shape.number(plain["height"]),
        tuple(line if isinstance(line, str) else _run_from_plain(line) for line in shape.sequence(plain["code"])),
        tuple(states),
        shape.text(plain["base_font"]),
    )


class ArtCache:
    """Art by key: in memory for this process, in the store across builds."""

    def __init__(self) -> None:
        self._memory: dict[str, Art] = {}  # Drawings (art that is not self-contained) are kept here only
        self._converted: dict[str, "Drawing"] = {}  # art converted in this process (a build, art svgpaint cannot read)
        self._laid_out: dict[str, Callable[[], "Drawing"]] = {}  # art a face split in this process, not yet converted

    def converted(self, key: str, convert: Callable[[], "Drawing"]) -> "Drawing":
        """The Drawing of art ``key`` (a digest of its SVG), converted once per process (by the converter
        ``laid_out`` left for it, else by ``convert``): the build draws it into a form."""
        if key not in self._converted:
            self._converted[key] = self._laid_out.pop(key, convert)()
        return self._converted[key]

    def laid_out(self, key: str, convert: Callable[[], "Drawing"]) -> None:
        """Note that art ``key`` was split from a face in this process (validate's card check reads its paints
        from the SVG, converting nothing): a build of the same run converts it with ``convert`` when it first
        draws it, without rendering the face's template again to find its SVG."""
        if key not in self._converted:
            self._laid_out.setdefault(key, convert)

    def has(self, key: str, under: store.Scope) -> bool:
        """Whether art ``key`` is at hand without rendering its face: split or converted in this process already
        (the card check splits every face it lays out), or in the store (read into memory; its entries are
        looked up ``under`` a scope the build took once)."""
        return key in self._converted or key in self._laid_out or self._get(key, under) is not None

    def define_form(self, canvas: Canvas, name: str, key: str, convert: Callable[[], "Drawing"],
                    under: store.Scope) -> tuple[float, float]:
        """Define form ``name`` on ``canvas`` from art ``key``, converting it only when no earlier build did;
        returns the form's size in points."""
        art = self._get(key, under)
        if isinstance(art, Stream) and art.base_font != _base_font(canvas):
            art = None
        if isinstance(art, Stream):
            _replay(canvas, name, art)
            return art.width, art.height
        drawing = art if art is not None else self.converted(key, convert)
        stream = _draw(canvas, name, drawing)
        if stream is not None:
            store.keep(NAMESPACE, [key], _stream_plain(stream), under=under)
        self._memory[key] = stream if stream is not None else drawing
        return drawing.width, drawing.height

    def _get(self, key: str, under: store.Scope) -> Optional[Art]:
        art = self._memory.get(key)  # (what this process converted or read: its code does not change)
        if art is None:
            art = self.stored(key, under)
            if art is not None:
                self._memory[key] = art
        return art

    def stored(self, key: str, under: Optional[store.Scope] = None) -> Optional[Stream]:
        """Art ``key`` as an earlier build kept it in the store (None when no entry reads back)."""
        return store.recall(NAMESPACE, [key], _stream_from_plain, under=under)


def _draw(canvas: Canvas, name: str, drawing: "Drawing") -> Optional[Stream]:
    """Draw ``drawing`` as form ``name``; its content stream when the form is self-contained, else None."""
    canvas.beginForm(name, 0, 0, drawing.width, drawing.height)
    start = len(canvas._code)
    drawing.initialFontName = fonts.font_name()  # not reportlab's default, Helvetica: it would not be embedded
    runs = _TextRecorder(canvas)
    try:
        renderPDF.draw(drawing, canvas, 0, 0)
    finally:
        runs.stop()
    code: list[Union[str, TextRun]] = list(canvas._code[start:])
    if runs.replayable:
        for at, run in runs.found:
            code[at - start] = run
    base_font = _base_font(canvas)
    self_contained = (
        start == 0
        and runs.replayable
        and not canvas._formsinuse
        and not canvas._colorsUsed
        and not canvas._shadingUsed
        and all(isinstance(line, TextRun) or _self_contained_line(line, base_font) for line in code)
    )
    states = tuple(canvas._extgstate._c.items())
    canvas.endForm()
    return Stream(drawing.width, drawing.height, tuple(code), states, base_font) if self_contained else None


class _TextRecorder:
    """Notes each ``drawString`` reportlab's renderer makes on ``canvas`` while it draws, and the code line it
    wrote: a run in an embedded (dynamic) font that wrote one line can be replayed; any other is not."""

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas
        self.found: list[tuple[int, TextRun]] = []
        self.replayable = True
        self._draw_string = canvas.drawString
        canvas.drawString = self._recording

    def _recording(self, x: float, y: float, text: str, mode: Optional[int] = None, **other: Any) -> None:
        canvas = self.canvas
        run = TextRun(canvas._fontname, float(canvas._fontsize), float(canvas._leading), float(x), float(y), text, mode)
        before = len(canvas._code)
        self._draw_string(x, y, text, mode=mode, **other)
        if other or len(canvas._code) != before + 1 or not pdfmetrics.getFont(run.font)._dynamicFont:
            self.replayable = False
        self.found.append((before, run))

    def stop(self) -> None:
        del self.canvas.drawString  # the instance attribute: the class's method shows again


def _base_font(canvas: Canvas) -> str:
    """The document's name for the drawings' initial font, as its state lines name it; a TrueType
    (dynamic) font writes no such line, so its reportlab name stands in."""
    name = fonts.font_name()
    return name if pdfmetrics.getFont(name)._dynamicFont else canvas._doc.getInternalFontName(name)


def _self_contained_line(line: object, base_font: str) -> bool:
    if not isinstance(line, str):
        return False
    if not any(op in line for op in DOCUMENT_BOUND_OPERATORS):
        return True
    state = FONT_STATE_LINE.fullmatch(line)
    return state is not None and state["font"] == base_font


def _replay(canvas: Canvas, name: str, stream: Stream) -> None:
    """Define form ``name`` from a recorded stream: what ``_draw`` wrote, without drawing again (text runs
    are written by the canvas as the renderer wrote them, so this document encodes them)."""
    canvas.beginForm(name, 0, 0, stream.width, stream.height)
    for line in stream.code:
        if isinstance(line, str):
            canvas.addLiteral(line)  # reportlab's public way to put PDF operators into the stream
        else:
            canvas.setFont(line.font, line.size, line.leading)  # an embedded font: sets state, writes nothing
            canvas.drawString(line.x, line.y, line.text, mode=line.mode)
    canvas._extgstate._c.update(stream.states)
    canvas.endForm()  # restores the font state, as the renderer's own restore did


_shared: dict[Path, ArtCache] = {}


def shared() -> ArtCache:
    """The art cache of the current cache root (one per process)."""
    root = store.cache_root()
    if root not in _shared:
        _shared[root] = ArtCache()
    return _shared[root]



def drop_memory() -> None:
    """Forget the art this process holds in memory; what is in the store stays. The next build reads it back
    as a new process would (a long-lived process may call this to let the memory go)."""
    _shared.clear()
