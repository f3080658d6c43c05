"""The art's paints read straight from its SVG (``svgpaint``) are the paints svglib's Drawing of it gives
(``artmap.paints`` after ``artmap.convert``): exactly, on every art layer of every shipped face and on art using
every feature the reader reads; art using anything else is left to svglib, and is checked as strictly."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from pipeline.base import locations
from pipeline.cards import artmap, build, svgpaint
from pipeline.cards.faces import Splitter
from pipeline.cards.imposition import SHEETS_NAME, SHEETS_SCHEMA_NAME, load_sheets
from pipeline.cards.svgtemplates import TEMPLATE_ROOT, Templates
from pipeline.data.dataset import load_game
from pipeline.games.registry import catalogue
from pipeline.games.registry import spec as spec_of

from .test_design_rules import refused, slot_card, templates  # noqa: F401  (the design rules' fixture)

DATA = locations.CHECKOUT / "data"
HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:pp="urn:pantheon:print" width="69mm" height="94mm" viewBox="-3 -3 69 94">'


def _root(body: str, head: str = HEAD) -> Any:
    return etree.fromstring(f"{head}{body}</svg>".encode())


def _by_svglib(root: Any) -> tuple[artmap.Paint, ...]:
    return artmap.paints([artmap.convert(root, "test art")])


def _shipped_layers(game: str, *, ink_saver: bool) -> dict[str, Any]:
    """Every distinct art layer of the game's shipped faces (as the card check splits them), by key."""
    sheets = load_sheets(TEMPLATE_ROOT / SHEETS_NAME, TEMPLATE_ROOT / SHEETS_SCHEMA_NAME)
    faces = Templates(TEMPLATE_ROOT, bleed_mm=sheets.bleed_mm, ink_saver=ink_saver)
    splitter = Splitter(faces)
    plan = build.plan(DATA.parent, game, load_game(DATA, spec_of(game)))
    layers: dict[str, Any] = {}
    for card in plan.cards:
        for face in (card.front, card.back):
            if face is not None:
                svg = faces.render(face.template, face.context, card.id)
                layers.update(splitter.art(svg, face.template, card.id))
    return layers


@pytest.mark.parametrize("ink_saver", [False, True], ids=["full", "ink"])
@pytest.mark.parametrize("game", catalogue().ids())
def test_every_shipped_art_layer_is_read_as_svglib_converts_it(game: str, ink_saver: bool) -> None:
    layers = _shipped_layers(game, ink_saver=ink_saver)
    assert layers
    for key, root in layers.items():
        read = svgpaint.paints(root)
        assert read is not None, f"{game}: art {key} is not read from its SVG (the card check would convert it)"
        assert read == _by_svglib(root), f"{game}: art {key}"


FEATURES = """
<rect x="-3" y="-3" width="69" height="94" fill="#F4EDDC"/>
<g fill="#224466" stroke="#abc" stroke-width="0.4">
  <rect x="4" y="5" width="20" height="8" rx="30"/>
  <rect x="30" y="5" width="20" height="8" ry="1.5" stroke="inherit"/>
  <circle cx="10" cy="30" r="4" fill="none"/>
  <ellipse cx="30" cy="30" rx="6" ry="3" transform="rotate(30 30 30)"/>
  <polygon points="40,25 50,25 45,35"/>
  <polygon points="5,5 5,5 5,5"/>
  <line x1="5" y1="80" x2="58" y2="80" stroke="#000"/>
  <line x1="7" y1="7" x2="7" y2="7" stroke="#000"/>
  <g transform="translate(10, 40) scale(0.5) rotate(15)"><rect x="0" y="0" width="10" height="10"/></g>
  <g transform="matrix(1 0 0 1 2 3) scale(2)" fill="white"><circle cx="5" cy="5" r="1"/></g>
</g>
<path d="M5 50 h10 v5 H5 z m 20 0 l 5 5 L 35 50 Z"/>
<path d="M40 50 C 42 45 48 45 50 50 S 58 55 60 50 c 1 1 2 2 3 0 s 1 -1 2 0" fill="#ff0000" stroke="#00ff00"/>
<path d="M5 60 Q 10 55 15 60 T 25 60 q 2 -2 4 0 t 4 0 A 5 3 20 0 1 40 62 a 2 2 0 1 0 4 0 A 0 0 0 0 0 50 62"/>
<path d="M5 70 L 20 70 L 20 75 M 25 70 L 40 70 L 40 75" fill="black" stroke="#112233" stroke-width="0.3"/>
<!-- a comment is no shape -->
"""


def test_every_feature_the_reader_reads_gives_svglib_s_paints() -> None:
    root = _root(FEATURES)
    read = svgpaint.paints(root)
    assert read is not None and len(read) > 20
    assert read == _by_svglib(root)
    # an open subpath filled: svglib fills a closed copy that keeps the stroke, then strokes the path: twice
    open_path = svgpaint.paints(_root('<path d="M5 70 L 20 70 L 20 75" fill="#000000" stroke="#112233"/>'))
    assert open_path is not None and [p.stroke for p in open_path] == [False, True, True]


def test_a_root_sized_in_points_or_unitless_is_scaled_as_svglib_scales_it() -> None:
    for head in ('<svg xmlns="http://www.w3.org/2000/svg" width="200pt" height="100" viewBox="0 0 50 40">',
                 '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 12 12">'):
        root = _root('<rect x="1" y="2" width="5" height="6" fill="#123456"/><circle cx="6" cy="6" r="2"/>', head)
        assert svgpaint.paints(root) == _by_svglib(root)


@pytest.mark.parametrize(
    "body",
    [
        '<rect width="5" height="5" style="fill:#ff0000"/>',
        '<rect width="5" height="5" fill="#ff0000" fill-opacity="1"/>',
        '<rect width="5" height="5" class="x"/>',
        '<rect width="5mm" height="5" fill="#ff0000"/>',
        '<rect width="5" height="5" fill="red"/>',
        '<rect width="5" height="5" fill="currentColor"/>',
        '<rect width="5" height="5" fill="url(#g)"/>',
        '<g transform="skewX(10)"><rect width="5" height="5"/></g>',
        '<text x="1" y="5">A</text>',
        '<use href="#a"/>',
        '<polyline points="1,1 5,5 9,1"/>',
        '<g display="none"><rect width="5" height="5"/></g>',
        '<path d="   "/><path d="M 1 1 X 5 5"/>',
    ],
    ids=["style", "opacity", "class", "unit", "named-colour", "currentColor", "gradient", "skew", "text", "use",
         "polyline", "display", "bad-path"],
)
def test_art_using_anything_else_is_left_to_svglib(body: str) -> None:
    assert svgpaint.paints(_root(body)) is None


@pytest.mark.parametrize("band", ['fill="#333333"', 'style="fill:#333333"'], ids=["read", "left-to-svglib"])
def test_the_colour_under_text_is_checked_whichever_route_reads_the_art(templates: Path, band: str) -> None:  # noqa: F811
    # black text declared on white paper, with a dark band drawn under it: the check finds the band's colour
    extra = f'<rect x="8" y="18" width="44" height="14" {band}/>'
    message = refused(templates, slot_card(extra=extra))
    assert "probe-1" in message and "the art under its text is #333333" in message


def test_the_path_operator_codes_read_are_the_ones_reportlab_paths_append() -> None:
    """artmap reads a Path's operators by the codes its public drawing methods append (no private constant)."""
    from reportlab.graphics.shapes import Path as RlPath

    path = RlPath()
    path.moveTo(1, 2)
    path.lineTo(3, 4)
    path.curveTo(5, 6, 7, 8, 9, 10)
    path.closePath()
    codes = artmap.PATH_OPERATORS
    assert [codes[op] for op in path.operators] == [(artmap.MOVE, 2), (artmap.LINE, 2), (artmap.CURVE, 6), (None, 0)]
    assert sum(codes[op][1] for op in path.operators) == len(path.points)
