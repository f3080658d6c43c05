"""Art kept between builds: each distinct piece of art is written (or converted and drawn) once.

Art becomes a PDF form. For the plain shapes the templates draw, ``artstream``
writes the form's operators straight from the SVG (about a ms a piece); other
art is converted with svglib (a few ms) and drawn by reportlab's renderer (a
third of a ms more). Either way the form is kept, keyed by the art's content
hash (and, as every entry of the store, by all the code, templates and
libraries):

- when the form is self-contained, as its *content stream*: the PDF operators
  ``artstream`` wrote, or reportlab's renderer wrote into the form (read with
  the canvas's public ``getCurrentPageContent``), stored as plain data in the
  store (namespace ``art``: JSON with a digest, checked on read). A later
  build defines the form from these with ``addLiteral``, byte for byte what
  drawing it writes. Self-contained means the stream names no resource of
  the document: no ``/Name`` operand at all, so no font (text), image, nested
  form, colour space, shading or transparency state, whose names and objects
  belong to the document being written;
- otherwise (art with letters, say), as the converted Drawing, in this
  command's memory only: a Drawing is a Python object, and nothing read from
  disk may become one. Each document draws it with reportlab's renderer.

Only reportlab's public canvas API is used: a form is opened with
``beginForm``, drawn with ``renderPDF.draw`` or ``addLiteral``, closed with
``endForm``. An entry that fails any check is written or converted again and
rewritten.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from reportlab.pdfgen.canvas import Canvas

from pipeline import store
from pipeline.base import shape
from pipeline.base.shape import ShapeError
from pipeline.cards import artstream, fonts
from pipeline.cards.svgpaint import ParsedPath

if TYPE_CHECKING:
    from reportlab.graphics.shapes import Drawing

NAMESPACE = "art"
# A PDF name operand (``/F1``, ``/gRLs0``, ``/FormXob.x``): the stream refers to an object of its document.
DOCUMENT_NAME = "/"


@dataclass(frozen=True)
class Stream:
    """A self-contained form: its size and its content (the PDF operators, one string)."""

    width: float
    height: float
    content: str


Art = Union[Stream, "Drawing"]


def _stream_plain(stream: Stream) -> dict[str, Any]:
    return {"width": stream.width, "height": stream.height, "content": stream.content}


def _stream_from_plain(plain: Any) -> Stream:
    """The Stream a stored entry describes; ShapeError unless every part has its type and the content names
    no resource of a document."""
    if not isinstance(plain, dict) or set(plain) != {"width", "height", "content"}:
        raise ShapeError("not a stream")
    content = shape.text(plain["content"])
    if DOCUMENT_NAME in content:
        raise ShapeError("a stream naming a resource of its document")
    return Stream(shape.number(plain["width"]), shape.number(plain["height"]), content)


class ArtCache:
    """Art by key: in memory for one command, in the store across builds.

    The command makes one and hands it to what lays out and draws its faces (validate's card check, every
    document of the build, both editions): art converted or read once is drawn from memory after, and nothing
    outlives the command.
    """

    def __init__(self) -> None:
        self._memory: dict[str, Art] = {}  # Drawings (art that is not self-contained) are kept here only
        self._converted: dict[str, "Drawing"] = {}  # art converted in this command (a build, art svgpaint cannot read)
        self._laid_out: dict[str, tuple[Any, Callable[[], "Drawing"]]] = {}  # art split in this command: SVG, converter
        self._parsed: dict[str, list[ParsedPath]] = {}  # the paths of art split in this command, as read, until written

    def converted(self, key: str, convert: Callable[[], "Drawing"]) -> "Drawing":
        """The Drawing of art ``key`` (a digest of its SVG), converted once per command (by the converter
        ``laid_out`` left for it, else by ``convert``): the build draws it into a form."""
        if key not in self._converted:
            laid_out = self._laid_out.pop(key, None)
            self._converted[key] = (laid_out[1] if laid_out is not None else convert)()
        return self._converted[key]

    def laid_out(self, key: str, svg: Any, convert: Callable[[], "Drawing"], parsed: Optional[list[ParsedPath]] = None) -> None:
        """Note that art ``key`` (its SVG root ``svg``) was split from a face in this command (validate's card
        check reads its paints from the SVG, converting nothing): the build of the same command writes it
        (``artstream``), else converts it with ``convert``, when it first draws it, without rendering the face's
        template again to find its SVG. ``parsed``: its paths as that reading parsed them, in document order
        (the writer takes them instead of parsing the same paths again; dropped once the art is written)."""
        if key not in self._converted and key not in self._laid_out:
            self._laid_out[key] = (svg, convert)
            if parsed is not None:
                self._parsed[key] = parsed

    def has(self, key: str, under: store.Scope) -> bool:
        """Whether art ``key`` is at hand without rendering its face: split or converted in this command already
        (the card check splits every face it lays out), or in the store (read into memory; its entries are
        looked up ``under`` a scope the build took once)."""
        return key in self._converted or key in self._laid_out or self._get(key, under) is not None

    def define_form(self, canvas: Canvas, name: str, key: str, convert: Callable[[], "Drawing"],
                    under: store.Scope, svg: Optional[Any] = None) -> tuple[float, float]:
        """Define form ``name`` on ``canvas`` from art ``key`` (its SVG root ``svg``, when at hand), writing or
        converting it only when no earlier build did; returns the form's size in points."""
        art = self._get(key, under)
        if art is None:
            art = self._written(key, svg, under)
        if isinstance(art, Stream):
            _replay(canvas, name, art)
            return art.width, art.height
        drawing = art if art is not None else self.converted(key, convert)
        stream = _draw(canvas, name, drawing)
        if stream is not None:
            store.keep(NAMESPACE, [key], _stream_plain(stream), under=under)
        self._memory[key] = stream if stream is not None else drawing
        return drawing.width, drawing.height

    def _written(self, key: str, svg: Optional[Any], under: store.Scope) -> Optional[Stream]:
        """Art ``key`` written straight from its SVG (``artstream``: plain shapes, no svglib), kept; None when its
        SVG is not at hand or uses what that does not write."""
        laid_out = self._laid_out.get(key)
        root = svg if svg is not None else laid_out[0] if laid_out is not None else None
        parsed = self._parsed.pop(key, None)  # (the paths of this very art: ``written`` checks each one's ``d``)
        found = artstream.written(root, parsed) if root is not None else None
        if found is None:
            return None
        stream = Stream(*found)
        store.keep(NAMESPACE, [key], _stream_plain(stream), under=under)
        self._memory[key] = stream
        return stream

    def _get(self, key: str, under: store.Scope) -> Optional[Art]:
        art = self._memory.get(key)  # (what this command converted or read: its code does not change)
        if art is None:
            art = self.stored(key, under)
            if art is not None:
                self._memory[key] = art
        return art

    def stored(self, key: str, under: store.Scope) -> Optional[Stream]:
        """Art ``key`` as an earlier build kept it in the store (None when no entry reads back)."""
        return store.recall(NAMESPACE, [key], _stream_from_plain, under=under)


def _draw(canvas: Canvas, name: str, drawing: "Drawing") -> Optional[Stream]:
    """Draw ``drawing`` as form ``name``; its content stream when the form is self-contained, else None."""
    from reportlab.graphics import renderPDF  # reportlab's graphics only when art is drawn, not replayed

    canvas.beginForm(name, 0, 0, drawing.width, drawing.height)  # a form starts a content stream of its own
    drawing.initialFontName = fonts.font_name()  # not reportlab's default, Helvetica: it would not be embedded
    renderPDF.draw(drawing, canvas, 0, 0)
    content = canvas.getCurrentPageContent()  # (the current stream: this form's)
    canvas.endForm()
    return Stream(drawing.width, drawing.height, content) if DOCUMENT_NAME not in content else None


def _replay(canvas: Canvas, name: str, stream: Stream) -> None:
    """Define form ``name`` from a recorded stream: what ``_draw`` wrote, without drawing again."""
    canvas.beginForm(name, 0, 0, stream.width, stream.height)
    canvas.addLiteral(stream.content)  # reportlab's public way to put PDF operators into the stream
    canvas.endForm()
