"""A deleted record told once: the cause first, at the list it was deleted from, with the places that still
name it, and every problem that follows from it folded into that one line.

Deleting a record the rest of the data leans on (a Monstrous location, a glossary term, a rule section)
makes a dozen checks fail, each on its own consequence: a count one short, a reference that names no
record, a scenario whose location does not exist. Listed one per line, the cause is lost among them. Here
a record counts as deleted when ``required.yaml`` names it (the rulebook states it), or when two or more
``[[kind/id]]`` references or id fields (``god: blue``, that a check found naming nothing) name it: one
dangling reference is more likely a typo in that reference, told at its own line, unless a count finds the
list it names short. The problems that follow from a deleted record are the ones at a place that names it, at
its list, or whose message names its id, its address or its file.

A card nothing names can still be deleted: then the count that finds its file short leads (checks/components.py)
and the problems told at that list, or naming that file, follow from it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterator, Optional, Sequence

from pipeline.base.words import count
from pipeline.checks.required import NUMBERED_LIST, REQUIRED_KIND
from pipeline.checks.rulebook_facts import SELECT, STEP
from pipeline.data import markup
from pipeline.data.dataset import DATA_SUFFIX, Document, GameData, record_list, record_lists
from pipeline.data.problems import Location, Problem
from pipeline.data.schemas import singular
from pipeline.data.yamlmarks import PathKey

__all__ = ["Deleted", "deleted_records", "fold_deleted"]

PLACES_SHOWN = 6  # lines of one file that still name a deleted record, listed before "and N more"
MIN_DANGLING = 2  # [[references]] to one missing record that make it a deletion rather than a typo


@dataclass(frozen=True)
class Deleted:
    """A record missing from the list ``key`` of ``doc``, that other data still names."""

    doc: Document
    key: str
    record_id: str
    required_at: Optional[Location] = None  # the line of required.yaml that names it, when it does
    held: frozenset[str] = frozenset()  # ids of records it held (required.yaml names them), gone with it

    @property
    def address(self) -> str:
        return STEP.join((self.doc.kind, self.key, self.record_id))

    @property
    def label(self) -> str:
        return f'{singular(self.key)} "{self.record_id}"'


def deleted_records(game: GameData[Any], problems: Sequence[Problem] = ()) -> list[Deleted]:
    """Every record of ``game`` that no list holds and that required.yaml, several [[references]] or several
    id fields the ``problems`` find dangling name, in file order."""
    found: dict[tuple[str, str, str], Deleted] = {}
    required = game.docs.get(REQUIRED_KIND)
    addresses = required.data.get("records") if required is not None and isinstance(required.data, dict) else None
    for index, address in enumerate(addresses if isinstance(addresses, list) else ()):
        if not isinstance(address, str) or required is None:  # (required is there when addresses are)
            continue
        kind, *steps = address.split(STEP)
        record = _missing(game, kind, steps[:2])
        if record is None:
            continue
        known = found.get((kind, steps[0], steps[1]))
        if known is None:
            known = Deleted(record, steps[0], steps[1], required.at("records", index))
        held = known.held | {step for step in steps[3::2] if SELECT not in step}  # .../worshipers/mizaru
        found[(kind, steps[0], steps[1])] = replace(known, held=frozenset(held))
    dangling: dict[tuple[str, str, str], int] = {}
    for _, text in _texts(game):
        for reference in _references(text):
            key = record_list(game.docs.get(reference.kind))
            if reference.game in (None, game.game) and key is not None:
                named = (reference.kind, key, reference.id)
                dangling[named] = dangling.get(named, 0) + 1
    told = " ".join(problem.message for problem in problems)
    for named, times in _id_field_misses(game).items():
        if f"'{named[2]}'" in told or f'"{named[2]}"' in told:  # a check found the value names nothing
            dangling[named] = dangling.get(named, 0) + times
    short = {problem.at for problem in problems if problem.leads}  # lists a count finds short: one reference will do
    for (kind, key, record_id), times in dangling.items():
        doc = _missing(game, kind, [key, record_id]) if (kind, key, record_id) not in found else None
        if doc is not None and (times >= MIN_DANGLING or doc.at(key) in short):
            found[(kind, key, record_id)] = Deleted(doc, key, record_id)
    return sorted(found.values(), key=lambda d: (d.doc.file, d.key, d.record_id))


def _id_field_misses(game: GameData[Any]) -> dict[tuple[str, str, str], int]:
    """Values of id fields that name no record, counted per (kind, list, id).

    A field names records of a list when most of its values are ids of that list (``god: blue``,
    ``centre: olympia``): the data itself tells which fields hold ids, so a field of headings or free words
    that happens to hold an id now and then is left out. The misses of such a field (values that are ids of
    no list at all) are references to records that are not there."""
    lists = [(doc.kind, key, frozenset(str(item.get("id")) for item in doc.data[key] if isinstance(item, dict)))
             for doc in game.docs.values() for key in record_lists(doc)]
    known = frozenset().union(*(ids for _, _, ids in lists))
    hits: dict[tuple[str, str, str, str], int] = {}
    misses: dict[tuple[str, str], list[str]] = {}
    for (doc, path), text in _texts(game):
        field = path[-1] if path and isinstance(path[-1], str) else path[-2] if len(path) > 1 else None
        if not isinstance(field, str) or field == "id":
            continue
        if text in known:
            for kind, key, ids in lists:
                if text in ids:
                    at = (doc.kind, field, kind, key)
                    hits[at] = hits.get(at, 0) + 1
        else:
            misses.setdefault((doc.kind, field), []).append(text)
    best: dict[tuple[str, str], int] = {}  # per field, the most values one list holds: the list it names
    for (doc_kind, field, _, _), named in hits.items():
        best[(doc_kind, field)] = max(best.get((doc_kind, field), 0), named)
    found: dict[tuple[str, str, str], int] = {}
    for (doc_kind, field, kind, key), named in hits.items():
        values = misses.get((doc_kind, field), [])
        if values and named >= len(values) and named == best[(doc_kind, field)]:
            for value in values:
                found[(kind, key, value)] = found.get((kind, key, value), 0) + 1
    return found


def fold_deleted(game: GameData[Any], problems: Sequence[Problem], *, fold: bool = True) -> list[Problem]:
    """``problems`` with each deleted record's consequences folded into one line that leads with the cause;
    ``fold`` False: the cause leads and every consequence is still listed after it."""
    deleted = deleted_records(game, problems)
    remaining = list(problems)
    causes: list[Problem] = []
    for record in deleted:
        places = _places(game, record)
        follows = [problem for problem in remaining if _follows(problem, record, places)] if fold else []
        remaining = [problem for problem in remaining if problem not in follows]
        causes.append(_cause(record, places, len(follows)))
    return causes + (_fold_at_causes(remaining) if fold else remaining)


def _fold_at_causes(problems: Sequence[Problem]) -> list[Problem]:
    """``problems`` with those told at the very place of a cause folded into it.

    A cause that leads is told at the list that holds the mistake (components.yaml's count of a file one card
    short, at that file's list): a card deleted that nothing names. The checks that count that list (per
    colour, per level, a total, the rulebook's example card) then fail at the same line, each on a consequence."""
    causes = [problem for problem in problems if problem.leads]
    follows: dict[Problem, int] = {}
    kept: list[Problem] = []
    for problem in problems:
        cause = None if problem.leads else next((c for c in causes if _told_at(problem, c.at)), None)
        if cause is None:
            kept.append(problem)
        else:
            follows[cause] = follows.get(cause, 0) + 1
    return [_with_consequences(problem, follows.get(problem, 0)) if problem.leads else problem for problem in kept]


def _told_at(problem: Problem, at: Location) -> bool:
    """Whether ``problem`` is told at ``at`` or names its file (``power-cards.yaml gives it the values ...``)."""
    return problem.at == at or re.search(rf"(^|[ (]){re.escape(Path(at.file).name)}\b", problem.message) is not None


def _with_consequences(cause: Problem, follows: int) -> Problem:
    return replace(cause, message=cause.message + _not_listed(follows)) if follows else cause


def _not_listed(follows: int) -> str:
    return f"; {count(follows, 'problem')} that follow{'s' if follows == 1 else ''} from it not listed" \
        if follows else ""


def _missing(game: GameData[Any], kind: str, steps: Sequence[str]) -> Optional[Document]:
    """The document of ``kind`` when its list ``steps[0]`` holds no record with id ``steps[1]``, else None."""
    doc = game.docs.get(kind)
    if doc is None or len(steps) < 2 or not isinstance(doc.data, dict):
        return None
    records = doc.data.get(steps[0])
    if not isinstance(records, list) or SELECT in steps[1]:
        return None
    ids = [str(record.get("id")) for record in records if isinstance(record, dict)]
    if steps[1] in ids or len(set(ids)) < len(ids):  # present, or a used-twice id took its place (told as such)
        return None
    return doc


def _texts(game: GameData[Any]) -> Iterator[tuple[tuple[Document, PathKey], str]]:
    """Every string of every document of ``game``, with where it is."""
    for doc in game.docs.values():
        stack: list[tuple[PathKey, Any]] = [((), doc.data)]
        while stack:
            path, node = stack.pop()
            if isinstance(node, str):
                yield (doc, path), node
            elif isinstance(node, dict):
                stack.extend((path + (key,), value) for key, value in node.items())
            elif isinstance(node, list):
                stack.extend((path + (index,), value) for index, value in enumerate(node))


def _references(text: str) -> list[markup.Reference]:
    if markup.REFERENCE_OPEN not in text:
        return []
    try:
        return list(markup.references(text))
    except markup.MarkupError:
        return []


def _places(game: GameData[Any], record: Deleted) -> list[Location]:
    """Where the data still names ``record``: a [[reference]], an address (required.yaml, rulebook facts) or a
    value equal to its id in another file; in file and line order, one per line."""
    address = record.address
    seen: set[tuple[str, int]] = set()
    places: list[Location] = []
    for (doc, path), text in _texts(game):
        if doc.kind == REQUIRED_KIND:
            continue
        reference = next((reference for reference in _references(text)
                          if reference.kind == record.doc.kind and reference.id == record.record_id), None)
        if reference is not None:
            where = doc.fragment_at(path, reference.source)  # its own line of a folded paragraph
        elif text == address or text.startswith(address + STEP) or (text == record.record_id and path[-1:] != ("id",)):
            where = doc.at(*path)
        else:
            continue
        if (where.file, where.line) not in seen:
            seen.add((where.file, where.line))
            places.append(where)
    return sorted(places)


def _follows(problem: Problem, record: Deleted, places: Sequence[Location]) -> bool:
    """Whether ``problem`` is a consequence of ``record`` missing."""
    at = problem.at
    if record.required_at is not None and at == record.required_at:
        return True
    records = record.doc.data.get(record.key) if isinstance(record.doc.data, dict) else None
    if any(at == record.doc.at(record.key, index, "id") for index in range(len(records or ()))):
        return False  # about the id of a record still in the list: a renamed one, told at its own line
    if at == record.doc.at(record.key) or any(at.file == place.file and at.line == place.line for place in places):
        return True
    if at.file == record.doc.at(record.key).file and problem.message.startswith(f"{NUMBERED_LIST}:"):
        return True  # the records after it are numbered one too high
    ids = "|".join(re.escape(name) for name in sorted({record.record_id, *record.held}))
    # quoted, in an address or reference, in brackets, or as the label a message starts with ("worshiper mizaru:")
    named = re.compile(rf"['\"/(]({ids})(['\"/\]):) ]|$)|^[a-z][a-z ]* ({ids})[:( ]")
    return bool(named.search(problem.message)) or f"{record.doc.kind}{DATA_SUFFIX}" in problem.message


def _cause(record: Deleted, places: Sequence[Location], follows: int) -> Problem:
    shown = "; ".join(_lines_of(file, [place.line for place in places if place.file == file])
                      for file in dict.fromkeys(place.file for place in places))
    stated = f"; the rulebook states it ({record.required_at.file}:{record.required_at.line})" \
        if record.required_at is not None else ""
    named = f"; {count(len(places), 'place')} still {'names' if len(places) == 1 else 'name'} it: {shown}" \
        if places else ""
    return Problem(record.doc.at(record.key), (
        f"{record.label} is missing from {record.doc.path.name} (deleted or renamed?){stated}{named}"
        f"{_not_listed(follows)}"),
        leads=True)


def _lines_of(file: str, lines: Sequence[int]) -> str:
    """``file:12, 16, 74 and 3 more``: the first lines of one file that name a deleted record."""
    more = f" and {len(lines) - PLACES_SHOWN} more" if len(lines) > PLACES_SHOWN else ""
    return f"{file}:{', '.join(str(line) for line in lines[:PLACES_SHOWN])}{more}"
