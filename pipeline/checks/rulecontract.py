"""Checks every game declares rather than writes: required rule sections, rulings, example replays.

A game's spec (:class:`~pipeline.data.gamespec.GameSpec`) declares

* ``rule_sections``: the section ids its ``rules.yaml`` must contain (at any
  depth of ``subsections``), because the rulebook has them or a document
  prints into them;
* ``rulings``: a :class:`Rulings`: the file of its rulings (how we settle what
  the rulebook leaves open), each an ``inferred`` record with its reasoning;
  optionally the rulings its engine follows (both ways: none unrecorded, none
  unfollowed) and the rules sections that must list every ruling;
* ``examples``: :class:`Examples`, one per list of example playthroughs: where
  the list is and the function that replays it through the engine.

Validate runs the first two with the shared checks and the replays only when
every other check found nothing (the engine relies on what they vouch for).
Every message is one line at the record's place (``Document.record_at``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Collection, Iterable, Iterator, Mapping, Optional, Sequence

from pipeline.data.kinds import RULES_KIND, RULINGS_KIND
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

    ``kind``/``key``: the file and the list of records holding them; for the rules file, ``key`` is the id of
    the section whose subsections are the rulings (each titled, its paragraphs the ruling);
    ``followed``: the ruling ids the engine follows (e.g. its engine's ``RULINGS``);
    ``listed_in``: the rules sections one of which must name each ruling as ``[[<kind>/<id>]]``;
    ``title``/``text``: the fields of a record holding the ruling's title and the ruling itself."""

    kind: str = RULINGS_KIND
    key: str = RULINGS_KIND
    followed: Optional[Collection[str]] = None
    listed_in: tuple[str, ...] = ()
    title: str = "title"
    text: str = "ruling"


@dataclass(frozen=True)
class Ruling:
    """One ruling as a reader sees it: its id, title, the ruling (markup as written) and why it was chosen."""

    id: str
    title: str
    text: str
    reasoning: str


def ruling_records(game: "GameData", rulings: Rulings) -> list[tuple[tuple[Any, ...], Mapping[str, Any]]]:
    """Each ruling record of ``game`` with its node path in its file, in file order (none when the file or the
    section is missing: the file's own checks say so)."""
    if not game.has(rulings.kind):
        return []
    data = game.doc(rulings.kind).data
    if rulings.kind == RULES_KIND:
        found = _section_path(data.get("sections") or (), rulings.key, ("sections",))
        if found is None:
            return []
        path, section = found
        records, at = section.get("subsections") or (), (*path, "subsections")
    else:
        records, at = data.get(rulings.key) or (), (rulings.key,)
    return [((*at, index), record) for index, record in enumerate(records) if isinstance(record, Mapping)]


def rulings_of(game: "GameData", rulings: Rulings) -> list[Ruling]:
    """The game's rulings as a reader sees them (a text kept as paragraphs is joined into one)."""
    out = []
    for _, record in ruling_records(game, rulings):
        text = record.get(rulings.text)
        provenance = record.get("provenance") or {}
        out.append(Ruling(str(record.get("id")), str(record.get(rulings.title, "")),
                          " ".join(map(str, text)) if isinstance(text, list) else str(text or ""),
                          str(provenance.get("reasoning") or "")))
    return out


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
    records = ruling_records(game, rulings)
    ids = {str(record.get("id")): path for path, record in records}
    for path, record in records:
        provenance = record.get("provenance") or {}
        if provenance.get("source") != INFERRED or not provenance.get("reasoning"):
            yield doc.problem((*path, "provenance"), f"ruling {record.get('id')}: a ruling is ours: its provenance is "
                                                     f"{{source: {INFERRED}, reasoning: ...}} saying why")
    if rulings.followed is not None:
        followed = rulings.followed
        for ruling in followed:
            if ruling not in ids:
                yield doc.problem((rulings.key,), f"ruling {ruling}: the engine follows it but it has no record")
        for ruling, path in ids.items():
            if ruling not in followed:
                yield doc.problem((*path, "id"), f"ruling {ruling}: the engine does not follow it")
    if rulings.listed_in and game.has(RULES_KIND):
        yield from _listing_problems(game, doc, rulings, ids)


def _listing_problems(game: "GameData", doc: "Document", rulings: Rulings,
                      ids: Mapping[str, tuple[Any, ...]]) -> Iterator["Problem"]:
    rules = game.doc(RULES_KIND)
    listed: set[str] = set()
    for name in rulings.listed_in:
        section = _section(rules.data.get("sections") or (), name)
        if section is None:
            yield rules.problem(("sections",), f"rules: no '{name}' section listing the rulings")
            return
        listed |= {m["id"] for text in _texts(section) for m in REFERENCE.finditer(text) if m["kind"] == rulings.kind}
    where = " or ".join(rulings.listed_in)
    for ruling, path in ids.items():
        if ruling not in listed:
            yield doc.problem(path, f"ruling {ruling}: not listed in the rules' {where} section")


def _section(sections: Iterable[Any], wanted: str) -> Optional[Mapping[str, Any]]:
    found = _section_path(sections, wanted, ())
    return found[1] if found is not None else None


def _section_path(sections: Iterable[Any], wanted: str,
                  at: tuple[Any, ...]) -> Optional[tuple[tuple[Any, ...], Mapping[str, Any]]]:
    """The rules section ``wanted`` (at any depth) and its node path, ``at`` being the path of ``sections``."""
    for index, section in enumerate(sections):
        if isinstance(section, Mapping):
            if section.get("id") == wanted:
                return (*at, index), section
            found = _section_path(section.get("subsections") or (), wanted, (*at, index, "subsections"))
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
