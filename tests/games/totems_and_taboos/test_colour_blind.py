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

import pytest
from PIL import Image

from pipeline.cards.build import face_preview_pdf, open_document
from pipeline.cards.svgtemplates import TEMPLATE_ROOT
from pipeline.cards.units import mm
from tests.core.colour_vision import MATRICES, alike, simulate

GAME = "totems-and-taboos"
DPI = 150
GAP_MM = 4.0
# The share of a symbol's pixels whose light/dark shape must differ between any two colours.
MIN_SHAPE_DIFFERENCE = 0.08

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")


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
    assert [f"{deficiency}: {problem}" for problem in alike(symbols, MATRICES[deficiency], MIN_SHAPE_DIFFERENCE)] == []


def test_hue_alone_would_not_tell_the_decks_apart(symbols: dict[str, Image.Image]) -> None:
    """The premise: under deuteranopia the red and green tiles are near in what is seen (why symbols are needed)."""
    def tile(colour: str) -> float:
        image = symbols[colour]
        return simulate(image.getpixel((image.width // 10, image.height // 2)), MATRICES["deuteranopia"])

    lighter, darker = max(tile("red"), tile("green")), min(tile("red"), tile("green"))
    assert (lighter + 0.05) / (darker + 0.05) < 1.5
