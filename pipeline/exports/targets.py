"""Export targets as data: one ``templates/targets/<id>.yaml`` per print shop or digital table.

A target file says what the export writes (``output``: a PNG per face, a PDF
per card size, or Tabletop Simulator deck sheets and JSON), at which
resolution, with how much bleed, which box of a face fills an image, the
colour mode, the target's own image sizes for some trims, the card sizes the
shop does not offer (left out of its export, with the reason printed), and
(Tabletop Simulator) the sheet's limits. Its name is the ``--target`` id. Every file is
checked against ``templates/targets/target.schema.json`` when read, here and
nowhere else: export, preflight and the CLI all ask :func:`load_targets` or
:func:`target`. Adding a target whose kind of output exists is one file.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from pipeline.base import locations
from pipeline.base.errors import UserError

if TYPE_CHECKING:
    from pipeline.exports.pdfx import Press

# The help of `pantheon export` and `preflight` lists the target ids (target_ids) when the command line is made:
# reading targets (the schema check, display_path, the press profile) imports its tools when it is done.

TARGETS_DIR = "targets"
SCHEMA_NAME = "target.schema.json"
SUFFIX = ".yaml"
ID_PATTERN = re.compile(r"[a-z][a-z0-9-]*")  # a target's id is its file's name: a plain word for --target
PNG_PER_FACE, PDF_PER_DECK, TTS_DECK = "png-per-face", "pdf-per-deck", "tts-deck"
CMYK = "CMYK"
TRIM = "trim"
TRIM_TOLERANCE_MM = 0.05  # a face's trim read back from its template may differ from the file's figure by rounding


@dataclass(frozen=True)
class Sheet:
    """Tabletop Simulator's deck sheet: its largest grid (the last slot holds the hidden card), its smallest
    grid a side, and the most pixels a side."""

    columns: int
    rows: int
    min_grid: int
    max_px: int


@dataclass(frozen=True)
class Product:
    """One of a shop's card products: its name, the trim it is for (mm) and its image with bleed (px)."""

    name: str
    trim_mm: tuple[float, float]
    image_px: tuple[int, int]


@dataclass(frozen=True)
class NotOffered:
    """A card size the shop has no product for: what those cards are, their trim (mm) and why."""

    component: str
    trim_mm: tuple[float, float]
    reason: str


@dataclass(frozen=True)
class Target:
    """A print shop's or table's numbers, as its file gives them."""

    id: str
    title: str
    output: str  # PNG_PER_FACE, PDF_PER_DECK or TTS_DECK
    dpi: int
    bleed_in: float  # round each image, in inches (the shops give theirs in inches and pixels)
    trim_only: bool  # the face's trim fills an image (else its bleed box)
    colour: str  # RGB (PIL's mode of every image) or CMYK (PDF/X-1a through ``press``)
    sizes: tuple[Product, ...] = ()
    sheet: Optional[Sheet] = None  # TTS_DECK only
    press: Optional[Press] = None  # CMYK only
    safe_in: Optional[float] = None  # the shop's safe zone inside the trim, in inches
    sources: tuple[tuple[str, str], ...] = ()  # (figure's key, where the figure comes from)
    not_offered: tuple[NotOffered, ...] = ()  # card sizes left out of this target's export, each with its reason

    def own_size(self, trim_w_mm: float, trim_h_mm: float) -> Optional[tuple[int, int]]:
        """The target's own image size for a card of this trim, if its file gives one."""
        return next((p.image_px for p in self.sizes if p.trim_mm == (trim_w_mm, trim_h_mm)), None)

    def not_offered_for(self, trim_w_mm: float, trim_h_mm: float) -> Optional[NotOffered]:
        """The file's entry saying the shop has no product for cards of this trim (either way round), if any."""
        def fits(entry: NotOffered) -> bool:
            return any(math.isclose(w, entry.trim_mm[0], abs_tol=TRIM_TOLERANCE_MM)
                       and math.isclose(h, entry.trim_mm[1], abs_tol=TRIM_TOLERANCE_MM)
                       for w, h in ((trim_w_mm, trim_h_mm), (trim_h_mm, trim_w_mm)))
        return next((entry for entry in self.not_offered if fits(entry)), None)

    def nearest_product(self, width_px: int, height_px: int) -> Optional[Product]:
        """The product whose image is closest to ``width_px`` x ``height_px`` (either way round), if any."""
        def distance(product: Product) -> int:
            w, h = product.image_px
            return min(abs(w - width_px) + abs(h - height_px), abs(h - width_px) + abs(w - height_px))
        return min(self.sizes, key=distance, default=None)


def targets_dir(template_root: Optional[Path] = None) -> Path:
    """The folder of target files under ``template_root`` (default: the project's templates)."""
    return (template_root if template_root is not None else locations.template_root()) / TARGETS_DIR


def target_ids(template_root: Optional[Path] = None) -> list[str]:
    """The ids of the target files under ``template_root``, sorted, without reading them (for help texts)."""
    folder = targets_dir(template_root)
    return sorted(path.stem for path in folder.glob(f"*{SUFFIX}")) if folder.is_dir() else []


def load_targets(template_root: Optional[Path] = None) -> dict[str, Target]:
    """Every target under ``template_root``, by id, each file checked against the schema.

    A bad file (malformed YAML, an unknown key, a wrong type, a name that is no id) is a UserError naming
    ``file:line:column`` (the file alone for its name).
    """
    from pipeline.data.dataset import display_path
    from pipeline.data.schemas import load_checked_yaml

    folder = targets_dir(template_root)
    found: dict[str, Target] = {}
    for path in sorted(folder.glob(f"*{SUFFIX}")) if folder.is_dir() else []:
        if not ID_PATTERN.fullmatch(path.stem):
            raise UserError(f"{display_path(path)}: a target's file name is its id: lower-case letters, digits and "
                            f"hyphens, starting with a letter")
        found[path.stem] = _target(path.stem, load_checked_yaml(path, folder / SCHEMA_NAME))
    return found


def target(name: str, template_root: Optional[Path] = None) -> Target:
    """The target called ``name``; a UserError naming the known ones when there is none."""
    known = load_targets(template_root)
    try:
        return known[name]
    except KeyError:
        from pipeline.data.dataset import display_path

        raise UserError(f"unknown export target '{name}' (known: {', '.join(known) or 'none'}, "
                        f"from {display_path(targets_dir(template_root))})") from None


def _target(target_id: str, data: dict[str, Any]) -> Target:
    from pipeline.exports.pdfx import Press

    sheet, press = data.get("sheet"), data.get("press")
    return Target(
        id=target_id,
        title=data["title"],
        output=data["output"],
        dpi=data["dpi"],
        bleed_in=data["bleed_in"],
        trim_only=data["image"] == TRIM,
        colour=data["colour"],
        sizes=tuple(Product(size["product"], tuple(size["trim_mm"]), tuple(size["image_px"]))
                    for size in data.get("sizes", ())),
        sheet=Sheet(**sheet) if sheet is not None else None,
        press=Press(Path(press["profile"]), press["condition"], float(press["ink_limit_pct"]),
                    tuple(press["rich_black"]), float(press["rich_black_mm"])) if press is not None else None,
        safe_in=data.get("safe_in"),
        sources=tuple(data["sources"].items()),
        not_offered=tuple(NotOffered(entry["component"], tuple(entry["trim_mm"]), entry["reason"])
                          for entry in data.get("not_offered", ())),
    )
