"""A transposition table with bounded memory: the positions a search has already closed.

Positions are stored as 64-bit tags in buckets of four slots (12 bytes a slot,
allocated once), so memory does not grow with the search. A position's
fingerprint is 128 bits of BLAKE2b of its key (never Python's ``hash``, which
changes between processes): 64 bits choose the bucket, 64 bits are the tag.
The same search therefore fills the same slots on every run and machine, and
fingerprints can be handed from one process's table to another's.

When a bucket is full, the entry that took the least work to prove is replaced:
losing it costs the least to redo. A replaced position is searched again if it
is met again, which costs time and never changes an answer. A false match needs
two positions to agree on the bucket and all 64 tag bits: with a table of 2^22
slots that is a chance below 2^-80 per lookup.
"""
from __future__ import annotations

from array import array
from hashlib import blake2b
from typing import Iterable

BUCKET = 4
MIN_SLOTS = 1 << 10
MAX_SLOTS = 1 << 22
SLOT_BYTES = 12  # an 8-byte tag and a 4-byte work count
MAX_WORK = (1 << 32) - 1
NODES_PER_SLOT = 5  # a search stores about one position per five nodes it generates

Print = tuple[int, int]  # (bucket bits, tag)


def slots_for(nodes: int, *, cap: int = MAX_SLOTS) -> int:
    """A table size for a search of up to ``nodes`` nodes: a power of two between MIN_SLOTS and ``cap``."""
    slots = MIN_SLOTS
    while slots < nodes // NODES_PER_SLOT and slots < cap:
        slots <<= 1
    return slots


def fingerprint(key: bytes) -> Print:
    digest = blake2b(key, digest_size=16).digest()
    return int.from_bytes(digest[:8], "little"), int.from_bytes(digest[8:], "little") | 1  # tag 0 = empty


class PositionTable:
    """A bounded set of positions (by fingerprint) with the work each one took."""

    def __init__(self, slots: int) -> None:
        if slots < BUCKET or slots & (slots - 1):
            raise ValueError("slots must be a power of two, at least one bucket")
        self.slots = slots
        self.mask = slots // BUCKET - 1
        self.tags = array("Q", bytes(8 * slots))
        self.work = array("I", bytes(4 * slots))
        self.stored = 0     # entries written
        self.replaced = 0   # entries that pushed out another

    @property
    def nbytes(self) -> int:
        return self.slots * SLOT_BYTES

    def __contains__(self, key: bytes) -> bool:
        return self.has(fingerprint(key))

    def has(self, print_: Print) -> bool:
        base = (print_[0] & self.mask) * BUCKET
        tag, tags = print_[1], self.tags
        return tags[base] == tag or tags[base + 1] == tag or tags[base + 2] == tag or tags[base + 3] == tag

    def get(self, print_: Print) -> int:
        """The work stored with a fingerprint, or -1 when it is not in the table."""
        base = (print_[0] & self.mask) * BUCKET
        tag, tags = print_[1], self.tags
        for slot in range(base, base + BUCKET):
            if tags[slot] == tag:
                return self.work[slot]
            if tags[slot] == 0:
                return -1
        return -1

    def add(self, key: bytes, work: int = 0) -> Print:
        print_ = fingerprint(key)
        self.put(print_, work)
        return print_

    def put(self, print_: Print, work: int = 0) -> None:
        """Store a fingerprint; in a full bucket, replace the entry that took the least work."""
        base = (print_[0] & self.mask) * BUCKET
        tag, tags, costs = print_[1], self.tags, self.work
        work = min(work, MAX_WORK)
        cheapest = base
        for slot in range(base, base + BUCKET):
            if tags[slot] == tag:
                costs[slot] = max(costs[slot], work)
                return
            if tags[slot] == 0:  # slots fill in order and are never emptied: no match further on
                cheapest = slot
                break
            if costs[slot] < costs[cheapest]:
                cheapest = slot
        if tags[cheapest]:
            self.replaced += 1
        tags[cheapest], costs[cheapest] = tag, work
        self.stored += 1

    def put_all(self, prints: Iterable[tuple[int, int, int]]) -> None:
        """Store (bucket bits, tag, work) triples, as another table's search proved them."""
        for low, tag, work in prints:
            self.put((low, tag), work)
