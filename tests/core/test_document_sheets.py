"""Sheets for the table: each reference and cheat sheet is one page on A4 and Letter, the page check
refuses an overflowing sheet or an orphan page, and the text holds no generated artefacts and no count
that does not add up."""
from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader

from pipeline.base.errors import UserError
from pipeline.checks.validate import RecordCatalogue
from pipeline.data.dataset import default_data_root, game_ids
from pipeline.documents import structure as m
from pipeline.documents.layout import load_layout
from pipeline.documents.markdown import render_markdown
from pipeline.documents.pagecheck import ORPHAN_TEXT_PT, PageContent, check_pages
from pipeline.documents.pdf import PdfRenderer
from pipeline.games.registry import catalogue
from tests.core.docs_helpers import documents_of

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SHEET_KINDS = ("reference", "cheatsheet")
PAPERS = ("a4", "letter")
GAMES = tuple(game_ids(default_data_root()))


@lru_cache(maxsize=None)
def _docs(game: str, paper: str) -> dict[str, m.Document]:
    return documents_of(default_data_root(), game, paper)


@lru_cache(maxsize=None)
def _markdown(game: str) -> dict[str, str]:
    return {kind: render_markdown(doc) for kind, doc in _docs(game, "a4").items()}


def _yaml(game: str, kind: str) -> dict:  # type: ignore[type-arg]
    return yaml.safe_load((default_data_root() / game / f"{kind}.yaml").read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- one page each


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GAMES)
def test_every_reference_and_cheat_sheet_is_one_page(game: str, paper: str) -> None:
    sheets = {kind: doc for kind, doc in _docs(game, paper).items() if kind in SHEET_KINDS}
    assert "reference" in sheets
    renderer = PdfRenderer(load_layout(paper))
    for kind, doc in sheets.items():
        assert doc.page_budget == 1, kind
        pdf, _ = renderer.render(doc)
        assert len(PdfReader(io.BytesIO(pdf)).pages) == 1, (game, kind, paper)


def test_monotheism_has_one_player_aid_with_turn_steps_timing_and_symbols() -> None:
    docs = _markdown("monotheism")
    assert "cheatsheet" not in docs  # the reference and the cheat sheet are one aid
    text = docs["reference"]
    for words in ("1. **Step 1: unveil.**", "3. **Step 3: submerge.**", "Timing", "On the cards"):
        assert words in text
    from pipeline.games.monotheism.docs import SET_UP_SYMBOLS

    for symbol in _yaml("monotheism", "glossary")["symbols"]:  # every symbol met in play; set-up ones are the rulebook's
        assert (symbol["name"] in text) == (symbol["id"] not in SET_UP_SYMBOLS), symbol["id"]


# --------------------------------------------------------------------------- the page check


def _paragraphs(count: int) -> list[m.Block]:
    return [m.Paragraph("A line of rules text that fills its share of the page. " * 6) for _ in range(count)]


def test_a_sheet_over_its_budget_is_refused_naming_document_paper_and_pages() -> None:
    doc = m.Document("Toy: Reference", "Toy", "reference", tuple(_paragraphs(40)), page_budget=1)
    with pytest.raises(UserError, match=r"Toy: Reference: runs to \d+ pages on letter, its budget is 1"):
        PdfRenderer(load_layout("letter")).render(doc)


def test_a_last_page_holding_only_a_heading_is_refused() -> None:
    renderer = PdfRenderer(load_layout("a4"))
    base = tuple(_paragraphs(40))
    pages = len(PdfReader(io.BytesIO(renderer.render(m.Document("Toy: Rulebook", "Toy", "rulebook", base))[0])).pages)
    orphan = base + (m.PageBreak(), m.Heading("Afterword"))
    with pytest.raises(UserError, match=rf"page {pages + 1} of {pages + 1} on a4 holds only a title or heading"):
        renderer.render(m.Document("Toy: Rulebook", "Toy", "rulebook", orphan))


def test_a_page_holding_one_table_row_is_refused_and_two_rows_pass() -> None:
    renderer = PdfRenderer(load_layout("a4"))
    for rows, refused in ((1, True), (2, False)):
        table = m.Table(("Card", "Result"), tuple((str(i), "wins") for i in range(rows)), caption="A caption.")
        doc = m.Document("Toy: Reference", "Toy", "reference", (*_paragraphs(2), m.PageBreak(), table))
        if refused:
            with pytest.raises(UserError, match="page 2 of 2 on a4 holds only a single table row"):
                renderer.render(doc)
        else:
            renderer.render(doc)


@pytest.mark.parametrize(("page", "why"), [
    (PageContent(), "nothing"),
    (PageContent(headings=2), "only a title or heading"),
    (PageContent(headings=1, text_pt=ORPHAN_TEXT_PT), "only a heading and a line or two of text"),
    (PageContent(table_rows=1, text_pt=10), "only a single table row"),
    (PageContent(headings=1, text_pt=ORPHAN_TEXT_PT + 1), None),
    (PageContent(table_rows=2), None),
    (PageContent(headings=1, drawings=1), None),
])
def test_what_makes_an_orphan_page(page: PageContent, why: str | None) -> None:
    assert page.orphan() == why


def test_check_pages_lists_every_fault_in_one_message() -> None:
    pages = [PageContent(text_pt=500), PageContent(headings=1)]
    with pytest.raises(UserError) as err:
        check_pages("Toy: Cheat sheet", "a4", pages, 1)
    assert str(err.value) == ("Toy: Cheat sheet: runs to 2 pages on a4, its budget is 1 (a sheet must fit one sheet); "
                              "page 2 of 2 on a4 holds only a title or heading")


def test_cli_refuses_an_overflowing_sheet_at_its_data_line_and_writes_nothing(tmp_path: Path) -> None:
    """Validation lays the sheet out as the build does: the overflow is a problem naming the data file and line
    of the sheet's words (one line per paper), and nothing is written."""
    data = tmp_path / "data"
    shutil.copytree(FIXTURES / "docs-data", data)
    phases = data / "theocracy" / "phases.yaml"
    doc = yaml.safe_load(phases.read_text(encoding="utf-8"))
    for phase in doc["phases"]:
        phase["summary"] = " ".join([phase["summary"]] * 12)
    phases.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), encoding="utf-8")
    out = tmp_path / "out"
    result = subprocess.run([sys.executable, "-m", "pipeline", "docs", "theocracy", "--data", str(data), "--out", str(out)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 1
    lines = result.stdout.strip().splitlines()
    assert lines and all(re.match(rf"{re.escape(str(phases))}:\d+:\d+: Theocracy: Player aid: runs to", line) for line in lines), \
        result.stdout + result.stderr
    assert all("its budget is 1" in line for line in lines)
    assert result.stderr.strip().endswith("problems found: no documents written")  # plural agreement
    assert not out.exists() or not any(out.rglob("*.pdf"))


# --------------------------------------------------------------------------- text that is right


SELF_NAMED = re.compile(r"\b(\w[\w -]*?)s? \((\1)\)", re.IGNORECASE)


@pytest.mark.parametrize("game", GAMES)
def test_no_generated_artefacts(game: str) -> None:
    for kind, text in _markdown(game).items():
        assert not SELF_NAMED.search(text), (kind, SELF_NAMED.search(text))
        assert "resolved by the rules engine" not in text, kind
        for line in text.splitlines():  # a glossary row never sends the reader to itself
            row = re.match(r"\| \*\*(.+?)\*\* \| (.*) \|$", line)
            if row:
                assert f"See {row[1]}." not in row[2], (kind, row[1])


def test_the_self_named_pattern_catches_the_artefacts_it_is_for() -> None:
    assert SELF_NAMED.search("60 soul cubes (Soul cube), one for each soul")
    assert SELF_NAMED.search("1 single-player die (Single-player die).")
    assert not SELF_NAMED.search("6 spiritual guides, one per colour (The Herald of Dawn, The Oracle).")


COUNT_SENTENCE = re.compile(r"a deck of (\d+) cards: (.+?)\.(?:\s|$)")


def test_totems_deck_sentence_adds_up_and_matches_the_cards() -> None:
    text = _markdown("totems-and-taboos")["rulebook"]
    sentences = COUNT_SENTENCE.findall(text)
    assert sentences
    model = RecordCatalogue(default_data_root(), catalogue()).game("totems-and-taboos").model
    per_colour = {colour: sum(c.copies for c in model.cards if c.colour == colour) for colour in model.wheel.order}
    for total, parts in sentences:
        counted = [int(n) for n in re.findall(r"(?:^|, | and )(\d+) (?:commandments?|miracles?)", parts)]
        assert sum(counted) == int(total), (total, parts)
        assert int(total) in per_colour.values()


def test_totems_deck_sentence_design_counts_match_copies() -> None:
    text = _markdown("totems-and-taboos")["rulebook"]
    for count, designs, copies in re.findall(r"(\d+) commandments? at level \w+ \((\d+) designs?, (\d+) cop(?:y|ies) each\)", text):
        assert int(count) == int(designs) * int(copies)


def test_theocracy_names_houses_as_the_cards_do_in_every_document() -> None:
    players = _yaml("theocracy", "players")["players"]
    for kind, text in _markdown("theocracy").items():
        for player in players:
            assert not re.search(rf"\b{player['name']}\b", text), (kind, player["name"])
    assert all(p["lineage"] in _markdown("theocracy")["extras"] for p in players)


def test_monotheism_documents_name_only_boxes_the_card_template_draws() -> None:
    template = (Path(__file__).resolve().parents[2] / "templates" / "cards" / "monotheism" / "_layout.svg.j2").read_text(encoding="utf-8")
    kinds = set(re.findall(r'"(\w+)": \("#', template.split("{% set BOX = ", 1)[1].split("%}", 1)[0]))
    assert kinds == {"act", "essence", "note", "result", "otherwise"}
    text = " ".join(_markdown("monotheism").values())
    for absent in ("blue act box", "Blue act box", "bottom box"):
        assert absent not in text
    symbols = {s["id"] for s in _yaml("monotheism", "glossary")["symbols"]}
    assert {f"{kind}-box" for kind in kinds} <= symbols
    assert not {s for s in symbols if s.endswith("-box")} - {f"{kind}-box" for kind in kinds}
