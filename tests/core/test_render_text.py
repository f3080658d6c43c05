"""Text boxes: shrink to fit, fail below the minimum naming the card, refuse missing glyphs, read markup."""
from __future__ import annotations

import pytest
from lxml import etree
from reportlab.pdfgen.canvas import Canvas

from pipeline.base.errors import UserError
from pipeline.cards import fonts, text
from pipeline.cards.faces import _atoms
from pipeline.cards.svgtemplates import PP_NS


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


def slot_atoms(xml_text: str) -> list[tuple[str, str, object, bool, bool]]:
    node = etree.fromstring(f'<pp:text xmlns:pp="{PP_NS}">{xml_text}</pp:text>')
    return [(a.text, a.style, a.icon, a.space, a.newline) for a in _atoms(node, fonts.REGULAR, "card x")]


def test_slot_text_is_read_as_markup() -> None:
    """What a template prints (autoescaped) is data text: bold, italic, icons and line breaks are markup."""
    R, B, I = fonts.REGULAR, fonts.BOLD, fonts.ITALIC
    assert slot_atoms("Salt &amp; &lt;Ash&gt; :aspect-sun: **bold** _it_\nnext") == [
        ("Salt", R, None, False, False), ("&", R, None, True, False), ("<Ash>", R, None, True, False),
        ("", R, "aspect-sun", True, False), ("bold", B, None, True, False), ("it", I, None, True, False),
        ("next", R, None, False, True),
    ]


def test_slot_markup_nests_in_template_emphasis() -> None:
    assert slot_atoms("<pp:b>Cost _x_</pp:b>") == [("Cost", fonts.BOLD, None, False, False), ("x", fonts.BOLD_ITALIC, None, True, False)]


def test_slot_text_that_cannot_be_printed_names_the_card() -> None:
    with pytest.raises(UserError, match=r"card x: text cannot be printed: .*bold.*never closed"):
        slot_atoms("**unclosed")
    with pytest.raises(UserError, match=r"card x: \[\[cards/owl\]\] is an unresolved reference"):
        slot_atoms("see [[cards/owl]]")
