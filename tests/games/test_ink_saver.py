"""Ink saver: with the jinja global ``ink_saver`` on, every card template of every game prints nothing in
the bleed (no full-bleed flood: outline and emblem on white paper) and its faces still pass the design rules.

One card of each front and back template of each game is drawn as `pantheon preview` draws it, with the
templates' ``ink_saver`` switched on, and rasterised; the middle of the bleed band round each face must be
paper white. Without ink saver the same faces do flood the bleed (so the test can tell).
"""
from __future__ import annotations

import io
import shutil
import subprocess

import pytest
from PIL import Image

from pipeline.cards import build, design
from pipeline.cards.plan import PrintCard
from pipeline.cards.svgtemplates import TEMPLATE_ROOT
from pipeline.cards.units import mm
from pipeline.data.dataset import default_data_root, load_game
from pipeline.games.registry import spec as spec_of

GAMES = ("heavenly-father", "monotheism", "monstrous", "theocracy", "totems-and-taboos")
DPI = 40
GAP_MM = 4.0
PAPER_WHITE = 250  # every channel at least this: no ink
SAMPLES_PER_SIDE = 12  # points of the bleed band looked at along each edge

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")


def samples(game: str) -> list[PrintCard]:
    """The first card of each distinct pair of front and back templates."""
    chosen: dict[tuple[str, str], PrintCard] = {}
    for card in build.plan(default_data_root(), game, load_game(default_data_root(), spec_of(game))).cards:
        chosen.setdefault((card.front.template, card.back.template if card.back else ""), card)
    return list(chosen.values())


def bleed_inks(card: PrintCard, plan: build.Plan, *, ink_saver: bool = False) -> list[str]:
    """Which faces of the card (front, back) print anything in the middle of their bleed band."""
    pdf = build.face_preview_pdf(plan, card.id, GAP_MM, ink_saver=ink_saver)
    raster = subprocess.run(["pdftoppm", "-png", "-r", str(DPI), "-singlefile", "-"], input=pdf, capture_output=True, check=True)
    page = Image.open(io.BytesIO(raster.stdout)).convert("RGB")
    doc = build.open_document(TEMPLATE_ROOT, "bleed", plan.game, {})
    inked = []
    left = GAP_MM
    for side, face in (("front", card.front), ("back", card.back)):
        if face is None:
            continue
        form = doc.forms.face(face, plan.label(card, side))
        width, height = form.width_pt / mm(1), form.height_pt / mm(1)
        band = (width - form.trim_w) / 4  # half way through the bleed
        points = [(left + band + (width - 2 * band) * i / SAMPLES_PER_SIDE, GAP_MM + edge)
                  for i in range(SAMPLES_PER_SIDE + 1) for edge in (band, height - band)]
        points += [(left + edge, GAP_MM + band + (height - 2 * band) * i / SAMPLES_PER_SIDE)
                   for i in range(SAMPLES_PER_SIDE + 1) for edge in (band, width - band)]
        if any(min(page.getpixel((round(x * DPI / 25.4), round(y * DPI / 25.4)))) < PAPER_WHITE for x, y in points):
            inked.append(side)
        left += width + GAP_MM
    return inked


@pytest.mark.parametrize("game", GAMES)
def test_ink_saver_faces_print_nothing_in_the_bleed_and_keep_the_design_rules(game: str) -> None:
    plan = build.plan(default_data_root(), game, load_game(default_data_root(), spec_of(game)))
    cards = samples(game)
    flooded = [(card.id, side) for card in cards for side in bleed_inks(card, plan)]
    assert flooded, f"{game}: no face floods the bleed even without ink saver"
    assert [(card.id, side) for card in cards for side in bleed_inks(card, plan, ink_saver=True)] == []
    doc = build.open_document(TEMPLATE_ROOT, "ink saver", game, {}, ink_saver=True)
    rules = design.rules_for(TEMPLATE_ROOT)
    for card in cards:
        for side, face in (("front", card.front), ("back", card.back)):
            if face is not None:
                label = plan.label(card, side)
                form = doc.forms.face(face, label)
                design.check(form.record.facts, rules, (form.trim_w, form.trim_h), face.template, label)
