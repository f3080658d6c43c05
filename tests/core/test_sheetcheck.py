"""A card sheet's PDF checks (one back per deck, fonts embedded) are remembered by the sheet's bytes."""
from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from reportlab.pdfgen.canvas import Canvas

from pipeline.cards import decks, fonts, sheetcheck


@pytest.fixture(autouse=True)
def own_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PANTHEON_CACHE", str(tmp_path / "cache"))


def sheet(text: str = "", width: float = 100) -> bytes:
    """A one-page PDF in the project's embedded font; with ``text``, Helvetica too (one of the standard 14,
    never embedded)."""
    fonts.register()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(200, 200), invariant=True, initialFontName=fonts.font_name())
    canvas.rect(10, 10, width, 50, fill=1)
    canvas.drawString(20, 150, "Card")
    if text:
        canvas.setFont("Helvetica", 10)
        canvas.drawString(20, 100, text)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times a sheet was read for the deck check."""
    count: list[int] = []
    real = decks.problems

    def counting(*args: Any) -> Any:
        count.append(1)
        return real(*args)

    monkeypatch.setattr(decks, "problems", counting)
    return count


def test_a_sheet_that_passed_is_not_read_again(reads: list[int]) -> None:
    assert sheetcheck.sheet_problems(sheet(), "toy", []) == ([], [])
    assert sheetcheck.sheet_problems(sheet(), "toy", []) == ([], [])
    assert len(reads) == 1
    assert sheetcheck.sheet_problems(sheet(width=101), "toy", []) == ([], [])  # other bytes: read
    placed = [decks.BackPlacement(0, "deck", "toy card 1")]
    assert sheetcheck.sheet_problems(sheet(), "toy", placed) == ([], [])  # other placements: read
    assert len(reads) == 3


def test_a_sheet_with_a_problem_is_read_and_refused_every_time(reads: list[int]) -> None:
    for _ in range(2):
        assert sheetcheck.sheet_problems(sheet("Hello"), "toy", []) == (
            [], ["toy: card sheets: font Helvetica is not embedded"])
    assert len(reads) == 2


def test_a_damaged_entry_is_a_miss(reads: list[int]) -> None:
    from pipeline import store as cachestore

    sheetcheck.sheet_problems(sheet(), "toy", [])
    for entry in (cachestore.cache_root() / "results" / sheetcheck.NAMESPACE).glob("*.json"):
        entry.write_bytes(entry.read_bytes().replace(b"true", b"false"))
    sheetcheck.sheet_problems(sheet(), "toy", [])
    assert len(reads) == 2
