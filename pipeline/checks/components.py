"""The box contents (``components.yaml``) against the game's own count of its data: one count, two uses.

A game's spec names ``counts(game) -> Inventory``: for each component it can
count (cards in a deck file, tokens in a table), how many the data holds,
where it counted them, and the count the rulebook states. Validate compares
``components.yaml`` with it (:func:`count_problems`, one message style for
every game); the documents print the counted numbers in the component table
(:func:`data_counts`), so the table and the check can never disagree. The
count reads ``game.model``, built once per command.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional, Sequence

from pipeline.base import words
from pipeline.data.dataset import GameData, record_list
from pipeline.data.kinds import COMPONENTS_KIND
from pipeline.data.problems import Location, Problem
from pipeline.data.schemas import singular

LIST_KEY = "components"

__all__ = ["ComponentCount", "Inventory", "count_problems", "data_counts"]


@dataclass(frozen=True)
class ComponentCount:
    """One line of the box contents as the game counts it.

    ``found``: how many the data holds (None when nothing in the data counts
    it, e.g. markers); ``source``: what was counted ("worshiper-sets.yaml");
    ``rulebook``: the count the rulebook states, when the game compares that here.
    """

    id: str
    found: Optional[int]
    source: str = ""
    rulebook: Optional[int] = None


@dataclass(frozen=True)
class Inventory:
    """What a game counts of its box contents.

    ``closed``: the counts name every component there is (the rulebook's whole
    Contents), so ``components.yaml`` may list nothing else.
    """

    counts: tuple[ComponentCount, ...]
    closed: bool = False

    @classmethod
    def of(cls, counts: Sequence[ComponentCount], *, closed: bool = False) -> "Inventory":
        return cls(tuple(counts), closed)

    def found(self) -> dict[str, int]:
        """Component id -> the count found in the data (components the data does not count are left out)."""
        return {count.id: count.found for count in self.counts if count.found is not None}


def count_problems(game: GameData, inventory: Inventory) -> Iterator[Problem]:
    """Every disagreement between components.yaml and the game's count of its data and its rulebook."""
    doc = game.doc(COMPONENTS_KIND)
    listed = {record["id"]: index for index, record in enumerate(doc.data[LIST_KEY])}
    counts = {count.id: count for count in inventory.counts}
    for count in inventory.counts:
        if count.id not in listed:
            yield doc.problem((LIST_KEY,), f"component {count.id}: missing ({_expected(count)})")
            continue
        index = listed[count.id]
        stated = doc.data[LIST_KEY][index]["count"]
        where = (LIST_KEY, index, "count")
        if count.rulebook is not None and stated != count.rulebook:
            yield doc.problem(where, f"component {count.id}: count {stated}, the rulebook says {count.rulebook}")
        if count.found is not None and stated != count.found:
            yield _short_list(game, count, stated, doc.at(*where)) or \
                doc.problem(where, f"component {count.id}: count {stated}, but {_found(count)}")
    if inventory.closed:
        for component_id, index in listed.items():
            if component_id not in counts:
                yield doc.problem((LIST_KEY, index, "id"), f"component {component_id}: not in the rulebook's Contents "
                                                            f"({', '.join(counts)})")


def _short_list(game: GameData, count: ComponentCount, stated: int, stated_at: Location) -> Optional[Problem]:
    """A data file holding fewer than the box contents say when the rulebook says the same: the mistake is in
    that file (a record deleted, a count lowered), so the problem is told there, first."""
    if count.found is None or count.found >= stated or count.rulebook != stated:
        return None
    counted = next((doc for doc in game.docs.values() if doc.path.name == count.source), None)
    key = record_list(counted) if counted is not None else None
    if counted is None or key is None:
        return None
    records = counted.data[key]
    deleted = " (deleted?)" if len(records) == count.found else \
        " (a card deleted, or its copies lowered?)" if any(isinstance(r, dict) and "copies" in r for r in records) else ""
    return Problem(counted.at(key), (
        f"{counted.path.name} holds {words.count(count.found, singular(count.id))}, but components.yaml counts "
        f"{stated}, as the rulebook does ({stated_at.file}:{stated_at.line}): {stated - count.found} short{deleted}"),
        leads=True)


def _expected(count: ComponentCount) -> str:
    parts = [f"the rulebook lists {count.rulebook}"] if count.rulebook is not None else []
    if count.found is not None:
        parts.append(_found(count))
    return "; ".join(parts) or "the game counts it"


def _found(count: ComponentCount) -> str:
    return f"the data has {count.found}" + (f" ({count.source})" if count.source else "")


def data_counts(game: GameData) -> dict[str, int]:
    """Component id -> the number the game's data holds (the documents' component table), by its spec's count."""
    spec = game.spec
    if spec.counts is None:
        return {}
    inventory: Inventory = spec.counts(game)
    return inventory.found()
