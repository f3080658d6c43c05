"""Words in messages: a count with its noun in agreement ("1 problem", "2 problems")."""
from __future__ import annotations


def count(number: int, noun: str, plural: str = "") -> str:
    """``number`` and ``noun``, the noun plural unless the number is one (``plural``: an irregular plural)."""
    return f"{number} {noun if number == 1 else (plural or noun + 's')}"
