"""Imposition: where each card goes on a sheet, where its back goes, and where the crop marks go.

Sheets are data (``templates/sheets.yaml``, checked against
``templates/sheets.schema.json``): papers, layouts, bleed, crop marks. A grid
holds as many cards as fit inside the margins, in the orientation that fits
most, and keeps room for a crop mark on at least one end of every cut line
(a mark ends ``paper_edge_mm`` inside the paper, where desktop printers still
print). The layouts:

- ``butted`` (the default): cards abut, so neighbours share a cut line and
  one cut serves both; each card's art is clipped to its trim box, widened
  by the bleed on the sides where no card of the page is its neighbour, so
  the bleed runs only round the outside of the block;
- ``gutter``: every card keeps its whole bleed, for a guillotine cut on
  each side of every card;
- ``lines``: butted, with full-length cut lines across the sheet (``marks:
  lines``) instead of marks in the margins;
- ``cutter``: for print-then-cut machines, registration marks (``marks:
  registration``: a square at the top-left, corner brackets at the top-right
  and bottom-left) and the cards inside them, no crop marks; each page is
  read and cut on its own;
- ``fold`` (gutterfold, for printers without duplex): the fronts on one
  half of the page, each back at the mirrored place on the other half, a
  dashed fold line between: fold, glue, cut. The fold line runs down the
  page (fronts left) or across it (fronts on top, backs turned 180 degrees
  so they are upright once folded), in whichever orientation and direction
  holds the most cards.

Backs go on the following page at the mirrored place, so that after a
duplex print each back lands behind its front:

- flipping about the sheet's vertical axis (long edge of a portrait sheet,
  short edge of a landscape one): x is mirrored, the back stays upright;
- flipping about the horizontal axis (the other two cases): y is mirrored
  and the back is turned 180 degrees, so it is upright once the card is
  turned over like a book page.

Printer drift is corrected with offsets given in paper terms (see
``back_shift``), the same on every page whatever its orientation.
All geometry here is in points, converted once from the mm of the data.
"""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable, Optional, Sequence

from pipeline.base.errors import UserError
from pipeline.cards.svgtemplates import TEMPLATE_ROOT
from pipeline.cards.units import mm
from pipeline.data.schemas import load_checked_yaml

SHEETS_NAME = "sheets.yaml"
SHEETS_SCHEMA_NAME = "sheets.schema.json"
SHEETS_FILE = TEMPLATE_ROOT / SHEETS_NAME
SHEETS_SCHEMA = TEMPLATE_ROOT / SHEETS_SCHEMA_NAME
PORTRAIT, LANDSCAPE = "portrait", "landscape"
BUTTED, GUTTER = "butted", "gutter"
CROP, LINES, REGISTRATION = "crop", "lines", "registration"  # what marks a layout prints
FOLD_SIDE = "fold"  # a page holding fronts and their backs
DOWN, ACROSS_PAGE = "down", "across-page"  # a fold line down the page (fronts left) or across it (fronts on top)
CUT_LINE_DECIMALS = 3  # cut lines (pt) that agree to this many decimals are one line, with one set of crop marks
MARK_TOLERANCE_PT = 1e-3  # a mark this much shorter than the shortest allowed is rounding, not too short


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
class Layout:
    """How cards sit on a sheet: butted (shared cut lines) or each card its own bleed, a gutter apart; which
    marks it prints; and whether backs sit beside their fronts for folding."""

    name: str
    margin_mm: float  # page edge to the nearest bleed edge, at least
    gutter_mm: float = 0.0  # between neighbouring bleed boxes (not butted)
    butted: bool = False
    marks: str = CROP  # CROP, LINES or REGISTRATION
    fold: bool = False


@dataclass(frozen=True)
class Registration:
    """Print-then-cut registration marks, in mm: inset from the paper edge, the square's side, a bracket's arm,
    the stroke, and the clearance the cards keep from them."""

    inset_mm: float
    square_mm: float
    arm_mm: float
    stroke_mm: float
    clearance_mm: float


@dataclass(frozen=True)
class Sheets:
    """The validated contents of sheets.yaml."""

    bleed_mm: float
    orientations: tuple[str, ...]
    default_layout: str
    layouts: dict[str, Layout]
    mark_gap_mm: float
    mark_length_mm: float
    mark_stroke_pt: float
    mark_paper_edge_mm: float
    mark_min_length_mm: float
    registration: Registration
    fold_gap_mm: float
    fold_dash_pt: float
    cross_mm: float
    ruler_mm: int
    papers: dict[str, Paper]

    def paper(self, paper_id: str) -> Paper:
        try:
            return self.papers[paper_id]
        except KeyError:
            raise UserError(f"unknown paper '{paper_id}' (known: {', '.join(self.papers)})") from None

    def layout(self, name: Optional[str] = None) -> Layout:
        """The layout called ``name`` (default: the sheets' default layout)."""
        try:
            return self.layouts[name or self.default_layout]
        except KeyError:
            raise UserError(f"unknown layout '{name}' (known: {', '.join(self.layouts)})") from None


def load_sheets(path: Path = SHEETS_FILE, schema_path: Path = SHEETS_SCHEMA) -> Sheets:
    """Read and validate the sheet definitions; a problem names the file, line and field (read each time it is
    asked, about a ms: a caller that needs them more than once in a command holds on to what it read)."""
    data = load_checked_yaml(path, schema_path)
    marks, calibration = data["crop_marks"], data["calibration"]
    registration = Registration(**data["registration"])
    layouts = {name: Layout(name, fields["margin_mm"], fields.get("gutter_mm", 0.0), fields.get("butted", name == BUTTED),
                            fields.get("marks", CROP), fields.get("fold", False))
               for name, fields in data["layouts"].items()}
    for layout in layouts.values():
        needed = registration.inset_mm + registration.square_mm + registration.clearance_mm
        if layout.marks == REGISTRATION and layout.margin_mm < needed:
            raise UserError(f"{path}: layout {layout.name}: margin_mm {layout.margin_mm:g} leaves no room for the "
                            f"registration marks and their clearance ({needed:g} mm)")
    return Sheets(
        bleed_mm=data["bleed_mm"],
        orientations=tuple(data["orientations"]),
        default_layout=data["default_layout"],
        layouts=layouts,
        mark_gap_mm=marks["gap_mm"],
        mark_length_mm=marks["length_mm"],
        mark_stroke_pt=marks["stroke_pt"],
        mark_paper_edge_mm=marks["paper_edge_mm"],
        mark_min_length_mm=marks["min_length_mm"],
        registration=registration,
        fold_gap_mm=data["fold_line"]["gap_mm"],
        fold_dash_pt=data["fold_line"]["dash_pt"],
        cross_mm=calibration["cross_mm"],
        ruler_mm=calibration["ruler_mm"],
        papers={p["id"]: Paper(p["id"], p["name"], p["width_mm"], p["height_mm"]) for p in data["papers"]},
    )


Rect = tuple[float, float, float, float]  # x, y (bottom-left), width, height, in points


@dataclass(frozen=True)
class Slot:
    """A bleed box on a page, in points: bottom-left corner, size; ``turned`` = drawn rotated 180 degrees.

    ``clip``: the part of the page the card may paint (butted layout: its trim box, widened by the
    bleed where it has no neighbour); None paints the whole bleed box.
    """

    x: float
    y: float
    width: float
    height: float
    turned: bool = False
    clip: Optional[Rect] = None

    def trim(self, bleed: float) -> Rect:
        """The card's trim box on the page (its bleed box less ``bleed`` points all round)."""
        return (self.x + bleed, self.y + bleed, self.width - 2 * bleed, self.height - 2 * bleed)

    def moved(self, dx: float, dy: float) -> Slot:
        clip = None if self.clip is None else (self.clip[0] + dx, self.clip[1] + dy, self.clip[2], self.clip[3])
        return replace(self, x=self.x + dx, y=self.y + dy, clip=clip)


@dataclass(frozen=True)
class Grid:
    """The slots of one card size on one paper, row-major from the top-left (``columns`` to a row)."""

    page_width: float
    page_height: float
    orientation: str
    slots: tuple[Slot, ...]
    bleed: float  # points
    columns: int
    butted: bool
    fold: str = ""  # DOWN or ACROSS_PAGE: the slots are one half's, each back at the mirrored place on the other

    @property
    def capacity(self) -> int:
        return len(self.slots)


def grid(sheets: Sheets, paper: Paper, trim_w_mm: float, trim_h_mm: float, what: str, layout: Optional[Layout] = None) -> Grid:
    """The fullest grid of ``trim_w x trim_h`` cards on ``paper`` (each orientation, and for a fold layout each
    direction of the fold line, is tried; ties go to the first); ``what`` names the card in an error."""
    layout = layout or sheets.layout()
    best: Grid | None = None
    folds = (DOWN, ACROSS_PAGE) if layout.fold else ("",)
    candidates = [_grid(sheets, layout, paper, trim_w_mm, trim_h_mm, o, f) for o in sheets.orientations for f in folds]
    if layout.fold and not any(c.capacity for c in candidates):  # too big to fold: a page of fronts, then backs
        candidates = [_grid(sheets, replace(layout, fold=False), paper, trim_w_mm, trim_h_mm, o) for o in sheets.orientations]
    marked = [c for c in candidates if layout.marks != CROP or _marks_fit(sheets, c)]
    for candidate in marked or candidates:  # a grid leaving a cut line unmarked only when no orientation can
        if best is None or candidate.capacity > best.capacity:
            best = candidate
    if best is None or best.capacity == 0:
        raise UserError(
            f"{what}: a {trim_w_mm:g}x{trim_h_mm:g} mm card (plus {sheets.bleed_mm:g} mm bleed) "
            f"does not fit on {paper.name} inside {layout.margin_mm:g} mm margins"
        )
    return best


def _grid(sheets: Sheets, layout: Layout, paper: Paper, trim_w: float, trim_h: float, orientation: str,
          fold: str = "") -> Grid:
    page_w, page_h = paper.width_mm, paper.height_mm
    if orientation == LANDSCAPE:
        page_w, page_h = page_h, page_w
    bleed, margin = sheets.bleed_mm, layout.margin_mm
    half = margin - sheets.fold_gap_mm  # a fold: one half of the page, the fold gap (not a margin) at the middle
    room_w = page_w / 2 + half if fold == DOWN else page_w
    room_h = page_h / 2 + half if fold == ACROSS_PAGE else page_h
    if layout.butted:  # cells are trim boxes side by side; one bleed round the block
        pitch_w, pitch_h, edge = trim_w, trim_h, 2 * bleed
    else:  # cells are bleed boxes, a gutter apart
        pitch_w, pitch_h, edge = trim_w + 2 * bleed + layout.gutter_mm, trim_h + 2 * bleed + layout.gutter_mm, -layout.gutter_mm
    cols = max(0, int((room_w - 2 * margin - edge) // pitch_w))
    rows = max(0, int((room_h - 2 * margin - edge) // pitch_h))
    block_w, block_h = cols * pitch_w + edge, rows * pitch_h + edge
    left, top = (page_w - block_w) / 2, (page_h + block_h) / 2  # the block is centred on the page
    if fold == DOWN:  # the fronts end the fold gap before the middle; their backs mirror them on the other half
        left = page_w / 2 - sheets.fold_gap_mm - block_w
    elif fold == ACROSS_PAGE:  # the fronts start the fold gap above the middle
        top = page_h / 2 + sheets.fold_gap_mm + block_h
    box_w, box_h = trim_w + 2 * bleed, trim_h + 2 * bleed
    # butted: a bleed box reaches one bleed past its trim, which starts one bleed inside the block
    slots = tuple(
        Slot(mm(left + c * pitch_w), mm(top - r * pitch_h - box_h), mm(box_w), mm(box_h)) for r in range(rows) for c in range(cols)
    )
    return Grid(mm(page_w), mm(page_h), orientation, slots, mm(bleed), max(cols, 1), layout.butted, fold)


def _marks_fit(sheets: Sheets, cells: Grid) -> bool:
    """Whether every cut line of a full grid gets a crop mark on at least one of its ends."""
    if not cells.slots:
        return False
    slots = list(cells.slots) + ([fold_slot(cells, s) for s in cells.slots] if cells.fold else [])
    room = _mark_room(sheets, slots, cells.page_width, cells.page_height)
    least = mm(sheets.mark_min_length_mm) - MARK_TOLERANCE_PT
    return max(room["top"], room["bottom"]) >= least and max(room["left"], room["right"]) >= least


def _mark_room(sheets: Sheets, slots: Sequence[Slot], page_width: float, page_height: float) -> dict[str, float]:
    """How long a mark may be on each side of the block of ``slots`` (points): from its start, one gap past the
    outer bleed, to ``paper_edge_mm`` inside the paper."""
    gap, edge = mm(sheets.mark_gap_mm), mm(sheets.mark_paper_edge_mm)
    return {
        "top": page_height - max(s.y + s.height for s in slots) - gap - edge,
        "bottom": min(s.y for s in slots) - gap - edge,
        "right": page_width - max(s.x + s.width for s in slots) - gap - edge,
        "left": min(s.x for s in slots) - gap - edge,
    }


def fold_slot(cells: Grid, slot: Slot) -> Slot:
    """Where the back of the card in ``slot`` goes on a fold page: mirrored about the fold line, so folding the
    sheet along it puts the back behind its front; upright for a fold down the page, turned 180 degrees for one
    across it (upright again once the card is turned over top to bottom)."""
    down = cells.fold == DOWN
    x, y, _, _ = _mirror(cells, (slot.x, slot.y, slot.width, slot.height), down)
    clip = None if slot.clip is None else _mirror(cells, slot.clip, down)
    return replace(slot, x=x, y=y, clip=clip, turned=slot.turned if down else not slot.turned)


def flips_about_vertical_axis(orientation: str, duplex: Duplex) -> bool:
    """Whether turning the sheet over swaps left and right (True) or top and bottom (False)."""
    return (orientation == PORTRAIT) == (duplex == Duplex.LONG)


ACROSS, ALONG = "across", "along"


def paper_axes(orientation: str) -> dict[str, tuple[int, int]]:
    """The page direction (x, y) in which each paper axis points: ``across`` the paper (along its short
    edge, + towards the right edge of the sheet held portrait, front towards you) and ``along`` it
    (along its long edge, + towards the top edge).

    A landscape page is printed turned a quarter turn anticlockwise onto the paper (its top at the
    paper's left edge), as printer drivers turn landscape pages: its x runs along the paper, its y
    against ``across``.
    """
    if orientation == PORTRAIT:
        return {ACROSS: (1, 0), ALONG: (0, 1)}
    return {ACROSS: (0, -1), ALONG: (1, 0)}


def back_shift(orientation: str, duplex: Duplex, across_mm: float, along_mm: float) -> tuple[float, float]:
    """The move (points, in the back page's own x and y) that shifts a back, as seen through the sheet
    from its front, by ``across_mm`` and ``along_mm`` (see ``paper_axes``): the same physical move on
    every page, whatever its orientation. Seen through the sheet, the back page is mirrored about the
    flip axis."""
    axes = paper_axes(orientation)
    x = across_mm * axes[ACROSS][0] + along_mm * axes[ALONG][0]
    y = across_mm * axes[ACROSS][1] + along_mm * axes[ALONG][1]
    if flips_about_vertical_axis(orientation, duplex):
        return mm(-x), mm(y)
    return mm(x), mm(-y)


def _mirror(grid: Grid, rect: Rect, about_vertical: bool) -> Rect:
    x, y, w, h = rect
    return (grid.page_width - x - w, y, w, h) if about_vertical else (x, grid.page_height - y - h, w, h)


def back_slot(grid: Grid, slot: Slot, duplex: Duplex, across_mm: float = 0.0, along_mm: float = 0.0) -> Slot:
    """Where the back of the card in ``slot`` goes on the following page (offsets in paper terms, see back_shift)."""
    vertical = flips_about_vertical_axis(grid.orientation, duplex)
    x, y, _, _ = _mirror(grid, (slot.x, slot.y, slot.width, slot.height), vertical)
    clip = None if slot.clip is None else _mirror(grid, slot.clip, vertical)
    mirrored = replace(slot, x=x, y=y, clip=clip, turned=slot.turned if vertical else not slot.turned)
    return mirrored.moved(*back_shift(grid.orientation, duplex, across_mm, along_mm))


def check_offsets(sheets: Sheets, layout: Layout, across_mm: float, along_mm: float) -> None:
    """Refuse an offset that would push backs past the margin, off the printable page, or that is no
    finite number (every comparison with NaN is false: it would pass any bound)."""
    for flag, value in (("--offset-across", across_mm), ("--offset-along", along_mm)):
        if not math.isfinite(value):
            raise UserError(f"{flag} {value} is not a finite number of millimetres")
        if abs(value) > layout.margin_mm:
            raise UserError(
                f"{flag} {value:g} mm is larger than the {layout.margin_mm:g} mm margin of the {layout.name} layout: "
                "the backs would run off the sheet (measure again with --calibration)"
            )


Segment = tuple[float, float, float, float]


def crop_marks(sheets: Sheets, slots: Sequence[Slot], bleed: float, page_width: float, page_height: float) -> list[Segment]:
    """Lines extending every cut line into the margins, outside the bleed of all ``slots``; a mark ends
    ``paper_edge_mm`` inside the paper and is left out when shorter than ``min_length_mm``."""
    if not slots:
        return []
    xs, ys = cut_lines(slots, bleed)
    room = _mark_room(sheets, slots, page_width, page_height)
    gap, length, least = mm(sheets.mark_gap_mm), mm(sheets.mark_length_mm), mm(sheets.mark_min_length_mm)
    starts = {
        "top": (max(s.y + s.height for s in slots) + gap, 1.0),
        "bottom": (min(s.y for s in slots) - gap, -1.0),
        "right": (max(s.x + s.width for s in slots) + gap, 1.0),
        "left": (min(s.x for s in slots) - gap, -1.0),
    }
    marks: list[Segment] = []
    for name, (start, direction) in starts.items():
        reach = min(length, room[name])
        if reach < least - MARK_TOLERANCE_PT:
            continue
        end = start + direction * reach
        positions = xs if name in ("top", "bottom") else ys
        for p in positions:
            marks.append((p, start, p, end) if name in ("top", "bottom") else (start, p, end, p))
    return marks


def cut_lines(slots: Sequence[Slot], bleed: float) -> tuple[list[float], list[float]]:
    """The x of every vertical and the y of every horizontal cut line of ``slots`` (points), each once."""
    xs = sorted({round(v, CUT_LINE_DECIMALS) for s in slots for v in (s.x + bleed, s.x + s.width - bleed)})
    ys = sorted({round(v, CUT_LINE_DECIMALS) for s in slots for v in (s.y + bleed, s.y + s.height - bleed)})
    return xs, ys


def full_cut_lines(sheets: Sheets, slots: Sequence[Slot], bleed: float, page_width: float, page_height: float) -> list[Segment]:
    """Every cut line drawn across the whole sheet, ending ``paper_edge_mm`` inside the paper."""
    if not slots:
        return []
    xs, ys = cut_lines(slots, bleed)
    edge = mm(sheets.mark_paper_edge_mm)
    return ([(x, edge, x, page_height - edge) for x in xs] + [(edge, y, page_width - edge, y) for y in ys])


def registration_marks(sheets: Sheets, page_width: float, page_height: float) -> tuple[Rect, list[Segment]]:
    """A print-then-cut machine's marks (points): the filled square at the top-left, and the corner brackets at
    the top-right and bottom-left as lines along their centre lines (stroke ``stroke_mm``)."""
    r = sheets.registration
    inset, side, arm, half = mm(r.inset_mm), mm(r.square_mm), mm(r.arm_mm), mm(r.stroke_mm) / 2
    square = (inset, page_height - inset - side, side, side)
    right, top, bottom = page_width - inset - half, page_height - inset - half, inset + half
    left = inset + half
    brackets = [
        (right - arm, top, right, top), (right, top, right, top - arm),  # top-right
        (left, bottom + arm, left, bottom), (left, bottom, left + arm, bottom),  # bottom-left
    ]
    return square, brackets


@dataclass(frozen=True)
class Placement:
    """Item ``item`` (an index into the build's list of faces to print) in ``slot``."""

    item: int
    slot: Slot
    back: bool = False  # draw the item's back here (a fold page holds fronts and backs)


@dataclass(frozen=True)
class Page:
    """A page of fronts or of backs; its grid gives its size and orientation."""

    side: str  # "front", "back", or FOLD_SIDE (fronts and their backs)
    grid: Grid
    placements: tuple[Placement, ...]


def impose(
    sizes: Sequence[tuple[float, float]],
    sheets: Sheets,
    paper: Paper,
    *,
    duplex: Duplex,
    layout: Optional[Layout] = None,
    offset_across_mm: float = 0.0,
    offset_along_mm: float = 0.0,
    names: Sequence[str] = (),
    apart: Sequence[Optional[str]] = (),
) -> list[Page]:
    """Pages for items of the given trim sizes (mm), fronts then mirrored backs.

    Items of one size share pages, in the order given, unless ``apart`` (one entry per item, or
    none) gives them different groups: each size and group fills pages of its own (a sheet holds
    one lonely card only where that size or group ends).
    """
    layout = layout or sheets.layout()
    check_offsets(sheets, layout, offset_across_mm, offset_along_mm)
    groups: dict[tuple[tuple[float, float], Optional[str]], list[int]] = {}
    for index, size in enumerate(sizes):
        groups.setdefault((size, apart[index] if apart else None), []).append(index)
    pages: list[Page] = []
    for ((width, height), _), items in groups.items():
        what = names[items[0]] if names else f"card {items[0] + 1}"
        cells = grid(sheets, paper, width, height, what, layout)
        for chunk in _chunks(items, cells.capacity):
            slots = _clipped(cells, len(chunk)) if cells.butted else cells.slots
            fronts = tuple(Placement(item, slot) for item, slot in zip(chunk, slots))
            if cells.fold:  # backs first, in the order of their fronts (the one-back-per-deck check reads them so)
                backs = tuple(Placement(p.item, fold_slot(cells, p.slot), back=True) for p in fronts)
                pages.append(Page(FOLD_SIDE, cells, backs + fronts))
                continue
            pages.append(Page("front", cells, fronts))
            if layout.fold:  # a card too big to fold beside its back: its back on the next page, for the other side
                duplex = Duplex.LONG
            if duplex != Duplex.NONE:
                backs = tuple(
                    Placement(p.item, back_slot(cells, p.slot, duplex, offset_across_mm, offset_along_mm)) for p in fronts
                )
                pages.append(Page("back", cells, backs))
    return pages


def _clipped(cells: Grid, count: int) -> tuple[Slot, ...]:
    """The first ``count`` slots of a butted grid, each clipped to its trim box widened by the bleed
    on every side where no other card of the page is its neighbour."""
    b = cells.bleed
    filled = {divmod(index, cells.columns) for index in range(count)}
    clipped = []
    for index in range(count):
        row, col = divmod(index, cells.columns)
        slot = cells.slots[index]
        left = b * ((row, col - 1) in filled)
        right = b * ((row, col + 1) in filled)
        top = b * ((row - 1, col) in filled)  # rows run from the top
        bottom = b * ((row + 1, col) in filled)
        clip = (slot.x + left, slot.y + bottom, slot.width - left - right, slot.height - top - bottom)
        clipped.append(replace(slot, clip=clip))
    return tuple(clipped)


def _chunks(items: Sequence[int], size: int) -> Iterable[Sequence[int]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
