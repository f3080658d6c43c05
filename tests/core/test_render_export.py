"""Exports read back: PNG sizes and count per shop, the TTS grid and JSON, the DTC page boxes, determinism."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from pipeline.cards.build import Plan
from pipeline.cards.plan import Face, PrintCard
from pipeline.cards.units import PT_PER_INCH
from pipeline.exports.export import export, image_px
from pipeline.exports.targets import target

from .pdf_text import page_texts
from .render_helpers import fonts_not_embedded, reader, run_cli, toy_card, toy_plan, toy_template_root


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return toy_template_root(tmp_path_factory.mktemp("export"))


def board_plan(cards: int) -> Plan:
    board = PrintCard("board", "Big Board", Face("toy/board.svg.j2", {"name": "Big Board"}))
    return Plan("toy", "Toy", [*(toy_card(i) for i in range(cards)), board])


def png_size(path: Path) -> tuple[int, int]:
    with Image.open(path) as image:
        assert image.mode == "RGB"
        return image.size


@pytest.mark.parametrize(("shop", "poker"), [("mpc", (822, 1122)), ("tgc", (825, 1125))])
def test_shops_get_one_png_per_face_paired_by_name(templates: Path, tmp_path: Path, shop: str, poker: tuple[int, int]) -> None:
    result = export(board_plan(3), target(shop), tmp_path, template_root=templates)
    names = sorted(p.name for p in result.folder.iterdir())
    assert names == [
        "001-toy-00-back.png", "001-toy-00-front.png", "002-toy-01-back.png", "002-toy-01-front.png",
        "003-toy-02-back.png", "003-toy-02-front.png", "004-board-front.png", "copies.json",
    ]
    assert {png_size(result.folder / n) for n in names if n.startswith("00") and "board" not in n} == {poker}
    # other sizes: the trim plus the bleed at 300 dpi (180 x 120 mm board)
    assert png_size(result.folder / "004-board-front.png") == image_px(target(shop), 180, 120)
    assert image_px(target("tgc"), 180, 120) == (round((180 / 25.4 + 0.25) * 300), round((120 / 25.4 + 0.25) * 300))


def test_a_png_shows_the_face(templates: Path, tmp_path: Path) -> None:
    folder = export(toy_plan(1), target("mpc"), tmp_path, template_root=templates).folder
    with Image.open(folder / "001-toy-00-back.png") as back:
        corner, centre = back.getpixel((2, 2)), back.getpixel((back.width // 2, back.height // 4))
    assert corner == (0x2A, 0x3B, 0x5C)  # the toy back's full-bleed colour reaches the image's edge
    assert centre != (255, 255, 255)


def test_tts_sheets_grid_and_json(templates: Path, tmp_path: Path) -> None:
    plan = toy_plan(75)  # more than the 69 cards a sheet holds besides its hidden-card slot
    folder = export(plan, target("tts"), tmp_path, template_root=templates).folder
    deck = json.loads((folder / "deck.json").read_text())
    objects = deck["ObjectStates"]
    assert [o["Name"] for o in objects] == ["DeckCustom", "DeckCustom"]
    assert sum(len(o["ContainedObjects"]) for o in objects) == 75
    for number, obj in enumerate(objects, start=1):
        custom = obj["CustomDeck"][str(number)]
        assert set(custom) == {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack", "Type"}
        assert custom["NumWidth"] <= 10 and custom["NumHeight"] <= 7 and custom["BackIsHidden"] is True
        cards = len(obj["ContainedObjects"])
        assert cards < custom["NumWidth"] * custom["NumHeight"]  # the last slot is the hidden card's
        assert obj["DeckIDs"] == [c["CardID"] for c in obj["ContainedObjects"]]
        with Image.open(folder / f"deck-{number}-faces.png") as sheet:
            assert max(sheet.size) <= 4096  # Tabletop Simulator's limit
            width, height = sheet.size[0] // custom["NumWidth"], sheet.size[1] // custom["NumHeight"]
            assert sheet.size == (width * custom["NumWidth"], height * custom["NumHeight"])
        assert custom["UniqueBack"] is True  # every toy card has a back of its own (it names the card)
        assert "deck-%d-faces.png" % number in custom["FaceURL"]
    assert [o["CustomDeck"][str(i)]["NumWidth"] * o["CustomDeck"][str(i)]["NumHeight"] for i, o in enumerate(objects, 1)] == [70, 8]  # 69 + 1, then 6 + 1 in 4 x 2


def test_dtc_is_one_pdf_per_deck_back_then_front_with_boxes(templates: Path, tmp_path: Path) -> None:
    folder = export(board_plan(2), target("dtc"), tmp_path, template_root=templates).folder
    pdfs = sorted(folder.iterdir())
    assert [p.name for p in pdfs] == ["toy-180x120mm.pdf", "toy-63x88mm.pdf"]
    poker = reader(pdfs[1].read_bytes())
    assert len(poker.pages) == 4  # back, front, back, front
    texts = page_texts(pdfs[1].read_bytes())
    assert "back of Toy Card 00" in texts[0] and "Toy Card 00" in texts[1] and "back of" not in texts[1]
    bleed = 0.125 * PT_PER_INCH
    for page in poker.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == (pytest.approx(2.75 * 72), pytest.approx(3.75 * 72))
        assert [float(v) for v in page.trimbox] == pytest.approx([bleed, bleed, 2.75 * 72 - bleed, 3.75 * 72 - bleed])
        assert [float(v) for v in page.bleedbox] == pytest.approx([0, 0, 2.75 * 72, 3.75 * 72])
    assert fonts_not_embedded(poker) == set()


def test_exports_are_deterministic(templates: Path, tmp_path: Path) -> None:
    first = export(toy_plan(2), target("tgc"), tmp_path / "a", template_root=templates).folder
    second = export(toy_plan(2), target("tgc"), tmp_path / "b", template_root=templates).folder
    assert {p.name: p.read_bytes() for p in first.iterdir()} == {p.name: p.read_bytes() for p in second.iterdir()}


def test_an_unknown_target_is_one_line_exit_1(tmp_path: Path) -> None:
    result = run_cli("export", "theocracy", "--target", "zip", "--out", str(tmp_path))
    assert result.returncode == 1 and "Traceback" not in result.stderr and result.stderr.count("\n") == 1
    assert "zip" in result.stderr and not list(tmp_path.iterdir())
