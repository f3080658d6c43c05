"""Colours as numbers: parsing, blending, and the WCAG 2 contrast ratio the design rules use.

A colour is an ``(r, g, b)`` triple of floats in 0..1. Contrast follows WCAG
2.x: the relative luminance of each colour (sRGB channels linearised), and
``(lighter + 0.05) / (darker + 0.05)``, from 1:1 (the same colour) to 21:1
(black on white).
"""
from __future__ import annotations

import re

from reportlab.lib.colors import Color, HexColor, toColor

RGB = tuple[float, float, float]
WHITE: RGB = (1.0, 1.0, 1.0)
# WCAG 2 relative luminance: channel linearisation and the weights of red, green and blue.
SRGB_KNEE, SRGB_LOW_DIVISOR, SRGB_OFFSET, SRGB_SCALE, SRGB_GAMMA = 0.04045, 12.92, 0.055, 1.055, 2.4
LUMINANCE_WEIGHTS = (0.2126, 0.7152, 0.0722)
FLARE = 0.05  # WCAG's allowance for ambient light, added to both luminances
CHANNEL_MAX = 255
HEX_CODE = re.compile(r"#[0-9a-fA-F]{6}")  # the usual colour: toColor tries every other reading first, then HexColor


def colour(spec: str) -> Color:
    """reportlab's colour for ``spec`` (``toColor``'s answer); ValueError when it is not a colour."""
    if HEX_CODE.fullmatch(spec):
        return HexColor(spec)
    found: Color = toColor(spec)
    return found


def parse(spec: str) -> RGB:
    """``'#rrggbb'``, ``'#rgb'`` or a colour name as an RGB triple; ValueError when it is none of these."""
    if HEX_CODE.fullmatch(spec):  # HexColor's own arithmetic, without making a Color
        number = int(spec[1:], 16)
        return ((number >> 16) & 0xFF) / 255.0, ((number >> 8) & 0xFF) / 255.0, (number & 0xFF) / 255.0
    found = colour(spec)
    return (float(found.red), float(found.green), float(found.blue))


def to_hex(colour: RGB) -> str:
    return "#" + "".join(f"{round(max(0.0, min(1.0, c)) * CHANNEL_MAX):02x}" for c in colour)


def blend(top: RGB, opacity: float, below: RGB) -> RGB:
    """``top`` painted with ``opacity`` over ``below``."""
    return (
        top[0] * opacity + below[0] * (1 - opacity),
        top[1] * opacity + below[1] * (1 - opacity),
        top[2] * opacity + below[2] * (1 - opacity),
    )


def _linear(channel: float) -> float:
    if channel <= SRGB_KNEE:
        return channel / SRGB_LOW_DIVISOR
    return float(((channel + SRGB_OFFSET) / SRGB_SCALE) ** SRGB_GAMMA)


def luminance(colour: RGB) -> float:
    """WCAG relative luminance, 0 (black) to 1 (white)."""
    red, green, blue = LUMINANCE_WEIGHTS
    return red * _linear(colour[0]) + green * _linear(colour[1]) + blue * _linear(colour[2])  # (summed in this order)


def contrast(a: RGB, b: RGB) -> float:
    """The WCAG contrast ratio of two colours, 1 to 21."""
    return ratio(luminance(a), luminance(b))


def ratio(a: float, b: float) -> float:
    """The WCAG contrast ratio of two relative luminances (``contrast`` of their colours)."""
    light, dark = (a, b) if a >= b else (b, a)
    return (light + FLARE) / (dark + FLARE)


BLACK: RGB = (0.0, 0.0, 0.0)
SHADE_STEPS = 100  # how finely ``readable`` darkens or lightens a colour


def readable(colour: RGB, background: RGB, needed: float) -> RGB:
    """``colour`` itself when it has contrast ``needed`` against ``background``; else the nearest shade of it
    (mixed toward black or toward white, whichever gets there first) that has."""
    back = luminance(background)  # (the same for every shade tried)
    for step in range(SHADE_STEPS + 1):
        for toward in (BLACK, WHITE):
            shade = blend(toward, step / SHADE_STEPS, colour)
            if ratio_of(shade, back) >= needed:
                return shade
    return BLACK if ratio_of(BLACK, back) >= ratio_of(WHITE, back) else WHITE


def ratio_of(colour: RGB, luminance_below: float) -> float:
    return ratio(luminance(colour), luminance_below)


def ink_on(background: RGB, needed: float) -> RGB:
    """Text for a coloured band: white when it reads, else a dark shade of the band's own colour."""
    return WHITE if contrast(WHITE, background) >= needed else readable(background, background, needed)


def distance(a: RGB, b: RGB) -> int:
    """The largest difference of one channel, in 0..255 steps."""
    return max(round(abs(x - y) * CHANNEL_MAX) for x, y in zip(a, b))
