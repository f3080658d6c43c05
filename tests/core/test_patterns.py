"""The line patterns templates lay over a box (``pattern``): every shape within the box, lines the pitch apart."""
from __future__ import annotations

import re

import pytest

from pipeline.cards.patterns import KINDS, pattern

BOX = (-3.0, -3.0, 66.0, 91.0)
PITCH, LINE = 2.4, 0.8
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")


def _points(markup: str) -> list[tuple[float, float]]:
    """Every x,y pair of the polygons' points."""
    found = []
    for points in re.findall(r'points="([^"]*)"', markup):
        for pair in points.split():
            x, y = pair.split(",")
            found.append((float(x), float(y)))
    return found


@pytest.mark.parametrize("kind", ["rising", "falling", "zigzags"])
def test_polygon_patterns_stay_inside_their_box(kind: str) -> None:
    x0, y0, x1, y1 = BOX
    points = _points(pattern([kind], *BOX, "#123456", pitch=PITCH, line=LINE))
    assert points
    slack = 0.7 + 1e-9 if kind == "zigzags" else 1e-9  # a zigzag turns 0.7 mm either side of its line
    assert all(x0 - 1e-9 <= x <= x1 + 1e-9 and y0 - slack <= y <= y1 + slack for x, y in points)


@pytest.mark.parametrize("kind", ["rising", "falling"])
def test_diagonal_bands_reach_both_edges_across_the_box(kind: str) -> None:
    x0, y0, x1, y1 = BOX
    points = _points(pattern([kind], *BOX, "#123456", pitch=PITCH, line=LINE))
    assert any(abs(x - x0) < 1e-9 for x, _ in points) and any(abs(x - x1) < 1e-9 for x, _ in points)
    assert any(abs(y - y0) < 1e-9 for _, y in points) and any(abs(y - y1) < 1e-9 for _, y in points)


def test_rows_and_columns_come_one_a_pitch() -> None:
    x0, y0, x1, y1 = BOX
    markup = pattern(["rows", "columns"], *BOX, "#123456", pitch=PITCH, line=LINE)
    rows = re.findall(rf'<rect x="{x0}" y="([^"]*)" width="{x1 - x0}"', markup)
    columns = re.findall(rf'<rect x="([^"]*)" y="{y0}" width="{LINE / 2}" height="{y1 - y0}"', markup)
    assert len(rows) == int((y1 - y0) / PITCH) and len(columns) == int((x1 - x0) / PITCH)
    gaps = [float(b) - float(a) for a, b in zip(rows, rows[1:])]
    assert all(abs(gap - PITCH) < 1e-9 for gap in gaps)


def test_every_kind_draws_in_the_colour_given_escaped() -> None:
    for kind in KINDS:
        markup = str(pattern([kind], *BOX, 'x"<&', pitch=PITCH, line=LINE))
        assert markup.startswith('<g fill="x&#34;&lt;&amp;" stroke="none">') and markup.endswith("</g>")
        assert NUMBER.search(markup)


def test_an_unknown_kind_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="'stripes' is not one of rising"):
        pattern(["stripes"], *BOX, "#123456", pitch=PITCH, line=LINE)
