"""The one embedded TrueType family every card is set in, and the glyph check that keeps tofu off cards.

Bitstream Vera ships inside reportlab (``reportlab/fonts/Vera*.ttf``, free
licence in ``bitstream-vera-license.txt`` beside it), so no extra download is
needed. Its four styles are registered once, for reportlab text and for text
that svglib meets in template art (the latter only when art is converted:
a build whose art is all in the cache never imports svglib).

The glyph check reads the character map of the fonts as registered: reportlab's
font registry holds each font once per process (the fonts a PDF embeds), so the
check and the PDF read one parse of each file, and nothing is remembered here.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Mapping

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont
from svglib import fonts as svgfonts

from pipeline.base.errors import UserError

FONT_DIR = Path(reportlab.__file__).resolve().parent / "fonts"
FAMILY = "Vera"
REGULAR, BOLD, ITALIC, BOLD_ITALIC = "regular", "bold", "italic", "bold-italic"
# style -> (registered reportlab name, file, svg weight, svg style)
STYLES: dict[str, tuple[str, str, str, str]] = {
    REGULAR: ("PantheonVera", "Vera.ttf", "normal", "normal"),
    BOLD: ("PantheonVera-Bold", "VeraBd.ttf", "bold", "normal"),
    ITALIC: ("PantheonVera-Italic", "VeraIt.ttf", "normal", "italic"),
    BOLD_ITALIC: ("PantheonVera-BoldItalic", "VeraBI.ttf", "bold", "italic"),
}
WHITESPACE_OK = {" ", "\n", "\t"}


def font_files() -> list[Path]:
    """The font files a build embeds (part of every build's fingerprint)."""
    return [FONT_DIR / spec[1] for spec in STYLES.values()]


def register() -> None:
    """Register the family with reportlab (idempotent: a font reportlab holds already is not loaded again)."""
    if registered_names() <= set(pdfmetrics.getRegisteredFontNames()):
        return
    for name, filename, _, _ in STYLES.values():
        path = FONT_DIR / filename
        if not path.is_file():
            raise UserError(f"font file {path} is missing: reinstall reportlab")
        try:
            pdfmetrics.registerFont(TTFont(name, str(path)))
        except TTFError:
            raise UserError(f"font file {path} could not be loaded") from None
    _register_family()


def _register_family() -> None:
    """Map the family's bold and italic to its fonts (so ``<b>`` in a paragraph set in regular finds bold).
    Registering a TrueType font maps its name as a family of its own, so this must come after every
    registration of the fonts."""
    regular, bold, italic, bold_italic = (STYLES[s][0] for s in (REGULAR, BOLD, ITALIC, BOLD_ITALIC))
    pdfmetrics.registerFontFamily(FAMILY, normal=regular, bold=bold, italic=italic, boldItalic=bold_italic)


@lru_cache(maxsize=None)
def register_for_svg() -> None:
    """Name the family to svglib as well, for text in template art (idempotent; call before converting art).

    svglib's registration loads the file again and hands reportlab a font of the same name, which reportlab
    ignores for a name it knows (``registerFont`` keeps the first embedded font of a name): the fonts a
    document embeds, and their subsets, are the ones ``register`` made.
    """
    register()
    for name, filename, weight, style in STYLES.values():
        path = FONT_DIR / filename
        _, ok = svgfonts.register_font(FAMILY, str(path), weight=weight, style=style, rlgFontName=name)
        if not ok or pdfmetrics.getFont(name).face.filename != str(path):
            raise UserError(f"font file {path} could not be loaded")
    _register_family()


def registered_names() -> frozenset[str]:
    """The reportlab names of the family's styles."""
    return frozenset(spec[0] for spec in STYLES.values())


def font_name(style: str = REGULAR) -> str:
    """The reportlab font name of ``style`` (one of STYLES)."""
    try:
        return STYLES[style][0]
    except KeyError:
        raise UserError(f"unknown font style '{style}' (known: {', '.join(STYLES)})") from None


_BY_EMPHASIS = {(False, False): REGULAR, (True, False): BOLD, (False, True): ITALIC, (True, True): BOLD_ITALIC}  # (bold, italic)


def svg_style(weight: str | None, style: str | None) -> str:
    """The family style for an SVG font-weight / font-style pair."""
    bold = (weight or "normal") in ("bold", "bolder", "600", "700", "800", "900")
    italic = (style or "normal") in ("italic", "oblique")
    return _BY_EMPHASIS[bold, italic]


def with_emphasis(style: str, *, bold: bool, italic: bool) -> str:
    """``style`` made bold and/or italic as well (inline emphasis inside a styled box)."""
    bold = bold or style in (BOLD, BOLD_ITALIC)
    italic = italic or style in (ITALIC, BOLD_ITALIC)
    return svg_style("bold" if bold else None, "italic" if italic else None)


def _charmap(style: str) -> Mapping[int, int]:
    """The code points the style's font maps to glyphs (the registered font's own map: the font a PDF embeds)."""
    try:
        name = STYLES[style][0]
    except KeyError:
        raise UserError(f"unknown font style '{style}' (known: {', '.join(STYLES)})") from None
    if name not in pdfmetrics.getRegisteredFontNames():
        register()
    font = pdfmetrics.getFont(name)
    assert isinstance(font, TTFont)  # (registered by ``register`` as one)
    charmap: Mapping[int, int] = font.face.charToGlyph
    return charmap


def missing_glyphs(text: str, style: str = REGULAR) -> list[str]:
    """The characters of ``text`` the font cannot draw, in order of first appearance."""
    charmap = _charmap(style)
    if charmap.keys() >= set(map(ord, set(text) - WHITESPACE_OK)):  # the usual answer, without a loop per character
        return []
    seen: dict[str, None] = {}
    for char in text:
        if char not in WHITESPACE_OK and ord(char) not in charmap:
            seen.setdefault(char)
    return list(seen)


def check_glyphs(text: str, where: str, style: str = REGULAR) -> None:
    """Fail the build when ``text`` holds a character the font lacks; ``where`` names the card."""
    missing = missing_glyphs(text, style)
    if missing:
        shown = ", ".join(f"'{c}' (U+{ord(c):04X})" for c in missing)
        raise UserError(f"{where}: character {shown} not in the {FAMILY} font ({style}); use another character")
