"""Markdown as a real document: a contents list whose links land on headings, no section printed twice,
and one ``<kind>.md`` per document whatever the paper."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

from pipeline.app.build import build_documents
from pipeline.data.dataset import default_data_root, game_ids
from pipeline.documents import structure as m
from pipeline.documents.markdown import render_markdown, slug
from tests.core.docs_helpers import documents_of

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GAMES = tuple(game_ids(default_data_root()))
HEADING = re.compile(r"^(#+) (.+)$")
SELF_CONTAINED_PAGES = ("puzzles",)  # one puzzle a page, each page cut apart: each states its goal in full
LINK = re.compile(r"^\s*- \[(.+)\]\(#([^)]+)\)$")


@lru_cache(maxsize=None)
def _markdown(game: str) -> dict[str, str]:
    return {kind: render_markdown(doc) for kind, doc in documents_of(default_data_root(), game).items()}


def _plain(heading: str) -> str:
    """A Markdown heading as a viewer shows it: emphasis marks and escapes dropped."""
    return re.sub(r"\\(.)", r"\1", heading.replace("**", ""))


def _anchors(text: str) -> set[str]:
    """The anchors a viewer gives the file's headings (repeats numbered -1, -2, ...)."""
    seen: dict[str, int] = {}
    out = set()
    for line in text.splitlines():
        match = HEADING.match(line)
        if match:
            base = slug(_plain(match[2]))
            count = seen.get(base, 0)
            seen[base] = count + 1
            out.add(base if count == 0 else f"{base}-{count}")
    return out


@pytest.mark.parametrize("game", GAMES)
def test_contents_links_resolve_to_headings(game: str) -> None:
    rulebook = _markdown(game)["rulebook"]
    links = [LINK.match(line) for line in rulebook.split("## Contents", 1)[1].split("\n\n## ", 1)[0].splitlines()]
    links = [link for link in links if link]
    assert len(links) > 5
    anchors = _anchors(rulebook)
    for link in links:
        assert link[2] in anchors, link[0]
    assert len({link[2] for link in links}) == len(links)  # every entry its own place


def test_slug_follows_the_viewers_rule() -> None:
    assert slug("1. Tribulation") == "1-tribulation"
    assert slug("A draw is nobody's loss") == "a-draw-is-nobodys-loss"
    assert slug("“This may consume any god”: If so") == "this-may-consume-any-god-if-so"
    assert slug("Totems + Taboos") == "totems--taboos"


def test_repeated_headings_get_numbered_anchors_in_the_contents() -> None:
    doc = m.Document("Toy: Rulebook", "Toy", "rulebook", (m.Heading("Play"), m.Heading("Example", 2), m.Heading("Scoring"),
                                                          m.Heading("Example", 2)), toc=True)
    text = render_markdown(doc)
    assert "  - [Example](#example)" in text and "  - [Example](#example-1)" in text


@pytest.mark.parametrize("game", GAMES)
def test_no_section_is_printed_twice(game: str) -> None:
    for kind, text in _markdown(game).items():
        path: list[str] = []
        seen: set[tuple[str, ...]] = set()
        for line in text.splitlines():
            match = HEADING.match(line)
            if not match:
                continue
            depth = len(match[1])
            path = path[:depth - 1] + [""] * (depth - 1 - len(path)) + [match[2]]
            key = tuple(path)
            assert key not in seen, (kind, key)  # the same heading twice under one parent
            seen.add(key)
        if kind in SELF_CONTAINED_PAGES:
            continue
        blocks = [b for b in text.split("\n\n") if len(b) > 200]
        assert len(blocks) == len(set(blocks)), kind  # no long passage (a table, a list, a diagram's text) twice


def test_monotheism_scenarios_are_listed_once() -> None:
    rulebook = _markdown("monotheism")["rulebook"]
    assert "(top):" not in rulebook  # the drawing points at the table instead of listing the deck again
    assert rulebook.count("| From top | Card | Name | Starts |") >= 5


def test_theocracy_clarification_titles_are_not_listed_before_they_are_printed() -> None:
    rulebook = _markdown("theocracy")["rulebook"]
    section = rulebook.split("## Clarifications", 2)[-1]
    assert "\n- Who is First in round one" not in section
    assert "### Who is First in round one" in section


def test_one_markdown_file_per_document_whatever_the_paper(tmp_path: Path) -> None:
    names = {}
    for paper in ("a4", "letter"):
        written = build_documents(FIXTURES / "docs-data", ["theocracy"], paper=paper, out_dir=tmp_path / paper, fmt="md",
                                  glossary=False)
        names[paper] = sorted(p.name for p in written)
    assert names["a4"] == names["letter"] == ["extras.md", "reference.md", "rulebook.md"]
