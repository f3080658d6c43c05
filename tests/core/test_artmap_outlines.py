"""A path's region: a convex polygon when it is one subpath turning one way, else an outline whose bounds only hold
it (its control points' box) and whose points are worked out where a question needs them; every answer is the
one its flattened points give."""
from __future__ import annotations

from typing import Any

from pipeline.cards import artmap, svgpaint
from pipeline.cards.artmap import IDENTITY, ConvexPolygon, Outline, Paint, Stroke

# one subpath that turns both ways: a bump up (control points at y=12, the curve reaches y=9) and a dip down
WAVE = "M0 0 C 0 12 10 12 10 0 C 10 -12 20 -12 20 0 L 20 -20 L 0 -20 Z"
SCALED = (2.0, 0.0, 0.0, -2.0, 5.0, 100.0)  # a face's kind of matrix: scaled, y flipped, moved


def _region(d: str, matrix: Any = IDENTITY) -> Any:
    operators, _ = svgpaint.path_operators(d)
    return artmap.path_region([piece for piece in operators if piece[0] != svgpaint.CLOSE], matrix)


def _points_box(region: Outline) -> artmap.Box:
    points = [point for ring in region.rings() for point in ring]
    return artmap.box_of(points)


def test_a_path_turning_one_way_is_a_convex_polygon_and_a_wave_an_outline() -> None:
    square = _region("M0 0 L 10 0 L 10 10 L 0 10 Z", SCALED)
    assert isinstance(square, ConvexPolygon) and square.bounds == (5.0, 80.0, 25.0, 100.0)
    rounded = _region("M0 5 C 0 0 0 0 5 0 L 10 0 L 10 10 L 0 10 Z")
    assert isinstance(rounded, ConvexPolygon) and len(rounded.points) == 8 + 3 + 1
    assert isinstance(_region(WAVE), Outline)
    assert isinstance(_region("M0 0 L 1 0 L 1 1 M 5 5 L 6 5 L 6 6"), Outline)  # two subpaths


def test_an_outline_s_bounds_hold_its_extent_which_its_points_give() -> None:
    for matrix in (IDENTITY, SCALED):
        wave = _region(WAVE, matrix)
        assert isinstance(wave, Outline)
        extent = wave.extent()
        assert extent == _points_box(wave)
        assert artmap.contains(wave.bounds, extent) and wave.bounds != extent  # the bump's control points reach further
    assert _region(WAVE).extent() == (0.0, -20.0, 20.0, 9.0)


def test_whether_an_outline_touches_a_box_is_decided_by_its_points() -> None:
    wave = _region(WAVE)
    assert wave.touches((4.0, 8.0, 6.0, 8.5))  # under the top of the bump
    assert not wave.touches((4.0, 9.5, 6.0, 11.0))  # inside the bounds (the control points' box), above the curve
    assert not wave.touches((14.0, -8.5, 16.0, -7.0))  # in the dip (above its curve, at most -8.8 here): left out
    assert not wave.touches((30.0, 0.0, 40.0, 5.0))
    stroke = Stroke(artmap.grow(wave.bounds, 1.0), wave, 1.0)
    assert stroke.touches((4.0, 9.5, 6.0, 9.8))  # within half the stroke's width of the bump's top
    assert not stroke.touches((4.0, 10.5, 6.0, 11.0))
    assert stroke.extent() == artmap.grow(wave.extent(), 1.0)


def test_an_outline_lies_inside_a_box_as_its_points_do() -> None:
    wave = _region(WAVE)
    assert wave.within((-1.0, -21.0, 21.0, 10.0))
    assert not wave.within((-1.0, -21.0, 21.0, 8.0))  # the bump's top, a point of no move or line, is past the edge
    assert not wave.within((1.0, -21.0, 21.0, 10.0))  # its first point is outside
    trim = (-2.0, -22.0, 24.0, 12.0)
    [(paint, distance)] = artmap.inside([Paint((0.0, 0.0, 0.0), 1.0, wave)], trim)
    assert paint.region is wave and distance == 2.0  # its points' extent, not its bounds, from the cut (y: 12 - 9 = 3)
