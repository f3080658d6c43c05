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
from pathlib import Path
from typing import Any, Optional

from pipeline.base.errors import UserError
from pipeline.checks.references import References
from pipeline.checks.validate import walk
from pipeline.data.dataset import GameData, display_path
from pipeline.data.markup import MarkupError
from pipeline.data.problems import Location
from pipeline.documents.copylint import plain

PROVENANCE = "provenance"


class Origins:
    """Traces printed texts of one game's documents back to its data (or to the code that composed them)."""

    def __init__(self, game: GameData, refs: References, code: Any = None) -> None:
        self._game = game
        self._refs = refs
        self._code = code  # the function that composed the documents (its module is blamed for composed words)
        self._texts: Optional[list[tuple[str, Location]]] = None

    def _data_texts(self) -> list[tuple[str, Location]]:
        if self._texts is None:
            self._texts = []
            for doc in self._game.docs.values():
                for path, node in walk(doc.data):
                    if isinstance(node, str) and node.strip() and PROVENANCE not in path:  # provenance is never printed
                        self._texts.append((self._printed(node), doc.at(*path)))
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
            return max(inside, key=lambda found: len(found[0]))[1]
        if holding:
            return min(holding, key=lambda found: len(found[0]))[1]
        within = [(text, at) for text, at in self._data_texts() if len(text) > 3 and text in whole]
        if within and not words:
            return max(within, key=lambda found: len(found[0]))[1]
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
