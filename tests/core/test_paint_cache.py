"""The paints of each art kept between builds: a text edit converts no art, an art edit does, damage is a miss."""
from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.graphics.shapes import Circle, Drawing, Ellipse, Group, Polygon, Rect
from reportlab.graphics.shapes import Path as RlPath
from reportlab.lib.colors import Color

from pipeline import store as cachestore
from pipeline.cards import artmap, paintcache
from pipeline.cards.faces import FACES_DIR
from pipeline.cards.paintcache import PAINT_DIR, PaintCache

from .render_helpers import toy_plan
from .test_render_caches import Calls, as_new_process, build, cache, templates  # noqa: F401 (fixtures)


def every_shape() -> Drawing:
    """Art with each kind of region the design checks know, filled, stroked and see-through."""
    drawing = Drawing(200, 100)
    drawing.add(Rect(0, 0, 200, 100, rx=6, fillColor=Color(0.2, 0.3, 0.4), strokeColor=Color(1, 1, 1), strokeWidth=2))
    drawing.add(Circle(50, 50, 20, fillColor=Color(0.9, 0.1, 0.1), strokeColor=None))
    drawing.add(Polygon([10, 10, 40, 10, 25, 40], fillColor=Color(0, 0.5, 0), strokeColor=None))
    drawing.add(Polygon([0, 0, 30, 0, 15, 10, 30, 20, 0, 20], fillColor=Color(0, 0, 0.5), strokeColor=None))  # not convex
    wavy = RlPath(fillColor=Color(0.5, 0.5, 0), strokeColor=Color(0, 0, 0), strokeWidth=1.5, fillOpacity=0.4)
    wavy.moveTo(100, 10)
    wavy.curveTo(120, 60, 140, -20, 160, 30)
    wavy.lineTo(110, 80)
    wavy.closePath()
    drawing.add(wavy)
    group = Group(Ellipse(150, 50, 30, 10, fillColor=Color(0.7, 0.7, 0.7), strokeColor=None))
    group.transform = (1, 0, 0, -1, 0, 100)
    drawing.add(group)
    return drawing


def test_paints_read_back_are_the_paints_worked_out(tmp_path: Path) -> None:
    worked_out = artmap.paints([every_shape()])
    kinds = {type(paint.region).__name__ for paint in worked_out}
    assert kinds >= {"RoundedRect", "Ring", "Disc", "ConvexPolygon", "Region", "Outline", "Stroke"}
    assert PaintCache(tmp_path).paints("art_a", every_shape) == worked_out
    read_back = PaintCache(tmp_path).paints("art_a", lambda: pytest.fail("converted again"))
    assert read_back == worked_out
    box = (20.0, 20.0, 60.0, 40.0)
    assert artmap.colours_under(read_back, box) == artmap.colours_under(worked_out, box)


def test_other_art_is_converted(tmp_path: Path) -> None:
    PaintCache(tmp_path).paints("art_a", every_shape)
    converted: list[int] = []

    def convert() -> Drawing:
        converted.append(1)
        return Drawing(10, 10)

    assert PaintCache(tmp_path).paints("art_b", convert) == ()
    assert converted == [1]


@pytest.mark.parametrize("damage", ["bytes", "shape"])
def test_a_damaged_entry_is_converted_again_and_rewritten(tmp_path: Path, damage: str) -> None:
    PaintCache(tmp_path).paints("art_a", every_shape)
    [entry] = (tmp_path / PAINT_DIR).glob("*.json")
    good = entry.read_bytes()
    name = entry.name[: -len(".json")]
    if damage == "bytes":
        entry.write_bytes(good[:-20])
    else:  # a valid seal over a region of a kind no build writes
        stored = cachestore.read(PAINT_DIR, name, lambda plain: plain, root=tmp_path)
        assert stored is not None
        stored[0][2][0] = "blob"
        assert cachestore.write(PAINT_DIR, name, stored, root=tmp_path)
    converted: list[int] = []

    def convert() -> Drawing:
        converted.append(1)
        return every_shape()

    assert PaintCache(tmp_path).paints("art_a", convert) == artmap.paints([every_shape()])
    assert len(converted) == 1
    assert entry.read_bytes() == good


def test_a_build_after_every_text_changed_converts_no_art_it_kept(
    templates: Path, cache: Path, monkeypatch: pytest.MonkeyPatch  # noqa: F811
) -> None:
    before = build(toy_plan(4), templates)
    as_new_process()
    calls = Calls(monkeypatch)
    build(toy_plan(4, body="Lose **one** Faith, then gain two."), templates)
    assert calls.renders > 0  # the faces were set afresh...
    assert calls.conversions == 0  # ...from the paints kept, not from the art converted again
    paintcache.drop_memory()
    for part in (PAINT_DIR, FACES_DIR):
        for entry in (cache / part).rglob("*.json"):
            entry.unlink()
    calls.conversions = 0
    assert build(toy_plan(4), templates) == before
    assert calls.conversions > 0  # without them, the art is converted
