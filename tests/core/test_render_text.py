"""Text boxes: shrink to fit, fail below the minimum naming the card, refuse missing glyphs, escape markup."""
from __future__ import annotations

import pytest
from reportlab.pdfgen.canvas import Canvas

from pipeline.core.errors import UserError
from pipeline.core.render import fonts, text
from pipeline.core.render.svgtemplates import rich


class NoIcons:
    def aspect(self, name: str, where: str) -> float:
        return 1.0

    def draw(self, canvas: Canvas, name: str, x: float, y: float, height: float) -> None:  # pragma: no cover
        raise AssertionError


def atoms(words: str) -> list[text.Atom]:
    return [text.Atom(w, space=i > 0) for i, w in enumerate(words.split())]


def box(size: float = 10, min_size: float = 6, width: float = 100, height: float = 40) -> text.Box:
    return text.Box(0, 0, width, height, size, min_size)


def setup_module() -> None:
    fonts.register()


def test_short_text_keeps_its_size() -> None:
    assert text.fit(atoms("Consume the god beneath."), box(width=200), NoIcons(), "card x").size == 10


def test_long_text_shrinks_but_stays_above_the_minimum() -> None:
    layout = text.fit(atoms("word " * 30), box(), NoIcons(), "card x")
    assert 6 <= layout.size < 10
    assert len(layout.lines) * layout.size * text.LEADING <= 40 + 1e-6


def test_text_that_cannot_fit_names_the_card() -> None:
    with pytest.raises(UserError, match=r"monotheism: card 07 .*does not fit .*minimum size 6 pt"):
        text.fit(atoms("word " * 300), box(), NoIcons(), "monotheism: card 07 'Atlas' (front)")


def test_a_missing_glyph_names_the_card_and_the_character() -> None:
    with pytest.raises(UserError, match=r"card 07: character '\u4e2d' \(U\+4E2D\) not in the Vera font"):
        text.fit(atoms("Zeus \u4e2d"), box(), NoIcons(), "card 07")


def test_the_font_has_what_card_text_uses() -> None:
    assert fonts.missing_glyphs("Æsir — “quoted” ‘x’ … café ½ × · ©") == []


def test_rich_escapes_and_marks_up() -> None:
    out = str(rich("Salt & <Ash> :aspect-sun: **bold** _it_\nnext"))
    assert out == 'Salt &amp; &lt;Ash&gt; <pp:icon name="aspect-sun"/> <pp:b>bold</pp:b> <pp:i>it</pp:i><pp:br/>next'
