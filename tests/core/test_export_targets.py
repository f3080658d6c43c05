"""Export targets as data: every target file is valid, the CLI's choices are the files, a bad file is one line
naming file:line, and a new target is one more file."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PIL import Image

from pipeline.base.errors import UserError
from pipeline.cards.build import Plan
from pipeline.cards.plan import Face, PrintCard
from pipeline.cards.svgtemplates import TEMPLATE_ROOT
from pipeline.exports.export import export
from pipeline.exports.preflight import check_target
from pipeline.exports.targets import PDF_PER_DECK, PNG_PER_FACE, TTS_DECK, load_targets, target, target_ids, targets_dir

from .render_helpers import run_cli, toy_card, toy_template_root

GOOD = "title: A Shop\noutput: png-per-face\ndpi: 150\nbleed_in: 0.25\nimage: bleed\ncolour: RGB\nsources: {dpi: measured here}\n"


def targets_copy(tmp_path: Path, extra: dict[str, str]) -> Path:
    """A templates folder holding a copy of the project's target files and ``extra`` (file name: text)."""
    root = tmp_path / "templates"
    shutil.copytree(targets_dir(TEMPLATE_ROOT), targets_dir(root))
    for name, text in extra.items():
        (targets_dir(root) / name).write_text(text, encoding="utf-8")
    return root


def test_every_target_file_is_valid_and_named_by_its_id() -> None:
    found = load_targets()
    assert list(found) == target_ids() == sorted(p.stem for p in targets_dir().glob("*.yaml"))
    assert {t.id for t in found.values()} == set(found)
    assert {"mpc", "tgc", "dtc", "tts"} <= set(found)
    assert {t.output for t in found.values()} == {PNG_PER_FACE, PDF_PER_DECK, TTS_DECK}
    assert all((t.sheet is not None) == (t.output == TTS_DECK) for t in found.values())


def test_the_shops_numbers_come_from_their_files() -> None:
    assert target("mpc").own_size(63, 88) == (816, 1110) and target("mpc").bleed_in == 0.12  # MPC's 63 x 88 mm product
    assert target("mpc").own_size(63.5, 88.9) == (822, 1122)
    nearest = target("mpc").nearest_product(1122, 1572)
    assert nearest is not None and nearest.name == "Tarot Cards (2.75 x 4.75 in)"  # the nearest to a 3.5 x 5 in face
    dtc = target("dtc")
    assert dtc.colour == "CMYK" and dtc.press is not None and dtc.press.ink_limit_pct == 240
    assert all(dict(t.sources) for t in load_targets().values())  # every shipped figure says where it comes from
    assert target("tgc").own_size(63, 88) == (825, 1125) and target("tgc").own_size(70, 120) is None
    tts = target("tts")
    assert tts.trim_only and tts.bleed_in == 0 and tts.sheet is not None and tts.sheet.max_px == 4096


def test_the_cli_lists_the_target_files(tmp_path: Path) -> None:
    root = targets_copy(tmp_path, {"lab.yaml": GOOD})
    result = run_cli("export", "theocracy", "--target", "zip", "--templates", str(root), "--out", str(tmp_path / "out"))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1
    assert "unknown export target 'zip'" in result.stderr
    assert "known: dtc, lab, mpc, tgc, tts" in result.stderr
    assert not (tmp_path / "out").exists()
    help_text = " ".join(run_cli("export", "--help").stdout.split())
    assert all(name in help_text for name in target_ids())


@pytest.mark.parametrize(("text", "where", "message"), [
    ("title: X\ndpi: 300: 2\n", ":2:", "malformed YAML"),
    (GOOD + "shiny: yes\n", ":8:1:", "unknown key 'shiny'"),
    (GOOD.replace("sources: {dpi: measured here}\n", ""), ":1:", "'sources' is required"),
    (GOOD + "press: {standard: PDF/X-1a:2003, profile: /x.icc, condition: SWOP, ink_limit_pct: 240, rich_black: [40, 30, 30, 100], "
     "rich_black_mm: 2}\n", ":6:", "'CMYK' was expected"),
    (GOOD.replace("dpi: 150", 'dpi: "150"'), ":3:", "is not of type 'integer'"),
    (GOOD.replace("output: png-per-face", "output: tts-deck"), ":1:", "'sheet' is required"),
    (GOOD + "sheet: {columns: 10, rows: 7, min_grid: 2, max_px: 4096}\n", ":2:", "'tts-deck' was expected"),
])
def test_a_bad_target_file_is_one_line_naming_file_and_line(tmp_path: Path, text: str, where: str, message: str) -> None:
    root = targets_copy(tmp_path, {"bad.yaml": text})
    with pytest.raises(UserError) as caught:
        load_targets(root)
    error = str(caught.value)
    assert f"targets/bad.yaml{where}" in error and message in error and "\n" not in error


def test_a_file_name_that_is_no_id_is_refused(tmp_path: Path) -> None:
    root = targets_copy(tmp_path, {"Big Shop.yaml": GOOD})
    with pytest.raises(UserError, match=r"Big Shop\.yaml: a target's file name is its id"):
        load_targets(root)


def test_a_new_target_file_is_a_new_target(tmp_path: Path) -> None:
    root = toy_template_root(tmp_path)
    (targets_dir(root) / "lab.yaml").write_text(GOOD, encoding="utf-8")
    lab = target("lab", root)
    assert lab.dpi == 150 and lab.title == "A Shop"
    folder = export(Plan("toy", "Toy", [toy_card(0)]), lab, tmp_path / "out", template_root=root).folder
    assert folder.name == "lab"
    with Image.open(folder / "001-toy-00-front.png") as image:  # 63 x 88 mm trim, 1/4 in bleed, at 150 dpi
        assert image.size == (round((63 / 25.4 + 0.5) * 150), round((88 / 25.4 + 0.5) * 150))


def test_a_size_the_shop_does_not_offer_is_left_out_with_its_reason(tmp_path: Path) -> None:
    root = toy_template_root(tmp_path)
    shop = GOOD.replace("sources:", "not_offered:\n  - component: 180 x 120 mm boards\n    trim_mm: [120, 180]\n"
                        "    reason: no board product\nsources:")
    (targets_dir(root) / "lab.yaml").write_text(shop, encoding="utf-8")
    board = PrintCard("board", "Big Board", Face("toy/board.svg.j2", {"name": "Big Board"}))
    result = export(Plan("toy", "Toy", [toy_card(0), board]), target("lab", root), tmp_path / "out", template_root=root)
    assert sorted(p.name for p in result.folder.iterdir()) == ["001-toy-00-back.png", "001-toy-00-front.png", "order.csv"]
    assert result.left_out == ("left out of the lab export: 180 x 120 mm boards (120x180 mm: board 1): no board product",)
    assert "board" not in (result.folder / "order.csv").read_text()
    notes: list[str] = []  # preflight measures what was written, and says what was left out
    assert check_target(Plan("toy", "Toy", [toy_card(0), board]), target("lab", root), root, note=notes.append) == []
    assert notes == ["toy: " + result.left_out[0]]


def test_the_shipped_shops_leave_out_the_monstrous_sizes_they_do_not_make() -> None:
    for shop in ("mpc", "tgc", "dtc"):
        spec = target(shop)
        assert spec.not_offered_for(88.9, 127) is not None and spec.not_offered_for(180, 130) is not None
        assert spec.not_offered_for(63, 88) is None  # the poker cards are a product of every shop
        assert "not_offered" in dict(spec.sources)
