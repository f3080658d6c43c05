"""Faces as PDF form XObjects: fixed art converted once, per-card slots drawn on top.

``faces.py`` turns a face into a record: its art layers by key and its
slots, set. Here each distinct art becomes one form per document (a deck of
60 cards on 5 colour frames defines 5 arts, not 60; ``artcache`` keeps the
converted art between builds) and the slots are painted over it: text as
text objects, icons as icon forms. A face placed more than once (a card
back, the copies of a card) becomes a form of its own, so each further copy
costs one ``Do`` on the page; a face placed once is drawn inline.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, Protocol

from lxml import etree
from reportlab.pdfgen.canvas import Canvas

from pipeline.base.errors import UserError
from pipeline.cards import artcache, artmap, text
from pipeline.cards.facemetrics import Frame
from pipeline.cards.faces import HALF_TURN, FaceRecord, FaceRecords, IconSlot, Splitter, content_key, digest
from pipeline.cards.imposition import Rect
from pipeline.cards.plan import Face
from pipeline.cards.svgtemplates import Templates
from pipeline.cards.units import mm

if TYPE_CHECKING:
    from reportlab.graphics.shapes import Drawing


@dataclass
class FaceForm:
    """A face in one document: its record, the card it belongs to, and how often it is placed.

    A face placed once is drawn inline (art forms + slots); a face placed more
    than once becomes a form of its own at its first placement.
    """

    where: str
    record: FaceRecord
    bleed: float
    uses: int = 0
    form: Optional[str] = None

    @property
    def trim_w(self) -> float:
        return self.record.trim_w

    @property
    def trim_h(self) -> float:
        return self.record.trim_h

    @property
    def frame(self) -> Frame:
        return Frame(self.trim_w, self.trim_h, self.bleed)

    @property
    def width_pt(self) -> float:
        return self.frame.width_pt

    @property
    def height_pt(self) -> float:
        return self.frame.height_pt


class LaidOutFaces(Protocol):
    """Faces laid out earlier in the same command (validate's card check, ``cardlayout.Layouts``)."""

    @property
    def arts(self) -> Mapping[str, Any]: ...  # art key -> its SVG root

    @property
    def splitter(self) -> Splitter: ...

    @property
    def ink_saver(self) -> bool: ...  # the edition its templates rendered

    @property
    def records(self) -> FaceRecords: ...  # the game's face records as the layout read and kept them

    def record(self, key: str) -> Optional[FaceRecord]: ...


class Forms:
    """The forms of one PDF document: faces, arts and icons, each defined once.

    ``records`` names the kind of document whose face records are kept between
    builds (a game); without it, faces are only shared within this document.
    ``laid_out``: the faces validation laid out in this command, from the same templates. Its records and art
    are drawn as they are in the same edition (full colour or ink-friendly), its face records (what the store
    holds for the game) are the ones this document counts its faces in, and its splitter sets the faces
    of another edition, so text and art layers the editions share are worked once. ``art``: the command's art
    cache, shared by its documents (else this document's own); with ``laid_out``, the one its splitter has.
    """

    def __init__(self, canvas: Canvas, templates: Templates, records: Optional[str] = None, *,
                 laid_out: Optional[LaidOutFaces] = None, art: Optional[artcache.ArtCache] = None) -> None:
        self.canvas = canvas
        self.templates = templates
        self.bleed = templates.bleed_mm
        self._scope = templates.scope
        self._splitter = laid_out.splitter if laid_out is not None else Splitter(templates, art)
        self._art = self._splitter.art_cache
        self._laid_out = laid_out if laid_out is not None and laid_out.ink_saver == templates.ink_saver else None
        # the game's records as the layout of this command read and kept them (its edition), not read again
        self.records = self._laid_out.records if self._laid_out is not None and records else FaceRecords(templates, records)
        self._face_objects: dict[int, tuple[Face, FaceForm]] = {}  # the same Face object (a shared back) splits once
        self._by_content: dict[str, FaceForm] = {}  # faces of equal template and values split once
        self._by_record: dict[FaceRecord, FaceForm] = {}  # faces that came out the same are one face
        self._arts: set[str] = set()
        self._icons: dict[str, str] = {}
        self._encoded: dict[text.SetText, text.Prepared] = {}  # text set on earlier faces of this document

    # -- faces ------------------------------------------------------------
    def face(self, face: Face, where: str) -> FaceForm:
        """``face`` rendered and split, its art defined, on first use; the same object again costs nothing."""
        seen = self._face_objects.get(id(face))
        if seen is not None and seen[0] is face:
            return seen[1]
        form = self._face_form(face, where)
        self._face_objects[id(face)] = (face, form)
        return form

    def _face_form(self, face: Face, where: str) -> FaceForm:
        content = content_key(face)
        if content is None:
            return self._rendered(face, where)
        form = self._by_content.get(content)
        if form is None:
            form = self._laid_out_form(content, where)
        if form is None:
            record = self.records.get(content)
            if record is not None and all(self._at_hand(k) for k in record.art):
                form = self._form(record, {}, where)
            elif record is not None:  # laid out by an earlier command's card check, its art not yet converted
                svg = self.templates.render(face.template, face.context, where)
                form = self._form(record, self._splitter.art(svg, face.template, where), where)
            else:
                form = self._rendered(face, where)
                self.records.put(content, form.record)
        self._by_content[content] = form
        return form

    def _laid_out_form(self, content: str, where: str) -> Optional[FaceForm]:
        """The face of ``content`` as validation laid it out in this command, when it did and its art is at hand."""
        laid_out = self._laid_out
        record = laid_out.record(content) if laid_out is not None else None
        if laid_out is None or record is None or not all(k in laid_out.arts or self._at_hand(k) for k in record.art):
            return None
        self.records.use(content, record)
        return self._form(record, laid_out.arts, where)

    def _at_hand(self, key: str) -> bool:
        """Whether art ``key`` is defined in this document already, or converted or stored before."""
        return key in self._arts or self._art.has(key, self._scope)

    def _rendered(self, face: Face, where: str) -> FaceForm:
        record, roots = self._splitter.split(self.templates.render(face.template, face.context, where), face.template, where)
        return self._form(record, roots, where)

    def _form(self, record: FaceRecord, roots: Mapping[str, Any], where: str) -> FaceForm:
        """A face form over ``record``, defining its arts (``roots``: SVG of arts this build may have to convert)."""
        for key in record.art:
            if key not in self._arts:
                root = roots.get(key)
                convert = self._converter(key, root, where)
                self._art.define_form(self.canvas, _art_name(key), key, convert, self._scope, root)
                self._arts.add(key)
        if record not in self._by_record:
            self._by_record[record] = FaceForm(where, record, self.bleed)
        return self._by_record[record]

    def _converter(self, key: str, root: Any, where: str) -> Callable[[], Drawing]:
        """How to convert the art of ``key`` should the art cache not have it (the splitter's Drawing)."""
        if root is None:
            return _no_art(key, where)
        return lambda: self._splitter.drawing(key, root, where)

    def place(self, face: FaceForm, x: float, y: float, *, turned: bool = False, clip: Optional[Rect] = None) -> None:
        """Draw ``face`` with its bleed box's bottom-left at (x, y) points, or turned 180 degrees in that box;
        ``clip`` (x, y, width, height on the page) limits what it paints."""
        canvas = self.canvas
        canvas.saveState()
        if clip is not None:
            path = canvas.beginPath()
            path.rect(*clip)
            canvas.clipPath(path, stroke=0, fill=0)
        if turned:
            canvas.translate(x + face.width_pt, y + face.height_pt)
            canvas.rotate(float(HALF_TURN))
        else:
            canvas.translate(x, y)
        if face.uses > 1:
            if face.form is None:
                face.form = f"face_{face.record.digest()}"
                canvas.beginForm(face.form, 0, 0, face.width_pt, face.height_pt)
                self._draw_face(face)
                canvas.endForm()
            canvas.doForm(face.form)
        else:
            self._draw_face(face)
        canvas.restoreState()

    def _draw_face(self, face: FaceForm) -> None:
        for key in face.record.art:
            self.canvas.doForm(_art_name(key))
        for slot in face.record.slots:
            if slot.turned:  # the other half of a two-way card: turned about the card's centre
                centre_x, centre_y = face.width_pt / 2, face.height_pt / 2
                self.canvas.saveState()
                self.canvas.translate(centre_x, centre_y)
                self.canvas.rotate(float(HALF_TURN))
                self.canvas.translate(-centre_x, -centre_y)
            if isinstance(slot, IconSlot):
                self.draw(self.canvas, slot.name, slot.x, slot.y, slot.height, face.where)
            else:
                text.paint(self.canvas, self._encode(slot.setting), self)
            if slot.turned:
                self.canvas.restoreState()

    def _encode(self, setting: text.SetText) -> text.Prepared:
        if setting not in self._encoded:
            self._encoded[setting] = text.encode(self.canvas, setting)
        return self._encoded[setting]

    def finish(self) -> None:
        """Keep this document's face records for the next build (call once the document is complete)."""
        self.records.save()

    # -- icons (text.IconSource) -------------------------------------------
    def aspect(self, name: str, where: str) -> float:
        return self.templates.icons.get(name, where).aspect

    def draw(self, canvas: Canvas, name: str, x: float, y: float, height: float, where: str = "") -> None:
        form = self._icon_form(name, where)
        icon = self.templates.icons.get(name, where)
        scale = height / mm(icon.height)
        canvas.saveState()
        canvas.translate(x, y)
        canvas.scale(scale, scale)
        canvas.doForm(form)
        canvas.restoreState()

    def _icon_form(self, name: str, where: str) -> str:
        if name in self._icons:
            return self._icons[name]
        svg = self.templates.icons.get(name, where).svg()
        form = f"icon_{re.sub('[^a-z0-9]', '_', name)}"
        # reportlab allows a form to be defined while another one is open (it stacks them),
        # so an icon met first inside a face is defined right there.
        convert = lambda: artmap.convert(etree.fromstring(svg.encode()), f"icon {name}")  # noqa: E731
        self._art.define_form(self.canvas, form, digest(svg), convert, self._scope, etree.fromstring(svg.encode()))
        self._icons[name] = form
        return form


def _art_name(key: str) -> str:
    return f"art_{key}"


def _no_art(key: str, where: str) -> Any:
    """The converter of an art known only by key (its record came from an earlier build)."""

    def convert() -> Drawing:
        raise UserError(f"{where}: art {key} left the cache during the build; run the build again")

    return convert
