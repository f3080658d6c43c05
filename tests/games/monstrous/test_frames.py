"""Monstrous's five god frames read without colour vision: seen through simulated deuteranopia, protanopia
and tritanopia, each god's frame still differs from every other in its pattern (the same check the Totems +
Taboos deck symbols pass: tests/core/colour_vision.py).

Each god's first Monster card is rasterised as `pantheon preview` draws it (pdftoppm, 150 dpi) and a strip
of its frame band (inside the trim, outside the paper panel) is cropped; each pair of gods must differ in a
good part of that strip's light/dark shape. A frame of flat colour would give one shape for every god.
"""
from __future__ import annotations

import io
import shutil
import subprocess

import pytest
from PIL import Image

from pipeline.cards.build import face_preview_pdf
from pipeline.cards.colours import parse
from pipeline.games.monstrous.palette import FRAME, PALETTE
from tests.core.colour_vision import MATRICES, alike, simulate

GAME = "monstrous"
DPI = 150
GAP_MM = 4.0
BLEED_MM = 3.0
# the strip looked at, in mm from the card's trim corner: the left frame band, clear of the corners
STRIP_MM = (0.4, 8.0, 3.2, 80.0)
MIN_SHAPE_DIFFERENCE = 0.08
FACE_SIDES = ("front", "back")  # the unique side, and the common side the deck shows face down

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")


@pytest.fixture(scope="module")
def frames(card_sheet) -> dict[str, dict[str, Image.Image]]:
    """By side: each god's frame strip, cropped from its first Monster card."""
    plan = card_sheet(GAME).plan
    firsts = {}
    for card in plan.cards:
        if card.front.template.endswith("/monster.svg.j2"):
            firsts.setdefault(card.front.context["god"]["colour_name"], card)
    assert len(firsts) == 5
    strips: dict[str, dict[str, Image.Image]] = {side: {} for side in FACE_SIDES}
    for colour, card in firsts.items():
        raster = subprocess.run(["pdftoppm", "-png", "-r", str(DPI), "-singlefile", "-"],
                                input=face_preview_pdf(plan, card.id, GAP_MM), capture_output=True, check=True)
        page = Image.open(io.BytesIO(raster.stdout)).convert("RGB")
        card_w = 63 + 2 * BLEED_MM
        for index, side in enumerate(FACE_SIDES):
            left = GAP_MM + index * (card_w + GAP_MM) + BLEED_MM
            x0, y0, x1, y1 = STRIP_MM
            box = tuple(round(v * DPI / 25.4) for v in (left + x0, GAP_MM + BLEED_MM + y0, left + x1, GAP_MM + BLEED_MM + y1))
            strips[side][colour] = page.crop(box)
    return strips


@pytest.mark.parametrize("side", FACE_SIDES)
@pytest.mark.parametrize("deficiency", sorted(MATRICES))
def test_the_five_god_frames_differ_in_their_patterns(frames: dict[str, dict[str, Image.Image]], deficiency: str, side: str) -> None:
    assert [f"{deficiency}, {side}: {p}" for p in alike(frames[side], MATRICES[deficiency], MIN_SHAPE_DIFFERENCE)] == []


def test_hue_alone_would_not_tell_green_and_orange_apart() -> None:
    """The premise: under deuteranopia the green and orange frame colours are near in what is seen."""
    def seen(colour: str) -> float:
        r, g, b = (round(c * 255) for c in parse(PALETTE[colour][FRAME]))
        return simulate((r, g, b), MATRICES["deuteranopia"])

    lighter, darker = max(seen("green"), seen("orange")), min(seen("green"), seen("orange"))
    assert (lighter + 0.05) / (darker + 0.05) < 1.5


def test_a_flat_frame_would_fail_the_check() -> None:
    """Two frames of flat colour (no pattern) give the same shape, whatever their hues."""
    flat = {name: Image.new("RGB", (20, 200), PALETTE[name][FRAME]) for name in ("green", "orange")}
    assert list(alike(flat, MATRICES["deuteranopia"], MIN_SHAPE_DIFFERENCE))
