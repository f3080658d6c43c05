"""The combined glossary of every game, with see-alsos where games use one word differently.

Overlaps are computed, not typed: a glossary term of one game overlaps
(a) a glossary term of another game with the same word (``God`` in
Monstrous, ``God (deity)`` in Monotheism: parenthesised qualifiers and a
leading "the" are ignored), or (b) something another game names with that
word: a record's name, title, label or principle (Monstrous ``Faith`` and the
Totems + Taboos colour whose principle is Faith).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from pipeline.checks.names import NAME_FIELDS, display_name
from pipeline.checks.references import References
from pipeline.data.dataset import GameData
from pipeline.data.kinds import GLOSSARY_KIND
from pipeline.documents import structure as m
from pipeline.documents.layout import table_columns

# Fields whose value names a thing in a game (beyond display names): checked for overlaps.
NAMING_FIELDS = ("name", "title", "term", "label", "principle")
_QUALIFIER = re.compile(r"\s*\([^)]*\)")
_LEADING_ARTICLE = re.compile(r"^the\s+")


def word_key(text: str) -> str:
    """The comparable form of a term: lower case, no '(qualifier)', no leading 'the'."""
    key = _QUALIFIER.sub("", text).strip().casefold()
    return _LEADING_ARTICLE.sub("", key)


@dataclass(frozen=True)
class Entry:
    game: str
    game_title: str
    term: str
    definition: str  # references resolved


@dataclass(frozen=True)
class Naming:
    """Something a game calls by a word: a glossary term, or a field of a record."""

    game: str
    game_title: str
    kind: str
    field: str
    value: str
    record: str  # the record's display name

    def describe(self) -> str:
        if self.kind == GLOSSARY_KIND:
            return f"{self.value} ({self.game_title})"
        if self.field in ("name", "title", "term", "label"):
            return f"{self.value} ({self.game_title}, {self.kind.replace('-', ' ')})"
        return f"{self.record} ({self.game_title}), whose {self.field} is {self.value}"


def game_title(game: str, refs: References) -> str:
    """The title of ``game``, as its spec (among those ``refs`` reads through) gives it."""
    return refs.catalogue.specs.spec(game).title


def _records(data: Any) -> Iterator[dict[str, Any]]:
    """The records of a document: mappings in its top-level lists."""
    for value in data.values():
        if isinstance(value, list):
            yield from (r for r in value if isinstance(r, dict))


NamingView = list[tuple[str, list[dict[str, Any]]]]


def naming_view(loaded: GameData) -> NamingView:
    """All the glossary reads of a game: per kind, its records' ids and naming fields (glossary records whole)."""
    def seen(kind: str, record: dict[str, Any]) -> dict[str, Any]:
        if kind == GLOSSARY_KIND:
            return record
        return {key: record[key] for key in ("id", *NAME_FIELDS, *NAMING_FIELDS) if key in record}

    return [(kind, [seen(kind, record) for record in _records(doc.data)]) for kind, doc in sorted(loaded.docs.items())]


def namings(games: Iterable[str], refs: References) -> tuple[list[Entry], list[Naming]]:
    """Every glossary entry, and every naming (glossary terms and record fields) of ``games`` (as loaded once by
    ``refs.catalogue``), read through :func:`naming_view` only."""
    entries: list[Entry] = []
    names: list[Naming] = []
    for game in games:
        title = game_title(game, refs)
        for kind, records in naming_view(refs.catalogue.game(game)):
            for record in records:
                shown = display_name(record, str(record.get("id", "")))
                for field_name in NAMING_FIELDS:
                    value = record.get(field_name)
                    if isinstance(value, str) and value:
                        names.append(Naming(game, title, kind, field_name, value, shown))
                if kind == GLOSSARY_KIND and "term" in record:
                    entries.append(Entry(game, title, record["term"], refs.resolve(" ".join(record["definition"].split()), game)))
    return entries, names


def overlaps(entry: Entry, names: list[Naming]) -> list[Naming]:
    """What other games call by this entry's word (see the module docstring)."""
    key = word_key(entry.term)
    found = [n for n in names if n.game != entry.game and word_key(n.value) == key]
    unique: dict[tuple[str, str, str], Naming] = {}
    for naming in found:
        unique.setdefault((naming.game, naming.kind, naming.record), naming)
    return sorted(unique.values(), key=lambda n: (n.game_title, n.kind != GLOSSARY_KIND, n.kind, n.record))


def combined_glossary(games: Iterable[str], refs: References) -> m.Document:
    """Every term of every game, alphabetically, with its game and computed see-alsos."""
    chosen = list(games)
    entries, names = namings(chosen, refs)
    by_word: dict[str, list[Naming]] = {}  # each entry is matched against the namings of its own word only
    for naming in names:
        by_word.setdefault(word_key(naming.value), []).append(naming)
    rows = []
    shared = []
    for entry in sorted(entries, key=lambda e: (word_key(e.term), e.game_title)):
        meaning = entry.definition
        others = overlaps(entry, by_word.get(word_key(entry.term), []))
        if others:
            meaning += " _See also: " + "; ".join(n.describe() for n in others) + "._"
            shared.append((f"**{entry.term}**", entry.game_title, "; ".join(n.describe() for n in others)))
        rows.append((f"**{entry.term}**", entry.game_title, meaning))
    titles = ", ".join(game_title(g, refs) for g in chosen)
    blocks: list[m.Block] = [
        m.Paragraph(f"Every term of the {len(chosen)} games ({titles}), {len(entries)} in all, with the game it belongs to."),
        m.Heading("Words the games use differently", 1),
        m.Paragraph("These words mean one thing in one game and something else in another; each entry below points across."),
        m.Table(("Term", "Game", "Also used as"), tuple(shared), table_columns("shared_terms")),
        m.Heading("All terms", 1),
        m.Table(("Term", "Game", "Meaning"), tuple(rows), table_columns("all_terms")),
    ]
    return m.Document("Pantheon Press: Combined glossary", "Pantheon Press", GLOSSARY_KIND, tuple(blocks))
