"""Card sheets read back from the PDF: sizes, pairing, text, mirrored backs, fonts, qpdf, determinism."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.cards.build import BuildOptions, Plan, render_pdf
from pipeline.cards.imposition import Duplex, load_sheets
from pipeline.cards.plan import Face, PrintCard
from pipeline.cards.units import mm

from .pdf_text import page_runs, page_texts
from .render_helpers import SIXTY_WORDS, clip_rects, placements, qpdf_check, reader, segments, toy_card, toy_plan, toy_template_root

A4_PORTRAIT, A4_LANDSCAPE = (mm(210), mm(297)), (mm(297), mm(210))
LETTER_PORTRAIT, LETTER_LANDSCAPE = (mm(215.9), mm(279.4)), (mm(279.4), mm(215.9))
POKER_BLEED_BOX = (mm(63 + 6), mm(88 + 6))


@pytest.fixture
def templates(tmp_path: Path) -> Path:
    return toy_template_root(tmp_path)


def build(plan: Plan, templates: Path, **options: object) -> bytes:
    data, _ = render_pdf(plan, BuildOptions(**options), template_root=templates)  # type: ignore[arg-type]
    return data


def texts(data: bytes) -> list[list[str]]:
    """Each page's text runs, stripped."""
    return [[run.strip() for run in runs] for runs in page_runs(data)]


@pytest.mark.parametrize(
    ("paper", "layout", "size", "per_page"),
    [
        ("a4", "butted", A4_PORTRAIT, 9),
        ("letter", "butted", LETTER_LANDSCAPE, 8),  # 4 x 2: three rows leave no room for marks 5 mm inside the paper
        ("a4", "gutter", A4_LANDSCAPE, 8),
        ("letter", "gutter", LETTER_LANDSCAPE, 6),
    ],
)
def test_page_size_and_fronts_pair_with_backs(
    templates: Path, paper: str, layout: str, size: tuple[float, float], per_page: int
) -> None:
    cards = 10
    pdf = reader(build(toy_plan(cards), templates, paper=paper, layout=layout))
    sheets = -(-cards // per_page)
    assert len(pdf.pages) == 2 * sheets
    for page in pdf.pages:
        assert float(page.mediabox.width) == pytest.approx(size[0], abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(size[1], abs=0.01)
    fronts = [len(list(placements(p))) for p in pdf.pages[0::2]]
    backs = [len(list(placements(p))) for p in pdf.pages[1::2]]
    assert fronts == backs and sum(fronts) == cards and fronts[0] == per_page


def test_every_card_name_is_in_the_text(templates: Path) -> None:
    plan = toy_plan(12)
    text = " ".join(" ".join(runs) for runs in texts(build(plan, templates)))
    for card in plan.cards:
        assert card.name in text
        assert f"back of {card.name}" in text
    assert "Faith & <lose> one." in text  # escaped in the SVG, printed as written


@pytest.mark.parametrize("layout", ["butted", "gutter"])
@pytest.mark.parametrize("duplex", [Duplex.LONG, Duplex.SHORT])
def test_back_of_card_k_lands_behind_its_front(templates: Path, duplex: Duplex, layout: str) -> None:
    plan = toy_plan(11)
    data = build(plan, templates, duplex=duplex, layout=layout)
    pdf, runs = reader(data), texts(data)
    width, height = POKER_BLEED_BOX
    for front_page, back_page, front_runs, back_runs in zip(pdf.pages[0::2], pdf.pages[1::2], runs[0::2], runs[1::2]):
        page_w, page_h = float(front_page.mediabox.width), float(front_page.mediabox.height)
        front_names = [t for t in front_runs if t.startswith("Toy Card")]
        back_names = [t.removeprefix("back of ") for t in back_runs if t.startswith("back of")]
        assert front_names == back_names and front_names
        fronts, backs = list(placements(front_page)), list(placements(back_page))
        assert len(fronts) == len(backs) == len(front_names)
        portrait = page_h > page_w
        assert portrait == (layout == "butted")
        mirrors_x = portrait == (duplex == Duplex.LONG)  # the flip axis is vertical on the page
        for (_, fx, fy, f_rot), (_, bx, by, b_rot) in zip(fronts, backs):
            assert f_rot == 0
            # a 180-degree placement is anchored at its top-right corner
            left, bottom = (bx - width, by - height) if b_rot else (bx, by)
            if mirrors_x:  # left and right swap, backs upright
                assert (left, bottom, b_rot) == (pytest.approx(page_w - fx - width, abs=0.01), pytest.approx(fy, abs=0.01), 0)
            else:  # top and bottom swap, backs turned
                assert (left, bottom, b_rot) == (pytest.approx(fx, abs=0.01), pytest.approx(page_h - fy - height, abs=0.01), 180)


def test_offsets_move_every_back(templates: Path) -> None:
    plain = reader(build(toy_plan(3), templates))
    moved = reader(build(toy_plan(3), templates, offset_across_mm=1.5, offset_along_mm=-2.0))
    for (_, x0, y0, _), (_, x1, y1, _) in zip(placements(plain.pages[1]), placements(moved.pages[1])):
        # portrait, long edge: seen through the sheet the back page is mirrored left to right
        assert (x1 - x0, y1 - y0) == (pytest.approx(mm(-1.5), abs=0.01), pytest.approx(mm(-2.0), abs=0.01))
    assert list(placements(plain.pages[0])) == list(placements(moved.pages[0]))  # fronts stay put


def test_no_duplex_prints_fronts_only_and_both_faces_of_two_sided_cards(templates: Path) -> None:
    plan = Plan("toy", "Toy", [toy_card(0), toy_card(1, double_sided=True)])
    data = build(plan, templates, duplex=Duplex.NONE)
    assert len(reader(data).pages) == 1
    text = " ".join(texts(data)[0])
    assert "back of Toy Card 01" in text and "back of Toy Card 00" not in text


def test_oversize_cards_get_pages_of_their_own(templates: Path) -> None:
    board = PrintCard("board", "Big Board", Face("toy/board.svg.j2", {"name": "Big Board"}))
    plan = Plan("toy", "Toy", [toy_card(0), board, toy_card(1)])
    data = build(plan, templates)
    pdf = reader(data)
    assert len(pdf.pages) == 4
    assert [len(list(placements(p))) for p in pdf.pages[0::2]] == [2, 1]
    assert "Big Board" in " ".join(texts(data)[2])


def _font_descriptors(pdf: object) -> dict[str, object]:
    """Every font the page's face forms use, by base name, with its descriptor."""
    found: dict[str, object] = {}
    for page in pdf.pages:  # type: ignore[attr-defined]
        resources = [page["/Resources"]] + [f.get_object()["/Resources"] for f in page["/Resources"]["/XObject"].values()]
        for resource in resources:
            for font in resource.get("/Font", {}).values():
                font = font.get_object()
                if font.get("/Subtype") == "/Type0":
                    font = font["/DescendantFonts"][0].get_object()
                if "/FontDescriptor" in font:
                    found[str(font["/BaseFont"])] = font["/FontDescriptor"].get_object()
    return found


def test_fonts_are_embedded_truetype(templates: Path) -> None:
    descriptors = _font_descriptors(reader(build(toy_plan(2), templates)))
    assert descriptors, "no embedded fonts found"
    for name, descriptor in descriptors.items():
        assert "/FontFile2" in descriptor, f"{name} is not embedded"  # type: ignore[operator]
        assert "Vera" in name


def test_qpdf_check_passes(templates: Path, tmp_path: Path) -> None:
    assert shutil.which("qpdf"), "qpdf is required for this check: `make tools` installs it"
    target = tmp_path / "cards.pdf"
    target.write_bytes(build(toy_plan(9, body=SIXTY_WORDS), templates, calibration=True))
    result = qpdf_check(target)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No syntax or stream encoding errors" in result.stdout


def test_two_builds_are_byte_identical(templates: Path) -> None:
    assert build(toy_plan(5), templates) == build(toy_plan(5), templates)


def test_metadata_names_title_game_and_options(templates: Path) -> None:
    meta = reader(build(toy_plan(1), templates, paper="letter", duplex=Duplex.SHORT)).metadata
    assert meta.title == "Toy Game: cards (US Letter)"
    assert meta.subject == "game: toy"
    assert "paper=letter" in meta["/Keywords"] and "duplex=short" in meta["/Keywords"]


def test_calibration_page_comes_first_with_its_back(templates: Path) -> None:
    data = build(toy_plan(1), templates, calibration=True)
    pdf, pages = reader(data), page_texts(data)
    assert len(pdf.pages) == 4
    assert "Registration page" in pages[0]
    assert "back of the registration page" in pages[1]
    paper = load_sheets().paper("a4")
    assert float(pdf.pages[0].mediabox.width) == pytest.approx(mm(paper.width_mm), abs=0.01)


def _distinct(values: list[float], tolerance: float = 0.05) -> list[float]:
    """The values, sorted, with those closer than ``tolerance`` points counted once."""
    kept: list[float] = []
    for value in sorted(values):
        if not kept or value - kept[-1] > tolerance:
            kept.append(value)
    return kept


def _cut_lines(page: object, bleed_box: tuple[float, float]) -> tuple[list[float], list[float]]:
    """The x and y of every trim edge of the faces placed on a page (a turned face is anchored top-right)."""
    width, height = bleed_box
    bleed = mm(load_sheets().bleed_mm)
    xs: list[float] = []
    ys: list[float] = []
    for _, x, y, turned in placements(page):
        left, bottom = (x - width, y - height) if turned else (x, y)
        xs += [left + bleed, left + width - bleed]
        ys += [bottom + bleed, bottom + height - bleed]
    return _distinct(xs), _distinct(ys)


@pytest.mark.parametrize("layout", ["butted", "gutter"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_on_every_cut_line_read_back(templates: Path, layout: str, paper: str) -> None:
    pdf = reader(build(toy_plan(9), templates, paper=paper, layout=layout))
    for number, page in enumerate(pdf.pages):
        cut_xs, cut_ys = _cut_lines(page, POKER_BLEED_BOX)
        lines = segments(page)
        marked_xs = _distinct([x1 for x1, _, x2, _ in lines if x1 == x2])
        marked_ys = _distinct([y1 for _, y1, _, y2 in lines if y1 == y2])
        assert marked_xs == pytest.approx(cut_xs, abs=0.05) and marked_ys == pytest.approx(cut_ys, abs=0.05)
        if layout == "butted" and number == 0:  # cards sharing cut lines: 3 x 3 on A4 (4 lines each way), 4 x 2 on Letter
            assert (len(cut_xs), len(cut_ys)) == ((4, 4) if paper == "a4" else (5, 3))
        for x1, y1, x2, y2 in lines:  # every mark ends at least 5 mm inside the paper
            assert min(x1, x2, y1, y2) >= mm(5) - 0.05
            assert max(x1, x2) <= float(page.mediabox.width) - mm(5) + 0.05
            assert max(y1, y2) <= float(page.mediabox.height) - mm(5) + 0.05


def test_ink_saver_paints_nothing_outside_the_trim(templates: Path) -> None:
    plain = build(toy_plan(4), templates)
    saver = build(toy_plan(4), templates, ink_saver=True)
    assert saver != plain
    page = reader(saver).pages[1]
    bleed = mm(load_sheets().bleed_mm)
    clips = clip_rects(page)
    assert len(clips) == 4
    for (_, x, y, turned), (cx, cy, cw, ch) in zip(placements(page), clips):
        left, bottom = (x - POKER_BLEED_BOX[0], y - POKER_BLEED_BOX[1]) if turned else (x, y)
        assert (cx, cy, cw, ch) == (
            pytest.approx(left + bleed, abs=0.01), pytest.approx(bottom + bleed, abs=0.01),
            pytest.approx(mm(63), abs=0.01), pytest.approx(mm(88), abs=0.01),
        )
    assert "ink-saver=yes" in reader(saver).metadata["/Keywords"]
    # the templates see the flag as the jinja global ink_saver (the toy back draws an outline for it)
    assert "ink saver" in " ".join(texts(saver)[1]) and "ink saver" not in " ".join(texts(plain)[1])
    assert build(toy_plan(4), templates) == plain  # the kept face records of one never serve the other


def test_ink_saver_is_part_of_the_card_sheets_inputs(tmp_path: Path) -> None:
    from pipeline import store
    from pipeline.app.build import Inputs
    from pipeline.cards.svgtemplates import TEMPLATE_ROOT
    from pipeline.data.dataset import default_data_root

    inputs = Inputs(default_data_root(), store.scope(TEMPLATE_ROOT))
    plain, saver = (inputs.of("cards/theocracy", BuildOptions(ink_saver=flag).as_dict(), ["theocracy"]) for flag in (False, True))
    assert plain != saver


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_cutter_marks_only_the_fronts_the_machine_reads(templates: Path, paper: str) -> None:
    pdf = reader(build(toy_plan(5), templates, paper=paper, layout="cutter"))
    sides = ["front", "back"] * (len(pdf.pages) // 2)
    for side, page in zip(sides, pdf.pages):
        lines = segments(page)
        if side == "front":
            assert len(lines) == 4  # the two corner brackets, two arms each
        else:
            assert lines == []  # backs print plain behind their fronts: nothing for the machine to misread
        assert len(list(placements(page))) in (4, 1)


@pytest.mark.parametrize(("paper", "across"), [("a4", False), ("letter", True)])
def test_fold_pages_hold_four_poker_cards_and_their_fold_line(templates: Path, paper: str, across: bool) -> None:
    pdf = reader(build(toy_plan(8), templates, paper=paper, layout="fold"))
    assert len(pdf.pages) == 2  # 4 fronts and their 4 backs a page
    page = pdf.pages[0]
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    assert width > height  # landscape on both papers
    assert len(list(placements(page))) == 8
    fold = [(x1, y1, x2, y2) for x1, y1, x2, y2 in segments(page)
            if (across and y1 == y2 == pytest.approx(height / 2)) or (not across and x1 == x2 == pytest.approx(width / 2))]
    assert len(fold) == 1
