"""The renderer's paragraphs are set as reportlab sets the same markup: a text made without reportlab's parser
(its words, bold, italic and escapes) carries the fragments the parser makes and breaks into the same lines; the cells of a
document that set the same text at the same width are one paragraph, and a text at another width its own; a
text made ready once for every document and paper is refused in each document that prints it."""
from __future__ import annotations

from typing import Any

import pytest
from reportlab.platypus import Paragraph

from pipeline.base.errors import UserError
from pipeline.documents import structure as m
from pipeline.documents.layout import load_layout
from pipeline.documents.parsedtexts import ParsedTexts
from pipeline.documents.pdf import PdfRenderer

TEXTS = [
    "Draw two cards.",
    "  Spaces   run together,\n and a new line\treads as a space.  ",
    "\u201cQuoted\u201d words \u2014 a dash, an \u00e9 and a 3\u00d72 grid > 2 rows",
    "word",
    "Take **two** cards, *then* pass.",
    "**Setup.** Each player takes *one* card; **bold *and italic* words** & more < less > x.",
    "A literal &amp; and a *closing* star * alone, **A** **B** adjacent.",
    "A long rule text that runs over several lines of a narrow column, " * 6,
]


def _fragments(paragraph: Any) -> list[dict[str, Any]]:
    return [dict(vars(f)) for f in paragraph.frags]


def _lines(paragraph: Any, width: float) -> tuple[float, int, list[str]]:
    """The paragraph's height, kind of lines and the words of each line, wrapped at ``width``."""
    paragraph.wrap(width, 10_000)
    lines = paragraph.blPara.lines
    if paragraph.blPara.kind == 0:  # one fragment: each line is (room left, words)
        return paragraph.height, 0, [" ".join(words) for _, words in lines]
    return paragraph.height, 1, ["".join(word.text for word in line.words) for line in lines]


@pytest.mark.parametrize("style", ["body", "table", "caption", "h2"])
@pytest.mark.parametrize("text", TEXTS)
def test_a_text_is_set_as_the_parser_sets_it(style: str, text: str) -> None:
    renderer = PdfRenderer(load_layout("a4"))
    para = renderer._inline(text, "test", renderer._font_style(style))
    made = renderer._paragraph(para, style, renderer.styles[style])
    parsed = Paragraph(para, renderer.styles[style])
    assert made.text == parsed.text
    assert _fragments(made) == _fragments(parsed)
    for width in (60.0, 140.0, 400.0):
        assert _lines(made, width) == _lines(Paragraph(para, renderer.styles[style]), width)


def test_markup_the_renderer_does_not_write_is_parsed_by_reportlab() -> None:
    renderer = PdfRenderer(load_layout("a4"))
    for para in ("a <u>line</u> under", "<b>open", "<i>crossed <b>tags</i></b>", "&#169; 2026"):
        assert renderer._fragments(para, "body", renderer.styles["body"]) is None
    made = renderer._paragraph('a <font color="red">red</font> word', "body", renderer.styles["body"])
    assert [f.text for f in made.frags] == ["a ", "red", " word"]


def test_each_text_made_without_the_parser_has_fragments_of_its_own() -> None:
    renderer = PdfRenderer(load_layout("a4"))
    first, second = renderer._text("One text.", "test", "body"), renderer._text("Another text.", "test", "body")
    assert first.frags[0] is not second.frags[0] and first.frags[0].text == "One text."
    for name, value in vars(first.frags[0]).items():
        if isinstance(value, list):
            assert value is not getattr(second.frags[0], name)  # (a list the parser makes afresh for each text)


def test_equal_cells_of_a_document_at_one_width_are_one_paragraph_and_at_another_width_their_own() -> None:
    doc = m.Document("T: Sheet", "T", "reference", (
        m.Table(("State", "Note"), (("unveiled", "unveiled"), ("unveiled", "veiled")), widths=(1.0, 3.0)),
        m.Table(("State", "Note"), (("unveiled", "x"),), widths=(1.0, 3.0)),
    ))
    renderer = PdfRenderer(load_layout("a4"))
    renderer.render(doc, paint=False)
    cells = renderer._cells
    narrow, wide = (cell for (text, bold, _), cell in sorted(cells.items(), key=lambda kv: kv[0][2])
                    if text == "unveiled" and not bold)
    assert narrow is not wide and narrow.blPara.lines and wide.blPara.lines
    assert sum(1 for text, bold, _ in cells if text == "unveiled") == 2  # one a width, in both tables


@pytest.mark.parametrize("block", [m.Paragraph("A snowman \u2603 the font lacks."), m.Heading("Snow \u2603", 1)])
def test_a_text_refused_in_one_document_is_refused_again_in_the_next_naming_that_one(block: m.Block) -> None:
    shared = ParsedTexts()
    for paper, title in (("a4", "T: One"), ("letter", "T: One"), ("a4", "T: Two")):
        doc = m.Document(title, "T", "reference", (m.Paragraph("Fine words."), block))
        with pytest.raises(UserError, match=f"^{title}: .*\u2603"):
            PdfRenderer(load_layout(paper), shared).render(doc, paint=False)
