"""Card faces rendered and split into records that hold no document state, kept between builds.

A face's template output is split in two. Everything in the SVG namespace
is *art*: split into layers (``<g pp:layer>`` at the top level; see
``_layers``), each hashed; ``forms.py`` defines one form per distinct art.
A pattern's mark (``<pp:pattern>``, what a template's ``pattern(...)``
prints) belongs to the art: its shapes are drawn into a layer when the layer
is first made, so a frame repeated on many faces is drawn once. Other
elements in the ``pp:`` namespace are *slots*: text boxes, fitted and set
here (line breaks, sizes, positions), and icon placements.

The result, a ``FaceRecord``, is plain data (tuples, strings, numbers), so
a build keeps the records of its faces in the store (one entry per game,
namespace ``faces``) and the next build of an unchanged face skips the
template, the SVG parse and the text fitting. Within the entry a record's
key holds the face's template name and values; the entry's key is the game
and the ink-saver option, under the store's digest of all code, the
templates in use and the libraries, so any change there starts afresh. A
record read back is checked field by field (a record of the wrong shape is
rendered afresh). Faces whose values are not plain data are simply not kept.

Slot coordinates in templates are mm from the trim's top-left corner, y
down, like the art; records hold points, y up, from the bleed box's corner.
"""
from __future__ import annotations

import copy
import hashlib
import marshal
import re
from dataclasses import dataclass, field
from typing import Any, Iterator, NamedTuple, Optional, Union

from lxml import etree

from pipeline import store
from pipeline.base import shape
from pipeline.base.errors import UserError
from pipeline.base.shape import ShapeError
from pipeline.cards import artcache, artmap, design, fonts, patterns, svgpaint, text
from pipeline.cards.design import EdgeFacts, FaceFacts, IconFacts, TextFacts
from pipeline.cards.facemetrics import FactFinder, Frame, IconLetters, Placed, TextSpec, art_icons, icon_letters
from pipeline.cards.plan import Face
from pipeline.cards.svgtemplates import PP_NS, SVG_NS, Templates
from pipeline.cards.units import mm
from pipeline.data import markup
from pipeline.data.typography import typographic

PP = f"{{{PP_NS}}}"
PATTERN = f"{PP}{patterns.MARK}"  # a pattern's mark in the art: drawn when its layer is made (see ``_drawn_patterns``)
NAMESPACE = "faces"
HALF_TURN = "180"
TURNS = ("0", HALF_TURN)
DEFAULT_TEXT = {"size": "9", "align": "left", "valign": "top", "fill": "#000000", "role": design.TEXT_ROLE}
STYLE_TAGS = {"b": (True, False), "i": (False, True)}  # (bold, italic) each inline tag adds
ICON_CHARACTER = "\ufffc"  # what an inline icon counts as for the typography of the character after it
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)


class SlotError(UserError):
    """A text slot that cannot be printed (it does not fit, a glyph or icon is missing, bad markup),
    with the slot's name and its text as the template composed it (to find the data field it shows)."""

    def __init__(self, message: str, *, slot: str, printed: str) -> None:
        super().__init__(message)
        self.slot = slot
        self.printed = printed


class TextSlot(NamedTuple):
    turned: bool
    setting: text.SetText


class IconSlot(NamedTuple):
    turned: bool
    name: str
    x: float
    y: float
    height: float


Slot = Union[TextSlot, IconSlot]


@dataclass(frozen=True)
class FaceRecord:
    """A face split: its trim (mm), its art layers by key (bottom to top), its slots in drawing order,
    and the facts the design rules are checked on (which take no part in what the face looks like)."""

    trim_w: float
    trim_h: float
    art: tuple[str, ...]
    slots: tuple[Slot, ...]
    facts: FaceFacts = field(default=FaceFacts((), (), None), compare=False, hash=False)

    def _look(self) -> tuple[Any, ...]:
        slots = tuple(
            ("t", s.turned, (s.setting.color, s.setting.runs, s.setting.icons)) if isinstance(s, TextSlot) else ("i", *s)
            for s in self.slots
        )
        return (self.trim_w, self.trim_h, self.art, slots)

    def to_plain(self) -> tuple[Any, ...]:
        return (*self._look(), self.facts)

    def digest(self) -> str:
        """A name for the face that only its content decides (a cold and a warm build agree)."""
        return value_digest(self._look(), 10) or ""

    @property
    def texts(self) -> Iterator[str]:
        """The words of each text slot, as printed."""
        for slot in self.slots:
            if isinstance(slot, TextSlot):
                yield " ".join(run[4] for run in slot.setting.runs)

    @property
    def icon_names(self) -> set[str]:
        """Every icon the face prints: slots, icons inline in text, icons in the art."""
        return {icon.name for icon in self.facts.icons}

    @classmethod
    def from_plain(cls, plain: Any) -> FaceRecord:
        """The record ``to_plain`` described, from tuples or the lists JSON gives back; ShapeError
        unless every field has its type (the same types give the same digest)."""
        trim_w, trim_h, art, slots, facts = shape.sequence(plain, 5)
        return cls(
            shape.number(trim_w), shape.number(trim_h), shape.texts(art),
            tuple(_slot_from_plain(s) for s in shape.sequence(slots)), _facts_from_plain(facts),
        )


def _slot_from_plain(plain: Any) -> Slot:
    kind, *rest = shape.sequence(plain)
    if kind == "t" and len(rest) == 2:
        turned, (color, runs, icons) = shape.boolean(rest[0]), shape.sequence(rest[1], 3)
        return TextSlot(turned, text.SetText(shape.text(color), _runs(runs), _inline_icons(icons)))
    if kind == "i" and len(rest) == 5:
        turned, name, x, y, height = rest
        return IconSlot(shape.boolean(turned), shape.text(name), shape.number(x), shape.number(y), shape.number(height))
    raise ShapeError("unknown slot")


def _mm_box(plain: Any) -> design.MmBox:
    x0, y0, x1, y1 = (shape.number(v) for v in shape.sequence(plain, 4))
    return x0, y0, x1, y1


def _facts_from_plain(plain: Any) -> FaceFacts:
    texts, icons, edge = shape.sequence(plain, 3)
    text_facts = []
    for item in shape.sequence(texts):
        name, role, fill, bg, bold, size, min_size, fitted, box, base, under = shape.sequence(item, 11)
        text_facts.append(TextFacts(
            shape.text(name), shape.text(role), shape.text(fill), shape.text(bg), shape.boolean(bold),
            shape.number(size), shape.number(min_size), shape.number(fitted), _mm_box(box), shape.texts(base), shape.texts(under),
        ))
    icon_facts = []
    for item in shape.sequence(icons):
        name, box, letter_pt, letter_contrast = shape.sequence(item, 4)
        icon_facts.append(IconFacts(shape.text(name), _mm_box(box), shape.number(letter_pt), shape.number(letter_contrast)))
    edge_facts = None
    if edge is not None:
        distance, box = shape.sequence(edge, 2)
        edge_facts = EdgeFacts(shape.number(distance), _mm_box(box))
    return FaceFacts(tuple(text_facts), tuple(icon_facts), edge_facts)


def _runs(plain: Any) -> tuple[text.Run, ...]:
    runs = []
    for run in shape.sequence(plain):
        style, x, baseline, size, words = shape.sequence(run, 5)
        runs.append((shape.text(style), shape.number(x), shape.number(baseline), shape.number(size), shape.text(words)))
    return tuple(runs)


def _inline_icons(plain: Any) -> tuple[text.InlineIcon, ...]:
    icons = []
    for icon in shape.sequence(plain):
        name, x, y, height = shape.sequence(icon, 4)
        icons.append((shape.text(name), shape.number(x), shape.number(y), shape.number(height)))
    return tuple(icons)


def digest(data: Union[str, bytes]) -> str:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return hashlib.blake2b(raw, digest_size=10).hexdigest()


def content_key(face: Face) -> Optional[str]:
    """A key holding the face's template and every value it is rendered with, or None when a value
    is not plain data, whose content a key could miss."""
    return value_digest((face.template, face.context), 10)


class Splitter:
    """Splits rendered faces into records; art and text met on earlier faces are not worked again."""

    def __init__(self, templates: Templates, art: Optional[artcache.ArtCache] = None) -> None:
        self.templates = templates
        self.art_cache = art if art is not None else artcache.ArtCache()  # the command's art (what it converts, draws)
        self.bleed = templates.bleed_mm
        self.rules = templates.rules
        self._layers: dict[tuple[Any, ...], tuple[str, Any]] = {}  # layer content -> (art key, art root)
        self._texts: dict[tuple[bytes, float], Optional[tuple[text.SetText, TextSpec]]] = {}
        self._letters: dict[str, IconLetters] = {}
        self._finder = FactFinder(self._icon_letters)

    def split(self, svg: str, template: str, where: str) -> tuple[FaceRecord, dict[str, Any]]:
        """The record of a rendered face, and the SVG root of each of its art keys (to convert them)."""
        root, nodes = self._without_slots(svg, template, where)
        trim_w, trim_h = _trim(root, template, where)
        frame = Frame(trim_w, trim_h, self.bleed)
        placed = [Placed(name, frame.from_mm(box)) for name, box in art_icons(root, where)]
        arts = self._art(root, where)
        slots: list[Slot] = []
        texts: list[tuple[text.SetText, TextSpec]] = []
        for node in nodes:
            slot, spec = self._slot(node, trim_h, where)
            if slot is None:
                continue
            slots.append(slot)
            if isinstance(slot, IconSlot):
                placed.append(Placed(slot.name, _turned(frame, _icon_box(slot, self.aspect(slot.name, where)), slot.turned)))
            else:
                assert spec is not None
                texts.append((slot.setting, spec))
                placed.extend(
                    Placed(name, _turned(frame, (x, y, x + self.aspect(name, where) * height, y + height), slot.turned))
                    for name, x, y, height in slot.setting.icons
                )
        art = tuple(arts)
        facts = self._finder.facts(frame, art, lambda key: self.paints(key, arts[key], where), texts, placed, where)
        return FaceRecord(trim_w, trim_h, art, tuple(slots), facts), arts

    def art(self, svg: str, template: str, where: str) -> dict[str, Any]:
        """The SVG root of each art key of a rendered face whose record is known already (kept by an
        earlier split): the art alone, without setting its text or measuring its facts again."""
        return self._art(self._without_slots(svg, template, where)[0], where)

    @staticmethod
    def _without_slots(svg: str, template: str, where: str) -> tuple[Any, list[Any]]:
        """The parsed face with its top-level slots taken out, and those slots in document order."""
        try:
            root = etree.fromstring(svg.encode("utf-8"), _PARSER)
        except etree.XMLSyntaxError as exc:
            raise UserError(f"{where}: template {template} produced invalid SVG: {exc}") from None
        nodes = [el for el in root.iter(f"{PP}*") if el.tag != PATTERN and _is_top_slot(el)]
        for node in nodes:
            parent = node.getparent()
            if parent is None:
                raise UserError(f"{where}: template {template}: the root element cannot be a slot")
            parent.remove(node)
        return root, nodes

    def drawing(self, key: str, root: Any, where: str) -> Any:
        """The art of ``key`` converted by svglib, once per command (the forms draw this same Drawing)."""
        return self.art_cache.converted(key, lambda: artmap.convert(root, where))

    def paints(self, key: str, root: Any, where: str) -> tuple[artmap.Paint, ...]:
        """What the art of ``key`` paints where: read from its SVG (``svgpaint``), or, for art using what that
        does not read, from its conversion (``drawing``, which the build then draws)."""
        parsed: list[svgpaint.ParsedPath] = []  # its paths as read here, handed on with the SVG to its writer
        found = svgpaint.paints(root, parsed)
        if found is None:
            return artmap.paints([self.drawing(key, root, where)])
        self.art_cache.laid_out(key, root, lambda: artmap.convert(root, where), parsed)
        return found

    def _icon_letters(self, name: str, where: str) -> IconLetters:
        if name not in self._letters:
            icon = self.templates.icons.get(name, where)
            has_text = "<text" in icon.markup
            drawing = artmap.convert(etree.fromstring(icon.svg().encode()), f"icon {name}") if has_text else None
            self._letters[name] = icon_letters(icon, drawing) if drawing is not None else IconLetters(0.0, 0.0)
        return self._letters[name]

    # -- art ----------------------------------------------------------------
    def _art(self, root: Any, where: str) -> dict[str, Any]:
        """The art keys of a face, bottom to top, with their roots: one per layer."""
        layers = _layers(root)
        if len(layers) == 1:
            _drawn_patterns(root, where)
            return {digest(etree.tostring(root)): root}
        head = (tuple(root.items()), tuple(sorted(root.nsmap.items(), key=str)))  # (the face's root: each layer's)
        return dict(self._layer(root, head, layer, where) for layer in layers)

    def _layer(self, root: Any, head: tuple[Any, Any], elements: list[Any], where: str) -> tuple[str, Any]:
        """One layer's key and root; a layer met again (a god's frame on each of its cards) is not copied, nor its
        patterns drawn, again. ``head``: the root's attributes and namespaces, which every layer's copy of it carries."""
        seen = (*head, tuple(etree.tostring(e) for e in elements))
        if seen not in self._layers:
            layer = _svg_with(root, elements)
            _drawn_patterns(layer, where)
            self._layers[seen] = (digest(etree.tostring(layer)), layer)
        return self._layers[seen]

    # -- slots --------------------------------------------------------------
    def _slot(self, node: Any, trim_h: float, where: str) -> tuple[Optional[Slot], Optional[TextSpec]]:
        turn = node.get("rotate", "0")
        if turn not in TURNS:
            raise UserError(f"{where}: rotate='{turn}' is not one of {', '.join(TURNS)}")
        turned = turn == HALF_TURN
        local = etree.QName(node).localname
        if local == "text":
            found = self._text(node, trim_h, turned, where)
            return (TextSlot(turned, found[0]), found[1]) if found is not None else (None, None)
        if local == "icon":
            x, y, height = (_number(node, a, where) for a in ("x", "y", "height"))
            name = _required(node, "name", where)
            self.templates.icons.get(name, where)  # a missing icon fails here, naming the card
            return IconSlot(turned, name, mm(x + self.bleed), mm(trim_h + self.bleed - y - height), mm(height)), None
        raise UserError(f"{where}: unknown slot <pp:{local}> (slots are pp:text and pp:icon)")

    def _text(self, node: Any, trim_h: float, turned: bool, where: str) -> Optional[tuple[text.SetText, TextSpec]]:
        """A text slot fitted and set; the same slot (markup and place) met again is not fitted again."""
        key = (etree.tostring(node, with_tail=False), trim_h)
        if key not in self._texts:
            self._texts[key] = self._set_text(node, trim_h, turned, where)
        return self._texts[key]

    def _set_text(self, node: Any, trim_h: float, turned: bool, where: str) -> Optional[tuple[text.SetText, TextSpec]]:
        """A text slot fitted to its box and set, with what its template declares (None when it holds no text).

        Without ``min-size`` a slot does not shrink below what the design rules allow for its role."""
        get = lambda name: node.get(name, DEFAULT_TEXT.get(name))  # noqa: E731
        x, y, width, height = (_number(node, a, where) for a in ("x", "y", "width", "height"))
        role = _choice(get("role"), design.ROLES, "role", where)
        size = float(get("size"))
        min_size = float(node.get("min-size", min(size, self.rules.min_size(role))))
        box = text.Box(
            x=mm(x + self.bleed),
            top=mm(trim_h + self.bleed - y),
            width=mm(width),
            height=mm(height),
            size=size,
            min_size=min_size,
            align=_choice(get("align"), text.ALIGNS, "align", where),
            valign=_choice(get("valign"), text.VALIGNS, "valign", where),
            color=get("fill"),
        )
        text.check_colour(box.color, where)
        bg = node.get("bg", "")
        if bg:
            text.check_colour(bg, where)
        base = fonts.svg_style(node.get("font-weight"), node.get("font-style"))
        label = node.get("name")
        try:
            atoms = list(_atoms(node, base, where))
            if not atoms:
                return None
            layout = text.fit(atoms, box, self, f"{where}{f' ({label})' if label else ''}")
        except UserError as exc:
            raise SlotError(str(exc), slot=label or "", printed="".join(node.itertext())) from None
        spec = TextSpec(label or "", role, box.color, bg, size, min_size, (x, y, x + width, y + height), turned)
        return text.set_text(layout, box), spec

    def aspect(self, name: str, where: str) -> float:  # text.fit asks the icon library through this
        return self.templates.icons.get(name, where).aspect


def _icon_box(slot: IconSlot, aspect: float) -> artmap.Box:
    return slot.x, slot.y, slot.x + aspect * slot.height, slot.y + slot.height


def _turned(frame: Frame, box: artmap.Box, turned: bool) -> artmap.Box:
    return frame.turned(box) if turned else box


class FaceRecords:
    """The face records of one game's card sheets, read at the start of a build and written back at
    its end holding just the faces that build used."""

    def __init__(self, templates: Templates, game: Optional[str]) -> None:
        self.templates = templates
        self.inputs = [game, templates.ink_saver] if game else None
        self._stored = self._read()
        self._used: dict[str, FaceRecord] = {}
        self._changed = False  # a face was rendered afresh: the stored records are not what this build used

    def get(self, key: str) -> Optional[FaceRecord]:
        plain = self._stored.get(key)
        if plain is None:
            return None
        try:
            record = FaceRecord.from_plain(plain)
        except ValueError:  # a record of the wrong shape (ShapeError): render the face afresh
            return None
        self._used[key] = record
        return record

    def put(self, key: str, record: FaceRecord) -> None:
        self._used[key] = record
        self._changed = True

    def use(self, key: str, record: FaceRecord) -> None:
        """Count ``record``, laid out earlier in this command, as used (kept already when the store holds it)."""
        self._used[key] = record
        self._changed = self._changed or key not in self._stored

    def save(self) -> None:
        """Keep this build's records for the next (a cache that cannot be written is skipped)."""
        if self.inputs is None or (not self._changed and self._used.keys() == self._stored.keys()):
            return
        plain = {key: record.to_plain() for key, record in sorted(self._used.items())}
        store.keep(NAMESPACE, self.inputs, plain, under=self.templates.scope)
        self._stored, self._changed = plain, False  # what the store holds now: saved again only after a change

    def _read(self) -> dict[str, Any]:
        if self.inputs is None:
            return {}
        stored = store.recall(NAMESPACE, self.inputs, _records_by_key, under=self.templates.scope)
        return stored if stored is not None else {}


def value_digest(value: Any, size: int = 16) -> Optional[str]:
    """A hash of plain data (dicts, lists, tuples, scalars; types count: 1, 1.0 and True differ), or
    None when ``value`` holds anything else, whose content a hash could miss. Marshal version 2
    writes no back-references, so equal values give equal bytes whatever objects hold them."""
    try:
        raw = marshal.dumps(value, 2)
    except ValueError:
        return None
    return hashlib.blake2b(raw, digest_size=size).hexdigest()


def _records_by_key(plain: Any) -> dict[str, Any]:
    """A stored records file: records by face key (each record's fields are checked when it is used)."""
    if not isinstance(plain, dict):
        raise ShapeError("expected records by key")
    return plain


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


def _drawn_patterns(art: Any, where: str) -> None:
    """Each pattern's mark in ``art`` replaced by the shapes it stands for, as the template would have printed them
    (``patterns.drawn``; the text after the mark stays after the shapes)."""
    for mark in list(art.iter(PATTERN)):
        try:
            markup = patterns.drawn(mark.attrib)
        except ValueError as exc:
            raise UserError(f"{where}: <pp:{patterns.MARK}>: {exc}") from None
        shapes = etree.fromstring(f'<svg xmlns="{SVG_NS}">{markup}</svg>'.encode("utf-8"), _PARSER)[0]
        shapes.tail = mark.tail
        mark.getparent().replace(mark, shapes)


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


@dataclass
class _Flow:
    """Where a text slot stands between its atoms: whitespace or a line break waiting to come before
    the next atom, and the last character set (typographic quotes look back at it)."""

    space: bool = False
    newline: bool = False
    last: str = ""

    def take(self, piece: str, style: str, icon: Optional[str] = None) -> text.Atom:
        """The next atom (a word piece, or an icon when ``icon`` is given), carrying what was waiting."""
        atom = text.Atom(piece, style, icon=icon, space=self.space, newline=self.newline)
        self.space = self.newline = False
        self.last = ICON_CHARACTER if icon is not None else piece[-1]
        return atom


def _atoms(node: Any, style: str, where: str, pending: Optional[_Flow] = None) -> Iterator[text.Atom]:
    """The inline atoms of a text slot: words, icons and breaks, with the whitespace between them.

    Inline elements (pp:b, pp:i, pp:icon, pp:br) come from the template; the text between them is
    data, read as markup (see :mod:`pipeline.data.markup`).
    """
    state = pending if pending is not None else _Flow()
    yield from _text_atoms(node.text or "", style, where, state)
    for child in node:
        if not isinstance(child.tag, str):
            yield from _text_atoms(child.tail or "", style, where, state)
            continue
        local = etree.QName(child).localname
        if local == "icon":
            yield state.take("", style, icon=_required(child, "name", where))
        elif local == "br":
            state.newline = True
        elif local in STYLE_TAGS:
            bold, italic = STYLE_TAGS[local]
            yield from _atoms(child, fonts.with_emphasis(style, bold=bold, italic=italic), where, state)
        else:
            raise UserError(f"{where}: <pp:{local}> is not allowed inside text (use pp:b, pp:i, pp:icon, pp:br)")
        yield from _text_atoms(child.tail or "", style, where, state)


def _text_atoms(raw: str, style: str, where: str, state: _Flow) -> Iterator[text.Atom]:
    """One run of slot text read as markup, with typographic quotes and dashes: validate refuses data
    whose markup cannot be printed, so a failure here is text a renderer or template composed."""
    try:
        nodes = markup.parse(typographic(raw, state.last))
    except markup.MarkupError as exc:
        raise UserError(f"{where}: text cannot be printed: {exc.message}") from None
    yield from _markup_atoms(nodes, style, where, state)


def _markup_atoms(nodes: tuple[markup.Inline, ...], style: str, where: str, state: _Flow) -> Iterator[text.Atom]:
    for node in nodes:
        if isinstance(node, markup.Text):
            yield from _split(node.text, style, state)
        elif isinstance(node, markup.Styled):
            emphasis = fonts.with_emphasis(style, bold=node.style == markup.BOLD, italic=node.style == markup.ITALIC)
            yield from _markup_atoms(node.children, emphasis, where, state)
        elif isinstance(node, markup.Icon):
            yield state.take("", style, icon=node.name)
        elif isinstance(node, markup.Break):
            state.newline = True
        else:
            raise UserError(f"{where}: {node.source} is an unresolved reference: the game's renderer must print names")


_SPACES = re.compile(r"([^\S\u00a0]+)")  # whitespace a line may break at: any but the no-break space


def _split(raw: str, style: str, state: _Flow) -> Iterator[text.Atom]:
    for piece in _SPACES.split(raw):
        if not piece:
            continue
        if piece.isspace():
            state.space = True
            state.last = " "
            continue
        yield state.take(piece, style)
