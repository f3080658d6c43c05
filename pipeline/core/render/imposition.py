"""Imposition: where each card goes on a sheet, where its back goes, and where the crop marks go.

Sheets are data (``templates/sheets.yaml``, checked against
``templates/sheets.schema.json``): papers, margins, bleed, crop marks. A grid
holds as many bleed boxes as fit inside the margins, in the orientation that
fits most. Backs go on the following page at the mirrored place, so that
after a duplex print each back lands behind its front:

- flipping about the sheet's vertical axis (long edge of a portrait sheet,
  short edge of a landscape one): x is mirrored, the back stays upright;
- flipping about the horizontal axis (the other two cases): y is mirrored
  and the back is turned 180 degrees, so it is upright once the card is
  turned over like a book page.

Per-printer drift is corrected with offsets (mm) that move every back.
All geometry here is in points, converted once from the mm of the data.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Sequence


from pipeline.core.errors import UserError
from pipeline.core.schemas import load_checked_yaml
from pipeline.core.render.svgtemplates import TEMPLATE_ROOT
from pipeline.core.render.units import mm

SHEETS_NAME = "sheets.yaml"
SHEETS_SCHEMA_NAME = "sheets.schema.json"
SHEETS_FILE = TEMPLATE_ROOT / SHEETS_NAME
SHEETS_SCHEMA = TEMPLATE_ROOT / SHEETS_SCHEMA_NAME
PORTRAIT, LANDSCAPE = "portrait", "landscape"


class Duplex(str, enum.Enum):
    """How the printer turns the sheet for the second side."""

    LONG = "long"
    SHORT = "short"
    NONE = "none"


@dataclass(frozen=True)
class Paper:
    id: str
    name: str
    width_mm: float
    height_mm: float


@dataclass(frozen=True)
class Sheets:
    """The validated contents of sheets.yaml."""

    bleed_mm: float
    margin_mm: float
    gutter_mm: float
    orientations: tuple[str, ...]
    mark_gap_mm: float
    mark_length_mm: float
    mark_stroke_pt: float
    cross_mm: float
    ruler_mm: int
    papers: dict[str, Paper]

    def paper(self, paper_id: str) -> Paper:
        try:
            return self.papers[paper_id]
        except KeyError:
            raise UserError(f"unknown paper '{paper_id}' (known: {', '.join(self.papers)})") from None


@lru_cache(maxsize=None)
def load_sheets(path: Path = SHEETS_FILE, schema_path: Path = SHEETS_SCHEMA) -> Sheets:
    """Read and validate the sheet definitions; a problem names the file, line and field."""
    data = load_checked_yaml(path, schema_path)
    layout, marks, calibration = data["layout"], data["crop_marks"], data["calibration"]
    return Sheets(
        bleed_mm=data["bleed_mm"],
        margin_mm=layout["margin_mm"],
        gutter_mm=layout["gutter_mm"],
        orientations=tuple(layout["orientations"]),
        mark_gap_mm=marks["gap_mm"],
        mark_length_mm=marks["length_mm"],
        mark_stroke_pt=marks["stroke_pt"],
        cross_mm=calibration["cross_mm"],
        ruler_mm=calibration["ruler_mm"],
        papers={p["id"]: Paper(p["id"], p["name"], p["width_mm"], p["height_mm"]) for p in data["papers"]},
    )


@dataclass(frozen=True)
class Slot:
    """A bleed box on a page, in points: bottom-left corner, size; ``turned`` = drawn rotated 180 degrees."""

    x: float
    y: float
    width: float
    height: float
    turned: bool = False


@dataclass(frozen=True)
class Grid:
    """The slots of one card size on one paper, row-major from the top-left."""

    page_width: float
    page_height: float
    orientation: str
    slots: tuple[Slot, ...]
    bleed: float  # points

    @property
    def capacity(self) -> int:
        return len(self.slots)


def grid(sheets: Sheets, paper: Paper, trim_w_mm: float, trim_h_mm: float, what: str) -> Grid:
    """The fullest grid of ``trim_w x trim_h`` cards on ``paper``; ``what`` names the card in an error."""
    best: Grid | None = None
    for orientation in sheets.orientations:
        candidate = _grid(sheets, paper, trim_w_mm, trim_h_mm, orientation)
        if best is None or candidate.capacity > best.capacity:
            best = candidate
    if best is None or best.capacity == 0:
        raise UserError(
            f"{what}: a {trim_w_mm:g}x{trim_h_mm:g} mm card (plus {sheets.bleed_mm:g} mm bleed) "
            f"does not fit on {paper.name} inside {sheets.margin_mm:g} mm margins"
        )
    return best


def _grid(sheets: Sheets, paper: Paper, trim_w: float, trim_h: float, orientation: str) -> Grid:
    page_w, page_h = paper.width_mm, paper.height_mm
    if orientation == LANDSCAPE:
        page_w, page_h = page_h, page_w
    cell_w, cell_h = trim_w + 2 * sheets.bleed_mm, trim_h + 2 * sheets.bleed_mm
    gutter, margin = sheets.gutter_mm, sheets.margin_mm
    cols = max(0, int((page_w - 2 * margin + gutter) // (cell_w + gutter)))
    rows = max(0, int((page_h - 2 * margin + gutter) // (cell_h + gutter)))
    block_w = cols * cell_w + max(0, cols - 1) * gutter
    block_h = rows * cell_h + max(0, rows - 1) * gutter
    left, top = (page_w - block_w) / 2, (page_h + block_h) / 2  # the block is centred on the page
    slots = tuple(
        Slot(mm(left + c * (cell_w + gutter)), mm(top - (r + 1) * cell_h - r * gutter), mm(cell_w), mm(cell_h))
        for r in range(rows)
        for c in range(cols)
    )
    return Grid(mm(page_w), mm(page_h), orientation, slots, mm(sheets.bleed_mm))


def flips_about_vertical_axis(orientation: str, duplex: Duplex) -> bool:
    """Whether turning the sheet over swaps left and right (True) or top and bottom (False)."""
    return (orientation == PORTRAIT) == (duplex == Duplex.LONG)


def back_slot(grid: Grid, slot: Slot, duplex: Duplex, offset_x_mm: float = 0.0, offset_y_mm: float = 0.0) -> Slot:
    """Where the back of the card in ``slot`` goes on the following page."""
    dx, dy = mm(offset_x_mm), mm(offset_y_mm)
    if flips_about_vertical_axis(grid.orientation, duplex):
        return Slot(grid.page_width - slot.x - slot.width + dx, slot.y + dy, slot.width, slot.height, slot.turned)
    return Slot(slot.x + dx, grid.page_height - slot.y - slot.height + dy, slot.width, slot.height, not slot.turned)


Segment = tuple[float, float, float, float]


def crop_marks(sheets: Sheets, slots: Sequence[Slot], bleed: float) -> list[Segment]:
    """Lines extending every cut line into the margins, outside the bleed of all ``slots``."""
    if not slots:
        return []
    left = min(s.x for s in slots)
    right = max(s.x + s.width for s in slots)
    bottom = min(s.y for s in slots)
    top = max(s.y + s.height for s in slots)
    gap, length = mm(sheets.mark_gap_mm), mm(sheets.mark_length_mm)
    xs = sorted({round(v, 3) for s in slots for v in (s.x + bleed, s.x + s.width - bleed)})
    ys = sorted({round(v, 3) for s in slots for v in (s.y + bleed, s.y + s.height - bleed)})
    marks: list[Segment] = []
    for x in xs:
        marks.append((x, top + gap, x, top + gap + length))
        marks.append((x, bottom - gap, x, bottom - gap - length))
    for y in ys:
        marks.append((left - gap, y, left - gap - length, y))
        marks.append((right + gap, y, right + gap + length, y))
    return marks


@dataclass(frozen=True)
class Placement:
    """Item ``item`` (an index into the build's list of faces to print) in ``slot``."""

    item: int
    slot: Slot


@dataclass(frozen=True)
class Page:
    """A page of fronts or of backs; its grid gives its size and orientation."""

    side: str  # "front" or "back"
    grid: Grid
    placements: tuple[Placement, ...]


def impose(
    sizes: Sequence[tuple[float, float]],
    sheets: Sheets,
    paper: Paper,
    *,
    duplex: Duplex,
    offset_x_mm: float = 0.0,
    offset_y_mm: float = 0.0,
    names: Sequence[str] = (),
) -> list[Page]:
    """Pages for items of the given trim sizes (mm): each size on pages of its own, fronts then mirrored backs."""
    groups: dict[tuple[float, float], list[int]] = {}
    for index, size in enumerate(sizes):
        groups.setdefault(size, []).append(index)
    pages: list[Page] = []
    for (width, height), items in groups.items():
        what = names[items[0]] if names else f"card {items[0] + 1}"
        layout = grid(sheets, paper, width, height, what)
        for chunk in _chunks(items, layout.capacity):
            fronts = tuple(Placement(item, slot) for item, slot in zip(chunk, layout.slots))
            pages.append(Page("front", layout, fronts))
            if duplex != Duplex.NONE:
                backs = tuple(Placement(p.item, back_slot(layout, p.slot, duplex, offset_x_mm, offset_y_mm)) for p in fronts)
                pages.append(Page("back", layout, backs))
    return pages


def _chunks(items: Sequence[int], size: int) -> Iterable[Sequence[int]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
