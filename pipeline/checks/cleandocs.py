"""Documents a check found clean, remembered for the rest of the process by the hash of their values.

The checks every document gets (duplicate ids, markup, names, references) read
the whole document, and a validation runs them on every document of the game,
the unchanged ones too. Where a check's answer depends only on the document's
values and on things fixed for the key (the icon names, a game's name rules),
a document found clean is not walked again while its values are the same: in
`pantheon watch` and in the test suite, which validate the same files many
times. Only "clean" is remembered; a document with problems is checked each
time, so messages point at its current lines.
"""
from __future__ import annotations

from typing import Hashable, Optional

_LIMIT = 8192  # keys kept (a long-lived process meets ever new versions of the files it edits)
_clean: set[Hashable] = set()


def known_clean(key: Optional[Hashable]) -> bool:
    """Whether ``key`` (a check's name, the document's value hash, whatever else the answer depends on) was
    found clean; never for None (a document whose values have no hash)."""
    return key is not None and key in _clean


def remember_clean(key: Optional[Hashable]) -> None:
    if key is None:
        return
    if len(_clean) >= _LIMIT:
        _clean.clear()
    _clean.add(key)
