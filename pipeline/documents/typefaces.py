"""The display face documents set their titles and headings in, beside the body family of the cards.

Body text keeps the cards' family (Bitstream Vera, :mod:`pipeline.cards.fonts`);
titles, headings and the cover use DejaVu Serif Condensed Bold, shipped in
``templates/fonts/`` with its licence (the Bitstream Vera licence, free to
redistribute and embed). A serif display over a sans body gives the page a
hierarchy a reader sees at a glance, and the condensed cut keeps a heading on
one line of a rulebook column. Like the body family it is embedded (subset),
and text set in it passes the same glyph check, against the character map of
the font as registered (the one a PDF embeds; reportlab's registry holds it once).
"""
from __future__ import annotations

from typing import Mapping

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from pipeline.base.errors import UserError
from pipeline.cards import fonts
from pipeline.cards.svgtemplates import TEMPLATE_ROOT

DISPLAY = "display"  # the layout's name for the display face (a text style's ``font``)
DISPLAY_NAME = "PantheonDisplay"
DISPLAY_FILE = TEMPLATE_ROOT / "fonts" / "DejaVuSerifCondensed-Bold.ttf"
DISPLAY_FAMILY = "DejaVu Serif Condensed Bold"


def register() -> None:
    """Register the display face with reportlab (idempotent: a face reportlab holds already is not loaded
    again). It has one style: bold and italic markup inside a heading stay in it."""
    if DISPLAY_NAME in pdfmetrics.getRegisteredFontNames():
        return
    if not DISPLAY_FILE.is_file():
        raise UserError(f"font file {DISPLAY_FILE} is missing: the display face ships in templates/fonts/")
    try:
        pdfmetrics.registerFont(TTFont(DISPLAY_NAME, str(DISPLAY_FILE)))
    except TTFError:
        raise UserError(f"font file {DISPLAY_FILE} could not be loaded") from None
    pdfmetrics.registerFontFamily(DISPLAY_NAME, normal=DISPLAY_NAME, bold=DISPLAY_NAME, italic=DISPLAY_NAME, boldItalic=DISPLAY_NAME)


def font_name(style: str) -> str:
    """The reportlab font name of a layout font: the display face, or a style of the body family."""
    if style == DISPLAY:
        register()
        return DISPLAY_NAME
    return fonts.font_name(style)


def _charmap() -> Mapping[int, int]:
    """The code points the display face maps to glyphs (the registered font's own map)."""
    register()
    font = pdfmetrics.getFont(DISPLAY_NAME)
    assert isinstance(font, TTFont)  # (registered above as one)
    charmap: Mapping[int, int] = font.face.charToGlyph
    return charmap


def check_glyphs(text: str, where: str, style: str, *, bold: bool = False, italic: bool = False) -> None:
    """Fail when ``text`` set in ``style`` (with inline emphasis) holds a character its font lacks."""
    if style != DISPLAY:
        fonts.check_glyphs(text, where, fonts.with_emphasis(style, bold=bold, italic=italic))
        return
    charmap = _charmap()
    missing = list(dict.fromkeys(c for c in text if c not in fonts.WHITESPACE_OK and ord(c) not in charmap))
    if missing:
        shown = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in missing)
        raise UserError(f"{where}: character {shown} not in the {DISPLAY_FAMILY} font; use another character")
