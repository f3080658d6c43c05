"""Colour never alone: every colour a face tells cards apart by is also printed as a symbol and a word.

A game marks each card with the colours its faces distinguish by hue
(``PrintCard.colours``: a ``ColourKey`` of family, colour, symbol icon and
word). Checked on every build:

- within a family each colour has one symbol, no two colours share one, and
  no two symbols have the same shape: an icon's geometry is compared with
  every colour taken out of it, so six cubes that differ only in fill fail;
- every face that shows a colour (the front; both faces of a two-sided card)
  prints the colour's symbol (as an icon slot, inline in text or in its art)
  and its word.

Errors name the rule ``colour_never_alone``, the card and the colour.
"""
from __future__ import annotations

import re
from typing import Callable, Iterable, Iterator, Mapping

from lxml import etree

from pipeline.cards.faces import FaceRecord
from pipeline.cards.plan import ColourKey, PrintCard
from pipeline.cards.svgtemplates import Icon

RULE = "design rule colour_never_alone"
# Attributes and style properties that only colour an icon; what is left is its shape.
COLOUR_ATTRIBUTES = frozenset({"fill", "stroke", "fill-opacity", "stroke-opacity", "opacity", "color", "stop-color", "stop-opacity"})
_STYLE_COLOUR = re.compile(r"(?:^|;)\s*(?:fill|stroke|color|stop-color|opacity|fill-opacity|stroke-opacity|stop-opacity)\s*:[^;]*")


def shape_of(icon: Icon) -> str:
    """The icon's geometry with every colour taken out (two icons that differ only in hue give the same)."""
    root = etree.fromstring(f"<g>{icon.markup}</g>".encode("utf-8"))
    for node in root.iter():
        if not isinstance(node.tag, str):
            continue
        for name in [n for n in node.attrib if n in COLOUR_ATTRIBUTES]:
            del node.attrib[name]
        style = node.get("style")
        if style is not None:
            node.set("style", _STYLE_COLOUR.sub("", style).strip("; "))
    return etree.tostring(root, method="c14n").decode("utf-8")


def key_problems(keys: Iterable[ColourKey], icon: Callable[[str], Icon]) -> Iterator[str]:
    """Within each family: one symbol per colour, a colour of its own per symbol, and symbols of different shapes."""
    by_family: dict[str, dict[str, ColourKey]] = {}
    for key in keys:
        known = by_family.setdefault(key.family, {}).setdefault(key.colour, key)
        if known.symbol != key.symbol or known.word != key.word:
            yield (f"{RULE}: {key.family} {key.colour} is printed as '{known.symbol}' / '{known.word}' on some cards "
                   f"and '{key.symbol}' / '{key.word}' on others")
    for family, colours in sorted(by_family.items()):
        shapes: dict[str, ColourKey] = {}
        for colour, key in sorted(colours.items()):
            shape = shape_of(icon(key.symbol))
            twin = shapes.get(shape)
            if twin is not None:
                same = "the same symbol" if twin.symbol == key.symbol else f"symbols of the same shape ('{twin.symbol}', '{key.symbol}')"
                yield f"{RULE}: {family} {twin.colour} and {colour} have {same}: they differ by hue alone"
            shapes.setdefault(shape, key)


def card_problems(card: PrintCard, faces: Mapping[str, FaceRecord]) -> Iterator[str]:
    """Each colour of ``card`` that one of its faces (by side name) shows without its symbol or word."""
    for side, record in faces.items():
        words = " ".join(record.texts).casefold()
        icons = record.icon_names
        for key in card.colours:
            if key.symbol not in icons:
                yield f"{RULE}: the {side} shows {key.family} {key.colour} without its symbol '{key.symbol}'"
            elif not re.search(rf"(?<!\w){re.escape(key.word.casefold())}(?!\w)", words):
                yield f"{RULE}: the {side} shows {key.family} {key.colour} without its word '{key.word}'"
