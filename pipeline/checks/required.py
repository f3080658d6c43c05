"""What the rulebook fixes, kept as a list per game (``data/<game>/required.yaml``) that `validate` holds the
data to, plus the check that every numbered list is numbered 1, 2, 3 ... in order.

``required.yaml`` has two lists:

* ``records``: the address (``kind/step/...``, as in rulebook-facts.yaml: a step into a list picks the
  record by ``id`` or ``field=value``) of every record whose provenance is the rulebook. Deleting or
  renaming one is a problem naming the file of ``required.yaml`` and the address, so a ruling, a glossary
  term or a symbol the rulebook states cannot vanish unnoticed. Made once from the data with
  :func:`rulebook_addresses` and reviewed by hand; a record added since is listed by hand.
* ``fixed``: values the rulebook states whatever provenance the record holding them claims (a rulebook
  sentence that leaves no reading open): each gives the address, the value, the section and the sentence
  (``says``). A different value is a problem at the data file's line, quoting the sentence.
"""
from __future__ import annotations

from typing import Any, Iterator, Optional

from pipeline.checks.rulebook_facts import PROVENANCE, RULEBOOK, STEP, Unresolved, node_at, resolve, same_value, show
from pipeline.data.dataset import DATA_SUFFIX, Document, GameData
from pipeline.data.problems import Problem
from pipeline.data.yamlmarks import PathKey

REQUIRED_KIND = "required"
NUMBER = "number"
SELECTORS = ("id", "number", "level", "name")  # fields a list step may pick a record by, in order of preference


def required_problems(game: GameData, unread: frozenset[str] = frozenset()) -> Iterator[Problem]:
    """Each required record that no longer resolves, and each fixed value the data departs from; records of
    the kinds ``unread`` (a file that could not be read or is missing, told as such) are not judged.

    ``required.yaml`` must have passed its schema."""
    required = game.docs.get(REQUIRED_KIND)
    if required is None:
        return
    for index, address in enumerate(required.data.get("records", [])):
        if address.split(STEP, 1)[0] in unread:
            continue
        try:
            resolve(game, address)
        except Unresolved as why:
            yield required.problem(("records", index), f"required rulebook record {address} is missing ({why}); "
                                                        f"the rulebook states it, so it cannot be deleted or renamed")
    for index, fixed in enumerate(required.data.get("fixed", [])):
        yield from _fixed_problems(game, required, index, fixed, unread)


def _fixed_problems(game: GameData, required: Document, index: int, fixed: dict[str, Any],
                    unread: frozenset[str]) -> Iterator[Problem]:
    address = fixed["at"]
    if address.split(STEP, 1)[0] in unread:
        return
    try:
        doc, path = resolve(game, address)
    except Unresolved as why:
        yield required.problem(("fixed", index, "at"), f"fixed value {address} is missing ({why})")
        return
    actual = node_at(doc.data, path)
    if not same_value(actual, fixed["value"]):
        yield doc.problem(path, f"{address} is {show(actual)}, but the rulebook fixes it at {show(fixed['value'])} "
                                f"({fixed['section']}: \"{fixed['says']}\"; {REQUIRED_KIND}{DATA_SUFFIX})")


NUMBERED_LIST = "numbered list"  # how its problems begin: a record deleted from such a list renumbers the rest


def numbered_list_problems(doc: Document) -> Iterator[Problem]:
    """Every list whose records carry a ``number`` is numbered 1, 2, 3 ... in list order (each problem at the
    first number out of place)."""
    for path, records in _numbered_lists(doc.data, ()):
        for position, record in enumerate(records, 1):
            number = record.get(NUMBER)
            if number != position or isinstance(number, bool):
                yield doc.problem(path + (position - 1, NUMBER),
                                  f"{NUMBERED_LIST}: entry {position} is numbered {show(number)}; "
                                  f"a numbered list counts 1, 2, 3 ... in order")
                break


def _numbered_lists(node: Any, path: PathKey) -> Iterator[tuple[PathKey, list[dict[str, Any]]]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _numbered_lists(value, path + (key,))
    elif isinstance(node, list):
        records = [item for item in node if isinstance(item, dict)]
        if records and len(records) == len(node) and any(NUMBER in record for record in records):
            yield path, records
        for index, item in enumerate(node):
            yield from _numbered_lists(item, path + (index,))


def rulebook_addresses(game: GameData) -> tuple[list[str], list[str]]:
    """(addresses, unaddressable): the address of every record whose provenance is the rulebook, each
    checked to resolve to that record, and the places of the ones no address picks out alone."""
    found: list[str] = []
    unaddressable: list[str] = []
    for kind, doc in game.docs.items():
        if kind == REQUIRED_KIND:
            continue
        for path in _rulebook_paths(doc.data, ()):
            address = _address(doc, path)
            if address is not None and _resolves_to(game, address, doc, path):
                found.append(address)
            else:
                unaddressable.append(f"{doc.at(*path)}")
    return found, unaddressable


def _rulebook_paths(node: Any, path: PathKey) -> Iterator[PathKey]:
    if isinstance(node, dict):
        provenance = node.get(PROVENANCE)
        if isinstance(provenance, dict) and provenance.get("source") == RULEBOOK:
            yield path
        for key, value in node.items():
            if key != PROVENANCE:
                yield from _rulebook_paths(value, path + (key,))
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _rulebook_paths(item, path + (index,))


def _address(doc: Document, path: PathKey) -> Optional[str]:
    steps = [doc.kind]
    node: Any = doc.data
    for step in path:
        if isinstance(node, list) and isinstance(step, int):
            record = node[step]
            selector = next((key for key in SELECTORS if isinstance(record, dict) and key in record), None)
            if selector is None:
                return None
            value = record[selector]
            steps.append(str(value) if selector == "id" else f"{selector}={value}")
        else:
            steps.append(str(step))
        node = node[step]
    return STEP.join(steps)


def _resolves_to(game: GameData, address: str, doc: Document, path: PathKey) -> bool:
    try:
        return resolve(game, address) == (doc, path)
    except Unresolved:
        return False
