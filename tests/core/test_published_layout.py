"""Documents laid out as a publisher would ship them: a rulebook's cover, columns at a comfortable measure,
a display face, a components spread from the card plan, figures at true size, player aids that explain
every icon the cards print, and a puzzle book with its solutions away from its puzzles."""
from __future__ import annotations

import io
import re
from functools import lru_cache
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth

from pipeline.base.errors import UserError
from pipeline.cards import fonts
from pipeline.cards.units import mm
from pipeline.checks.references import References
from pipeline.checks.validate import RecordCatalogue
from pipeline.data.dataset import default_data_root, game_ids
from pipeline.data.typography import typographic
from pipeline.documents import standard as std
from pipeline.documents import structure as m
from pipeline.documents import typefaces
from pipeline.documents.figures import printed_icons
from pipeline.documents.layout import load_layout
from pipeline.games.monstrous.docs import PICTURE_FAMILIES
from pipeline.documents.markdown import render_markdown
from pipeline.documents.pdf import PdfRenderer
from pipeline.documents.standard import DocContext
from pipeline.games import registry
from tests.core.docs_helpers import documents_of
from tests.core.pdf_text import page_texts

GAMES = tuple(game_ids(default_data_root()))
PAPERS = ("a4", "letter")
MEASURE = (60, 75)  # characters a line of a rulebook column, spaces included


@lru_cache(maxsize=None)
def _context(game: str) -> DocContext:
    catalogue = RecordCatalogue(default_data_root(), registry.catalogue())
    return DocContext(catalogue.game(game), References(catalogue))


@lru_cache(maxsize=None)
def _pdf(game: str, kind: str, paper: str = "a4") -> bytes:
    doc = documents_of(default_data_root(), game, paper)[kind]
    return PdfRenderer(load_layout(paper)).render(doc)[0]


@pytest.mark.parametrize("paper", PAPERS)
def test_a_rulebook_column_holds_60_to_75_characters_of_its_own_text(paper: str) -> None:
    """Measured on the rulebooks' own prose in the body font: the measure a reader's eye is comfortable with."""
    layout = load_layout(paper)
    body = layout.style("body")
    column = mm(layout.column_width(std.RULEBOOK_COLUMNS))
    fonts.register()
    for game in GAMES:
        words = " ".join(b.text for b in documents_of(default_data_root(), game, paper)["rulebook"].blocks if isinstance(b, m.Paragraph))
        text = re.sub(r"[*_\\]", "", words)
        per_char = stringWidth(text, fonts.font_name(fonts.REGULAR), body.size) / len(text)
        assert MEASURE[0] <= column / per_char <= MEASURE[1], (game, paper, round(column / per_char, 1))


@pytest.mark.parametrize("game", GAMES)
def test_every_rulebook_opens_on_a_cover_with_its_box_facts_and_one_page_of_contents(game: str) -> None:
    doc = documents_of(default_data_root(), game)["rulebook"]
    assert doc.cover is not None and doc.columns == std.RULEBOOK_COLUMNS
    pages = page_texts(_pdf(game, "rulebook"))
    assert typographic(doc.game_title) in pages[0].replace("\n", " ")
    for fact in doc.cover.facts:
        assert fact in pages[0], fact
    assert "Contents" in pages[1] and "Contents" not in pages[2]  # one page of contents at most


def test_the_cover_prints_the_box_facts_rules_yaml_states() -> None:
    doc = documents_of(default_data_root(), "monstrous")["rulebook"]
    assert doc.cover is not None
    assert doc.cover.facts == ("2-5 players (4-10 in teams)", "15-45 minutes", "ages 10+")


@pytest.mark.parametrize("game", GAMES)
def test_headings_are_set_in_the_display_face_and_every_font_is_embedded(game: str) -> None:
    reader = PdfReader(io.BytesIO(_pdf(game, "rulebook")))
    names: set[str] = set()
    for page in reader.pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            font = font.get_object()
            names.add(str(font["/BaseFont"]))
            descriptor = font.get("/FontDescriptor")
            if descriptor is not None:
                assert "/FontFile2" in descriptor.get_object(), font["/BaseFont"]
    assert any("DejaVuSerifCondensed-Bold" in n for n in names), names
    assert (Path(typefaces.DISPLAY_FILE).parent / "LICENSE-DejaVu.txt").is_file()


@pytest.mark.parametrize("game", GAMES)
def test_the_components_spread_counts_every_card_the_sheets_print(game: str) -> None:
    ctx = _context(game)
    spread = next(b for b in documents_of(default_data_root(), game)["rulebook"].blocks if isinstance(b, m.CardSpread))
    assert ctx.game.spec.cards is not None
    cards = list(ctx.game.spec.cards(ctx.game))
    assert sum(e.count for e in spread.entries) == sum(c.copies for c in cards)
    assert {e.front.template for e in spread.entries} == {c.front.template for c in cards}


def test_a_figure_too_wide_for_a_column_floats_across_the_columns_at_true_size() -> None:
    """The Monstrous God Board (wider than a column) is drawn at its true size, across both columns."""
    text = " ".join(page_texts(_pdf("monstrous", "rulebook")))
    assert "A God Board" in text  # its caption: the figure is printed, not refused or shrunk away


def test_a_diagram_wider_than_the_page_is_refused_naming_it() -> None:
    wide = m.Diagram(400, 20, (m.Rect(0, 0, 400, 20),), ("a wide thing",), caption="Too wide")
    doc = m.Document("Toy: Rulebook", "Toy", "rulebook", (m.Paragraph("Text."), wide), columns=2)
    with pytest.raises(UserError, match="Too wide.*does not fit"):
        PdfRenderer(load_layout("a4")).render(doc)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("paper", PAPERS)
def test_every_player_aid_is_one_page_with_numbered_turn_steps_and_every_printed_icon(game: str, paper: str) -> None:
    doc = documents_of(default_data_root(), game, paper)["reference"]
    assert len(PdfReader(io.BytesIO(_pdf(game, "reference", paper))).pages) == 1
    assert any(isinstance(b, m.ListBlock) and b.numbered for b in doc.blocks) or any(
        isinstance(b, m.Table) and b.header[0] == "#" for b in doc.blocks), "no numbered turn steps"
    shown = {e.icon for b in doc.blocks if isinstance(b, m.Legend) for e in b.entries}
    # Monstrous explains its per-card pictures (a silhouette per Monster, an icon per Location) one family a line
    families = [prefix for prefix, _, _ in PICTURE_FAMILIES] if game == "monstrous" else []
    unexplained = {icon for icon in printed_icons(_context(game)) if icon not in shown
                   and not any(icon.startswith(f) and any(s and s.startswith(f) for s in shown) for f in families)}
    assert not unexplained


def test_an_aid_refuses_an_icon_the_cards_print_without_a_meaning() -> None:
    ctx = _context("theocracy")
    with pytest.raises(UserError, match="print the icon"):
        std.printed_icon_legend(ctx, {}, ("sun",))


def test_an_aid_never_explains_an_icon_no_card_prints() -> None:
    """Monstrous' keyword icons are on no card, so its aid lists the keywords as words only."""
    doc = documents_of(default_data_root(), "monstrous")["reference"]
    icons = {e.icon for b in doc.blocks if isinstance(b, m.Legend) for e in b.entries}
    assert not any(i and i.startswith("keyword-") for i in icons)


def test_an_aid_line_missing_from_rules_is_one_error_naming_the_section() -> None:
    with pytest.raises(UserError, match="rules section 'overview' has no aid line"):
        std.aid_line(_context("monotheism"), "overview")


def test_the_puzzle_book_keeps_every_solution_after_every_puzzle_in_the_rulebooks_words() -> None:
    doc = documents_of(default_data_root(), "monotheism")["puzzles"]
    text = render_markdown(doc)
    solutions = text.index("# Solutions")
    for number in range(1, 6):
        assert text.index(f"# Puzzle {number}:") < solutions  # every puzzle before the solutions
        assert text.index(f"### Puzzle {number}:", solutions) > solutions
    tail = text[solutions:]
    assert "1. Unveil #11." in tail and "Submerge" in tail
    for engine_word in ("pick ", "place ", "decline", "submerge 2,"):
        assert engine_word not in tail, engine_word
    pages = page_texts(_pdf("monotheism", "puzzles"))
    first_solution_page = next(n for n, p in enumerate(pages) if "Solutions" in p and "Unveil" in p)
    assert all("Unveil #" not in p for p in pages[:first_solution_page])  # no solution shares a page with a puzzle


def test_a_puzzle_shows_its_difficulty_as_stars_and_its_deck_as_cards() -> None:
    doc = documents_of(default_data_root(), "monotheism")["puzzles"]
    groups = [b for b in doc.blocks if isinstance(b, m.Group)]
    hard = next(g for g in groups if any(isinstance(x, m.Diagram) and "hard" in " ".join(x.alt) for x in g.blocks))
    assert any(isinstance(x, m.Diagram) and "3 of 3 stars" in " ".join(x.alt) for x in hard.blocks)


def test_a_rulebook_figure_with_a_label_under_7_pt_is_refused_naming_it() -> None:
    small = m.Diagram(40, 10, (m.Label(5, 5, "tiny words", size=6.0),), ("a small label",), caption="Small print")
    doc = m.Document("Toy: Rulebook", "Toy", "rulebook", (m.Paragraph("Text."), small), columns=2)
    with pytest.raises(UserError, match="Small print.*'tiny words' under the figures' 7 pt minimum"):
        PdfRenderer(load_layout("a4")).render(doc)
