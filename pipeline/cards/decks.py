"""One back per shuffled deck, checked on the built PDF.

Cards shuffled together (``PrintCard.deck``) must print the very same back,
or the top of a draw pile gives away what it holds. The check reads the PDF
the build wrote (pypdf): on each page of backs, every card is drawn in a
page-level ``q ... Q`` block; a block's signature is its operators without
the placement (the leading clip to its slot and ``cm``), each form it draws replaced by a digest
of that form's content (and of the forms it draws in turn). All cards of one
deck must have one signature: byte-identical backs, whatever template or
values produced them.

A block is read as its operators and the forms it draws, in order. Two blocks
drawing the very same form objects with the same operators are the same back
without reading a form: the forms' content is read and digested only when
two backs of a deck draw different form objects (a build draws a deck's
shared back as one form, so that is the case of a deck that differs, or of
equal backs drawn as separate forms).
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


@dataclass(frozen=True)
class _Block:
    """One page-level q..Q block: a digest of its operators (each ``Do`` marked where it stands, its form
    left out) and the form objects it draws, in order."""

    operators: str
    forms: tuple[Any, ...]  # the form XObject references (IndirectObject) in drawing order


class _Signatures:
    """The signatures of a PDF's blocks: by form object (which form objects a block draws), and by content
    (what those forms hold), the latter read only when asked."""

    def __init__(self) -> None:
        self._digests: dict[int, str] = {}  # form object -> digest of its content (each form read once)

    @staticmethod
    def by_object(block: _Block) -> Optional[tuple[Any, ...]]:
        """Equal for two blocks drawing the same form objects with the same operators (then the same back);
        None when a form is not an indirect object (such a block is compared by content only)."""
        numbers = tuple(getattr(form, "idnum", None) for form in block.forms)
        return None if None in numbers else (block.operators, *numbers)

    def by_content(self, block: _Block) -> str:
        """The block's signature with each form replaced by a digest of its content and its forms' content."""
        digest = hashlib.sha256(block.operators.encode())
        for form in block.forms:
            digest.update(_form_digest(form, self._digests).encode())
        return digest.hexdigest()


def problems(reader: PdfReader, placements: Sequence[BackPlacement]) -> Iterator[str]:
    """For each deck whose backs differ (read from the finished PDF): one line naming two of its cards with
    different backs."""
    if not any(p.deck for p in placements):
        return
    blocks = {page: list(_blocks(reader.pages[page])) for page in sorted({p.page for p in placements if p.deck})}
    signatures = _Signatures()
    seen: dict[str, tuple[Optional[_Block], str]] = {}  # deck -> (block, card) of its first back
    position: dict[int, int] = {}
    reported: set[str] = set()
    for placement in placements:
        index = position.get(placement.page, 0)
        position[placement.page] = index + 1
        if not placement.deck or placement.deck in reported:
            continue
        page_blocks = blocks[placement.page]
        block = page_blocks[index] if index < len(page_blocks) else None  # None: no back drawn
        first, first_card = seen.setdefault(placement.deck, (block, placement.where))
        if not _same(signatures, first, block):
            reported.add(placement.deck)
            yield (f"{RULE}: deck '{placement.deck}' is shuffled together but prints different backs: "
                   f"{first_card} and {placement.where}")


def _same(signatures: _Signatures, a: Optional[_Block], b: Optional[_Block]) -> bool:
    """Whether two backs print the same (None: no back drawn): the same form objects, else the same content."""
    if a is None or b is None:
        return a is b
    by_object = signatures.by_object(a)
    if by_object is not None and by_object == signatures.by_object(b):
        return True
    return signatures.by_content(a) == signatures.by_content(b)


def _blocks(page: Any) -> Iterator[_Block]:
    """Each page-level q..Q block of a page, in drawing order."""
    resources = page.get("/Resources")
    from pypdf.generic import ContentStream  # pypdf only once a sheet is written: validate never loads it

    operations = ContentStream(page.get_contents(), page.pdf).operations
    depth = 0
    current: Any = None  # a sha256 hash object while a block is open
    forms: list[Any] = []
    placing = False
    for operands, operator in operations:
        if operator == b"q":
            depth += 1
            if depth == 1:
                current, forms, placing = hashlib.sha256(), [], True
                continue
        elif operator == b"Q":
            depth -= 1
            if depth == 0 and current is not None:
                yield _Block(current.hexdigest(), tuple(forms))
                current = None
                continue
        if current is None:
            continue
        if placing and depth == 1 and operator in PLACEMENT:
            continue
        placing = False
        current.update(operator + b"(")
        if operator == b"Do":
            forms.append(resources["/XObject"].raw_get(operands[0]))
        else:
            current.update(repr([str(o) for o in operands]).encode())
        current.update(b")")


def _form_digest(xobject: Any, digests: dict[int, str]) -> str:
    """A digest of a form XObject's content and of every form it draws."""
    key = xobject.idnum if hasattr(xobject, "idnum") else id(xobject)
    if key in digests:
        return digests[key]
    form = xobject.get_object()
    digest = hashlib.sha256(form.get_data())
    inner = form.get("/Resources")
    if inner is not None and "/XObject" in inner:
        named = inner["/XObject"]
        for sub in sorted(named):
            digest.update(sub.encode() + _form_digest(named.raw_get(sub), digests).encode())
    digests[key] = digest.hexdigest()
    return digests[key]
