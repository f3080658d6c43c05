"""Tallies: what a batch of simulated games counted, as plain nested dictionaries of whole numbers.

A tally is JSON-able and picklable (it crosses process boundaries) and two
tallies of the same study merge by adding what they count, so the tallies of
seeded chunks merged in a fixed order give the same figures whatever process
played each chunk. Keys are strings; leaves are ints (sums of squares of
whole numbers stay whole, so no rounding creeps in).
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, MutableMapping, Optional, Union

from pipeline.analysis.balance.stats import Mean

Tally = dict[str, Any]  # str -> int | Tally
COUNT_FLOOR = 0.0
Key = Union[str, int]


def bump(tally: MutableMapping[str, Any], *path: Key, by: int = 1) -> None:
    """Add ``by`` at ``path`` (made as needed): ``bump(t, "wins", 0)`` counts a win of seat 0."""
    *folders, leaf = [str(key) for key in path]
    node = tally
    for key in folders:
        node = node.setdefault(key, {})
    node[leaf] = node.get(leaf, 0) + by


def observe(tally: MutableMapping[str, Any], *path: Key, value: int) -> None:
    """Record one observation at ``path`` for a mean: its count, total and total of squares."""
    bump(tally, *path, "n")
    bump(tally, *path, "total", by=value)
    bump(tally, *path, "squares", by=value * value)


def merge(into: MutableMapping[str, Any], other: Mapping[str, Any]) -> MutableMapping[str, Any]:
    """Add ``other`` into ``into`` (in place; returned for chaining)."""
    for key, value in other.items():
        if isinstance(value, Mapping):
            merge(into.setdefault(key, {}), value)
        else:
            into[key] = into.get(key, 0) + value
    return into


def merged(tallies: Iterable[Mapping[str, Any]]) -> Tally:
    """One tally adding up ``tallies`` in order."""
    total: Tally = {}
    for tally in tallies:
        merge(total, tally)
    return total


def count(tally: Mapping[str, Any], *path: Key) -> int:
    """The whole number counted at ``path`` (0 when nothing was)."""
    node = folder(tally, *path[:-1]).get(str(path[-1]), 0)
    if isinstance(node, Mapping):
        raise KeyError(f"{'/'.join(map(str, path))} holds a tally, not a count")
    return int(node)


def folder(tally: Mapping[str, Any], *path: Key) -> Mapping[str, Any]:
    """The sub-tally at ``path`` (empty when nothing was counted there)."""
    node: Mapping[str, Any] = tally
    for key in path:
        found = node.get(str(key), {})
        if not isinstance(found, Mapping):
            raise KeyError(f"{'/'.join(map(str, path))} holds a count, not a tally")
        node = found
    return node


def mean(tally: Mapping[str, Any], *path: Key, floor: Optional[float] = COUNT_FLOOR) -> Mean:
    """The :class:`Mean` of the observations recorded at ``path`` by :func:`observe`; ``floor`` is the least an
    observation can be (a count's 0 by default; None when it may be negative, as Faith won or lost)."""
    node = folder(tally, *path)
    return Mean(int(node.get("n", 0)), node.get("total", 0), node.get("squares", 0), floor)
