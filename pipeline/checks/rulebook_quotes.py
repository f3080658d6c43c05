"""Rulebook quotes: words the data gives as the rulebook's must be the rulebook's.

Each game ships the text of its rulebook as ``data/<game>/rulebook.md`` (a copy
of the source rulebook, pictures lost). `validate` reports every quotation -
a passage of at least :data:`MIN_WORDS` words in quotation marks - that the
data presents as the rulebook's words but the rulebook does not contain:

* any quotation inside a record whose provenance is ``rulebook`` (its own
  fields, and its provenance's note): the record claims to give the rulebook;
* any quotation in a provenance's ``reasoning`` or ``note``: that is where a
  record cites the rulebook to justify itself.

A quotation matches when, after normalising whitespace, quotation marks,
dashes, letter case and markup (``**bold**``, ``<sup>``, ``[[references]]``),
it occurs in the rulebook verbatim; an ellipsis (``...``) may stand for left-out
words, the parts then occurring in order. A paraphrase is not a quotation: it
drops the quotation marks, and a record that only paraphrases says so with
provenance ``inferred``.
"""
from __future__ import annotations

import re
from typing import Any, Iterator, Optional

from pipeline.data.dataset import Document, GameData
from pipeline.data.problems import Problem
from pipeline.data.schemas import describe_path
from pipeline.data.yamlmarks import PathKey

RULEBOOK_FILE = "rulebook.md"
MIN_WORDS = 3  # shorter quotations are names and terms ('Solo rulings', "If"), not the rulebook's sentences
RULEBOOK = "rulebook"
PROVENANCE = "provenance"
CITING_FIELDS = ("reasoning", "note")  # where a provenance explains itself, citing the rulebook

# A quotation: '...' opened after a space or bracket and closed before a space or punctuation (so the
# apostrophes of "player's" and "players'" never pair up), "...", or typographic quotes.
QUOTATION = re.compile(
    r"(?:^|(?<=[\s(\[]))'(?=\S)([^']*?\S)'(?=[\s.,;:!?)\]]|$)"
    r"|\"([^\"]+)\"|\u201c([^\u201d]+)\u201d|\u2018([^\u2019]+)\u2019"
)
ELLIPSIS = re.compile(r"\.\.\.|\u2026|\[\[[^\]]*\]\]")  # left-out words; a reference is ours, not the rulebook's
_MARKUP = re.compile(r"<[^>]+>|[*_#`\\|]")
_DASHES = re.compile(r"\s*(?:[\u2012\u2013\u2014\u2212]|--?)\s*")
_QUOTES = re.compile(r"[\"'\u2018\u2019\u201c\u201d]")
_PUNCTUATION = re.compile(r"\s*([.,;:!?()])\s*")
_SPACE = re.compile(r"\s+")


def normalised(text: str) -> str:
    """``text`` with markup, quotation marks, dash styles, spacing and letter case made uniform."""
    text = _MARKUP.sub(" ", text)
    text = _QUOTES.sub(" ", text)
    text = _DASHES.sub(" - ", text)
    text = _PUNCTUATION.sub(r" \1 ", text)
    return _SPACE.sub(" ", text).strip().casefold()


def quotations(text: str) -> Iterator[str]:
    """The quotations of at least MIN_WORDS words in ``text``."""
    for match in QUOTATION.finditer(text):
        quoted = next(group for group in match.groups() if group is not None)
        if len(quoted.split()) >= MIN_WORDS:
            yield quoted


def contains(rulebook: str, quoted: str) -> bool:
    """Whether the normalised ``rulebook`` holds ``quoted`` verbatim (its parts in order around an ellipsis)."""
    start = 0
    for part in (normalised(p) for p in ELLIPSIS.split(quoted)):
        if not part:
            continue
        found = rulebook.find(part, start)
        if found < 0:
            return False
        start = found + len(part)
    return True


def rulebook_text(game: GameData) -> Optional[str]:
    """The normalised text of the game's shipped rulebook, or None when the game ships none."""
    path = game.root / RULEBOOK_FILE
    if not path.is_file():
        return None
    return normalised(path.read_text(encoding="utf-8"))


def quote_problems(game: GameData) -> Iterator[Problem]:
    """One problem per quotation the data gives as the rulebook's words that the rulebook does not contain."""
    rulebook: Optional[str] = None
    for doc in game.docs.values():
        for path, quoted in claimed_quotations(doc.data):
            if rulebook is None:
                rulebook = rulebook_text(game)
                if rulebook is None:
                    yield doc.problem(path, f"{game.game} ships no {RULEBOOK_FILE} to check the quotation "
                                            f"\"{quoted}\" against")
                    return
            if not contains(rulebook, quoted):
                yield doc.problem(path, _message(doc, path, quoted))


def _message(doc: Document, path: PathKey, quoted: str) -> str:
    label, inner = describe_path(doc.data, path)
    return (f"{label}{inner}: quotes \"{quoted}\" as the rulebook's words, but the rulebook does not contain "
            f"them; quote it verbatim, or drop the quotation marks and mark a paraphrase inferred")


def claimed_quotations(node: Any, path: PathKey = (), claimed: bool = False) -> Iterator[tuple[PathKey, str]]:
    """(path, quotation) of every quotation under ``node`` that the data gives as the rulebook's words.

    ``claimed``: ``node`` lies inside a record whose provenance is ``rulebook`` (and has none of its own).
    """
    if isinstance(node, str):
        if claimed:
            yield from ((path, q) for q in quotations(node))
        return
    if isinstance(node, list):
        for index, item in enumerate(node):
            yield from claimed_quotations(item, path + (index,), claimed)
        return
    if not isinstance(node, dict):
        return
    provenance = node.get(PROVENANCE)
    if isinstance(provenance, dict):
        claimed = provenance.get("source") == RULEBOOK
        for key in CITING_FIELDS:
            text = provenance.get(key)
            if isinstance(text, str):
                yield from ((path + (PROVENANCE, key), q) for q in quotations(text))
    for key, value in node.items():
        if key != PROVENANCE:
            yield from claimed_quotations(value, path + (key,), claimed)
