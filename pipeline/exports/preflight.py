"""`pantheon preflight`: what a print shop checks, on the faces and on the files made for a target.

On every face: no text smaller than the design rules' minimum, no text or
icon outside the safe area (inside the cut by the safe margin), and bleed on
every edge whose art reaches the cut (a face is rasterised and each edge's
outermost bleed pixels compared with the pixels just inside the trim); every
finding names the card. On the files made for a target (or already made, in
a folder): each measured against the figures of the target's file in
``templates/targets/`` by :mod:`pipeline.exports.measure`, every finding
naming the file, the page and the rule.

The numbers come from ``templates/design-rules.yaml`` when it is there (keys
``min_text_pt`` and ``safe_margin_mm``), else from the defaults below.
"""
from __future__ import annotations

import tempfile
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

import pypdfium2
import yaml
from PIL import Image
from reportlab.pdfbase import pdfmetrics

from pipeline import store
from pipeline.base.errors import UserError
from pipeline.cards import fonts
from pipeline.cards.build import BuildOptions, Plan, open_document, render_pdf
from pipeline.cards.faces import IconSlot, TextSlot
from pipeline.cards.forms import FaceForm
from pipeline.cards.svgtemplates import TEMPLATE_ROOT
from pipeline.cards.units import MM_PER_INCH, PT_PER_INCH, PT_PER_MM, mm
from pipeline.data.dataset import display_path
from pipeline.exports import measure
from pipeline.exports.export import export, tts_deck_name
from pipeline.exports.targets import Target

DESIGN_RULES = "design-rules.yaml"
# Used only when templates/design-rules.yaml (the design rules as data) is missing a key:
DEFAULT_MIN_TEXT_PT = 7.0  # the smallest legible print size (DESIGN.md: text at least 7 pt)
DEFAULT_SAFE_MARGIN_MM = 3.0  # DESIGN.md: nothing but art within 3 mm of the cut
BLEED_CHECK_DPI = 100  # enough pixels across a 3 mm bleed (about 12)
INK = 24  # a pixel differs from paper white when a channel is this far below 255
MISSING_SHARE = 0.05  # an edge lacks bleed when this share of its inked trim pixels have white beyond them
EPSILON = 1e-6
REACH_TOLERANCE_PT = EPSILON * 1000  # a box this little past the safe area is rounding, not a fault
FONT_UNITS = 1000  # reportlab gives a font's ascent and descent in thousandths of its size
PAPER_WHITE = 255


@dataclass(frozen=True)
class Rules:
    min_text_pt: float
    safe_margin_mm: float


def design_rules(template_root: Path = TEMPLATE_ROOT) -> Rules:
    """The design rules' numbers: from ``templates/design-rules.yaml`` when present, else the defaults."""
    path = template_root / DESIGN_RULES
    data: dict[str, Any] = {}
    if path.is_file():
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except (OSError, yaml.YAMLError) as exc:
            raise UserError(f"{display_path(path)}: cannot read the design rules: {exc}") from None
    return Rules(float(data.get("min_text_pt", DEFAULT_MIN_TEXT_PT)), float(data.get("safe_margin_mm", DEFAULT_SAFE_MARGIN_MM)))


def _extent(x: float, y: float, width: float, height: float, face: FaceForm, turned: bool) -> tuple[float, float, float, float]:
    """A box on the face (points from the bleed box's corner), turned about the centre for a turned slot."""
    if turned:
        x, y = face.width_pt - x - width, face.height_pt - y - height
    return x, y, x + width, y + height


def face_findings(face: FaceForm, rules: Rules, icon_aspect: Callable[[str], float]) -> Iterator[str]:
    """What breaks the design rules on one face: small text, text or icons outside the safe area."""
    inset = mm(face.bleed + rules.safe_margin_mm)
    safe = (inset, inset, face.width_pt - inset, face.height_pt - inset)

    def outside(box: tuple[float, float, float, float]) -> Optional[float]:
        """How far (mm) the box reaches past the safe area, if it does."""
        reach = max(safe[0] - box[0], safe[1] - box[1], box[2] - safe[2], box[3] - safe[3])
        return reach / PT_PER_MM if reach > REACH_TOLERANCE_PT else None

    for slot in face.record.slots:
        if isinstance(slot, IconSlot):
            width = slot.height * icon_aspect(slot.name)
            reach = outside(_extent(slot.x, slot.y, width, slot.height, face, slot.turned))
            if reach is not None:
                yield f"icon '{slot.name}' reaches {reach:.1f} mm into the {rules.safe_margin_mm:g} mm safe margin"
            continue
        assert isinstance(slot, TextSlot)
        for style, x, baseline, size, words in slot.setting.runs:
            if size < rules.min_text_pt - EPSILON:
                yield f"text '{words}' is {size:.1f} pt, below the {rules.min_text_pt:g} pt minimum"
            name = fonts.font_name(style)
            face_metrics = font_extent(name)
            width = pdfmetrics.stringWidth(words, name, size)
            bottom = baseline + face_metrics[1] * size
            top = baseline + face_metrics[0] * size
            reach = outside(_extent(x, bottom, width, top - bottom, face, slot.turned))
            if reach is not None:
                yield f"text '{words}' reaches {reach:.1f} mm into the {rules.safe_margin_mm:g} mm safe margin"
        for name, x, y, height in slot.setting.icons:
            reach = outside(_extent(x, y, height * icon_aspect(name), height, face, slot.turned))
            if reach is not None:
                yield f"icon '{name}' in text reaches {reach:.1f} mm into the {rules.safe_margin_mm:g} mm safe margin"


def font_extent(name: str) -> tuple[float, float]:
    """(ascent, descent) of a registered font, as fractions of its size (descent negative)."""
    face = pdfmetrics.getFont(name).face
    return face.ascent / FONT_UNITS, face.descent / FONT_UNITS


def missing_bleed(image: Image.Image, bleed_px: int) -> list[str]:
    """The edges of a face image (bleed box) whose art reaches the trim but not the bleed's outer edge."""
    width, height = image.size
    pixels = image.load()
    if pixels is None:
        raise ValueError(f"a {image.mode} face image of {width}x{height} has no pixels to read")
    inked = lambda p: min(p) < PAPER_WHITE - INK  # noqa: E731

    def edge(pairs: list[tuple[tuple[int, int], tuple[int, int]]]) -> bool:
        reaching = [(inner, outer) for inner, outer in pairs if inked(pixels[inner])]
        bare = [1 for _, outer in reaching if not inked(pixels[outer])]
        return bool(reaching) and len(bare) > MISSING_SHARE * len(reaching)

    inside = bleed_px + 1
    xs, ys = range(inside, width - inside), range(inside, height - inside)
    sides = {
        "left": [((inside, y), (0, y)) for y in ys],
        "right": [((width - 1 - inside, y), (width - 1, y)) for y in ys],
        "top": [((x, inside), (x, 0)) for x in xs],
        "bottom": [((x, height - 1 - inside), (x, height - 1)) for x in xs],
    }
    return [side for side, pairs in sides.items() if edge(pairs)]


def check_faces(plan: Plan, rules: Rules, template_root: Path = TEMPLATE_ROOT,
                scope: Optional[store.Scope] = None) -> list[str]:
    """Every finding on the plan's faces, each naming its card and side (``scope``: the command's store scope
    of ``template_root``; None: taken now)."""
    doc = open_document(template_root, f"{plan.title}: preflight", plan.game, {"preflight": "faces"}, scope=scope)
    forms, canvas = doc.forms, doc.canvas
    faces: dict[int, tuple[FaceForm, str]] = {}
    for card in plan.cards:
        for side, face in (("front", card.front), ("back", card.back)):
            if face is not None:
                form = forms.face(face, plan.label(card, side))
                faces.setdefault(id(form), (form, plan.label(card, side)))
    findings = []
    ordered = list(faces.values())
    for form, label in ordered:
        findings += [f"{label}: {finding}" for finding in face_findings(form, rules, partial(forms.aspect, where=label))]
        canvas.setPageSize((form.width_pt, form.height_pt))
        form.uses = max(form.uses, 1)
        forms.place(form, 0, 0)
        canvas.showPage()
    document = pypdfium2.PdfDocument(doc.finish())
    try:
        for index, (form, label) in enumerate(ordered):
            image = document[index].render(scale=BLEED_CHECK_DPI / PT_PER_INCH, rev_byteorder=True).to_pil().convert("RGB")
            bleed_px = round(form.bleed / MM_PER_INCH * BLEED_CHECK_DPI)
            for side in missing_bleed(image, bleed_px):
                findings.append(f"{label}: no bleed on the {side} edge: the art stops at the cut")
    finally:
        document.close()
    return findings


PRINT = "print"  # `preflight --target print`: the card sheets themselves, beside the export targets


def check_target(plan: Plan, spec: Optional[Target], template_root: Path = TEMPLATE_ROOT,
                 folder: Optional[Path] = None, note: Optional[Callable[[str], None]] = None,
                 scope: Optional[store.Scope] = None) -> list[str]:
    """Findings on the files made for ``spec`` (a target file; None: the card sheets): those in ``folder`` (an
    export already written), else an export made in a scratch folder, nothing kept. The files are measured
    (:mod:`pipeline.exports.measure`), each finding naming the file, the page and the rule. ``note`` is told
    what a fresh export left out (the sizes the shop does not make, with the target file's reason). ``scope``:
    the command's store scope of ``template_root`` (None: taken now)."""
    if spec is None:
        # the card build itself refuses a sheet naming a font it did not embed (one line, exit 1)
        render_pdf(plan, BuildOptions(), template_root=template_root, scope=scope)
        return []
    decks = {card.id: tts_deck_name(card) for card in plan.cards}
    if folder is not None:
        if not folder.is_dir():
            raise UserError(f"{display_path(folder)}: no such folder of exported files")
        return [f"{plan.game}: {finding}" for finding in measure.check_folder(folder, spec, decks)]
    with tempfile.TemporaryDirectory() as scratch:
        made = export(plan, spec, Path(scratch), template_root=template_root, scope=scope)
        if note is not None:
            for line in made.left_out:
                note(f"{plan.game}: {line}")
        return [f"{plan.game}: {finding}" for finding in measure.check_folder(made.folder, spec, decks)]
