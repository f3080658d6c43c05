"""The design facts of a face: what the checks of ``design.py`` need, taken once when the face is split.

For each text slot: what its template declares (role, colours, sizes, box)
and, from the art under each run of its text as set, the colour covering
the run and every colour reaching under it. For each icon (slots, icons
inline in text, icons placed in the art): its box and the size and contrast
of any letter drawn inside it. And the shape of art inside the trim that
comes nearest the cut.

Geometry arrives in points, y up, from the bleed box's corner (the text
setter's and svglib's frame); facts are kept in mm from the trim's top-left,
y down, like the templates, so errors read in the units a template is
written in.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import Any, Callable, Iterable, NamedTuple, Optional, Sequence

from reportlab.pdfbase.pdfmetrics import stringWidth

from pipeline.base.errors import UserError
from pipeline.cards import artmap, fonts, text
from pipeline.cards.artmap import Box, Paint
from pipeline.cards.colours import contrast, parse
from pipeline.cards.design import EdgeFacts, FaceFacts, IconFacts, MmBox, TextFacts
from pipeline.cards.svgtemplates import PP_NS, SVG_NS, Icon
from pipeline.cards.units import PT_PER_MM, mm

PP = f"{{{PP_NS}}}"
BOLD_STYLES = (fonts.BOLD, fonts.BOLD_ITALIC)
DESCENDERS = frozenset("gjpqyJQ,;()[]{}/|@$§µ\u201e")  # characters whose ink reaches below the baseline (Vera)


class TextSpec(NamedTuple):
    """What a text slot's template declares."""

    name: str
    role: str
    fill: str
    bg: str
    size: float
    min_size: float
    box: MmBox
    turned: bool


class Placed(NamedTuple):
    """An icon on the face: its name and box in points (already turned where its slot is)."""

    name: str
    box: Box


@dataclass(frozen=True)
class IconLetters:
    """The letters drawn inside an icon: the smallest as a share of the icon's height, and the lowest contrast."""

    share: float
    contrast: float


NO_LETTERS = IconLetters(0.0, 0.0)


@dataclass(frozen=True)
class Frame:
    """A face's geometry: trim size and bleed (mm), for turning and converting boxes."""

    trim_w: float
    trim_h: float
    bleed: float

    @property
    def width_pt(self) -> float:
        return mm(self.trim_w + 2 * self.bleed)

    @property
    def height_pt(self) -> float:
        return mm(self.trim_h + 2 * self.bleed)

    @property
    def trim_pt(self) -> Box:
        b = mm(self.bleed)
        return b, b, b + mm(self.trim_w), b + mm(self.trim_h)

    def turned(self, box: Box) -> Box:
        """``box`` turned 180 degrees about the face's centre (the other half of a two-way card)."""
        x0, y0, x1, y1 = box
        return self.width_pt - x1, self.height_pt - y1, self.width_pt - x0, self.height_pt - y0

    def turned_mm(self, box: MmBox) -> MmBox:
        x0, y0, x1, y1 = box
        return self.trim_w - x1, self.trim_h - y1, self.trim_w - x0, self.trim_h - y0

    def to_mm(self, box: Box) -> MmBox:
        x0, y0, x1, y1 = box
        return (
            x0 / PT_PER_MM - self.bleed,
            (self.height_pt - y1) / PT_PER_MM - self.bleed,
            x1 / PT_PER_MM - self.bleed,
            (self.height_pt - y0) / PT_PER_MM - self.bleed,
        )

    def from_mm(self, box: MmBox) -> Box:
        x0, y0, x1, y1 = box
        return mm(x0 + self.bleed), self.height_pt - mm(y1 + self.bleed), mm(x1 + self.bleed), self.height_pt - mm(y0 + self.bleed)


def run_boxes(setting: text.SetText) -> Iterable[Box]:
    """The box each run of set text inks (points): its width, the font's ascent, and its descent when
    a character of the run reaches below the baseline."""
    for style, x, baseline, size, words in setting.runs:
        width = stringWidth(words, fonts.font_name(style), size)
        drop = artmap.DESCENT * size if not DESCENDERS.isdisjoint(words) else 0.0
        yield x, baseline - drop, x + width, baseline + artmap.ASCENT * size


def art_icons(root: Any, where: str) -> Iterable[tuple[str, MmBox]]:
    """The icons the art places with ``icon()`` (marked pp:icon / pp:box), each with its box in mm.

    Art text outside icons is refused: every text on a card belongs in a pp:text slot, where it is
    fitted, glyph-checked and held to the design rules.
    """
    for node in root.iter(f"{{{SVG_NS}}}g"):
        name = node.get(f"{PP}icon")
        if name is None:
            continue
        if _transformed_ancestor(node):
            raise UserError(f"{where}: icon '{name}' is placed inside a transformed group; place icons at the top level")
        x, y, w, h = (float(v) for v in (node.get(f"{PP}box") or "0 0 0 0").split())
        yield name, (x, y, x + w, y + h)
    for node in root.iter(f"{{{SVG_NS}}}text"):
        if not any(a.get(f"{PP}icon") is not None for a in node.iterancestors()):
            raise UserError(f"{where}: the template art draws text '{(node.text or '').strip()}'; put card text in a pp:text slot")


def _transformed_ancestor(node: Any) -> bool:
    return any(a.get("transform") for a in node.iterancestors() if isinstance(a.tag, str) and a.tag != f"{{{SVG_NS}}}svg")


def icon_letters(icon: Icon, drawing: Any) -> IconLetters:
    """The letters of an icon (its converted ``drawing``): size share and contrast against the icon."""
    found = artmap.letters(drawing)
    if not found:
        return NO_LETTERS
    share = min(letter.size for letter in found) / drawing.height
    worst = min(
        min(contrast(letter.colour, parse(c)) for c in artmap.colours_under(letter.below, letter.box).every)
        for letter in found
    )
    return IconLetters(share, worst)


class FactFinder:
    """Takes the facts of faces. The colours under a box and the shapes near the cut depend on the art alone,
    never on a card's words, and art is a stack of layers that many faces share (a god's frame, a deck's
    border): each layer's paints (what each shape of its converted art paints where) and the shape of it
    nearest the cut are worked out once per finder, however many faces stack that layer."""

    def __init__(self, letters: Callable[[str, str], IconLetters]) -> None:
        self._letters = letters
        self._paints: dict[str, tuple[Paint, ...]] = {}  # art layer key -> its paints
        self._nearest: dict[tuple[str, Box], Optional[tuple[Paint, float]]] = {}  # (layer, trim) -> nearest the cut

    def facts(
        self,
        frame: Frame,
        art: tuple[str, ...],
        paints: Callable[[str], tuple[Paint, ...]],
        texts: Sequence[tuple[text.SetText, TextSpec]],
        icons: Sequence[Placed],
        where: str,
    ) -> FaceFacts:
        for key in art:
            if key not in self._paints:
                self._paints[key] = paints(key)
        painted = tuple(chain.from_iterable(self._paints[key] for key in art))  # (a frame's hundreds of paints, each face)
        text_facts = tuple(self._text(frame, painted, setting, spec) for setting, spec in texts)
        icon_facts = tuple(self._icon(frame, placed, where) for placed in icons)
        return FaceFacts(text_facts, icon_facts, self._edge(frame, art))

    def _text(self, frame: Frame, painted: Sequence[Paint], setting: text.SetText, spec: TextSpec) -> TextFacts:
        base: set[str] = set()
        under: set[str] = set()
        sizes = [run[3] for run in setting.runs]
        boxes = [frame.turned(box) if spec.turned else box for box in run_boxes(setting)]
        near = artmap.reaching(painted, boxes)  # one pass over the face's paints for the slot, not one per run
        for box in boxes:
            found = artmap.colours_under(near, box)
            base.add(found.base)
            under.update(found.every)
        bold = all(run[0] in BOLD_STYLES for run in setting.runs)
        fitted = min(sizes) if sizes else spec.size
        return TextFacts(spec.name, spec.role, spec.fill, spec.bg, bold, spec.size, spec.min_size, fitted,
                         frame.turned_mm(spec.box) if spec.turned else spec.box,
                         tuple(sorted(base)), tuple(sorted(under)))

    def _icon(self, frame: Frame, placed: Placed, where: str) -> IconFacts:
        letters = self._letters(placed.name, where)
        height = placed.box[3] - placed.box[1]
        return IconFacts(placed.name, frame.to_mm(placed.box), letters.share * height, letters.contrast)

    def _edge(self, frame: Frame, art: tuple[str, ...]) -> Optional[EdgeFacts]:
        """The shape inside the trim nearest the cut: the nearest of each layer's nearest (the first of equals,
        bottom layer first, as one pass over the whole stack finds it)."""
        trim = frame.trim_pt
        for key in art:
            if (key, trim) not in self._nearest:
                self._nearest[key, trim] = min(artmap.inside(self._paints[key], trim), key=lambda found: found[1], default=None)
        nearest = min((found for key in art if (found := self._nearest[key, trim]) is not None), key=lambda found: found[1], default=None)
        return None if nearest is None else EdgeFacts(nearest[1] / PT_PER_MM, frame.to_mm(nearest[0].region.extent()))
