"""A game's documents are assembled once, without a paper; the parts sized by the paper (``m.OnPaper``) are
built when a document is set on a paper, inside groups too."""
from __future__ import annotations

from pipeline.data.dataset import default_data_root
from pipeline.documents import structure as m
from pipeline.documents.layout import load_layout
from tests.core.docs_helpers import documents_of


def _as_wide_as_the_page() -> m.OnPaper:
    return m.OnPaper(lambda layout: (m.Diagram(layout.frame[0], 10.0, (), (layout.paper,)),))


def _diagrams(blocks: tuple[m.Block, ...]) -> list[m.Diagram]:
    found: list[m.Diagram] = []
    for block in blocks:
        if isinstance(block, m.Group):
            found += _diagrams(block.blocks)
        elif isinstance(block, m.Diagram):
            found.append(block)
    return found


def _on_paper_parts(blocks: tuple[m.Block, ...]) -> int:
    return sum(_on_paper_parts(b.blocks) if isinstance(b, m.Group) else isinstance(b, m.OnPaper) for b in blocks)


def test_a_document_set_on_a_paper_builds_its_paper_sized_parts_for_that_paper() -> None:
    doc = m.Document("T: Sheet", "T", "extras", (m.Paragraph("Cut along the lines."), _as_wide_as_the_page(),
                                                 m.Group((m.Heading("Tokens", 1), _as_wide_as_the_page()))))
    for paper in ("a4", "letter"):
        layout = load_layout(paper)
        set_on = doc.on(layout)
        assert _on_paper_parts(set_on.blocks) == 0
        assert [(d.width, d.alt) for d in _diagrams(set_on.blocks)] == [(layout.frame[0], (paper,))] * 2
        assert set_on.blocks[0] == doc.blocks[0] and isinstance(set_on.blocks[2], m.Group)
    assert _on_paper_parts(doc.blocks) == 2  # the assembled document itself is left as it was


def test_the_score_sheet_is_as_wide_as_the_page_it_is_printed_on() -> None:
    for paper in ("a4", "letter"):
        sheet = _diagrams(documents_of(default_data_root(), "theocracy", paper)["extras"].blocks)[0]
        assert sheet.width == load_layout(paper).frame[0]
