"""What a build keeps for the next one (art streams, face records) changes no byte and follows every edit
(the store's own contract, and code edits reaching a warm build: tests/core/test_store.py)."""
from __future__ import annotations

import copy
import io
import shutil
from pathlib import Path
from typing import Any

import pytest
from reportlab.graphics.shapes import Drawing, Rect, String
from reportlab.pdfgen.canvas import Canvas

from pipeline import store
from pipeline.cards import artcache, artmap, artstream, faces, fonts
from pipeline.cards.build import BuildOptions, Plan, render_pdf
from pipeline.cards.plan import Face, PrintCard

from .pdf_text import page_texts
from .render_helpers import toy_plan, toy_template_root


@pytest.fixture
def templates(tmp_path: Path) -> Path:
    return toy_template_root(tmp_path)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder (each build below makes its own art cache: only the store carries art over)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(store.CACHE_ENV, str(folder))
    return folder


def build(plan: Plan, templates: Path) -> bytes:
    return render_pdf(plan, BuildOptions(), template_root=templates)[0]


def test_a_warm_build_writes_the_bytes_of_a_cold_one(templates: Path, cache: Path) -> None:
    cold = build(toy_plan(12), templates)
    assert {folder.name for folder in cache.iterdir() if folder.is_dir()} == {faces.NAMESPACE, artcache.NAMESPACE}
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
    shapes.add(Rect(2, 2, 30, 20, fillColor=None, strokeWidth=0.7, strokeDashArray=[2, 1]))
    _, drawn = drawn_stream(shapes)
    kept = artcache.ArtCache().stored("art_x", store.scope())
    assert isinstance(kept, artcache.Stream)
    canvas = Canvas(io.BytesIO())
    artcache.ArtCache().define_form(canvas, "art_x", "art_x", lambda: pytest.fail("converted again"), store.scope())
    assert canvas._doc.idToObject["FormXob.art_x"].stream == drawn


def _see_through() -> Drawing:
    shapes = Drawing(40, 30)
    shapes.add(Rect(2, 2, 30, 20, fillColor=None, strokeWidth=0.7, fillOpacity=0.35))  # a transparency state
    return shapes


def _lettered() -> Drawing:
    letters = Drawing(40, 30)
    letters.add(Rect(2, 2, 30, 20, fillColor=None, strokeWidth=0.7))
    letters.add(String(4, 10, "Éz", fontName=fonts.font_name(fonts.BOLD), fontSize=9, textAnchor="middle"))
    return letters


def _standard_font() -> Drawing:
    words = Drawing(40, 30)
    words.add(String(2, 10, "Zeus"))
    return words


@pytest.mark.parametrize("art", [_see_through, _lettered, _standard_font])
def test_art_naming_a_resource_of_its_document_is_kept_in_memory_only(cache: Path, art: Any) -> None:
    """A stream naming a font, a transparency state or another object of its document means something only
    there; a Drawing is a Python object: it never goes to disk, so nothing read from disk becomes one."""
    fonts.register()
    drawn_stream(art())
    assert artcache.ArtCache().stored("art_x", store.scope()) is None
    assert not list(cache.rglob("*.json"))


def _form_after(words: str, convert: Any, art: artcache.ArtCache) -> bytes:
    """The stream of art ``art_x`` defined on a canvas that first drew ``words`` (so the font's subset already
    holds their characters, and the art's letters get other codes)."""
    canvas = Canvas(io.BytesIO())
    canvas.setFont(fonts.font_name(fonts.BOLD), 9)
    canvas.drawString(10, 10, words)
    art.define_form(canvas, "art_x", "art_x", convert, store.scope())
    return canvas._doc.idToObject["FormXob.art_x"].stream


def test_art_with_letters_is_drawn_for_each_document_as_drawing_it_alone_would(cache: Path) -> None:
    """Letters in an embedded font are encoded by the document being written (its font subset): the art a
    process converted once is drawn in each document, exactly as a build with nothing converted draws it."""
    fonts.register()
    art = artcache.ArtCache()
    _form_after("A", _lettered, art)
    for before in ("A", "ÜÖÄ"):  # another document, its subset filled in another order
        again = _form_after(before, lambda: pytest.fail("converted again"), art)
        assert again == _form_after(before, _lettered, artcache.ArtCache())
    assert _form_after("ÜÖÄ", _lettered, artcache.ArtCache()) != _form_after("A", _lettered, artcache.ArtCache())


def test_a_stored_stream_naming_a_document_resource_is_a_miss(cache: Path) -> None:
    shapes = Drawing(40, 30)
    shapes.add(Rect(2, 2, 30, 20))
    drawn_stream(shapes)
    plain = store.recall(artcache.NAMESPACE, ["art_x"], lambda value: value, under=store.scope())
    assert plain is not None
    plain["content"] += "\n/FormXob.other Do"
    assert store.keep(artcache.NAMESPACE, ["art_x"], plain, under=store.scope())
    assert artcache.ArtCache().stored("art_x", store.scope()) is None


def test_no_art_outlives_the_build_that_converted_it(templates: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Art is kept in the store and in one command's memory, never in the process: a build after the store
    is emptied writes (or converts) its art again, as a new process would."""
    made: list[str] = []
    write, convert = artstream.written, artmap.convert
    monkeypatch.setattr(artstream, "written", lambda root, *parsed: made.append("written") or write(root, *parsed))
    monkeypatch.setattr(artmap, "convert", lambda root, where: made.append(where) or convert(root, where))
    first = build(toy_plan(2), templates)
    assert made
    shutil.rmtree(cache)
    made.clear()
    assert build(toy_plan(2), templates) == first
    assert made
