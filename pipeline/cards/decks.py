"""One back per shuffled deck, checked on the built PDF.

Cards shuffled together (``PrintCard.deck``) must print the very same back,
or the top of a draw pile gives away what it holds. The check reads the PDF
the build wrote (pypdf): on each page of backs, every card is drawn in a
page-level ``q ... Q`` block; a block's signature is its operators without
the placement (the leading clip to its slot and ``cm``), each form it draws replaced by a digest
of that form's content (and of the forms it draws in turn). All cards of one
deck must have one signature: byte-identical backs, whatever template or
values produced them.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator, Optional, Sequence

if TYPE_CHECKING:  # pypdf is imported where a PDF is read, not by every build that imports this module
    from pypdf import PdfReader

RULE = "design rule one_back_per_deck"
# What places a card on the sheet, not what it prints: the move to its slot (``cm``) and the clip to
# its slot (``re W n``: how much bleed shows depends on its neighbours, and is cut away).
PLACEMENT = frozenset({b"cm", b"re", b"W", b"W*", b"n"})


@dataclass(frozen=True)
class BackPlacement:
    """A card's back on a page of backs: the page (0-based), the deck, and how errors name the card."""

    page: int
    deck: Optional[str]
    where: str


def problems(reader: PdfReader, placements: Sequence[BackPlacement]) -> Iterator[str]:
    """For each deck whose backs differ (read from the finished PDF): one line naming two of its cards with
    different backs."""
    if not any(p.deck for p in placements):
        return
    digests: dict[int, str] = {}
    signatures: dict[int, list[str]] = {}
    for page in sorted({p.page for p in placements if p.deck}):
        signatures[page] = list(_blocks(reader.pages[page], digests))
    seen: dict[str, tuple[str, str]] = {}  # deck -> (signature, card)
    position: dict[int, int] = {}
    reported: set[str] = set()
    for placement in placements:
        index = position.get(placement.page, 0)
        position[placement.page] = index + 1
        if not placement.deck or placement.deck in reported:
            continue
        page_blocks = signatures[placement.page]
        signature = page_blocks[index] if index < len(page_blocks) else "(no back drawn)"
        first = seen.setdefault(placement.deck, (signature, placement.where))
        if first[0] != signature:
            reported.add(placement.deck)
            yield (f"{RULE}: deck '{placement.deck}' is shuffled together but prints different backs: "
                   f"{first[1]} and {placement.where}")


def _blocks(page: Any, digests: dict[int, str]) -> Iterator[str]:
    """The signature of each page-level q..Q block of a page, in drawing order."""
    resources = page.get("/Resources")
    from pypdf.generic import ContentStream  # pypdf only once a sheet is written: validate never loads it

    operations = ContentStream(page.get_contents(), page.pdf).operations
    depth = 0
    current: Any = None  # a sha256 hash object while a block is open
    placing = False
    for operands, operator in operations:
        if operator == b"q":
            depth += 1
            if depth == 1:
                current, placing = hashlib.sha256(), True
                continue
        elif operator == b"Q":
            depth -= 1
            if depth == 0 and current is not None:
                yield current.hexdigest()
                current = None
                continue
        if current is None:
            continue
        if placing and depth == 1 and operator in PLACEMENT:
            continue
        placing = False
        current.update(operator + b"(")
        if operator == b"Do":
            current.update(_form_digest(resources, operands[0], digests).encode())
        else:
            current.update(repr([str(o) for o in operands]).encode())
        current.update(b")")


def _form_digest(resources: Any, name: Any, digests: dict[int, str]) -> str:
    """A digest of a form XObject's content and of every form it draws."""
    xobject = resources["/XObject"][name]
    key = xobject.idnum if hasattr(xobject, "idnum") else id(xobject)
    if key in digests:
        return digests[key]
    form = xobject.get_object()
    digest = hashlib.sha256(form.get_data())
    inner = form.get("/Resources")
    if inner is not None and "/XObject" in inner:
        for sub in sorted(inner["/XObject"]):
            digest.update(sub.encode() + _form_digest(inner, sub, digests).encode())
    digests[key] = digest.hexdigest()
    return digests[key]
