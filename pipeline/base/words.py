"""Words in messages: a count with its noun in agreement ("1 problem", "2 problems"), and the hint after a
name that names nothing ("did you mean 'flavour'?")."""
from __future__ import annotations

import difflib
from typing import Iterable


def count(number: int, noun: str, plural: str = "") -> str:
    """``number`` and ``noun``, the noun plural unless the number is one (``plural``: an irregular plural)."""
    return f"{number} {noun if number == 1 else (plural or noun + 's')}"


def did_you_mean(word: str, known: Iterable[str], cutoff: float = 0.6) -> str:
    """``; did you mean 'x'?`` naming the one of ``known`` nearest to ``word`` (difflib's ratio, at least
    ``cutoff``), or "" when none is near enough."""
    near = difflib.get_close_matches(word, list(known), n=1, cutoff=cutoff)
    return f"; did you mean '{near[0]}'?" if near else ""
