"""The fill check: a page left more than a third empty is refused, unless it is a chapter's last (or the cover or
the last page), measured as the layout places its content (painted or only measured alike); every shipped
rulebook passes on A4 and Letter."""
from __future__ import annotations

import pytest

from pipeline.base.errors import UserError
from pipeline.data.dataset import default_data_root
from pipeline.documents import structure as m
from pipeline.documents.fill import MAX_EMPTY_SHARE, empty_shares
from pipeline.documents.layout import load_layout
from pipeline.documents.pdf import PdfRenderer
from pipeline.documents.render import render, render_for_print
from tests.core.docs_helpers import documents_of

TEXT = "A line of rules text that fills its share of the page. " * 6


def _paragraphs(count: int) -> list[m.Block]:
    return [m.Paragraph(TEXT) for _ in range(count)]


def _doc(*blocks: m.Block, columns: int = 1) -> m.Document:
    return m.Document("Toy: Rulebook", "Toy", "rulebook", blocks, columns=columns)


@pytest.mark.parametrize("columns", [1, 2])
def test_a_full_page_is_nearly_empty_free_and_a_short_one_is_measured_empty(columns: int) -> None:
    pdf, _, area = PdfRenderer(load_layout("a4")).render_laid_out(_doc(*_paragraphs(60), columns=columns))
    shares = empty_shares(area)
    assert len(shares) >= 2 and all(share < 0.1 for share in shares[:-1])  # text runs on: each page used to its foot
    pdf, _, area = PdfRenderer(load_layout("a4")).render_laid_out(_doc(m.Heading("Rules", 1), *_paragraphs(2)))
    assert empty_shares(area)[0] > 0.6


def test_a_part_empty_page_in_mid_chapter_is_refused_naming_page_and_share() -> None:
    doc = _doc(m.Heading("Rules", 1), *_paragraphs(2), m.PageBreak(), m.Heading("More rules", 2), *_paragraphs(30))
    render(doc, "a4", "pdf")  # laid out as ever: only what the build publishes is held to the fill rule
    with pytest.raises(UserError, match=r"Toy: Rulebook \(letter\): page 1 is \d+% empty: at most 33% of a page"):
        render_for_print(doc, "letter", "pdf")


def test_a_chapters_last_page_may_be_part_empty() -> None:
    doc = _doc(m.Heading("Rules", 1), *_paragraphs(2), m.PageBreak(), m.Heading("Variants", 1), *_paragraphs(30))
    pdf, _, area = PdfRenderer(load_layout("a4")).render_laid_out(doc)
    assert empty_shares(area)[0] > MAX_EMPTY_SHARE and 1 in area.exempt
    assert render_for_print(doc, "a4", "pdf") == pdf


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", ["monotheism", "monstrous"])
def test_shipped_rulebooks_leave_no_page_over_a_third_empty(game: str, paper: str) -> None:
    doc = documents_of(default_data_root(), game, paper)["rulebook"]
    pdf, _, area = PdfRenderer(load_layout(paper)).render_laid_out(doc)
    over = [n for n, share in enumerate(empty_shares(area), start=1) if share > MAX_EMPTY_SHARE and n not in area.exempt]
    assert over == []
