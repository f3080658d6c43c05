"""Characters that must never reach data, and the one way a message is kept on one line.

Data text may hold tabs and newlines, nothing else invisible: C0 controls
(NUL, BEL, ESC, CR...), DEL, the C1 range (U+0080-U+009F, with NEL U+0085),
the Unicode line and paragraph separators, the bidirectional embedding,
override and isolate controls (they can make an error line read backwards),
and lone surrogates are refused when a file is read. Every line the pipeline
prints passes through ``one_line``, so even a value that got past that (a
command-line argument, a file name) cannot split an error into two lines.
"""
from __future__ import annotations

import re
from typing import Optional

_INVISIBLE = "\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
FORBIDDEN_IN_TEXT = re.compile(f"[{_INVISIBLE}]")  # tab and newline are text
FORBIDDEN_IN_KEY = re.compile(f"[\t\n{_INVISIBLE}]")
_NOT_ONE_LINE = FORBIDDEN_IN_KEY
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def code_point(char: str) -> str:
    """``U+0007``: how a message names an invisible character."""
    return f"U+{ord(char):04X}"


def forbidden_char(text: str, *, key: bool = False) -> Optional[tuple[int, str]]:
    """The index and character of the first character ``text`` may not hold, or None."""
    found = (FORBIDDEN_IN_KEY if key else FORBIDDEN_IN_TEXT).search(text)
    return (found.start(), found.group()) if found else None


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    return _NAMED.get(char) or (f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")


LINE_LIMIT = 2000  # characters: a message quoting a 1.5 MB value is cut, not printed whole


def one_line(text: str) -> str:
    """``text`` with every line break and invisible control written as an escape (``\\n``, ``\\x07``,
    ``\\u2028``), cut to LINE_LIMIT characters (saying so); idempotent, so a message
    escaped twice reads the same."""
    line = _NOT_ONE_LINE.sub(_escape, text)
    if len(line) <= LINE_LIMIT:
        return line
    tail = f"... (cut to {LINE_LIMIT} characters)"
    return line[:LINE_LIMIT - len(tail)] + tail
