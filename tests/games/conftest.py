"""Fixtures for every game's render tests: its card sheet built from the shipped data and read back."""
from __future__ import annotations

import io
import shutil
import subprocess
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Optional

import pytest
from pypdf import PdfReader

from pipeline.cards.build import BuildOptions, Plan, plan, render_pdf
from pipeline.data.dataset import default_data_root, load_game
from pipeline.data.typography import typographic
from pipeline.games.registry import spec as spec_of
from tests.core.pdf_text import page_runs, page_texts


@dataclass
class CardSheet:
    """A game's card PDF (A4, long-edge duplex) with its plan, read back: text with PDFium, boxes and metadata with pypdf."""

    plan: Plan
    data: bytes
    pages: int
    reader: PdfReader = field(init=False)
    # The text, read once with PDFium (tests/core/pdf_text.py): the sheet is shared by the session's tests.
    _runs: Optional[tuple[tuple[str, ...], ...]] = field(init=False, default=None)
    _text: Optional[str] = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.reader = PdfReader(io.BytesIO(self.data))

    def texts(self, index: int) -> list[str]:
        """Page ``index``'s text runs (a card's name, a line of its text), in drawing order."""
        if self._runs is None:
            self._runs = tuple(tuple(runs) for runs in page_runs(self.data))
        return list(self._runs[index])

    def text(self) -> str:
        """All text of all pages as a reader copying it from the sheet gets it, lines joined by spaces."""
        if self._text is None:
            self._text = " ".join(page_texts(self.data))
        return self._text

    def page_size_mm(self, index: int) -> tuple[float, float]:
        box = self.reader.pages[index].mediabox
        return round(float(box.width) * 25.4 / 72, 1), round(float(box.height) * 25.4 / 72, 1)


@lru_cache(maxsize=None)
def _sheet(game: str) -> CardSheet:
    the_plan = plan(default_data_root(), game, load_game(default_data_root(), spec_of(game)))
    data, pages = render_pdf(the_plan, BuildOptions())
    return CardSheet(the_plan, data, pages)


@pytest.fixture(scope="session")
def card_sheet() -> Callable[[str], CardSheet]:
    """``card_sheet(game)``: the game's card sheet (built once per test session)."""
    return _sheet


def _normalise(text: str) -> str:
    """Text as a card prints it: typographic quotes and dashes, spaces collapsed."""
    return " ".join(typographic(text).split())


@pytest.fixture(scope="session")
def assert_print_ready(tmp_path_factory: pytest.TempPathFactory) -> Callable[[CardSheet], None]:
    """The checks every game's sheet must pass: paired pages, every name printed, qpdf clean, deterministic."""

    def check(sheet: CardSheet) -> None:
        assert sheet.pages == len(sheet.reader.pages) and sheet.pages % 2 == 0  # fronts and backs pair up
        text = _normalise(sheet.text())
        missing = [card.name for card in sheet.plan.cards if _normalise(card.name) not in text]
        assert not missing, f"card names not printed: {missing}"
        assert sheet.reader.metadata.title.endswith("cards (A4)")
        assert shutil.which("qpdf"), "qpdf is required for this check: `make tools` installs it"
        target = tmp_path_factory.mktemp("qpdf") / "cards.pdf"
        target.write_bytes(sheet.data)
        result = subprocess.run(["qpdf", "--check", str(target)], capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr
        again, _ = render_pdf(sheet.plan, BuildOptions())
        assert again == sheet.data  # same data, same bytes

    return check


def pairs(sheet: CardSheet) -> list[tuple[list[str], list[str]]]:
    """(front page texts, back page texts) for each sheet of paper."""
    return [(sheet.texts(i), sheet.texts(i + 1)) for i in range(0, len(sheet.reader.pages), 2)]


@pytest.fixture
def sheet_pairs() -> Callable[[CardSheet], list[tuple[list[str], list[str]]]]:
    return pairs
