"""Totems + Taboos fronts read without colour vision: seen through simulated deuteranopia, protanopia and
tritanopia, the six decks' fronts still differ in the symbol they print.

Each colour's first card is rasterised as `pantheon preview` draws it (pdftoppm, 150 dpi); the symbol's
box comes from the face's own record (where the build found the icon). A colour-vision deficiency is
simulated with the Machado, Oliveira and Fernandes (2009) matrices (severity 1) on linear RGB; the
symbol is then reduced to its shape (light and dark halves of its luminance) and each pair of colours
must differ in a good part of that shape: two symbols that differ only in hue would give one shape.
"""
from __future__ import annotations

import io
import shutil
import subprocess
from itertools import combinations

import pytest
from PIL import Image

from pipeline.cards.build import face_preview_pdf, open_document
from pipeline.cards.svgtemplates import TEMPLATE_ROOT
from pipeline.cards.units import mm

GAME = "totems-and-taboos"
DPI = 150
GAP_MM = 4.0
# The share of a symbol's pixels whose light/dark shape must differ between any two colours.
MIN_SHAPE_DIFFERENCE = 0.08
MATRICES = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
Pixel = tuple[float, float, float]

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")


def linear(channel: int) -> float:
    value = channel / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def simulate(pixel: tuple[int, int, int], matrix: tuple[Pixel, Pixel, Pixel]) -> float:
    """The relative luminance of ``pixel`` as seen with the deficiency ``matrix``."""
    rgb = [linear(c) for c in pixel]
    seen = [min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb)))) for row in matrix]
    return 0.2126 * seen[0] + 0.7152 * seen[1] + 0.0722 * seen[2]


def shape(image: Image.Image, matrix: tuple[Pixel, Pixel, Pixel]) -> list[bool]:
    """Which pixels of the symbol are on its lighter side, as seen with the deficiency."""
    seen = [simulate(p, matrix) for p in image.get_flattened_data()]
    middle = (min(seen) + max(seen)) / 2
    return [value > middle for value in seen]


@pytest.fixture(scope="module")
def symbols(card_sheet, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Image.Image]:
    """Each colour's symbol as printed on its first front, cropped from a 150 dpi raster."""
    plan = card_sheet(GAME).plan
    firsts = {}
    for card in plan.cards:
        if card.deck and card.deck not in firsts:
            firsts[card.deck] = card
    assert len(firsts) == 6
    doc = open_document(TEMPLATE_ROOT, "symbols", GAME, {})
    work = tmp_path_factory.mktemp("colour-blind")
    crops = {}
    for colour, card in firsts.items():
        face = doc.forms.face(card.front, plan.label(card, "front"))
        (key,) = [k for k in card.colours if k.colour == colour]
        boxes = [icon.box for icon in face.record.facts.icons if icon.name == key.symbol]
        assert boxes, f"{card.id}: no {key.symbol} on its front"
        pdf = work / f"{colour}.pdf"
        pdf.write_bytes(face_preview_pdf(plan, card.id, GAP_MM))
        raster = subprocess.run(["pdftoppm", "-png", "-r", str(DPI), "-singlefile", str(pdf)], capture_output=True, check=True)
        page = Image.open(io.BytesIO(raster.stdout)).convert("RGB")
        bleed = (face.width_pt / mm(1) - face.trim_w) / 2
        x0, y0, x1, y1 = (round((GAP_MM + bleed + v) * DPI / 25.4) for v in boxes[0])
        crops[colour] = page.crop((x0, y0, x1, y1))
    return crops


@pytest.mark.parametrize("deficiency", sorted(MATRICES))
def test_the_six_colours_fronts_differ_in_their_symbols(symbols: dict[str, Image.Image], deficiency: str) -> None:
    shapes = {colour: shape(image, MATRICES[deficiency]) for colour, image in symbols.items()}
    for (a, first), (b, second) in combinations(sorted(shapes.items()), 2):
        assert len(first) == len(second)
        differing = sum(x != y for x, y in zip(first, second)) / len(first)
        assert differing >= MIN_SHAPE_DIFFERENCE, f"{deficiency}: {a} and {b} symbols look alike ({differing:.0%} of pixels differ)"


def test_hue_alone_would_not_tell_the_decks_apart(symbols: dict[str, Image.Image]) -> None:
    """The premise: under deuteranopia the red and green tiles are near in what is seen (why symbols are needed)."""
    def tile(colour: str) -> float:
        image = symbols[colour]
        return simulate(image.getpixel((image.width // 10, image.height // 2)), MATRICES["deuteranopia"])

    lighter, darker = max(tile("red"), tile("green")), min(tile("red"), tile("green"))
    assert (lighter + 0.05) / (darker + 0.05) < 1.5
