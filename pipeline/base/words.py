"""Words in messages: a count with its noun in agreement ("1 problem", "2 problems"), and the hint after a
name that names nothing ("did you mean 'flavour'?")."""
from __future__ import annotations

import difflib
from typing import Iterable

IRREGULAR_PLURALS = {"die": "dice"}


def count(number: int, noun: str, plural: str = "") -> str:
    """``number`` and ``noun``, the noun plural unless the number is one (``plural``: an irregular plural)."""
    if number == 1:
        return f"{number} {noun}"
    last = noun.rsplit(" ", 1)[-1]
    regular = noun[:len(noun) - len(last)] + IRREGULAR_PLURALS[last] if last in IRREGULAR_PLURALS else noun + "s"
    return f"{number} {plural or regular}"


def did_you_mean(word: str, known: Iterable[str], cutoff: float = 0.6) -> str:
    """``; did you mean 'x'?`` naming the one of ``known`` nearest to ``word`` (difflib's ratio, at least
    ``cutoff``), or "" when none is near enough."""
    near = difflib.get_close_matches(word, list(known), n=1, cutoff=cutoff)
    return f"; did you mean '{near[0]}'?" if near else ""
