"""Which item a user means by what they typed: the one rule every command that takes a card follows.

A card (or any record) may be typed as its id as the YAML writes it (``02``, quoted or not), as an address
(``deities/02``), as the id the sheets print (``deity-02``) or as its name, in any case. The ways are tried in
order; the first that picks exactly one item wins, and a way that picks several is refused naming them.
"""
from __future__ import annotations

from typing import Callable, Sequence, TypeVar

from pipeline.base.errors import UserError
from pipeline.base.words import count, did_you_mean

__all__ = ["choose", "typed"]

T = TypeVar("T")
SHOWN = 12  # items named when nothing matched


def typed(wanted: str) -> str:
    """What the user typed, without the quotes a shell or the YAML habit may leave around it."""
    return wanted.strip().strip("'\"").strip()


def choose(wanted: str, items: Sequence[T], ways: Sequence[Callable[[T, str], bool]], *,
           key: Callable[[T], str], name: Callable[[T], str], scope: str, noun: str) -> T:
    """The one item of ``items`` the first of ``ways`` (each ``way(item, typed text)``) picks alone.

    ``key`` is how an item is shown (its id), ``name`` its name (the nearest id or name is suggested);
    ``scope`` starts messages (the game), ``noun`` names one item (``card``, ``god``). Raises UserError: one line."""
    text = typed(wanted)
    for way in ways:
        found = [item for item in items if way(item, text)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise UserError(f"{scope}: '{wanted}' names {count(len(found), noun)} "
                            f"({', '.join(key(item) for item in found[:6])}); give the id")
    hint = did_you_mean(text, [key(item) for item in items] + [name(item) for item in items])
    known = ", ".join(key(item) for item in items[:SHOWN])
    raise UserError(f"{scope}: no {noun} '{wanted}' (some {noun}s: {known}{', ...' if len(items) > SHOWN else ''}){hint}")
