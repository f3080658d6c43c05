"""Sheets as data, grids, mirrored backs and crop marks, in numbers."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pipeline.core.errors import UserError
from pipeline.core.render.imposition import (
    LANDSCAPE,
    PORTRAIT,
    SHEETS_FILE,
    SHEETS_SCHEMA,
    Duplex,
    back_slot,
    crop_marks,
    grid,
    impose,
    load_sheets,
)
from pipeline.core.render.units import mm

SHEETS = load_sheets()
POKER = (63.0, 88.0)


@pytest.mark.parametrize(("paper", "count", "orientation"), [("a4", 8, LANDSCAPE), ("letter", 6, LANDSCAPE)])
def test_as_many_poker_cards_as_fit(paper: str, count: int, orientation: str) -> None:
    layout = grid(SHEETS, SHEETS.paper(paper), *POKER, "poker")
    assert (layout.capacity, layout.orientation) == (count, orientation)


def test_every_slot_keeps_its_bleed_and_the_margins() -> None:
    layout = grid(SHEETS, SHEETS.paper("a4"), *POKER, "poker")
    margin = mm(SHEETS.margin_mm)
    for slot in layout.slots:
        assert slot.width == pytest.approx(mm(POKER[0] + 2 * SHEETS.bleed_mm))
        assert slot.x >= margin - 1e-6 and slot.x + slot.width <= layout.page_width - margin + 1e-6
        assert slot.y >= margin - 1e-6 and slot.y + slot.height <= layout.page_height - margin + 1e-6
    xs = sorted({s.x for s in layout.slots})
    assert all(b - a >= layout.slots[0].width - 1e-6 for a, b in zip(xs, xs[1:]))  # no overlap


def test_a_card_too_big_for_the_paper_is_an_error_naming_it() -> None:
    with pytest.raises(UserError, match="giant: a 400x300 mm card"):
        grid(SHEETS, SHEETS.paper("a4"), 400, 300, "giant")


@pytest.mark.parametrize(
    ("orientation", "duplex", "mirrors_x"),
    [(PORTRAIT, Duplex.LONG, True), (PORTRAIT, Duplex.SHORT, False), (LANDSCAPE, Duplex.LONG, False), (LANDSCAPE, Duplex.SHORT, True)],
)
def test_backs_mirror_about_the_flip_axis(orientation: str, duplex: Duplex, mirrors_x: bool) -> None:
    sheets = SHEETS.__class__(**{**SHEETS.__dict__, "orientations": (orientation,)})
    layout = grid(sheets, sheets.paper("a4"), *POKER, "poker")
    slot = layout.slots[0]
    back = back_slot(layout, slot, duplex)
    if mirrors_x:
        assert (back.x, back.y, back.turned) == (pytest.approx(layout.page_width - slot.x - slot.width), slot.y, False)
    else:
        assert (back.x, back.y, back.turned) == (slot.x, pytest.approx(layout.page_height - slot.y - slot.height), True)
    shifted = back_slot(layout, slot, duplex, 2.0, -1.0)
    assert (shifted.x - back.x, shifted.y - back.y) == (pytest.approx(mm(2.0)), pytest.approx(mm(-1.0)))


def test_crop_marks_stay_outside_every_bleed_box() -> None:
    layout = grid(SHEETS, SHEETS.paper("letter"), *POKER, "poker")
    marks = crop_marks(SHEETS, layout.slots, layout.bleed)
    assert marks
    for x1, y1, x2, y2 in marks:
        for slot in layout.slots:
            inside_x = slot.x < min(x1, x2) < slot.x + slot.width or slot.x < max(x1, x2) < slot.x + slot.width
            inside_y = slot.y < min(y1, y2) < slot.y + slot.height or slot.y < max(y1, y2) < slot.y + slot.height
            assert not (inside_x and inside_y), (x1, y1, x2, y2)
    cut_xs = {round(s.x + layout.bleed, 3) for s in layout.slots} | {round(s.x + s.width - layout.bleed, 3) for s in layout.slots}
    assert {round(x1, 3) for x1, _, x2, _ in marks if x1 == x2} == cut_xs  # one mark per cut line


def test_impose_groups_sizes_and_pairs_pages() -> None:
    pages = impose([POKER] * 9 + [(180.0, 120.0)], SHEETS, SHEETS.paper("a4"), duplex=Duplex.LONG)
    assert [(p.side, len(p.placements)) for p in pages] == [("front", 8), ("back", 8), ("front", 1), ("back", 1), ("front", 1), ("back", 1)]
    assert [p.placements[0].item for p in pages[2:]] == [8, 8, 9, 9]  # the board (item 9) is alone
    assert pages[4].grid.orientation == "portrait"  # 180x120 mm boards: two fit portrait, none beside poker cards


def test_sheet_definitions_are_validated(tmp_path: Path) -> None:
    data = yaml.safe_load(SHEETS_FILE.read_text())
    data["layout"]["gutter"] = 2
    bad = tmp_path / "sheets.yaml"
    bad.write_text(yaml.safe_dump(data))
    with pytest.raises(UserError, match=r"sheets.yaml:\d+:\d+: layout: unknown key .gutter."):
        load_sheets(bad, SHEETS_SCHEMA)
