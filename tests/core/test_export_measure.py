"""Preflight measures the produced files against the shops' figures: it fails naming file, page and rule on an RGB
PDF, a transparent PDF, an over-inked PDF, a PNG without dpi, a wrong pixel size, a TTS grid over 10 x 7 and a
deck mixing two game decks; and the ink cap, K-only text and rich black of the CMYK conversion hold."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image
from reportlab.lib.colors import CMYKColor
from reportlab.pdfgen.canvas import Canvas

from pipeline.exports import measure, pdfx
from pipeline.exports.targets import target

DTC = target("dtc")
assert DTC.press is not None
PRESS = DTC.press
POKER = (825, 1125)  # DriveThruCards' poker page at 300 dpi
PAGE_PT = (POKER[0] * 72 / 300, POKER[1] * 72 / 300)
BLEED_PT = 0.125 * 72


def pdf_x(tmp_path: Path, colour: tuple[int, int, int, int]) -> Path:
    """A PDF/X-1a file of one page filled with ``colour`` (CMYK bytes), the conversion's ink cap bypassed."""
    path = tmp_path / "deck.pdf"
    path.write_bytes(pdfx.write([pdfx.Page(Image.new("CMYK", POKER, colour), BLEED_PT)], PRESS, 300, "Test deck"))
    return path


def reportlab_pdf(tmp_path: Path, draw: str) -> Path:
    """A plain reportlab page of DriveThruCards' size with its boxes, drawing RGB or half-transparent CMYK."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=PAGE_PT, invariant=1)
    canvas.setTrimBox((BLEED_PT, BLEED_PT, PAGE_PT[0] - BLEED_PT, PAGE_PT[1] - BLEED_PT))
    canvas.setBleedBox((0, 0, *PAGE_PT))
    if draw == "rgb":
        canvas.setFillColorRGB(0.8, 0.7, 0.2)
    else:
        canvas.setFillColor(CMYKColor(0.2, 0.1, 0, 0))
        canvas.setFillAlpha(0.5)
    canvas.rect(0, 0, *PAGE_PT, fill=1, stroke=0)
    canvas.showPage()
    canvas.save()
    path = tmp_path / "deck.pdf"
    path.write_bytes(buffer.getvalue())
    return path


def findings(path: Path) -> list[str]:
    return [str(f) for f in measure.check_pdf(path, DTC)]


def test_a_pdf_x_within_the_ink_limit_passes(tmp_path: Path) -> None:
    assert findings(pdf_x(tmp_path, (100, 80, 80, 250))) == []  # 200 % of ink


def test_an_over_inked_pdf_fails_naming_page_and_rule(tmp_path: Path) -> None:
    (finding,) = findings(pdf_x(tmp_path, (255, 255, 255, 255)))
    assert finding == "deck.pdf page 1: total ink at most 240 %: 400 % at its darkest point (Ghostscript, 300 dpi)"


def test_an_rgb_pdf_fails_naming_page_and_rule(tmp_path: Path) -> None:
    found = findings(reportlab_pdf(tmp_path, "rgb"))
    assert "deck.pdf: PDF/X-1a:2003: GTS_PDFXVersion is missing" in found
    assert "deck.pdf page 1: no RGB (PDF/X-1a): DeviceRGB colour (rg operator)" in found


def test_a_transparent_pdf_fails_naming_page_and_rule(tmp_path: Path) -> None:
    found = findings(reportlab_pdf(tmp_path, "alpha"))
    assert "deck.pdf page 1: no transparency (PDF/X-1a): opacity 0.5 (/ca)" in found
    assert not any("RGB" in f for f in found)


def shop_png(tmp_path: Path, size: tuple[int, int], dpi: int | None) -> Path:
    path = tmp_path / "001-card-front.png"
    image = Image.new("RGB", size, (200, 100, 50))
    image.save(path, "PNG", **({"dpi": (dpi, dpi)} if dpi else {}))
    return path


def test_a_png_without_dpi_fails(tmp_path: Path) -> None:
    found = [str(f) for f in measure.check_png(shop_png(tmp_path, (816, 1110), None), target("mpc"))]
    assert found == ["001-card-front.png: 300 dpi written in the image: no dpi (no pHYs chunk)"]


def test_a_wrong_pixel_size_fails_naming_the_nearest_product(tmp_path: Path) -> None:
    found = [str(f) for f in measure.check_png(shop_png(tmp_path, (1122, 1572), 300), target("mpc"))]
    assert found == ["001-card-front.png: a product's pixel size: 1122x1572 px fits no MakePlayingCards product; "
                     "nearest: Tarot Cards (2.75 x 4.75 in) (897x1497 px)"]
    assert measure.check_png(shop_png(tmp_path, (825, 1125), 300), target("tgc")) == []


def tts_folder(tmp_path: Path, width: int, cards: list[str]) -> Path:
    Image.new("RGB", (width * 100, 700)).save(tmp_path / "deck-1-faces.png")
    custom = {"1": {"FaceURL": "f", "BackURL": "b", "NumWidth": width, "NumHeight": 7}}
    deck = {"Name": "DeckCustom", "Nickname": "gods", "Transform": {}, "GUID": "abcdef", "CustomDeck": custom,
            "ContainedObjects": [{"Name": "Card", "GMNotes": card, "CardID": 100 + i} for i, card in enumerate(cards)]}
    (tmp_path / "deck.json").write_text(json.dumps({"ObjectStates": [deck]}))
    return tmp_path


def test_a_tts_grid_over_10_by_7_fails(tmp_path: Path) -> None:
    found = [str(f) for f in measure.check_tts(tts_folder(tmp_path, 11, ["g1"]), target("tts"), {"g1": "gods"})]
    assert found == ["deck.json object 1 ('gods'): a grid of at most 10x7: sheet 1 is 11x7"]


def test_a_deck_mixing_two_game_decks_fails(tmp_path: Path) -> None:
    decks = {"g1": "gods", "d1": "mortals"}
    found = [str(f) for f in measure.check_tts(tts_folder(tmp_path, 10, ["g1", "d1"]), target("tts"), decks)]
    assert found == ["deck.json object 1 ('gods'): one game deck per deck object: mixes gods, mortals"]


@pytest.mark.parametrize("rgb", [(0, 0, 0), (40, 20, 60), (20, 60, 30), (12, 12, 14), (255, 0, 0)])
def test_no_converted_colour_passes_the_ink_limit(rgb: tuple[int, int, int]) -> None:
    cmyk = pdfx.to_cmyk(Image.new("RGB", (60, 60), rgb), PRESS, pdfx.converter(PRESS), 300)
    assert pdfx.max_ink_pct(cmyk) <= PRESS.ink_limit_pct


def test_small_black_is_k_only_and_large_black_is_rich() -> None:
    image = Image.new("RGB", (240, 240), (255, 255, 255))
    image.paste((0, 0, 0), (0, 0, 240, 120))  # a black area 10 mm high
    image.paste((0, 0, 0), (10, 200, 14, 230))  # a 4 px stroke, like text
    image.paste((128, 128, 128), (100, 200, 140, 230))  # grey
    cmyk = pdfx.to_cmyk(image, PRESS, pdfx.converter(PRESS), 300)
    assert cmyk.getpixel((120, 60)) == tuple(round(p * 255 / 100) for p in PRESS.rich_black)
    assert cmyk.getpixel((12, 210)) == (0, 0, 0, 255)
    assert cmyk.getpixel((120, 210)) == (0, 0, 0, 127)
    assert cmyk.getpixel((120, 180)) == (0, 0, 0, 0)  # paper stays paper
