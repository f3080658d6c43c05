"""Art written straight from its SVG (``artstream``) is, byte for byte, what reportlab's renderer writes for
svglib's Drawing of it: on every art layer of every shipped face (both editions), every icon without letters,
and on art using every feature the writer writes; art using anything else is left to svglib."""
from __future__ import annotations

import io
from typing import Any, Optional

import pytest
from lxml import etree
from reportlab.pdfgen.canvas import Canvas

from pipeline.cards import artcache, artmap, artstream, fonts, svgpaint
from pipeline.cards.svgtemplates import TEMPLATE_ROOT, Templates
from pipeline.games.registry import catalogue

from .test_svgpaint import FEATURES, _root, _shipped_layers


def _by_svglib(root: Any) -> Optional[tuple[float, float, str]]:
    """The form svglib's Drawing of ``root`` draws (None when it names a resource of its document)."""
    fonts.register()
    canvas = Canvas(io.BytesIO())
    drawing = artmap.convert(root, "test art")
    canvas.beginForm("art", 0, 0, drawing.width, drawing.height)
    drawing.initialFontName = fonts.font_name()  # as artcache draws it
    from reportlab.graphics import renderPDF

    renderPDF.draw(drawing, canvas, 0, 0)
    content = canvas.getCurrentPageContent()
    canvas.endForm()
    return (drawing.width, drawing.height, content) if artcache.DOCUMENT_NAME not in content else None


def _same(root: Any, what: str) -> None:
    written = artstream.written(root)
    assert written is not None, f"{what} is not written from its SVG (svglib would convert it)"
    assert written == _by_svglib(root), what
    # written from the paths as svgpaint read them for the art's paints (as the build hands them on): the same bytes
    parsed: list[svgpaint.ParsedPath] = []
    if svgpaint.paints(root, parsed) is not None:
        assert artstream.written(root, parsed) == written, f"{what}: written from the paths read for its paints"


def test_paths_handed_on_out_of_step_are_parsed_again() -> None:
    root = _root('<path d="M5 5 L 20 5 L 20 20 Z" fill="#112233"/><path d="M30 30 L 40 30 L 40 40 Z" fill="#445566"/>')
    parsed: list[svgpaint.ParsedPath] = []
    assert svgpaint.paints(root, parsed) is not None and [d for d, _, _ in parsed] == ["M5 5 L 20 5 L 20 20 Z",
                                                                                      "M30 30 L 40 30 L 40 40 Z"]
    assert artstream.written(root, list(reversed(parsed))) == artstream.written(root) == _by_svglib(root)
    assert artstream.written(root, parsed[1:]) == artstream.written(root)


@pytest.mark.parametrize("ink_saver", [False, True], ids=["full", "ink"])
@pytest.mark.parametrize("game", catalogue().ids())
def test_every_shipped_art_layer_is_written_as_svglib_and_reportlab_draw_it(game: str, ink_saver: bool) -> None:
    layers = _shipped_layers(game, ink_saver=ink_saver)
    assert layers
    for key, root in layers.items():
        _same(root, f"{game}: art {key}")


def test_every_icon_without_letters_is_written_as_svglib_and_reportlab_draw_it() -> None:
    icons = Templates(TEMPLATE_ROOT, bleed_mm=3.0).icons  # (the bleed changes no icon)
    names = icons.names()
    assert names
    for name in names:
        icon = icons.get(name, "test")
        root = etree.fromstring(icon.svg().encode())
        if "<text" in icon.markup:
            assert artstream.written(root) is None, f"icon {name}: letters are svglib's (a font of the document)"
        else:
            _same(root, f"icon {name}")


def test_every_feature_the_writer_writes_is_written_as_svglib_and_reportlab_draw_it() -> None:
    _same(_root(FEATURES), "the features")


@pytest.mark.parametrize("body", [
    '<rect width="5" height="5" stroke="#000" stroke-width="0.5" stroke-dasharray="1,0.5" stroke-linecap="round" '
    'stroke-linejoin="bevel"/>',
    '<path d="M1 1 L 9 1 L 5 8 Z M 2 2 L 4 2 L 3 4 Z" fill-rule="evenodd" fill="#123456"/>',
    '<g fill-rule="evenodd" stroke-linecap="square"><path d="M1 1 L 9 1 L 5 8" stroke="#fff"/></g>',
    '<rect width="5" height="5" stroke="#000" stroke-width="0"/>',
    '<line x1="1" y1="1" x2="5" y2="5"/>',
    '<polygon points="1 2 3"/>',
    '<rect width="4" height="2" rx="3" ry="0.5" fill="#abc"/>',
    '<circle cx="3" cy="3" r="2" transform="translate(1 2) rotate(45)"/>',
])
def test_strokes_dashes_and_fill_rules_are_written_as_svglib_and_reportlab_draw_them(body: str) -> None:
    _same(_root(body), body)


@pytest.mark.parametrize("body", [
    '<text x="1" y="5" font-size="3">A</text>',
    '<rect width="5" height="5" fill-opacity="0.5"/>',
    '<rect width="5" height="5" style="fill:#000"/>',
    '<rect width="5mm" height="5"/>',
    '<rect width="5" height="5" fill="#11223344"/>',
    '<rect width="5" height="5" fill="currentColor"/>',
    '<rect width="5" height="5" stroke="#000" stroke-dasharray="-1 2"/>',
    '<use href="#x"/>',
])
def test_art_using_anything_else_is_left_to_svglib(body: str) -> None:
    assert artstream.written(_root(body)) is None
