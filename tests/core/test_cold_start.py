"""A first run does each piece of work once (issue #30): validate measures the documents it does not keep on a
measuring canvas with the same refusals, the build writes the PDFs validation set, the player aids read the icons
the cards print from the card check's face records, the card build draws art the check converted, and a slow
run says how far it is."""
from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.graphics.shapes import Drawing, Rect
from reportlab.pdfgen.canvas import Canvas

from pipeline import store
from pipeline.base.errors import UserError
from pipeline.cards import artcache
from pipeline.cards.cardcheck import card_problems
from pipeline.cards.cardlayout import LaidOutCards
from pipeline.cards.faces import FaceRecords, content_key
from pipeline.checks.references import References
from pipeline.checks.validate import RecordCatalogue, validate
from pipeline.data.dataset import default_data_root
from pipeline.documents import layout
from pipeline.documents import structure as m
from pipeline.documents.docscheck import CheckedFaces, LaidOut, document_problems
from pipeline.documents.facedraw import card_templates
from pipeline.documents.figures import printed_icons
from pipeline.documents.layout import load_layout
from pipeline.documents.parsedtexts import ParsedTexts
from pipeline.documents.pdf import PdfRenderer
from pipeline.documents.standard import DocContext
from pipeline.games.registry import catalogue
from tests.core.docs_helpers import documents_of

GAME = "theocracy"  # the quickest game to lay out whole


def _reference(paper: str = "a4") -> m.Document:
    return documents_of(default_data_root(), GAME, paper)["reference"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_measured_layout_lands_where_a_printed_one_does(paper: str) -> None:
    doc = _reference(paper)
    renderer = PdfRenderer(load_layout(paper))
    printed, printed_toc = renderer.render(doc)
    measured, measured_toc = renderer.render(doc, paint=False)
    assert printed.startswith(b"%PDF") and measured == b""
    assert measured_toc == printed_toc


def test_a_measured_layout_refuses_what_a_printed_one_refuses() -> None:
    doc = _reference()
    over = doc._replace(blocks=doc.blocks + tuple(m.Paragraph(f"Line {n} of a sheet that runs on. " * 12) for n in range(40)))
    refusals = []
    for paint in (True, False):
        with pytest.raises(UserError) as refused:
            PdfRenderer(load_layout("a4")).render(over, paint=paint)
        refusals.append(str(refused.value))
    assert refusals[0] == refusals[1] and "page" in refusals[0]


def test_the_build_is_handed_the_very_pdfs_it_would_set() -> None:
    catalogue_ = RecordCatalogue(default_data_root(), catalogue())
    kept = LaidOut("a4")
    loaded = catalogue_.game(GAME)
    assert list(card_problems(loaded)) == []
    assert list(document_problems(loaded, catalogue_, keep=kept)) == []
    for kind, doc in documents_of(default_data_root(), GAME, "a4").items():
        assert kept.pdf(GAME, kind, "a4", doc) == PdfRenderer(load_layout("a4")).render(doc)[0], kind
        assert kept.pdf(GAME, kind, "letter", doc) is None  # only the build's paper is set in full
    other = _reference()._replace(title="Another title")
    assert kept.pdf(GAME, "reference", "a4", other) is None  # a document that differs is set afresh


def test_the_icons_the_cards_print_are_the_same_from_records_as_from_rendering(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "empty-cache"))  # a first run: no face record kept
    catalogue_ = RecordCatalogue(default_data_root(), catalogue())
    loaded = catalogue_.game(GAME)
    ctx = DocContext(loaded, References(catalogue_))
    first = loaded.spec.cards(loaded)[0].front
    records = lambda: FaceRecords(card_templates(), GAME)  # noqa: E731  (read afresh from the store each time)
    assert records().get(content_key(first)) is None
    rendered = printed_icons(ctx)  # no face record kept yet: every face rendered
    assert rendered
    assert list(card_problems(loaded)) == []  # keeps the face records
    assert records().get(content_key(first)) is not None
    assert printed_icons(ctx) == rendered


def test_art_the_card_check_converted_is_drawn_without_converting_again() -> None:
    art = artcache.ArtCache()
    drawing = Drawing(10, 10)
    drawing.add(Rect(0, 0, 10, 10))
    art.converted("some-art", lambda: drawing)
    scope = store.scope()
    assert art.has("some-art", scope)

    def never() -> Drawing:
        raise AssertionError("converted twice")

    assert art.define_form(Canvas(str(Path("unused.pdf"))), "form_art", "some-art", never, scope) == (10, 10)


def test_validate_says_which_game_and_stage_it_is_at() -> None:
    heard: list[str] = []
    report = validate(default_data_root(), catalogue(), [GAME], documents=document_problems, progress=heard.append)
    assert report.ok
    assert heard == [f"{GAME} (1/1): data, rules and card faces", f"{GAME} (1/1): documents"]


def test_texts_parsed_once_set_every_paper_as_texts_parsed_afresh() -> None:
    shared = ParsedTexts()
    for paper in ("a4", "letter", "a4"):  # the second a4 reads every text the first two parsed
        doc = _reference(paper)
        fresh = PdfRenderer(load_layout(paper)).render(doc)
        assert PdfRenderer(load_layout(paper), shared).render(doc) == fresh, paper
        assert PdfRenderer(load_layout(paper), shared).render(doc, paint=False)[1] == fresh[1], paper


def test_texts_are_shared_only_by_renderers_of_one_layout(tmp_path: Path) -> None:
    source = layout.LAYOUT_FILE.read_text(encoding="utf-8")
    other = tmp_path / "layout.yaml"
    assert source.count("  size_pt: 8\n") == 2
    other.write_text(source.replace("  size_pt: 8\n", "  size_pt: 9\n", 1), encoding="utf-8")  # another header size
    shared = ParsedTexts()
    PdfRenderer(load_layout("a4"), shared)
    PdfRenderer(load_layout("letter"), shared)  # the same layout file on another paper
    with pytest.raises(ValueError, match="one layout"):
        PdfRenderer(load_layout("a4", other), shared)


def test_the_documents_read_the_faces_the_card_check_of_the_same_command_laid_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    catalogue_ = RecordCatalogue(default_data_root(), catalogue())
    loaded = catalogue_.game(GAME)
    cards = LaidOutCards(store.scope())
    assert card_problems(loaded, keep=cards) == []
    laid_out = cards.of(GAME, card_templates().root)
    assert laid_out is not None
    faces = [face for card in loaded.spec.cards(loaded) for face in (card.front, card.back) if face is not None]
    kept = FaceRecords(card_templates(), GAME)
    monkeypatch.setenv(store.CACHE_ENV, str(tmp_path / "empty-cache"))  # nothing kept from here on
    checked, nothing_kept = CheckedFaces(laid_out, GAME, laid_out.templates), CheckedFaces(None, GAME, card_templates())
    for face in faces:
        key = content_key(face)
        assert key is not None
        assert checked.get(key) == kept.get(key) is not None
        assert nothing_kept.get(key) is None
    ctx = DocContext(loaded, References(catalogue_), checked)
    assert printed_icons(ctx) == printed_icons(DocContext(loaded, References(catalogue_), kept))
