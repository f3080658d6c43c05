"""Typographic punctuation for printed text: curly quotes, real dashes, the ellipsis.

``typographic(text)`` is applied to every text a card prints (and to document
text) at render time, so the data can be typed with a plain keyboard:

==========  ======  ==============================================
typed       prints  rule
==========  ======  ==============================================
``"word"``  “word”  a double quote opens after a space, an opening
                    bracket or dash, or at the start; else it closes
``'word'``  ‘word’  the same for single quotes; ``it's`` → it’s
`` - ``     `` – `` a hyphen with a space either side: an en dash
``--``      ``—``   two hyphens: an em dash
``...``     ``…``   three full stops: an ellipsis
==========  ======  ==============================================

Markup is left alone: none of these characters is markup, and looking back
for the character before a quote skips the emphasis delimiters ``*`` and
``_`` (``**God**'s`` → God’s, ``_'tis_`` → ‘tis). Escapes are untouched (none
of them holds a quote, hyphen or full stop). The function is idempotent:
what it prints contains nothing it would change again.
"""
from __future__ import annotations

import re

OPEN_DOUBLE, CLOSE_DOUBLE, OPEN_SINGLE, CLOSE_SINGLE = "\u201c", "\u201d", "\u2018", "\u2019"
EN_DASH, EM_DASH, ELLIPSIS = "\u2013", "\u2014", "\u2026"
# A quote after one of these (or at the start) opens; after anything else it closes.
OPENS_AFTER = frozenset(" \t\n([{\u00a0" + OPEN_DOUBLE + OPEN_SINGLE + EN_DASH + EM_DASH + "-/")
TRANSPARENT = frozenset("*_")  # emphasis delimiters: a quote looks past them
QUOTES = {'"': (OPEN_DOUBLE, CLOSE_DOUBLE), "'": (OPEN_SINGLE, CLOSE_SINGLE)}
_SPACED_HYPHEN = re.compile(r"(?<=\s)-(?=\s)")


def typographic(text: str, previous: str = "") -> str:
    """``text`` with typographic quotes, dashes and ellipses; ``previous`` is the character printed
    just before it (a quote at the start of ``text`` opens or closes according to it)."""
    if not any(mark in text for mark in ("'", '"', "-", "...")):
        return text
    text = text.replace("...", ELLIPSIS).replace("--", EM_DASH)
    text = _SPACED_HYPHEN.sub(EN_DASH, text)
    if "'" not in text and '"' not in text:
        return text
    out: list[str] = []
    for char in text:
        pair = QUOTES.get(char)
        if pair is None:
            out.append(char)
            continue
        before = _before(out, previous)
        out.append(pair[0] if before is None or before in OPENS_AFTER else pair[1])
    return "".join(out)


def _before(out: list[str], previous: str) -> str | None:
    """The last character printed before this point, looking past emphasis delimiters (None: none)."""
    for char in reversed(out):
        if char not in TRANSPARENT:
            return char
    for char in reversed(previous):
        if char not in TRANSPARENT:
            return char
    return None
