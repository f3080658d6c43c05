"""Exports read back: PNG sizes and count per shop, the TTS grid and JSON, the DTC page boxes, determinism."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from PIL import Image

from pipeline.cards.build import Plan
from pipeline.cards.plan import Face, PrintCard
from pipeline.cards.units import PT_PER_INCH
from pipeline.exports.export import export, image_px
from pipeline.exports.targets import target

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


@pytest.mark.parametrize(("shop", "poker"), [("mpc", (816, 1110)), ("tgc", (825, 1125))])
def test_shops_get_one_png_per_face_paired_by_name(templates: Path, tmp_path: Path, shop: str, poker: tuple[int, int]) -> None:
    result = export(board_plan(3), target(shop), tmp_path, template_root=templates)
    names = sorted(p.name for p in result.folder.iterdir())
    assert names == [
        "001-toy-00-back.png", "001-toy-00-front.png", "002-toy-01-back.png", "002-toy-01-front.png",
        "003-toy-02-back.png", "003-toy-02-front.png", "004-board-front.png", "order.csv",
    ]
    for name in names[:-1]:
        with Image.open(result.folder / name) as image:
            assert tuple(round(v) for v in image.info["dpi"]) == (300, 300)  # pHYs: the shop reads the print size
    assert (result.folder / "order.csv").read_text().splitlines() == [
        "front,back,quantity", "001-toy-00-front.png,001-toy-00-back.png,1", "002-toy-01-front.png,002-toy-01-back.png,1",
        "003-toy-02-front.png,003-toy-02-back.png,1", "004-board-front.png,,1"]
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
    (obj,) = deck["ObjectStates"]  # one kind of card, no shuffled deck named: one deck object on two sheets
    assert obj["Name"] == "DeckCustom" and len(obj["ContainedObjects"]) == 75
    assert set(obj["Transform"]) >= {"posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ"}
    guids = [obj["GUID"], *(c["GUID"] for c in obj["ContainedObjects"])]
    assert len(set(guids)) == 76 and all(len(g) == 6 and int(g, 16) >= 0 for g in guids)
    assert sorted(obj["CustomDeck"]) == ["1", "2"]
    assert obj["DeckIDs"] == [c["CardID"] for c in obj["ContainedObjects"]]
    for number, custom in obj["CustomDeck"].items():
        assert set(custom) == {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack", "Type"}
        assert custom["NumWidth"] <= 10 and custom["NumHeight"] <= 7 and custom["BackIsHidden"] is True
        cards = [c for c in obj["ContainedObjects"] if c["CardID"] // 100 == int(number)]
        assert len(cards) < custom["NumWidth"] * custom["NumHeight"]  # the last slot is the hidden card's
        with Image.open(folder / f"deck-{number}-faces.png") as sheet:
            assert max(sheet.size) <= 4096  # Tabletop Simulator's limit
            width, height = sheet.size[0] // custom["NumWidth"], sheet.size[1] // custom["NumHeight"]
            assert sheet.size == (width * custom["NumWidth"], height * custom["NumHeight"])
        assert custom["UniqueBack"] is True  # every toy card has a back of its own (it names the card)
        assert custom["FaceURL"] == f"REPLACE-WITH-THE-URL-OF:deck-{number}-faces.png"
    assert [c["NumWidth"] * c["NumHeight"] for _, c in sorted(obj["CustomDeck"].items())] == [70, 8]  # 69 + 1, then 6 + 1


def test_tts_keeps_the_games_decks_apart_and_takes_a_base_url(templates: Path, tmp_path: Path) -> None:
    cards = [dataclasses.replace(toy_card(i), deck="draw" if i % 2 else "discard") for i in range(6)]
    folder = export(Plan("toy", "Toy", cards), target("tts"), tmp_path, template_root=templates,
                    base_url="https://example.org/toy/").folder
    objects = json.loads((folder / "deck.json").read_text())["ObjectStates"]
    assert [(o["Nickname"], sorted(c["GMNotes"] for c in o["ContainedObjects"])) for o in objects] == [
        ("discard", ["toy-00", "toy-02", "toy-04"]), ("draw", ["toy-01", "toy-03", "toy-05"])]
    assert objects[0]["Transform"]["posX"] != objects[1]["Transform"]["posX"]  # side by side, not in one pile
    custom = objects[1]["CustomDeck"]["2"]
    assert (custom["FaceURL"], custom["BackURL"]) == ("https://example.org/toy/deck-2-faces.png",
                                                      "https://example.org/toy/deck-2-back.png")


def test_dtc_is_one_pdf_x_per_deck_back_then_front_with_boxes(templates: Path, tmp_path: Path) -> None:
    folder = export(board_plan(2), target("dtc"), tmp_path, template_root=templates).folder
    pdfs = sorted(folder.iterdir())
    assert [p.name for p in pdfs] == ["toy-180x120mm.pdf", "toy-63x88mm.pdf"]
    poker = reader(pdfs[1].read_bytes())
    assert len(poker.pages) == 4  # back, front, back, front
    images = [page["/Resources"]["/XObject"]["/Im0"].get_object() for page in poker.pages]
    assert [image.indirect_reference.idnum for image in images][0] != images[1].indirect_reference.idnum
    assert images[0]["/ColorSpace"] == "/DeviceCMYK" and (images[0]["/Width"], images[0]["/Height"]) == (825, 1125)
    back = Image.frombytes("CMYK", (825, 1125), images[0].get_data())
    assert back.getpixel((2, 2)) == back.getpixel((412, 2)) != (0, 0, 0, 0)  # the toy back's flood reaches the bleed
    bleed = 0.125 * PT_PER_INCH
    for page in poker.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == (pytest.approx(2.75 * 72), pytest.approx(3.75 * 72))
        assert [float(v) for v in page.trimbox] == pytest.approx([bleed, bleed, 2.75 * 72 - bleed, 3.75 * 72 - bleed])
        assert [float(v) for v in page.bleedbox] == pytest.approx([0, 0, 2.75 * 72, 3.75 * 72])
    assert fonts_not_embedded(poker) == set()
    assert poker.metadata is not None and poker.metadata["/GTS_PDFXVersion"] == "PDF/X-1a:2003"
    intent = poker.trailer["/Root"]["/OutputIntents"][0]
    assert intent["/S"] == "/GTS_PDFX" and intent["/DestOutputProfile"].get_object()["/N"] == 4
    assert b"GTS_PDFXVersion>PDF/X-1a:2003<" in poker.trailer["/Root"]["/Metadata"].get_object().get_data()


def test_dtc_files_are_deterministic(templates: Path, tmp_path: Path) -> None:
    first = export(toy_plan(1), target("dtc"), tmp_path / "a", template_root=templates).folder
    second = export(toy_plan(1), target("dtc"), tmp_path / "b", template_root=templates).folder
    assert {p.name: p.read_bytes() for p in first.iterdir()} == {p.name: p.read_bytes() for p in second.iterdir()}


def test_exports_are_deterministic(templates: Path, tmp_path: Path) -> None:
    first = export(toy_plan(2), target("tgc"), tmp_path / "a", template_root=templates).folder
    second = export(toy_plan(2), target("tgc"), tmp_path / "b", template_root=templates).folder
    assert {p.name: p.read_bytes() for p in first.iterdir()} == {p.name: p.read_bytes() for p in second.iterdir()}


def test_an_unknown_target_is_one_line_exit_1(tmp_path: Path) -> None:
    result = run_cli("export", "theocracy", "--target", "zip", "--out", str(tmp_path))
    assert result.returncode == 1 and "Traceback" not in result.stderr and result.stderr.count("\n") == 1
    assert "zip" in result.stderr and not list(tmp_path.iterdir())
