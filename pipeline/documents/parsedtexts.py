"""Document texts made ready to set once for every paper a document check lays them out on.

Validate lays every document out on each paper (:mod:`pipeline.documents.docscheck`). What a text becomes
before it is laid out does not depend on the paper: its paragraph markup (parsed, glyph-checked), its plain
words (a heading's, a diagram label's: measured and checked on every paper) and the fragments reportlab
parses that markup into (what a Paragraph parses in its constructor, about half of setting a short text).
Only wrapping depends on the width, and a Paragraph wraps afresh on each. The renderers of one check share a
:class:`ParsedTexts`, made by that check and dropped with it: it outlives no call, and it is used only by
renderers of one layout file (the paragraph styles the fragments carry).
"""
from __future__ import annotations

from typing import Any, Callable, Hashable, Optional


class ParsedTexts:
    """Paragraph markup by (text, style), plain words by text and reportlab fragments by (style key, markup,
    bullet), made by the first renderer that sets them and read by the others of the same check. What a text
    becomes does not depend on the document that prints it: a document's name only goes into a refusal, and a
    refusal is never kept (it is raised again wherever the text is printed)."""

    def __init__(self) -> None:
        self._markup: dict[tuple[str, str], str] = {}
        self._plain: dict[str, str] = {}
        self._fragments: dict[tuple[Hashable, str, Optional[str]], tuple[str, list[Any]]] = {}
        self._layout_data: Any = None

    def bind(self, layout_data: Any) -> None:
        """Let a renderer of ``layout_data`` (a layout file's content) share these texts: the fragments carry
        the styles it makes from that data, so renderers of another layout may not."""
        if self._layout_data is None:
            self._layout_data = layout_data
        elif self._layout_data is not layout_data and self._layout_data != layout_data:
            raise ValueError("parsed texts are shared only by renderers of one layout")

    def markup(self, text: str, style: str, make: Callable[[], str]) -> str:
        """``text``'s paragraph markup in ``style`` (``make``: how it is made, once; a refusal is not kept)."""
        key = (text, style)
        found = self._markup.get(key)
        if found is None:
            found = self._markup[key] = make()
        return found

    def plain(self, text: str, make: Callable[[], str]) -> str:
        """What ``text`` reads as where styling cannot be shown (``make``: how it is made, once)."""
        found = self._plain.get(text)
        if found is None:
            found = self._plain[text] = make()
        return found

    def fragments(self, key: tuple[Hashable, str, Optional[str]]) -> Optional[tuple[str, list[Any]]]:
        """The text and fragments a paragraph of (style key, markup, bullet text) was parsed into (None: not yet)."""
        return self._fragments.get(key)

    def keep_fragments(self, key: tuple[Hashable, str, Optional[str]], text: str, fragments: list[Any]) -> None:
        """Keep the text and fragments a paragraph was parsed into. Shared, they are only read: a paragraph that
        breaks its lines keeps its words in a list of its own (``Paragraph.breakLines``), and splits into new
        paragraphs."""
        self._fragments[key] = (text, fragments)
