"""What a build keeps for the next one (art streams, face records) changes no byte and follows every edit
(the store's own contract, and code edits reaching a warm build: tests/core/test_store.py)."""
from __future__ import annotations

import copy
import io
from pathlib import Path
from typing import Any

import pytest
from reportlab.graphics.shapes import Drawing, Rect, String
from reportlab.pdfgen.canvas import Canvas

from pipeline import store
from pipeline.cards import artcache, faces, fonts
from pipeline.cards.build import BuildOptions, Plan, render_pdf
from pipeline.cards.plan import Face, PrintCard

from .pdf_text import page_texts
from .render_helpers import toy_plan, toy_template_root


@pytest.fixture
def templates(tmp_path: Path) -> Path:
    return toy_template_root(tmp_path)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder, and nothing converted in this process's memory either."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(store.CACHE_ENV, str(folder))
    as_new_process()
    return folder


def as_new_process() -> None:
    """Forget what this process converted, as the next `pantheon build` would start."""
    artcache.drop_memory()


def build(plan: Plan, templates: Path) -> bytes:
    return render_pdf(plan, BuildOptions(), template_root=templates)[0]


def test_a_warm_build_writes_the_bytes_of_a_cold_one(templates: Path, cache: Path) -> None:
    cold = build(toy_plan(12), templates)
    assert {folder.name for folder in cache.iterdir() if folder.is_dir()} == {faces.NAMESPACE, artcache.NAMESPACE}
    as_new_process()
    assert build(toy_plan(12), templates) == cold


def test_a_template_edit_reaches_the_next_build(templates: Path, cache: Path) -> None:
    build(toy_plan(2), templates)
    back = templates / "cards" / "toy" / "back.svg.j2"
    back.write_text(back.read_text().replace("back of", "reverse of"))
    assert "reverse of Toy Card 00" in page_texts(build(toy_plan(2), templates))[1]


def test_a_record_of_the_wrong_shape_is_rendered_afresh_and_rewritten(templates: Path, cache: Path) -> None:
    """A record file with a valid digest but a record whose fields have the wrong types (what only a
    forger or a bug could write) costs a render, never an error or a wrong face."""
    first = build(toy_plan(3), templates)
    inputs = ["toy", False]  # the game and the ink-saver option
    stored = store.recall(faces.NAMESPACE, inputs, lambda plain: plain, under=store.scope(templates))
    assert stored is not None
    good = copy.deepcopy(stored)
    key = sorted(stored)[0]
    stored[key][0] = "63"  # the trim width as text
    assert store.keep(faces.NAMESPACE, inputs, stored, under=store.scope(templates))
    as_new_process()
    assert build(toy_plan(3), templates) == first
    assert store.recall(faces.NAMESPACE, inputs, lambda plain: plain, under=store.scope(templates)) == good


def test_a_face_with_values_that_are_not_plain_data_is_not_kept(templates: Path, cache: Path) -> None:
    class Name:  # a value that is not plain data: the face is not recorded
        def __str__(self) -> str:
            return "Odd Card"

    card = PrintCard("odd", "Odd Card", Face("toy/front.svg.j2", {"name": Name(), "body": "Plain."}))
    plan = Plan("toy", "Toy Game", [card])
    first = build(plan, templates)
    assert store.recall(faces.NAMESPACE, ["toy", False], lambda plain: plain, under=store.scope(templates)) is None
    assert build(plan, templates) == first
    assert "Odd Card" in page_texts(first)[0]


def drawn_stream(drawing: Drawing, name: str = "art_x") -> tuple[Canvas, str]:
    canvas = Canvas(io.BytesIO())
    artcache.ArtCache().define_form(canvas, name, name, lambda: drawing, store.scope())
    return canvas, canvas._doc.idToObject[f"FormXob.{name}"].stream


def test_self_contained_art_is_kept_as_its_stream_and_replayed_byte_for_byte(cache: Path) -> None:
    shapes = Drawing(40, 30)
    shapes.add(Rect(2, 2, 30, 20, fillColor=None, strokeWidth=0.7, fillOpacity=0.35))
    _, drawn = drawn_stream(shapes)
    kept = artcache.ArtCache().stored("art_x")
    assert isinstance(kept, artcache.Stream)
    assert kept.states  # the transparency state came back as data, with its types
    canvas = Canvas(io.BytesIO())
    artcache.ArtCache().define_form(canvas, "art_x", "art_x", lambda: pytest.fail("converted again"), store.scope())
    assert canvas._doc.idToObject["FormXob.art_x"].stream == drawn


def test_art_with_text_in_a_font_not_embedded_is_kept_in_memory_only(cache: Path) -> None:
    """A Drawing is a Python object: it never goes to disk, so nothing read from disk becomes one (text in a
    standard font writes a font line of the document's own: such art is not kept on disk)."""
    words = Drawing(40, 30)
    words.add(String(2, 10, "Zeus"))
    drawn_stream(words)
    assert artcache.ArtCache().stored("art_x") is None
    assert not list(cache.rglob("*.json"))


def _lettered() -> Drawing:
    letters = Drawing(40, 30)
    letters.add(Rect(2, 2, 30, 20, fillColor=None, strokeWidth=0.7))
    letters.add(String(4, 10, "Éz", fontName=fonts.font_name(fonts.BOLD), fontSize=9, textAnchor="middle"))
    return letters


def _form_after(words: str, convert: Any) -> bytes:
    """The stream of art ``art_x`` defined on a canvas that first drew ``words`` (so the font's subset already
    holds their characters, and the art's letters get other codes)."""
    canvas = Canvas(io.BytesIO())
    canvas.setFont(fonts.font_name(fonts.BOLD), 9)
    canvas.drawString(10, 10, words)
    artcache.ArtCache().define_form(canvas, "art_x", "art_x", convert, store.scope())
    return canvas._doc.idToObject["FormXob.art_x"].stream


def test_art_with_letters_in_the_family_is_kept_as_text_runs_and_written_for_each_document(cache: Path) -> None:
    """Letters in an embedded font are kept as text runs (font, size, place, characters), not as bytes: the
    canvas encodes them for the document being written, exactly as drawing the art there would."""
    fonts.register()
    _form_after("A", _lettered)
    kept = artcache.ArtCache().stored("art_x")
    assert isinstance(kept, artcache.Stream)
    runs = [line for line in kept.code if isinstance(line, artcache.TextRun)]
    assert [(run.font, run.text) for run in runs] == [(fonts.font_name(fonts.BOLD), "Éz")]
    for before in ("A", "ÜÖÄ"):  # another document, its subset filled in another order
        replayed = _form_after(before, lambda: pytest.fail("converted again"))
        with pytest.MonkeyPatch.context() as patch:  # drawn afresh: as a build with an empty cache would
            patch.setattr(artcache.ArtCache, "stored", lambda self, key, under=None: None)
            drawn = _form_after(before, _lettered)
        assert replayed == drawn
    assert _form_after("ÜÖÄ", lambda: pytest.fail("x")) != _form_after("A", lambda: pytest.fail("x"))


def test_a_text_run_in_a_font_outside_the_family_is_a_miss(cache: Path) -> None:
    fonts.register()
    _form_after("A", _lettered)
    plain = store.recall(artcache.NAMESPACE, ["art_x"], lambda value: value)
    assert plain is not None
    plain["code"] = [{**line, "font": "Helvetica"} if isinstance(line, dict) else line for line in plain["code"]]
    assert store.keep(artcache.NAMESPACE, ["art_x"], plain)
    assert artcache.ArtCache().stored("art_x") is None

