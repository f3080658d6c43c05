"""Where a printed text came from: the data file and line a document's words were written at.

Documents print texts with their references resolved and sometimes composed
with other words ("**Scenario 1:** ..."), so a printed text is traced back by
comparing it with every text of the game's data, resolved the same way: the
data text holding the words in question and standing whole in the printed text
wins. Words no data text holds were composed by the game's document code; they
are reported at the line of its module that writes them (else its first line).
Only run when there is something to report: it resolves every text of a game.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Union

from pipeline.base.errors import UserError
from pipeline.checks.references import References
from pipeline.checks.validate import walk
from pipeline.data.dataset import Document, GameData, display_path
from pipeline.data.markup import MarkupError
from pipeline.data.problems import Location
from pipeline.documents.copylint import plain

PROVENANCE = "provenance"


@dataclass(frozen=True)
class DataText:
    """A text of the game's data: its file and node path."""

    doc: Document
    path: tuple[Union[str, int], ...]

    def location(self, words: str = "") -> Location:
        """Where ``words`` are written in this text (their own line in a folded paragraph), else its start."""
        return self.doc.fragment_at(self.path, words) if words else self.doc.at(*self.path)


class Origins:
    """Traces printed texts of one game's documents back to its data (or to the code that composed them)."""

    def __init__(self, game: GameData, refs: References, code: Any = None) -> None:
        self._game = game
        self._refs = refs
        self._code = code  # the function that composed the documents (its module is blamed for composed words)
        self._texts: Optional[list[tuple[str, DataText]]] = None

    def _data_texts(self) -> list[tuple[str, DataText]]:
        if self._texts is None:
            self._texts = []
            for doc in self._game.docs.values():
                for path, node in walk(doc.data):
                    if isinstance(node, str) and node.strip() and PROVENANCE not in path:  # provenance is never printed
                        self._texts.append((self._printed(node), DataText(doc, tuple(path))))
        return self._texts

    def _printed(self, text: str) -> str:
        try:
            return plain(self._refs.resolve(" ".join(text.split()), self._game.game)).casefold()
        except (MarkupError, UserError):  # a text that cannot be resolved (validate reports it) is compared as written
            return text.casefold()

    def locate(self, printed: str, words: str = "") -> Location:
        """The data place of ``words`` (default: the whole text) as printed in ``printed``."""
        whole = plain(printed).casefold()
        wanted = (plain(words) or whole).casefold()
        holding = [(text, at) for text, at in self._data_texts() if wanted in text]
        inside = [(text, at) for text, at in holding if text in whole]
        if inside:
            return max(inside, key=lambda found: len(found[0]))[1].location(words)
        if holding:
            return min(holding, key=lambda found: len(found[0]))[1].location(words)
        within = [(text, at) for text, at in self._data_texts() if len(text) > 3 and text in whole]
        if within and not words:
            return max(within, key=lambda found: len(found[0]))[1].location(words)
        return self._code_location(words or printed)

    def _code_location(self, words: str) -> Location:
        module = sys.modules.get(getattr(self._code, "__module__", ""), None)
        source = getattr(module, "__file__", None)
        if source is None:
            return Location(display_path(self._game.root), 1, 1)
        first = Path(source)
        modules = [first, *sorted(p for p in first.parent.glob("*.py") if p != first)]  # then its package's others
        read = plain(words)
        for needle in (read, max(read.split(), key=len, default="")):
            for path in modules:
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                    if needle and needle in line:
                        return Location(display_path(path), number, line.index(needle) + 1)
        return Location(display_path(first), 1, 1)
