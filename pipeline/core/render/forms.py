"""Faces as PDF form XObjects: fixed art converted once with svglib, per-card slots drawn on top.

A rendered face is split in two. Everything in the SVG namespace is *art*:
it is hashed, each distinct art is converted with svglib once (``artcache``
keeps the result between builds) and defined once per document as a form
XObject (a deck of 60 cards on 5 colour frames converts 5 arts, not 60). Elements in the ``pp:`` namespace are *slots*:
``<pp:text>`` boxes (fitted and drawn with reportlab) and ``<pp:icon>``
placements (icon forms). A face placed more than once (a card back, the
copies of a card) becomes a form of its own, so each further copy costs one
``Do`` on the page; a face placed once is drawn inline. Heavy shared parts of
the art can be marked as layers (``<g pp:layer>``) and are converted apart.

Slot coordinates are mm from the trim's top-left corner, y down, like the art.
"""
from __future__ import annotations

import copy
import hashlib
import logging
import re
from dataclasses import dataclass
from typing import Any, Hashable, Iterator, Mapping, Optional

from lxml import etree
from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Drawing
from reportlab.pdfgen.canvas import Canvas
from svglib.svglib import SvgRenderer

from pipeline.core.errors import UserError
from pipeline.core.render import artcache, fonts, text
from pipeline.core.render.model import Face
from pipeline.core.render.svgtemplates import PP_NS, SVG_NS, Templates
from pipeline.core.render.units import mm

PP = f"{{{PP_NS}}}"
UNRESOLVED = "[["  # a [[kind/id]] reference that reached the card unresolved
HALF_TURN = "180"
TURNS = ("0", HALF_TURN)
DEFAULT_TEXT = {"size": "9", "min-size": "6", "align": "left", "valign": "top", "fill": "#000000"}
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
logging.getLogger("svglib.svglib").setLevel(logging.ERROR)


@dataclass
class FaceForm:
    """A face rendered and split: its art form, its slots, its trim size (mm) and how often it is placed.

    A face placed once is drawn inline (art form + slots); a face placed more
    than once becomes a form of its own at its first placement.
    """

    key: str
    where: str
    art: tuple[str, ...]
    slots: list[Any]
    trim_w: float
    trim_h: float
    bleed: float
    uses: int = 0
    form: Optional[str] = None

    @property
    def width_pt(self) -> float:
        return mm(self.trim_w + 2 * self.bleed)

    @property
    def height_pt(self) -> float:
        return mm(self.trim_h + 2 * self.bleed)


def _digest(data: str | bytes) -> str:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return hashlib.blake2b(raw, digest_size=10).hexdigest()


class Forms:
    """The forms of one PDF document: faces, arts and icons, each defined once."""

    def __init__(self, canvas: Canvas, templates: Templates) -> None:
        self.canvas = canvas
        self.templates = templates
        self.bleed = templates.bleed_mm
        self._faces: dict[str, FaceForm] = {}
        self._face_objects: dict[int, tuple[Face, FaceForm]] = {}  # the same Face object (a shared back) renders once
        self._rendered: dict[tuple[str, Hashable], FaceForm] = {}  # faces of equal plain content render once
        self._arts: set[str] = set()
        self._layers: dict[tuple[Any, ...], str] = {}  # layer content (as it sits in its face) -> art form
        self._icons: dict[str, str] = {}
        self._texts: dict[tuple[bytes, float], Optional[text.Prepared]] = {}  # text slots set in this document

    # -- faces ------------------------------------------------------------
    def face(self, face: Face, where: str) -> FaceForm:
        """``face`` rendered and split, its art converted, on first use; the same object again costs nothing."""
        seen = self._face_objects.get(id(face))
        if seen is not None and seen[0] is face:
            return seen[1]
        form = self._face_form(face, where)
        self._face_objects[id(face)] = (face, form)
        return form

    def _face_form(self, face: Face, where: str) -> FaceForm:
        content = _plain_key(face.context)
        rendered = self._rendered.get((face.template, content)) if content is not None else None
        if rendered is not None:  # an equal face of another card (a shared back built per card)
            return rendered
        form = self._face_form_of(self.templates.render(face.template, face.context, where), face, where)
        if content is not None:
            self._rendered[(face.template, content)] = form
        return form

    def _face_form_of(self, svg: str, face: Face, where: str) -> FaceForm:
        key = _digest(svg)
        found = self._faces.get(key)
        if found is not None:
            return found
        try:
            root = etree.fromstring(svg.encode("utf-8"), _PARSER)
        except etree.XMLSyntaxError as exc:
            raise UserError(f"{where}: template {face.template} produced invalid SVG: {exc}") from None
        trim_w, trim_h = _trim(root, face.template, where)
        slots = [el for el in root.iter(f"{PP}*") if _is_top_slot(el)]
        for slot in slots:
            slot.getparent().remove(slot)
        prepared = FaceForm(key, where, self._art(root, where), slots, trim_w, trim_h, self.bleed)
        self._faces[key] = prepared
        return prepared

    def place(self, face: FaceForm, x: float, y: float, *, turned: bool = False) -> None:
        """Draw ``face`` with its bleed box's bottom-left at (x, y) points, or turned 180 degrees in that box."""
        canvas = self.canvas
        canvas.saveState()
        if turned:
            canvas.translate(x + face.width_pt, y + face.height_pt)
            canvas.rotate(float(HALF_TURN))
        else:
            canvas.translate(x, y)
        if face.uses > 1:
            if face.form is None:
                face.form = f"face_{face.key}"
                canvas.beginForm(face.form, 0, 0, face.width_pt, face.height_pt)
                self._draw_face(face)
                canvas.endForm()
            canvas.doForm(face.form)
        else:
            self._draw_face(face)
        canvas.restoreState()

    def _draw_face(self, face: FaceForm) -> None:
        for art in face.art:
            self.canvas.doForm(art)
        for slot in face.slots:
            self._slot(slot, face.trim_w, face.trim_h, face.where)

    def _art(self, root: Any, where: str) -> tuple[str, ...]:
        """The art forms of a face, bottom to top: one per layer (see ``_layers``)."""
        layers = _layers(root)
        if len(layers) == 1:
            return (self._art_form(root, where),)
        return tuple(self._layer_form(root, layer, where) for layer in layers)

    def _layer_form(self, root: Any, elements: list[Any], where: str) -> str:
        """The art form of one layer; a layer met again (a god's frame on each of its cards) is not copied again."""
        seen = (tuple(root.items()), tuple(sorted(root.nsmap.items(), key=str)), tuple(etree.tostring(e) for e in elements))
        if seen not in self._layers:
            self._layers[seen] = self._art_form(_svg_with(root, elements), where)
        return self._layers[seen]

    def _art_form(self, root: Any, where: str) -> str:
        key = _digest(etree.tostring(root))
        name = f"art_{key}"
        if key in self._arts:
            return name
        drawing = artcache.shared().get(key, lambda: _checked_convert(root, where))
        self.canvas.beginForm(name, 0, 0, drawing.width, drawing.height)
        renderPDF.draw(drawing, self.canvas, 0, 0)
        self.canvas.endForm()
        self._arts.add(key)
        return name

    # -- slots ------------------------------------------------------------
    def _slot(self, node: Any, trim_w: float, trim_h: float, where: str) -> None:
        """Draw one slot; ``rotate="180"`` turns it about the card's centre (the other half of a two-way card)."""
        turn = node.get("rotate", "0")
        if turn not in TURNS:
            raise UserError(f"{where}: rotate='{turn}' is not one of {', '.join(TURNS)}")
        if turn == HALF_TURN:
            centre_x, centre_y = mm(trim_w / 2 + self.bleed), mm(trim_h / 2 + self.bleed)
            self.canvas.saveState()
            self.canvas.translate(centre_x, centre_y)
            self.canvas.rotate(float(HALF_TURN))
            self.canvas.translate(-centre_x, -centre_y)
        self._unturned_slot(node, trim_h, where)
        if turn == HALF_TURN:
            self.canvas.restoreState()

    def _unturned_slot(self, node: Any, trim_h: float, where: str) -> None:
        local = etree.QName(node).localname
        if local == "text":
            self._text(node, trim_h, where)
        elif local == "icon":
            x, y, height = (_number(node, a, where) for a in ("x", "y", "height"))
            name = _required(node, "name", where)
            self.draw(self.canvas, name, mm(x + self.bleed), mm(trim_h + self.bleed - y - height), mm(height), where)
        else:
            raise UserError(f"{where}: unknown slot <pp:{local}> (slots are pp:text and pp:icon)")

    def _text(self, node: Any, trim_h: float, where: str) -> None:
        """Draw a text slot; the same slot (markup and place) met again in this document is painted as set before."""
        key = (etree.tostring(node, with_tail=False), trim_h)
        if key not in self._texts:
            self._texts[key] = self._prepare_text(node, trim_h, where)
        prepared = self._texts[key]
        if prepared is not None:
            text.paint(self.canvas, prepared, self)

    def _prepare_text(self, node: Any, trim_h: float, where: str) -> Optional[text.Prepared]:
        """A text slot fitted to its box and set (None when it holds no text)."""
        get = lambda name: node.get(name, DEFAULT_TEXT.get(name))  # noqa: E731
        x, y, width, height = (_number(node, a, where) for a in ("x", "y", "width", "height"))
        box = text.Box(
            x=mm(x + self.bleed),
            top=mm(trim_h + self.bleed - y),
            width=mm(width),
            height=mm(height),
            size=float(get("size")),
            min_size=float(get("min-size")),
            align=_choice(get("align"), text.ALIGNS, "align", where),
            valign=_choice(get("valign"), text.VALIGNS, "valign", where),
            color=get("fill"),
        )
        base = fonts.svg_style(node.get("font-weight"), node.get("font-style"))
        atoms = list(_atoms(node, base, where))
        if not atoms:
            return None
        label = node.get("name")
        unresolved = next((a.text for a in atoms if UNRESOLVED in a.text), None)
        if unresolved is not None:
            raise UserError(f"{where}: '{unresolved}' is an unresolved reference: the game's renderer must print names")
        layout = text.fit(atoms, box, self, f"{where}{f' ({label})' if label else ''}")
        return text.prepare(self.canvas, layout, box)

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
        icon = self.templates.icons.get(name, where)
        svg = (
            f'<svg xmlns="{SVG_NS}" width="{icon.width}mm" height="{icon.height}mm" '
            f'viewBox="0 0 {icon.width} {icon.height}">{icon.markup}</svg>'
        )
        drawing = artcache.shared().get(_digest(svg), lambda: _checked_convert(etree.fromstring(svg.encode()), f"icon {name}"))
        form = f"icon_{re.sub('[^a-z0-9]', '_', name)}"
        # reportlab allows a form to be defined while another one is open (it stacks them),
        # so an icon met first inside a face is defined right there.
        self.canvas.beginForm(form, 0, 0, drawing.width, drawing.height)
        renderPDF.draw(drawing, self.canvas, 0, 0)
        self.canvas.endForm()
        self._icons[name] = form
        return form


_PLAIN_SCALARS = (str, int, float, bool, type(None))


def _plain_key(value: Any) -> Optional[Hashable]:
    """A hashable key holding all of plain template data (mappings, lists, scalars), in order and
    with types (1, 1.0 and True print differently); None for anything else, whose content a key
    could miss."""
    if isinstance(value, _PLAIN_SCALARS):
        return (type(value), value)
    if isinstance(value, Mapping):
        items = []
        for name, item in value.items():
            key = _plain_key(item)
            if key is None or not isinstance(name, str):
                return None
            items.append((name, key))
        return ("map", tuple(items))
    if isinstance(value, (list, tuple)):
        parts = []
        for item in value:
            key = _plain_key(item)
            if key is None:
                return None
            parts.append(key)
        return (type(value), tuple(parts))
    return None


def _checked_convert(root: Any, where: str) -> Drawing:
    """Convert art after checking that the font has every character its text uses."""
    for node in root.iter(f"{{{SVG_NS}}}text", f"{{{SVG_NS}}}tspan"):
        style = fonts.svg_style(node.get("font-weight"), node.get("font-style"))
        fonts.check_glyphs(node.text or "", f"{where} (template art)", style)
    return _convert(root, where)


def _convert(root: Any, where: str) -> Drawing:
    try:
        drawing = SvgRenderer("").render(root)
    except Exception as exc:  # svglib raises many kinds for malformed art
        raise UserError(f"{where}: cannot convert the template art: {type(exc).__name__}: {exc}") from None
    return drawing


def _layers(root: Any) -> list[list[Any]]:
    """The art split into layers converted (and cached) apart, bottom to top.

    Every top-level ``<g pp:layer="...">`` is a layer of its own; the elements
    between them form layers too. Marking the heavy, widely shared parts of a
    template (a god's patterned frame, a deck's border) as layers means they
    are converted once however the rest of the face varies.
    """
    layers: list[list[Any]] = []
    loose: list[Any] = []
    for child in root:
        if isinstance(child.tag, str) and child.get(f"{PP}layer") is not None:
            if loose:
                layers.append(loose)
                loose = []
            layers.append([child])
        else:
            loose.append(child)
    if loose:
        layers.append(loose)
    return layers or [[]]


def _svg_with(root: Any, elements: list[Any]) -> Any:
    """A copy of the root element holding only ``elements``."""
    layer = etree.Element(root.tag, attrib=dict(root.attrib), nsmap=root.nsmap)
    for element in elements:
        layer.append(copy.deepcopy(element))
    return layer


def _trim(root: Any, template: str, where: str) -> tuple[float, float]:
    raw = root.get(f"{PP}trim")
    try:
        width, height = (float(v) for v in (raw or "").split())
    except ValueError:
        raise UserError(f"{where}: template {template} must declare its trim size (use the card() macro)") from None
    return width, height


def _is_top_slot(node: Any) -> bool:
    """A slot not nested inside another slot (inline pp:b, pp:icon... belong to their text box)."""
    parent = node.getparent()
    while parent is not None:
        if isinstance(parent.tag, str) and parent.tag.startswith(PP):
            return False
        parent = parent.getparent()
    return True


def _number(node: Any, attr: str, where: str) -> float:
    raw = node.get(attr)
    try:
        return float(raw)
    except (TypeError, ValueError):
        raise UserError(f"{where}: <pp:{etree.QName(node).localname}> needs a number {attr}= (got {raw!r})") from None


def _required(node: Any, attr: str, where: str) -> str:
    raw = node.get(attr)
    if not raw:
        raise UserError(f"{where}: <pp:{etree.QName(node).localname}> needs {attr}=")
    return raw


def _choice(value: str, options: tuple[str, ...], attr: str, where: str) -> str:
    if value not in options:
        raise UserError(f"{where}: {attr}='{value}' is not one of {', '.join(options)}")
    return value


STYLE_TAGS = {"b": (True, None), "i": (None, True)}


def _atoms(node: Any, style: str, where: str, pending: Optional[list[bool]] = None) -> Iterator[text.Atom]:
    """The inline atoms of a text slot: words, icons and breaks, with the whitespace between them."""
    state = pending if pending is not None else [False, False]  # [space before next, newline before next]
    yield from _split(node.text or "", style, state)
    for child in node:
        if not isinstance(child.tag, str):
            yield from _split(child.tail or "", style, state)
            continue
        local = etree.QName(child).localname
        if local == "icon":
            yield text.Atom("", style, icon=_required(child, "name", where), space=state[0], newline=state[1])
            state[0] = state[1] = False
        elif local == "br":
            state[1] = True
        elif local in STYLE_TAGS:
            bold = style in (fonts.BOLD, fonts.BOLD_ITALIC) or local == "b"
            italic = style in (fonts.ITALIC, fonts.BOLD_ITALIC) or local == "i"
            inner = fonts.svg_style("bold" if bold else None, "italic" if italic else None)
            yield from _atoms(child, inner, where, state)
        else:
            raise UserError(f"{where}: <pp:{local}> is not allowed inside text (use pp:b, pp:i, pp:icon, pp:br)")
        yield from _split(child.tail or "", style, state)


_SPACES = re.compile(r"(\s+)")


def _split(raw: str, style: str, state: list[bool]) -> Iterator[text.Atom]:
    for piece in _SPACES.split(raw):
        if not piece:
            continue
        if piece.isspace():
            state[0] = True
            continue
        yield text.Atom(piece, style, space=state[0], newline=state[1])
        state[0] = state[1] = False
