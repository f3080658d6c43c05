"""Card faces inside documents, drawn exactly as the card sheets draw them.

A face is drawn by the card build's own machinery
(:class:`pipeline.cards.forms.Forms`, one per PDF canvas, held by the
:class:`FaceDrawer` of the document being set), then placed, scaled and
clipped to its trim, as a platypus flowable. A face the card check of the
same command laid out is drawn from its layout and the command's art, as
the card build draws it: nothing is rendered, split or converted again. The
slot geometry of a face (where each ``<pp:text>`` and ``<pp:icon>`` box
sits) is read from the same rendered template, so a figure's callouts point
at the boxes the card really has.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from lxml import etree
from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Drawing
from reportlab.platypus import Flowable

from pipeline import store
from pipeline.base.errors import UserError
from pipeline.cards.cardlayout import LaidOutCards
from pipeline.cards.faces import HALF_TURN, PP, _is_top_slot
from pipeline.cards.forms import Forms
from pipeline.cards.imposition import Sheets, load_sheets
from pipeline.cards.plan import Face
from pipeline.cards.svgtemplates import TEMPLATE_ROOT, Templates
from pipeline.cards.units import mm
from pipeline.documents.measuring import measuring

TEXT, ICON = "text", "icon"
MmBox = tuple[float, float, float, float]  # x0, y0, x1, y1: mm from the trim's top-left, y down


@dataclass(frozen=True)
class SlotBox:
    """One slot of a rendered face: ``kind`` text or icon, ``name`` the text slot's name or the icon's,
    ``box`` where it prints (a turned slot's box turned with it), ``filled`` whether it holds anything."""

    kind: str
    name: str
    box: MmBox
    turned: bool
    filled: bool

    @property
    def centre(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box
        return (x0 + x1) / 2, (y0 + y1) / 2


@dataclass(frozen=True)
class FaceSlots:
    """A face's trim size (mm) and its slots in template order."""

    trim: tuple[float, float]
    slots: tuple[SlotBox, ...]

    def find(self, selector: str) -> Optional[SlotBox]:
        """The slot a selector names: ``name`` is the first filled text slot of that name (unturned ones
        first), ``name#N`` the N-th of them (from 0); ``icon:N`` the N-th icon slot. None when the face
        has no such slot."""
        if selector.startswith(f"{ICON}:"):
            icons = [s for s in self.slots if s.kind == ICON]
            index = int(selector.split(":", 1)[1])
            return icons[index] if index < len(icons) else None
        name, _, nth = selector.partition("#")
        named = sorted((s for s in self.slots if s.kind == TEXT and s.name == name and s.filled), key=lambda s: s.turned)
        index = int(nth or 0)
        return named[index] if index < len(named) else None

    def text_names(self) -> list[str]:
        """The names of the filled text slots, each once, in template order."""
        return list(dict.fromkeys(s.name for s in self.slots if s.kind == TEXT and s.filled and s.name))


def card_templates(root: Path = TEMPLATE_ROOT, scope: Optional[store.Scope] = None,
                   cards: Optional[LaidOutCards] = None, sheets: Optional[Sheets] = None) -> Templates:
    """The card templates under ``root`` as the card build loads them (same bleed): the command's own when it
    hands its ``cards`` (what its card check laid out, with the templates it compiled), else made afresh (a
    command makes them once and hands them to what draws or measures its faces). ``scope``: the command's store
    scope of ``root`` (None: taken now); ``sheets``: the sheet definitions the caller read (None: read now)."""
    bleed_mm = (sheets or load_sheets()).bleed_mm
    if cards is not None:
        return cards.templates(root, bleed_mm)
    return Templates(root, bleed_mm=bleed_mm, scope=scope)


def face_slots(face: Face, where: str, templates: Templates) -> FaceSlots:
    """The slots of ``face`` as its template (of ``templates``) renders them."""
    svg = templates.render(face.template, face.context, where)
    root = etree.fromstring(svg.encode("utf-8"))
    try:
        width, height = (float(v) for v in (root.get(f"{PP}trim") or "").split())
    except ValueError:
        raise UserError(f"{where}: template {face.template} must declare its trim size (use the card() macro)") from None
    slots: list[SlotBox] = []
    for node in root.iter(f"{PP}*"):
        local = etree.QName(node).localname
        if local not in (TEXT, ICON) or not _is_top_slot(node):
            continue
        turned = node.get("rotate", "0") == HALF_TURN
        x, y, h = (float(node.get(a, "0")) for a in ("x", "y", "height"))
        name = node.get("name", "")
        if local == ICON:
            w = h * templates.icons.get(name, where).aspect
            filled = True
        else:
            w = float(node.get("width", "0"))
            words = "".join(str(t) for t in node.itertext()).strip()
            filled = bool(words) or any(etree.QName(c).localname == ICON for c in node.iter(f"{PP}*"))
        box = (width - x - w, height - y - h, width - x, height - y) if turned else (x, y, x + w, y + h)
        slots.append(SlotBox(local, name, box, turned, filled))
    return FaceSlots((width, height), tuple(slots))


class FaceDrawer:
    """Where the faces of one document being set are drawn: the card build's :class:`Forms`, one per game on
    the canvas of the current layout pass (each pass draws on a new canvas; the forms of the last pass are
    dropped when the next begins). ``cards``: the faces and art the card check of this command laid out, drawn
    as they are; without them (or for a game they do not hold) a face is drawn from the face records a check
    or build kept, its art read or converted here, with templates made for this document. Made by the renderer
    for one document, dropped with it."""

    def __init__(self, cards: Optional[LaidOutCards] = None) -> None:
        self._cards = cards
        self._canvas: Any = None
        self._forms: dict[str, Forms] = {}
        self._templates: Optional[Templates] = None  # made when a face is met that the card check did not lay out

    def forms(self, canvas: Any, face: Face) -> Forms:
        """The forms of ``face``'s game on ``canvas``."""
        if canvas is not self._canvas:
            self._canvas, self._forms = canvas, {}
        game = face.template.split("/", 1)[0]  # templates/cards/<game>/...: the card sheets whose faces these are
        if game not in self._forms:
            cards = self._cards
            laid_out = cards.of(game, TEMPLATE_ROOT) if cards is not None else None
            if laid_out is not None:  # its records are at hand: the kept ones need not be read
                self._forms[game] = Forms(canvas, laid_out.templates, laid_out=laid_out)
            else:
                self._templates = self._templates or card_templates(cards=cards)
                self._forms[game] = Forms(canvas, self._templates, records=game, art=cards.art if cards is not None else None)
        return self._forms[game]


class FaceFlowable(Flowable):
    """A card face ``card_w`` x ``card_h`` points at (``card_x``, 0) in a box ``width`` x ``height`` points,
    under an ``overlay`` drawing of the same box (callouts), drawn by ``drawer``."""

    def __init__(self, face: Face, where: str, card_x: float, card_w: float, card_h: float, overlay: Drawing,
                 drawer: FaceDrawer) -> None:
        super().__init__()
        self.face, self.where, self.drawer = face, where, drawer
        self.card_x, self.card_w, self.card_h = card_x, card_w, card_h
        self.overlay = overlay
        self.width, self.height = overlay.width, overlay.height

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        canvas = self.canv
        if measuring(canvas):  # a face of the card plan, which the card check laid out: only its room counts here
            return
        forms = self.drawer.forms(canvas, self.face)
        form = forms.face(self.face, self.where)
        scale = self.card_w / mm(form.trim_w)
        bleed = mm(forms.bleed)
        canvas.saveState()
        canvas.translate(self.card_x, (self.height - self.card_h) / 2)
        canvas.scale(scale, scale)
        forms.place(form, -bleed, -bleed, clip=(0, 0, mm(form.trim_w), mm(form.trim_h)))
        canvas.restoreState()
        renderPDF.draw(self.overlay, canvas, 0, 0)
