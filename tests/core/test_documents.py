"""Documents: Markdown golden file, table of contents, renames, invalid data, combined glossary."""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from pipeline.app.build import build_documents
from pipeline.base.errors import ProblemsFound
from pipeline.checks.references import References
from pipeline.checks.validate import RecordCatalogue
from pipeline.cli.main import app
from pipeline.data.dataset import default_data_root
from pipeline.documents.glossary import combined_glossary, word_key
from pipeline.documents.layout import load_layout
from pipeline.documents.measuring import measuring
from pipeline.documents.pdf import PdfRenderer
from pipeline.games.registry import catalogue
from tests.core.docs_goldens import render_markdown
from tests.core.docs_helpers import documents_of, page_texts, render_game, squash

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
DOCS_DATA = FIXTURES / "docs-data"
GOLDEN = FIXTURES / "docs-golden" / "theocracy"


@pytest.fixture
def docs_data(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DOCS_DATA, target)
    return target


def _edit(path: Path, fn) -> None:  # type: ignore[no-untyped-def]
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    fn(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")


def test_markdown_equals_golden_files(tmp_path: Path) -> None:
    """Regenerate with `make doc-goldens` after a change you meant (tests/core/docs_goldens.py), then review."""
    written = render_markdown("theocracy", tmp_path)
    assert sorted(p.name for p in written) == sorted(p.name for p in GOLDEN.iterdir())
    for path in written:
        assert path.read_text(encoding="utf-8") == (GOLDEN / path.name).read_text(encoding="utf-8"), path.name


def test_toc_page_numbers_match_where_sections_land() -> None:
    pdf, entries = render_game(DOCS_DATA, "theocracy")["rulebook"]
    pages = page_texts(pdf)
    assert len(entries) > 10
    toc_text = " ".join(pages[:2])
    for entry in entries:
        assert squash(entry.text) in pages[entry.page - 1], f"{entry.text} not on page {entry.page}"
        assert f"{squash(entry.text)} " in toc_text
    # the printed contents line ends with the page the heading is on
    first = entries[0]
    assert f"{first.text} . " in toc_text or f"{first.text} .." in toc_text or f"{first.text} {first.page}" in toc_text


def test_a_document_with_contents_is_painted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The contents' first pass shows every page as 0 and is never printed: it is only measured, so each page
    of the rulebook gets its running header and page number painted once, in the pass that is printed."""
    painted: list[int] = []
    decorate = PdfRenderer._decorate

    def counting(self: PdfRenderer, canvas: Any, template: Any, doc: Any) -> None:
        if not measuring(canvas):
            painted.append(canvas.getPageNumber())
        decorate(self, canvas, template, doc)

    rulebook = documents_of(DOCS_DATA, "theocracy", "a4")["rulebook"]
    monkeypatch.setattr(PdfRenderer, "_decorate", counting)
    pdf, entries = PdfRenderer(load_layout("a4")).render(rulebook)
    pages = len(page_texts(pdf))
    assert entries and all(entry.page > 0 for entry in entries)
    assert painted == list(range(2, pages + 1))  # (the cover has neither)


def test_pdf_has_a_cover_then_running_header_and_page_numbers() -> None:
    pdf, _ = render_game(DOCS_DATA, "theocracy")["rulebook"]
    pages = page_texts(pdf)
    assert "Theocracy" in pages[0] and "Theocracy: Rulebook" not in pages[0]  # the cover: title, no running header
    for number, text in enumerate(pages[1:], start=2):
        assert "Theocracy: Rulebook" in text
        assert text.rstrip().endswith(str(number)) or f" {number} " in text


def test_build_is_deterministic(tmp_path: Path) -> None:
    a = build_documents(DOCS_DATA, ["theocracy"], paper="letter", out_dir=tmp_path / "a", glossary=False)
    b = build_documents(DOCS_DATA, ["theocracy"], paper="letter", out_dir=tmp_path / "b", glossary=False)
    assert [p.read_bytes() for p in a] == [p.read_bytes() for p in b]


def test_renamed_record_shows_renamed_in_rulebook_and_reference(docs_data: Path) -> None:
    def rename(data: dict) -> None:  # type: ignore[type-arg]
        next(r for r in data["bid_rules"] if r["id"] == "ruin")["name"] = "Mutual Annihilation"

    _edit(docs_data / "theocracy" / "bid-rules.yaml", rename)
    docs = render_game(docs_data, "theocracy")
    for kind in ("rulebook", "reference"):
        text = " ".join(page_texts(docs[kind][0]))
        assert "Mutual Annihilation" in text, kind


def test_renamed_location_card_in_monstrous(data_copy: Path, edit_yaml) -> None:  # type: ignore[no-untyped-def]
    def rename(data: dict) -> None:  # type: ignore[type-arg]
        next(r for r in data["locations"] if r["id"] == "athens")["name"] = "Athenai Polis"

    edit_yaml(data_copy / "monstrous" / "locations.yaml", rename)
    text = " ".join(page_texts(render_game(data_copy, "monstrous")["rulebook"][0]))  # the scenario layouts name it
    assert "Athenai Polis" in text
    assert "Athens " not in text.replace("Athenai Polis", "")


def test_invalid_data_is_refused_and_nothing_written(docs_data: Path, tmp_path: Path) -> None:
    _edit(docs_data / "theocracy" / "components.yaml", lambda d: d["components"][0].update(count="many"))
    out = tmp_path / "out"
    with pytest.raises(ProblemsFound) as err:
        build_documents(docs_data, ["theocracy"], paper="a4", out_dir=out, glossary=False)
    assert any("components.yaml" in p for p in err.value.problems)
    assert not out.exists()
    result = CliRunner().invoke(app, ["docs", "theocracy", "--data", str(docs_data), "--out", str(out)])
    assert result.exit_code == 1
    assert "components.yaml" in result.output
    assert not out.exists()


def test_cli_docs_writes_markdown(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["docs", "theocracy", "--format", "md", "--paper", "letter", "--data", str(DOCS_DATA), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "theocracy" / "rulebook.md").read_text(encoding="utf-8").startswith("# Theocracy: Rulebook")


def test_combined_glossary_lists_every_term_with_computed_overlaps() -> None:
    root = default_data_root()
    games = ["heavenly-father", "monotheism", "monstrous", "theocracy", "totems-and-taboos"]
    doc = combined_glossary(games, References(RecordCatalogue(root, catalogue())))
    rows = doc.blocks[-1].rows  # type: ignore[union-attr]
    terms = {(row[0], row[1]) for row in rows}
    total = sum(len(yaml.safe_load((root / g / "glossary.yaml").read_text())["terms"]) for g in games)
    assert len(rows) == total
    faith = next(row for row in rows if row[0] == "**Faith**")
    assert "Totems + Taboos" in faith[2]
    god = next(row for row in rows if row[0] == "**God**")
    assert "Monotheism" in god[2]
    assert ("**Turn**", "Theocracy") in terms
    assert word_key("God (deity)") == word_key("The God") == "god"
