"""Rulebook facts: what a rulebook states, kept once per game, compared with every field that cites it.

Each game keeps ``data/<game>/rulebook-facts.yaml``: a list of facts, each with
the rulebook section it comes from, a paraphrase in our words (``says``), the
stated ``value`` and the data fields it ``pins``. `validate` reports

* a pinned field whose record cites the rulebook (provenance source
  ``rulebook``) but whose value differs from the fact. The rulebook wins unless
  the designer departs on purpose by setting that record's provenance to
  ``inferred`` or ``authored``;
* a pin that resolves to nothing (a renamed record or field), at the pin;
* completeness: a number, boolean or null inside a rulebook-provenance record
  that no fact pins, so a new value cannot claim the rulebook unchecked.

A fact's value may be structured. A mapping states only the keys it names (a
fact about a tie-breaker's measure says nothing about our wording of it); a
mapping pinned to a list of records states, per record id, that record's
fields, in any order; a list states its length and order, entry by entry. So
one fact can hold a whole rulebook table (tower levels) or an ordered list
(tie-breakers).

A fact may instead name the constant of the game's ``checks`` module that
already compares those fields (``checked_by``: Monotheism's fixed facts), so no
rulebook value is kept twice.

A pin address (``kind/step/step...``) survives reordering: the first step names
the data file, a step into a mapping is a key, and a step into a list picks the
one record with that ``id``, or with ``field=value``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Optional

from pipeline.data.dataset import DATA_SUFFIX, Document, GameData
from pipeline.data.problems import Location, Problem
from pipeline.data.schemas import describe_path
from pipeline.data.yamlmarks import PathKey

FACTS_KIND = "rulebook-facts"
FACTS_KEY = "facts"
RULEBOOK = "rulebook"
PROVENANCE = "provenance"
STEP = "/"
SELECT = "="
DEPART_HINT = "to depart from the rulebook on purpose, set this record's provenance to inferred or authored"
# Fields of the shared document shapes that only lay text out (a numbered list in
# rules.yaml): they state no rule of the game, so they need no fact.
LAYOUT_FIELDS: dict[str, frozenset[str]] = {"rules": frozenset({"numbered"})}


class Unresolved(Exception):
    """A pin whose address does not lead to a node; the message says where it stopped."""


@dataclass
class Coverage:
    """What the facts pin: single nodes (``value`` facts) and whole subtrees (``checked_by`` facts)."""

    nodes: set[tuple[str, PathKey]] = field(default_factory=set)
    trees: set[tuple[str, PathKey]] = field(default_factory=set)

    def covers(self, kind: str, path: PathKey) -> bool:
        return (kind, path) in self.nodes or any((kind, path[:cut]) in self.trees for cut in range(len(path), 0, -1))


@dataclass(frozen=True)
class Difference:
    """One place where data and fact disagree: the data node nearest to it, and what to say."""

    path: PathKey
    message: str


def fact_problems(game: GameData, checks: Optional[object] = None,
                  unsettled: frozenset[str] = frozenset()) -> Iterator[Problem]:
    """Every disagreement between the game's data and its rulebook facts, plus unpinned rulebook values.

    The facts document must have passed its schema. Documents in ``unsettled``
    (kinds with schema or duplicate-id problems of their own) are left out:
    their problems are already reported, once, where they are.
    """
    facts_doc = game.docs.get(FACTS_KIND)
    covered = Coverage()
    if facts_doc is not None:
        pinned_by: dict[tuple[str, PathKey], str] = {}
        for index, fact in enumerate(facts_doc.data[FACTS_KEY]):
            for position, address in enumerate(fact["pins"]):
                if address.split(STEP, 1)[0] not in unsettled:
                    where = facts_doc.at(FACTS_KEY, index, "pins", position)
                    yield from _pin_problems(game, fact, address, where, covered, pinned_by)
            yield from _checked_by_problems(facts_doc, index, fact, checks)
    yield from unpinned_problems(game, covered, unsettled)


def _pin_problems(game: GameData, fact: dict[str, Any], address: str, where: Location, covered: Coverage,
                  pinned_by: dict[tuple[str, PathKey], str]) -> Iterator[Problem]:
    """One pin of ``fact``: it must resolve, agree with the fact, and pin nothing another fact pins.

    Records what it covers in ``covered`` and who pins what in ``pinned_by``.
    """
    try:
        doc, path = resolve(game, address)
    except Unresolved as exc:
        yield Problem(where, f"fact {fact['id']}: pin {address} resolves to nothing: {exc}")
        return
    if "value" in fact:
        nodes = [(doc.kind, node) for node in covered_paths(path, node_at(doc.data, path), fact["value"])]
        covered.nodes.update(nodes)
        disagreements = list(_comparison_problems(doc, path, fact))
        if disagreements:  # still pinned, shape and all: its disagreement is told once, here, not again as unpinned
            covered.trees.add((doc.kind, path))
        yield from disagreements
    else:  # left to the game's checks: the whole node is theirs
        nodes = [(doc.kind, path)]
        covered.trees.add((doc.kind, path))
    for node in nodes:
        earlier = pinned_by.setdefault(node, fact["id"])
        if earlier != fact["id"]:
            label, inner = describe_path(doc.data, node[1])
            yield Problem(where, f"fact {fact['id']}: {address} pins {label}{inner}, which fact {earlier} already pins")
            return


def _comparison_problems(doc: Document, path: PathKey, fact: dict[str, Any]) -> Iterator[Problem]:
    for difference in differences(doc.data, path, fact["value"]):
        label, _ = describe_path(doc.data, difference.path)
        yield doc.problem(difference.path, f"{label}{difference.message} (fact {fact['id']}, section "
                                           f"\"{fact['section']}\"); {DEPART_HINT}")


def _checked_by_problems(facts_doc: Document, index: int, fact: dict[str, Any],
                         checks: Optional[object]) -> Iterator[Problem]:
    """A fact left to the game's own checks must name a constant those checks define."""
    for position, name in enumerate(fact.get("checked_by", ())):
        if checks is None or not hasattr(checks, name):
            module = getattr(checks, "__name__", "the game's checks module")
            yield facts_doc.problem((FACTS_KEY, index, "checked_by", position),
                                    f"fact {fact['id']}: checked_by names {name}, which {module} does not define")


# ---- addresses ---------------------------------------------------------------------------
def resolve(game: GameData, address: str) -> tuple[Document, PathKey]:
    """The document and path ``address`` names in ``game``; raises Unresolved saying where it stopped."""
    kind, *steps = address.split(STEP)
    doc = game.docs.get(kind)
    if doc is None:
        raise Unresolved(f"{game.game} has no {kind}{DATA_SUFFIX}")
    path: PathKey = ()
    for step in steps:
        node = node_at(doc.data, path)
        if isinstance(node, dict):
            if step not in node:
                raise Unresolved(f"no key '{step}' in {_where(doc, path)}")
            path += (step,)
        elif isinstance(node, list):
            path += (_pick(doc, path, node, step),)
        else:
            raise Unresolved(f"{_where(doc, path)} is a value, so it has no '{step}'")
    return doc, path


def _pick(doc: Document, path: PathKey, records: list[Any], step: str) -> int:
    """The index of the one record in ``records`` that ``step`` selects (by id, or ``field=value``)."""
    key, _, wanted = step.rpartition(SELECT) if SELECT in step else ("id", SELECT, step)
    matches = [i for i, record in enumerate(records) if isinstance(record, dict) and _selector_text(record.get(key)) == wanted]
    if len(matches) != 1:
        count = "no record" if not matches else f"{len(matches)} records"
        raise Unresolved(f"{count} with {key} {wanted} in {_where(doc, path)}")
    return matches[0]


def _selector_text(value: Any) -> Optional[str]:
    """How a selector sees a field: ids and numbers as their plain text, anything else as unselectable."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return None
    return str(value)


def node_at(data: Any, path: PathKey) -> Any:
    """The node of plain ``data`` at ``path`` (which must exist)."""
    for step in path:
        data = data[step]
    return data


def _where(doc: Document, path: PathKey) -> str:
    label, inner = describe_path(doc.data, path)
    return f"{doc.kind}{DATA_SUFFIX} {label}{inner}".rstrip(": ") if path else f"{doc.kind}{DATA_SUFFIX}"


# ---- comparing ---------------------------------------------------------------------------
def governing_provenance(data: Any, path: PathKey) -> Optional[dict[str, Any]]:
    """The provenance of the innermost record (mapping with a ``provenance``) that holds the node at ``path``."""
    found: Optional[dict[str, Any]] = None
    node = data
    for depth in range(len(path) + 1):
        if isinstance(node, dict) and isinstance(node.get(PROVENANCE), dict):
            found = node[PROVENANCE]
        if depth < len(path):
            node = node[path[depth]]
    return found


def cites_rulebook(data: Any, path: PathKey) -> bool:
    """Whether the node at ``path`` answers to the rulebook (a node under no provenance does)."""
    provenance = governing_provenance(data, path)
    return provenance is None or provenance.get("source") == RULEBOOK


def differences(data: Any, path: PathKey, expected: Any) -> Iterator[Difference]:
    """Where the node at ``path`` disagrees with ``expected``, skipping records that depart on purpose.

    A mapping is compared on the keys ``expected`` names; a list of records
    against a mapping by record id (order free); a list against a list on its
    length (unless one of its entries departs from the rulebook), then entry by entry.
    """
    if not cites_rulebook(data, path):
        return
    actual = node_at(data, path)
    name = describe_path(data, path)[1] or "this record"
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key, wanted in expected.items():
            if key in actual:
                yield from differences(data, path + (key,), wanted)
            else:
                yield Difference(path, f"{name} has no {key}, but the rulebook says {key}: {show(wanted)}")
    elif isinstance(expected, dict) and isinstance(actual, list):
        for record_id, wanted in expected.items():
            index = _record_index(actual, record_id)
            if index is None:
                yield Difference(path, f"{name} has no single record {record_id}, but the rulebook says {record_id}: {show(wanted)}")
            else:
                yield from differences(data, path + (index,), wanted)
    elif isinstance(expected, list) and isinstance(actual, list):
        if len(actual) != len(expected):
            if all(cites_rulebook(data, path + (i,)) for i in range(len(actual))):
                yield Difference(path, f"{name} has {len(actual)} entries, but the rulebook says {len(expected)}: {show(expected)}")
            return
        for index, wanted in enumerate(expected):
            yield from differences(data, path + (index,), wanted)
    elif not same_value(actual, expected):
        yield Difference(path, f"{name} is {show(actual)}, but the rulebook says {show(expected)}")


def covered_paths(path: PathKey, actual: Any, expected: Any) -> Iterator[PathKey]:
    """The data nodes a fact's value speaks for: the keys it names and the list entries, down to its leaves.

    A key the fact leaves out is not covered, though its mapping is.
    """
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key, wanted in expected.items():
            if key in actual:
                yield from covered_paths(path + (key,), actual[key], wanted)
    elif isinstance(expected, dict) and isinstance(actual, list):
        for record_id, wanted in expected.items():
            index = _record_index(actual, record_id)
            if index is not None:
                yield from covered_paths(path + (index,), actual[index], wanted)
    elif isinstance(expected, list) and isinstance(actual, list):
        for index, (item, wanted) in enumerate(zip(actual, expected)):
            yield from covered_paths(path + (index,), item, wanted)
    else:
        yield path


def _record_index(records: list[Any], record_id: str) -> Optional[int]:
    """Where the one record with ``id`` ``record_id`` is in ``records`` (None if there is not exactly one)."""
    found = [i for i, record in enumerate(records) if isinstance(record, dict) and _selector_text(record.get("id")) == record_id]
    return found[0] if len(found) == 1 else None


def same_value(actual: Any, expected: Any) -> bool:
    """Equality as a data file means it: ``true`` is not ``1``, mappings ignore key order, lists do not."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(actual) is type(expected) and actual == expected
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return actual == expected
    if isinstance(expected, dict) and isinstance(actual, dict):
        return expected.keys() == actual.keys() and all(same_value(actual[k], expected[k]) for k in expected)
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(same_value(a, e) for a, e in zip(actual, expected))
    return type(actual) is type(expected) and actual == expected


def show(value: Any) -> str:
    """A value as YAML flow style would write it, on one line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {show(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(show(item) for item in value) + "]"
    return str(value)


# ---- completeness ----------------------------------------------------------------------------
def rulebook_values(doc: Document) -> Iterator[tuple[PathKey, Any]]:
    """Every number, boolean and null held by a record whose provenance is the rulebook.

    A nested record with a provenance of its own answers for its own fields.
    """
    layout = LAYOUT_FIELDS.get(doc.kind, frozenset())

    def visit(node: Any, path: PathKey, from_rulebook: bool) -> Iterator[tuple[PathKey, Any]]:
        if isinstance(node, dict):
            provenance = node.get(PROVENANCE)
            if isinstance(provenance, dict):
                from_rulebook = provenance.get("source") == RULEBOOK
            for key, value in node.items():
                if key != PROVENANCE and key not in layout:
                    yield from visit(value, path + (key,), from_rulebook)
        elif isinstance(node, list):
            for index, value in enumerate(node):
                yield from visit(value, path + (index,), from_rulebook)
        elif from_rulebook and not isinstance(node, str):
            yield path, node

    return visit(doc.data, (), False)


def unpinned_problems(game: GameData, covered: Coverage, unsettled: frozenset[str] = frozenset()) -> Iterator[Problem]:
    """Each rulebook-provenance value that no fact pins (documents in ``unsettled`` left out)."""
    for kind, doc in game.docs.items():
        if kind == FACTS_KIND or kind in unsettled:
            continue
        for path, value in rulebook_values(doc):
            if covered.covers(kind, path):
                continue
            label, where = describe_path(doc.data, path)
            yield doc.problem(path, f"{label}{where} = {show(value)} cites the rulebook, but no rulebook fact pins it; "
                                    f"add a fact to {FACTS_KIND}{DATA_SUFFIX} or set this record's provenance "
                                    f"to inferred or authored")
