"""Long text compared word by word: each change shown with a few words around it, so two versions of a
paragraph that first differ at its 1,934th character still read differently in the report.

The marks are ``git diff --word-diff``'s plain ones: ``[-removed-]`` and ``{+added+}``.
"""
from __future__ import annotations

import difflib
import re

__all__ = ["word_diff", "CONTEXT_WORDS"]

CONTEXT_WORDS = 6  # unchanged words shown on each side of a change
_TOKEN = re.compile(r"\S+")


def word_diff(old: str, new: str, context: int = CONTEXT_WORDS) -> list[str]:
    """One line per change between ``old`` and ``new``, word by word: up to ``context`` unchanged words before
    and after it, ``...`` where the text goes on, the removed words as ``[-...-]``, the added as ``{+...+}``.
    Changes nearer than twice ``context`` words share a line. Empty when the words are the same."""
    before, after = _TOKEN.findall(old), _TOKEN.findall(new)
    groups = difflib.SequenceMatcher(None, before, after, autojunk=False).get_grouped_opcodes(context)
    lines = []
    for group in groups:
        words: list[str] = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                words += before[i1:i2]
                continue
            if i2 > i1:
                words.append("[-" + " ".join(before[i1:i2]) + "-]")
            if j2 > j1:
                words.append("{+" + " ".join(after[j1:j2]) + "+}")
        first, last = group[0], group[-1]
        lead = "... " if first[1] > 0 else ""
        tail = " ..." if last[2] < len(before) else ""
        lines.append(lead + " ".join(words) + tail)
    return lines
