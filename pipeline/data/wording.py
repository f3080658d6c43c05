"""Small English helpers every game's phrase tables and documents share: numbers in words, plurals."""
from __future__ import annotations

from typing import Optional

NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve")


def number_word(n: int) -> str:
    """``two``, ``eleven``; digits from 13 on (and for negative numbers)."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def plural(n: int, singular: str, many: Optional[str] = None) -> str:
    """The noun for ``n`` things: ``singular`` for one, else ``many`` (default: ``singular`` + s)."""
    return singular if n == 1 else (many or singular + "s")


def counted(n: int, singular: str, many: Optional[str] = None) -> str:
    """``1 card``, ``3 cards``: the number in digits and the noun that goes with it."""
    return f"{n} {plural(n, singular, many)}"
