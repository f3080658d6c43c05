"""The line patterns templates lay over a box (``pattern``): every shape within the box, lines the pitch apart."""
from __future__ import annotations

import re

import pytest
from lxml import etree

from pipeline.base.errors import UserError
from pipeline.cards.faces import Splitter
from pipeline.cards.patterns import KINDS, drawn, marked, pattern
from pipeline.cards.svgtemplates import PP_NS, SVG_NS, TEMPLATE_ROOT, Templates

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


def _mark_attributes(markup: str) -> dict[str, str]:
    root = etree.fromstring(f'<svg xmlns="{SVG_NS}" xmlns:pp="{PP_NS}">{markup}</svg>'.encode())
    return dict(root[0].attrib)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("box", [BOX, (-3, -3, 66, 91), (-3, -3.5, 91.9, 130)], ids=["floats", "ints", "mixed"])
def test_a_templates_mark_draws_the_very_pattern_the_call_would(kind: str, box: tuple[float, ...]) -> None:
    mark = marked([kind, "rows"], *box, "#123456", pitch=PITCH, line=LINE)
    assert "<polygon" not in mark and "<path" not in mark  # (the shapes are drawn where the art is split)
    assert drawn(_mark_attributes(mark)) == pattern([kind, "rows"], *box, "#123456", pitch=PITCH, line=LINE)


def test_a_mark_of_an_unknown_kind_is_refused_as_the_template_renders() -> None:
    with pytest.raises(ValueError, match="'stripes' is not one of rising"):
        marked(["stripes"], *BOX, "#123456", pitch=PITCH, line=LINE)


def _face(art: str) -> str:
    return (f'<svg xmlns="{SVG_NS}" xmlns:pp="{PP_NS}" width="69mm" height="94mm" viewBox="-3 -3 69 94" '
            f'pp:trim="63 88">\n<g pp:layer="frame">\n<rect x="-3" y="-3" width="69" height="94" fill="#224466"/>\n'
            f'{art}\n</g>\n<circle cx="30" cy="40" r="5" fill="#ffffff"/>\n</svg>')


def test_a_split_face_holds_the_pattern_in_its_art_as_if_the_template_had_printed_it() -> None:
    splitter = Splitter(Templates(TEMPLATE_ROOT, bleed_mm=3))
    args = (["waves", "rising"], -3, -3, 66, 91, 'a"<&')
    by_mark = splitter.art(_face(marked(*args, pitch=PITCH, line=LINE)), "toy.svg.j2", "toy card")
    printed = Splitter(Templates(TEMPLATE_ROOT, bleed_mm=3)).art(_face(pattern(*args, pitch=PITCH, line=LINE)), "toy.svg.j2", "toy card")
    assert list(by_mark) == list(printed) and len(by_mark) == 2  # the same art keys: the frame, the loose circle
    assert [etree.tostring(root) for root in by_mark.values()] == [etree.tostring(root) for root in printed.values()]
    again = splitter.art(_face(marked(*args, pitch=PITCH, line=LINE)), "toy.svg.j2", "toy card 2")
    assert list(again) == list(by_mark)


def test_a_broken_mark_names_the_card_in_one_line() -> None:
    splitter = Splitter(Templates(TEMPLATE_ROOT, bleed_mm=3))
    with pytest.raises(UserError, match=r"^toy card: <pp:pattern>: not a pattern's mark") as caught:
        splitter.art(_face('<pp:pattern kinds="waves" numbers="1 2" colour="#000000"/>'), "toy.svg.j2", "toy card")
    assert "\n" not in str(caught.value)
