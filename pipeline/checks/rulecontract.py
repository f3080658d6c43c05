"""Checks every game declares rather than writes: required rule sections, rulings, example replays.

A game's spec (:class:`~pipeline.data.gamespec.GameSpec`) declares

* ``rule_sections``: the section ids its ``rules.yaml`` must contain (at any
  depth of ``subsections``), because the rulebook has them or a document
  prints into them;
* ``rulings``: a :class:`Rulings`: the file of its rulings (how we settle what
  the rulebook leaves open), each an ``inferred`` record with its reasoning;
  optionally the rulings its engine follows (both ways: none unrecorded, none
  unfollowed) and the rules section that must list every ruling;
* ``examples``: :class:`Examples`, one per list of example playthroughs: where
  the list is and the function that replays it through the engine.

Validate runs the first two with the shared checks and the replays only when
every other check found nothing (the engine relies on what they vouch for).
Every message is one line at the record's place (``Document.record_at``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Collection, Iterable, Iterator, Mapping, Optional, Sequence

from pipeline.data.kinds import RULES_KIND
from pipeline.data.markup import REFERENCE

if TYPE_CHECKING:
    from pipeline.data.dataset import Document, GameData
    from pipeline.data.problems import Problem

INFERRED = "inferred"

# replay(game) -> (example id, path inside the example, message) for every way an example fails to replay
Replay = Callable[["GameData[Any]"], Iterable[tuple[str, Sequence[Any], str]]]


@dataclass(frozen=True)
class Rulings:
    """Where a game keeps its rulings, and who must agree with them.

    ``followed``: the ruling ids the engine follows (e.g. its engine's ``RULINGS``);
    ``listed_in``: the rules section that must name every ruling as ``[[<kind>/<id>]]``."""

    kind: str = "rulings"
    key: str = "rulings"
    followed: Optional[Collection[str]] = None
    listed_in: Optional[str] = None


@dataclass(frozen=True)
class Examples:
    """One list of a game's example playthroughs (``kind``/``key``: the file and list holding them, each
    record with an ``id``; ``label``: what messages call one) and ``replay``: the function that plays every
    one through the engine, reporting what does not hold."""

    replay: Replay
    kind: str = "examples"
    key: str = "examples"
    label: str = "example"


# ------------------------------------------------------------------ rule sections
def section_ids(sections: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    """Every section id of a rules document, subsections included, in order."""
    for section in sections:
        if isinstance(section, Mapping):
            if isinstance(section.get("id"), str):
                yield section["id"]
            yield from section_ids(section.get("subsections") or ())


def section_problems(game: "GameData", required: Sequence[str]) -> Iterator["Problem"]:
    """One problem per required section the rules lack, at the rules' list of sections."""
    if not required or not game.has(RULES_KIND):
        return
    rules = game.doc(RULES_KIND)
    present = set(section_ids(rules.data.get("sections") or ()))
    for missing in (s for s in required if s not in present):
        yield rules.problem(("sections",), f"rules: no section {missing} (the game's spec requires it)")


# ------------------------------------------------------------------ rulings
def ruling_problems(game: "GameData", rulings: Rulings) -> Iterator["Problem"]:
    """Each ruling is inferred with its reasoning; the engine follows exactly the recorded ones; the
    rules section ``listed_in`` names every ruling."""
    if not game.has(rulings.kind):
        return
    doc = game.doc(rulings.kind)
    records = [r for r in doc.data.get(rulings.key) or () if isinstance(r, Mapping)]
    ids = [str(r.get("id")) for r in records]
    for record in records:
        provenance = record.get("provenance") or {}
        if provenance.get("source") != INFERRED or not provenance.get("reasoning"):
            yield doc.problem(doc.record_at(rulings.key, record.get("id"), "provenance"),
                              f"ruling {record.get('id')}: a ruling is ours: its provenance is "
                              f"{{source: {INFERRED}, reasoning: ...}} saying why")
    if rulings.followed is not None:
        followed = rulings.followed
        for ruling in followed:
            if ruling not in ids:
                yield doc.problem((rulings.key,), f"ruling {ruling}: the engine follows it but it has no record")
        for ruling in ids:
            if ruling not in followed:
                yield doc.problem(doc.record_at(rulings.key, ruling, "id"), f"ruling {ruling}: the engine does not follow it")
    if rulings.listed_in is not None and game.has(RULES_KIND):
        yield from _listing_problems(game, doc, rulings, ids)


def _listing_problems(game: "GameData", doc: "Document", rulings: Rulings, ids: list[str]) -> Iterator["Problem"]:
    rules = game.doc(RULES_KIND)
    section = _section(rules.data.get("sections") or (), str(rulings.listed_in))
    if section is None:
        yield rules.problem(("sections",), f"rules: no '{rulings.listed_in}' section listing the rulings")
        return
    listed = {m["id"] for text in _texts(section) for m in REFERENCE.finditer(text) if m["kind"] == rulings.kind}
    for ruling in ids:
        if ruling not in listed:
            yield doc.problem(doc.record_at(rulings.key, ruling),
                              f"ruling {ruling}: not listed in the rules' {rulings.listed_in} section")


def _section(sections: Iterable[Any], wanted: str) -> Optional[Mapping[str, Any]]:
    for section in sections:
        if isinstance(section, Mapping):
            if section.get("id") == wanted:
                return section
            found = _section(section.get("subsections") or (), wanted)
            if found is not None:
                return found
    return None


def _texts(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, Mapping):
        for value in node.values():
            yield from _texts(value)
    elif isinstance(node, list):
        for value in node:
            yield from _texts(value)


# ------------------------------------------------------------------ example replays
def example_problems(game: "GameData", examples: Examples) -> Iterator["Problem"]:
    """Every example that does not replay through the engine as written, one line each naming it."""
    if not game.has(examples.kind):
        return
    doc = game.doc(examples.kind)
    for example_id, path, message in examples.replay(game):
        yield doc.problem(doc.record_at(examples.key, example_id, *path), f"{examples.label} {example_id}: {message}")
