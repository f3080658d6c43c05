"""`build --stamp`: a small version line on every card and every sheet, and an optional watermark.

The line says which data a printed card came from: the version (``git
describe`` of the data's repository, or ``--version-label``), the date of the
data's last commit (never the clock, so two builds of the same data are the
same bytes) and a short hash of the game's data files. It runs up the card's
left edge just inside the safe margin, at the design rules' smallest text
size, dark on a white label (so it keeps their contrast on any art), and
along each sheet's bottom margin; the watermark (``PLAYTEST``)
runs across each face, faint. Both are drawn over the placed faces, never
into them, so the face caches hold the same faces stamped or not; the stamp's
options are part of the build's fingerprint, so a stamped PDF is never taken
for an unstamped one.
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from reportlab.lib.colors import Color
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pipeline.base.errors import UserError
from pipeline.base.git import git_text
from pipeline.cards import fonts
from pipeline.cards.design import rules_for
from pipeline.cards.units import mm

if TYPE_CHECKING:
    from pipeline.cards.build import BuildOptions
    from pipeline.cards.forms import FaceForm, Forms
    from pipeline.cards.imposition import Rect, Slot

FOOTER_MM = 3.0            # the footer's baseline, up from the page's bottom edge
LINE_INK = Color(0.15, 0.15, 0.15)     # dark on white: the line keeps the design rules' contrast on any art
LABEL_PAPER = Color(1, 1, 1)
ASCENT, DESCENT = 0.85, 0.3  # of the text size: the white label's extent above and below the baseline
LABEL_PAD_PT = 1.5
WATERMARK_GREY = Color(0.5, 0.5, 0.5, alpha=0.22)
WATERMARK_FILL = 0.8       # of the face's diagonal the watermark spans
WATERMARK_DROP = 0.35      # of its size: the watermark's baseline below the centre, to centre its capitals
HASH_DIGITS = 8


@dataclass(frozen=True)
class Stamp:
    """What a stamped build prints: the version, the data's date, the game's data hash, a watermark."""

    version: str = ""
    date: str = ""
    data_hash: str = ""
    watermark: Optional[str] = None
    text_pt: float = 7.0   # the design rules' smallest text (min_text_pt) ...
    safe_mm: float = 3.0   # ... and their safe margin: the templates' design-rules.yaml says (see stamp_for)

    @property
    def line(self) -> str:
        return "  ".join(part for part in (self.version, self.date, f"data {self.data_hash}" if self.data_hash else "")
                         if part)

    def as_dict(self) -> dict[str, str]:
        found = {"stamp": f"{self.version} {self.date}".strip() or "yes"}
        if self.watermark:
            found["watermark"] = self.watermark
        return found

    def for_game(self, game_dir: Path) -> "Stamp":
        """The stamp of one game: with the hash of its data files."""
        return replace(self, data_hash=data_hash(game_dir))


def stamp_for(data_root: Path, template_root: Path, *, label: Optional[str], watermark: Optional[str]) -> Stamp:
    """The stamp of a build of ``data_root``: ``label`` or git describe, the date of the data's last commit,
    set at the smallest text size and inside the safe margin of the templates' design rules."""
    rules = rules_for(template_root)
    version = label or git_text(data_root, "describe", "--tags", "--always", "--dirty")
    date = git_text(data_root, "log", "-1", "--format=%cs", "--", ".")
    return Stamp(version, date, "", watermark or None, rules.min_text_pt, rules.safe_margin_mm)


def data_hash(game_dir: Path) -> str:
    """A short hash of a game's data files (names and bytes, in name order)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in game_dir.rglob("*") if p.is_file()):
        digest.update(path.relative_to(game_dir).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:HASH_DIGITS]


def place_stamped(canvas: Canvas, forms: "Forms", face: "FaceForm", slot: "Slot", clip: Optional["Rect"], stamp: Stamp,
                  bleed: float) -> None:
    """Place ``face`` in ``slot`` with the watermark and the version line over it.

    The clip and the move to the slot come first, in one page-level block with the face: the one-back-
    per-deck check reads each block without its placement, so equal backs still read as equal."""
    canvas.saveState()
    if clip is not None:
        path = canvas.beginPath()
        path.rect(*clip)
        canvas.clipPath(path, stroke=0, fill=0)
    canvas.translate(slot.x, slot.y)
    forms.place(face, 0, 0, turned=slot.turned)
    if slot.turned:
        canvas.translate(face.width_pt, face.height_pt)
        canvas.rotate(180)
    if stamp.watermark:
        _watermark(canvas, stamp.watermark, face.width_pt, face.height_pt)
    _edge_line(canvas, stamp, bleed, face.height_pt)
    canvas.restoreState()


def _edge_line(canvas: Canvas, stamp: Stamp, bleed: float, height: float) -> None:
    """The version line up the card's left edge, on a white label just inside the safe margin."""
    size, font = stamp.text_pt, fonts.font_name()
    width = stringWidth(stamp.line, font, size)
    canvas.saveState()
    canvas.translate(bleed + mm(stamp.safe_mm) + (ASCENT * size + LABEL_PAD_PT), height / 2)
    canvas.rotate(90)  # reads bottom to top; the glyphs stand towards the card's edge
    canvas.setFillColor(LABEL_PAPER)
    canvas.rect(-width / 2 - LABEL_PAD_PT, -DESCENT * size - LABEL_PAD_PT, width + 2 * LABEL_PAD_PT,
                (ASCENT + DESCENT) * size + 2 * LABEL_PAD_PT, stroke=0, fill=1)
    canvas.setFillColor(LINE_INK)
    canvas.setFont(font, size)
    canvas.drawCentredString(0, 0, stamp.line)
    canvas.restoreState()


def _watermark(canvas: Canvas, text: str, width: float, height: float) -> None:
    font = fonts.font_name(fonts.BOLD)
    diagonal = math.hypot(width, height)
    size = WATERMARK_FILL * diagonal / max(stringWidth(text, font, 1.0), 1e-6)
    canvas.saveState()
    canvas.translate(width / 2, height / 2)
    canvas.rotate(math.degrees(math.atan2(height, width)))
    canvas.setFillColor(WATERMARK_GREY)
    canvas.setFont(font, size)
    canvas.drawCentredString(0, -size * WATERMARK_DROP, text)
    canvas.restoreState()


def draw_footer(canvas: Canvas, stamp: Stamp, page_width: float, page_number: int) -> None:
    """The version line (and the page number) in a sheet's bottom margin."""
    canvas.saveState()
    canvas.setFillColor(LINE_INK)
    canvas.setFont(fonts.font_name(), stamp.text_pt)
    canvas.drawCentredString(page_width / 2, mm(FOOTER_MM), f"{stamp.line}  page {page_number}")
    canvas.restoreState()


def with_stamp(options: "BuildOptions", data_root: Path, template_root: Path, *, label: Optional[str],
               watermark: Optional[str]) -> "BuildOptions":
    """``options`` stamped; text the embedded font cannot print is refused before anything is built."""
    for text, what in ((label, "--version-label"), (watermark, "--watermark")):
        if text is not None:
            if not text.strip() or any(not ch.isprintable() for ch in text):
                raise UserError(f"{what}: give one line of printable text, not {text!r}")
            fonts.check_glyphs(text, what)
    return replace(options, stamp=stamp_for(data_root, template_root, label=label, watermark=watermark))
