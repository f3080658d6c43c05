"""Checks that plain data read back (JSON from a cache entry) has the shape its writer gave it.

Each check returns the value (a JSON list as a tuple) or raises ShapeError,
which readers of cache entries treat as a miss.
"""
from __future__ import annotations

from typing import Any, Optional


class ShapeError(ValueError):
    """Well-formed data that is not what its reader expects."""


def sequence(value: Any, length: Optional[int] = None) -> tuple[Any, ...]:
    """``value`` (a JSON list) as a tuple, of ``length`` items when given; else ShapeError."""
    if not isinstance(value, (list, tuple)) or (length is not None and len(value) != length):
        raise ShapeError(f"expected a sequence{f' of {length}' if length is not None else ''}")
    return tuple(value)


def number(value: Any) -> float:
    """``value`` when it is an int or a float (not a bool), kept as it is (int and float hash apart)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise ShapeError("expected a number")
    return value


def integer(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ShapeError("expected a whole number")
    return value


def text(value: Any) -> str:
    if not isinstance(value, str):
        raise ShapeError("expected text")
    return value


def texts(value: Any) -> tuple[str, ...]:
    return tuple(text(item) for item in sequence(value))


def boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ShapeError("expected true or false")
    return value
