"""Sheets as data, grids, shared cut lines, mirrored backs, paper-term offsets and crop marks, in numbers."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from pipeline.base.errors import UserError
from pipeline.cards.imposition import (
    ACROSS_PAGE,
    DOWN,
    LANDSCAPE,
    PORTRAIT,
    SHEETS_FILE,
    SHEETS_SCHEMA,
    Duplex,
    back_slot,
    crop_marks,
    full_cut_lines,
    grid,
    impose,
    load_sheets,
    registration_marks,
)
from pipeline.cards.units import mm

SHEETS = load_sheets()
BUTTED, GUTTER = SHEETS.layout("butted"), SHEETS.layout("gutter")
POKER = (63.0, 88.0)
LOCATION = (88.9, 127.0)  # 3.5 x 5 in
BOARD = (180.0, 130.0)
EPS = 1e-6


@pytest.mark.parametrize(
    ("size", "paper", "layout", "count", "orientation"),
    [
        (POKER, "a4", "butted", 9, PORTRAIT),
        (POKER, "letter", "butted", 8, LANDSCAPE),  # 3 rows leave no room for a mark 5 mm inside the paper
        (LOCATION, "a4", "butted", 4, PORTRAIT),
        (LOCATION, "letter", "butted", 4, PORTRAIT),
        (BOARD, "a4", "butted", 2, PORTRAIT),
        (BOARD, "letter", "butted", 1, LANDSCAPE),  # the same
        (POKER, "a4", "gutter", 8, LANDSCAPE),  # today's layout, kept
        (POKER, "letter", "gutter", 6, LANDSCAPE),
        (POKER, "a4", "fold", 4, LANDSCAPE),  # 2 x 2 fronts on the left half, their backs on the right
        (POKER, "letter", "fold", 4, LANDSCAPE),  # 4 fronts in a row above the fold, their backs below
        (LOCATION, "a4", "fold", 2, PORTRAIT),
        (LOCATION, "letter", "fold", 2, PORTRAIT),
        (BOARD, "a4", "fold", 1, PORTRAIT),  # the board above the fold, its back below
        (POKER, "a4", "cutter", 4, PORTRAIT),
        (POKER, "letter", "cutter", 4, PORTRAIT),
        (BOARD, "letter", "cutter", 1, LANDSCAPE),
        (POKER, "letter", "lines", 9, PORTRAIT),  # full-length lines need no margin for marks
    ],
)
def test_as_many_cards_as_fit(size: tuple[float, float], paper: str, layout: str, count: int, orientation: str) -> None:
    cells = grid(SHEETS, SHEETS.paper(paper), *size, "card", SHEETS.layout(layout))
    assert (cells.capacity, cells.orientation) == (count, orientation)


def test_the_default_layout_is_butted() -> None:
    assert SHEETS.layout() == BUTTED and BUTTED.butted and not GUTTER.butted


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_butted_cards_share_cut_lines_and_keep_the_margin(paper: str) -> None:
    cells = grid(SHEETS, SHEETS.paper(paper), *POKER, "poker", BUTTED)
    b, margin = cells.bleed, mm(BUTTED.margin_mm)
    trims = [s.trim(b) for s in cells.slots]
    for index, (x, y, w, h) in enumerate(trims):
        assert (w, h) == (pytest.approx(mm(POKER[0])), pytest.approx(mm(POKER[1])))
        row, col = divmod(index, cells.columns)
        if col + 1 < cells.columns:  # its right edge is its neighbour's left edge: one cut
            assert trims[index + 1][0] == pytest.approx(x + w)
        if index + cells.columns < len(trims):
            assert trims[index + cells.columns][1] + h == pytest.approx(y)
    left, bottom = min(t[0] for t in trims) - b, min(t[1] for t in trims) - b
    right, top = max(t[0] + t[2] for t in trims) + b, max(t[1] + t[3] for t in trims) + b
    assert left >= margin - EPS and bottom >= margin - EPS
    assert right <= cells.page_width - margin + EPS and top <= cells.page_height - margin + EPS


def test_bleed_only_round_the_outside_of_the_block() -> None:
    pages = impose([POKER] * 9, SHEETS, SHEETS.paper("a4"), duplex=Duplex.NONE)
    b = pages[0].grid.bleed
    slots = [p.slot for p in pages[0].placements]
    centre = slots[4]
    assert centre.clip == pytest.approx(centre.trim(b))  # surrounded: trim box only
    corner = slots[0]  # top-left: bleed on its left and top
    x, y, w, h = corner.trim(b)
    assert corner.clip == pytest.approx((x - b, y, w + b, h + b))
    paint = [s.clip for s in slots]
    for i, (x1, y1, w1, h1) in enumerate(paint):  # no card paints over another
        for x2, y2, w2, h2 in paint[i + 1 :]:
            assert min(x1 + w1, x2 + w2) - max(x1, x2) <= EPS or min(y1 + h1, y2 + h2) - max(y1, y2) <= EPS


def test_a_short_last_sheet_gets_bleed_where_it_has_no_neighbour() -> None:
    pages = impose([POKER] * 11, SHEETS, SHEETS.paper("a4"), duplex=Duplex.NONE)
    assert [len(p.placements) for p in pages] == [9, 2]
    b = pages[1].grid.bleed
    first, second = (p.slot for p in pages[1].placements)
    x, y, w, h = first.trim(b)
    assert first.clip == pytest.approx((x - b, y - b, w + b, h + 2 * b))  # bleed left, above and below; its neighbour on the right
    x, y, w, h = second.trim(b)
    assert second.clip == pytest.approx((x, y - b, w + b, h + 2 * b))


def test_a_card_too_big_for_the_paper_is_an_error_naming_it() -> None:
    with pytest.raises(UserError, match="giant: a 400x300 mm card"):
        grid(SHEETS, SHEETS.paper("a4"), 400, 300, "giant")


@pytest.mark.parametrize("layout", [BUTTED, GUTTER])
@pytest.mark.parametrize(
    ("orientation", "duplex", "mirrors_x"),
    [(PORTRAIT, Duplex.LONG, True), (PORTRAIT, Duplex.SHORT, False), (LANDSCAPE, Duplex.LONG, False), (LANDSCAPE, Duplex.SHORT, True)],
)
def test_backs_mirror_about_the_flip_axis(layout: object, orientation: str, duplex: Duplex, mirrors_x: bool) -> None:
    sheets = replace(SHEETS, orientations=(orientation,))
    pages = impose([POKER] * 4, sheets, sheets.paper("a4"), duplex=duplex, layout=layout)  # type: ignore[arg-type]
    cells = pages[0].grid
    for front, back in zip(pages[0].placements, pages[1].placements):
        slot, mirrored = front.slot, back.slot
        assert front.item == back.item
        if mirrors_x:
            assert (mirrored.x, mirrored.y, mirrored.turned) == (pytest.approx(cells.page_width - slot.x - slot.width), slot.y, False)
        else:
            assert (mirrored.x, mirrored.y, mirrored.turned) == (slot.x, pytest.approx(cells.page_height - slot.y - slot.height), True)
        if slot.clip is not None:  # the painted area mirrors with the card
            assert mirrored.clip is not None
            cx, cy, cw, ch = slot.clip
            expected = (cells.page_width - cx - cw, cy, cw, ch) if mirrors_x else (cx, cells.page_height - cy - ch, cw, ch)
            assert mirrored.clip == pytest.approx(expected)


@pytest.mark.parametrize(
    ("orientation", "duplex", "expected"),
    [  # (across 2, along -1) seen from the front, in the back page's own x and y
        (PORTRAIT, Duplex.LONG, (-2.0, -1.0)),
        (PORTRAIT, Duplex.SHORT, (2.0, 1.0)),
        (LANDSCAPE, Duplex.LONG, (-1.0, 2.0)),
        (LANDSCAPE, Duplex.SHORT, (1.0, -2.0)),
    ],
)
def test_offsets_are_paper_terms_turned_into_page_terms(orientation: str, duplex: Duplex, expected: tuple[float, float]) -> None:
    sheets = replace(SHEETS, orientations=(orientation,))
    cells = grid(sheets, sheets.paper("a4"), *POKER, "poker", GUTTER)
    slot = cells.slots[0]
    plain, shifted = back_slot(cells, slot, duplex), back_slot(cells, slot, duplex, 2.0, -1.0)
    assert (shifted.x - plain.x, shifted.y - plain.y) == (pytest.approx(mm(expected[0])), pytest.approx(mm(expected[1])))


def test_an_offset_larger_than_the_margin_is_refused() -> None:
    with pytest.raises(UserError, match=r"--offset-along 5 mm is larger than the 4 mm margin of the butted layout"):
        impose([POKER], SHEETS, SHEETS.paper("a4"), duplex=Duplex.LONG, offset_along_mm=5)
    impose([POKER], SHEETS, SHEETS.paper("a4"), duplex=Duplex.LONG, layout=GUTTER, offset_along_mm=5)  # 10 mm margin


@pytest.mark.parametrize("layout", [BUTTED, GUTTER])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_on_every_cut_line_outside_every_bleed_box_and_on_the_page(layout: object, paper: str) -> None:
    cells = grid(SHEETS, SHEETS.paper(paper), *POKER, "poker", layout)  # type: ignore[arg-type]
    marks = crop_marks(SHEETS, cells.slots, cells.bleed, cells.page_width, cells.page_height)
    edge = mm(5) - EPS  # desktop printers print nothing nearer the paper's edge
    for x1, y1, x2, y2 in marks:
        assert edge <= min(x1, x2) and max(x1, x2) <= cells.page_width - edge
        assert edge <= min(y1, y2) and max(y1, y2) <= cells.page_height - edge
        for slot in cells.slots:
            inside_x = slot.x < min(x1, x2) < slot.x + slot.width or slot.x < max(x1, x2) < slot.x + slot.width
            inside_y = slot.y < min(y1, y2) < slot.y + slot.height or slot.y < max(y1, y2) < slot.y + slot.height
            assert not (inside_x and inside_y), (x1, y1, x2, y2)
    trims = [s.trim(cells.bleed) for s in cells.slots]
    cut_xs = {round(v, 3) for x, _, w, _ in trims for v in (x, x + w)}
    cut_ys = {round(v, 3) for _, y, _, h in trims for v in (y, y + h)}
    vertical = [round(x1, 3) for x1, _, x2, _ in marks if x1 == x2]
    horizontal = [round(y1, 3) for _, y1, _, y2 in marks if y1 == y2]
    assert set(vertical) == cut_xs and len(vertical) == 2 * len(cut_xs)  # top and bottom
    assert set(horizontal) == cut_ys and len(horizontal) == 2 * len(cut_ys)  # left and right
    if layout is BUTTED and paper == "a4":
        assert len(cut_xs) == 4 and len(cut_ys) == 4  # 3 x 3 cards: 4 cut lines each way, shared


def test_impose_groups_sizes_and_pairs_pages() -> None:
    pages = impose([POKER] * 10 + [(180.0, 120.0)], SHEETS, SHEETS.paper("a4"), duplex=Duplex.LONG)
    assert [(p.side, len(p.placements)) for p in pages] == [("front", 9), ("back", 9), ("front", 1), ("back", 1), ("front", 1), ("back", 1)]
    assert [p.placements[0].item for p in pages[2:]] == [9, 9, 10, 10]  # the board (item 10) is alone


def test_mixed_kinds_of_one_size_share_sheets() -> None:
    sizes = [POKER] * 5 + [LOCATION] * 2 + [POKER] * 4  # a second poker-size kind after the Locations
    pages = impose(sizes, SHEETS, SHEETS.paper("a4"), duplex=Duplex.NONE)
    assert [[p.item for p in page.placements] for page in pages] == [[0, 1, 2, 3, 4, 7, 8, 9, 10], [5, 6]]


def test_cards_kept_apart_never_share_a_sheet() -> None:
    """Two decks of one size whose backs differ (``apart``): each fills sheets of its own, in the order given."""
    apart = ["gods"] * 10 + ["mortals"] * 4 + [None]
    pages = impose([POKER] * 15, SHEETS, SHEETS.paper("a4"), duplex=Duplex.LONG, apart=apart)
    fronts = [[p.item for p in page.placements] for page in pages if page.side == "front"]
    assert fronts == [list(range(9)), [9], [10, 11, 12, 13], [14]]
    assert all({apart[i] for i in items} == {apart[items[0]]} for items in fronts)


def test_sheet_definitions_are_validated(tmp_path: Path) -> None:
    data = yaml.safe_load(SHEETS_FILE.read_text())
    data["layouts"]["butted"]["gutter"] = 2
    bad = tmp_path / "sheets.yaml"
    bad.write_text(yaml.safe_dump(data))
    with pytest.raises(UserError, match=r"sheets.yaml:\d+:\d+: .*unknown key .gutter."):
        load_sheets(bad, SHEETS_SCHEMA)


@pytest.mark.parametrize(("paper", "fold"), [("a4", DOWN), ("letter", ACROSS_PAGE)])
def test_a_fold_page_holds_fronts_and_their_backs_mirrored_about_the_fold(paper: str, fold: str) -> None:
    pages = impose([POKER] * 3, SHEETS, SHEETS.paper(paper), duplex=Duplex.NONE, layout=SHEETS.layout("fold"))
    page = pages[0]
    assert page.side == "fold" and page.grid.fold == fold
    backs = [p for p in page.placements if p.back]
    fronts = [p for p in page.placements if not p.back]
    assert [p.item for p in backs] == [p.item for p in fronts]  # backs first, in the order of their fronts
    width, height, gap = page.grid.page_width, page.grid.page_height, mm(SHEETS.fold_gap_mm)
    for back, front in zip(backs, fronts):
        if fold == DOWN:  # fronts left of the fold; backs mirrored across it, upright
            assert front.slot.x + front.slot.width <= width / 2 - gap + EPS
            assert back.slot.x == pytest.approx(width - front.slot.x - front.slot.width)
            assert (back.slot.y, back.slot.turned) == (front.slot.y, front.slot.turned)
        else:  # fronts above the fold; backs mirrored below it, turned (upright once turned over top to bottom)
            assert front.slot.y >= height / 2 + gap - EPS
            assert back.slot.y == pytest.approx(height - front.slot.y - front.slot.height)
            assert (back.slot.x, back.slot.turned) == (front.slot.x, not front.slot.turned)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_cutter_cards_keep_clear_of_the_registration_marks(paper: str) -> None:
    layout = SHEETS.layout("cutter")
    cells = grid(SHEETS, SHEETS.paper(paper), *POKER, "poker", layout)
    square, brackets = registration_marks(SHEETS, cells.page_width, cells.page_height)
    reg = SHEETS.registration
    keep = mm(reg.inset_mm + reg.square_mm + reg.clearance_mm) - EPS
    for slot in cells.slots:
        assert slot.x >= keep and slot.y >= keep
        assert cells.page_width - slot.x - slot.width >= keep and cells.page_height - slot.y - slot.height >= keep
    assert square[0] == pytest.approx(mm(reg.inset_mm)) and len(brackets) == 4


def test_full_length_cut_lines_run_the_sheet_inside_the_paper_edge() -> None:
    cells = grid(SHEETS, SHEETS.paper("letter"), *POKER, "poker", SHEETS.layout("lines"))
    lines = full_cut_lines(SHEETS, cells.slots, cells.bleed, cells.page_width, cells.page_height)
    edge = mm(SHEETS.mark_paper_edge_mm)
    assert len(lines) == 8  # 4 vertical and 4 horizontal cut lines of a 3 x 3 block
    assert all(min(x1, x2) >= edge - EPS and max(x1, x2) <= cells.page_width - edge + EPS for x1, _, x2, _ in lines)
    assert all(min(y1, y2) >= edge - EPS and max(y1, y2) <= cells.page_height - edge + EPS for _, y1, _, y2 in lines)
