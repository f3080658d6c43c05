"""Rulebook provenance: words the data gives as the rulebook's must be the rulebook's.

Each game ships the text of its rulebook as ``data/<game>/rulebook.md`` (a copy
of the source rulebook, pictures lost). `validate` reports

* every **text of a record whose provenance is** ``rulebook`` that the rulebook
  does not contain (:func:`text_problems`). Such a record claims to give the
  rulebook's words, so each of its own texts (not its provenance) must be them:

  - a text of at least :data:`MIN_WORDS` words occurs in the rulebook verbatim
    (an ellipsis may stand for left-out words, the parts then in order), a final
    full stop, colon or semicolon aside, since a quoted sentence may end where
    the rulebook's goes on;
  - a shorter text (a name, a term, a label) uses only words the rulebook
    contains: "Justice token" where the rulebook says "Justice tokens" is our
    name, in the rulebook's words;
  - identifiers (``passive-religion``) and the move notation of
    :data:`NOTATION_FIELDS` are the data's own language, not text, and are not compared;

  a text that is our paraphrase belongs to a record marked ``inferred``, whose
  reasoning names the section it paraphrases;
* every **quotation** - a passage of at least :data:`MIN_WORDS` words in quotation
  marks - in a provenance's ``reasoning`` or ``note``: that is where a record cites
  the rulebook to justify itself.

Text and rulebook are compared after normalising whitespace, quotation marks
(straight and curly), dashes, letter case (the first letter of a sentence is
not the rulebook's choice), spelling (the edition's British "colour" and "favour" are the rulebooks'
American "color" and "favor") and markup (``**bold**``, ``<sup>``, list bullets);
a ``[[reference]]`` is ours and stands for left-out words, like an ellipsis.
Numbers are compared as written: "3" is not "three".
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterator, Optional

from pipeline.data.dataset import GameData
from pipeline.data.problems import Problem
from pipeline.data.schemas import describe_path
from pipeline.data.yamlmarks import PathKey

RULEBOOK_FILE = "rulebook.md"
MIN_WORDS = 3  # shorter quotations are names and terms ('Solo rulings', "If"), not the rulebook's sentences
RULEBOOK = "rulebook"
PROVENANCE = "provenance"
CITING_FIELDS = ("reasoning", "note")  # where a provenance explains itself, citing the rulebook
PARAPHRASED = "paraphrased"  # a rulebook provenance's list of the record's fields worded by us
# Fields of rulebook records that hold moves in the engine's notation ('pick 14', 'submerge 2'): the Monotheism
# scenarios the rulebook sets, solved in our notation. The rulebook's words are the scenario, not these lines.
NOTATION_FIELDS = frozenset({"winning_line", "losing_first_move"})
SHOWN_CHARS = 70  # how much of a long text a message repeats

# A quotation: '...' opened after a space or bracket and closed before a space or punctuation (so the
# apostrophes of "player's" and "players'" never pair up), "...", or typographic quotes.
QUOTATION = re.compile(
    r"(?:^|(?<=[\s(\[]))'(?=\S)([^']*?\S)'(?=[\s.,;:!?)\]]|$)"
    r"|\"([^\"]+)\"|\u201c([^\u201d]+)\u201d|\u2018([^\u2019]+)\u2019"
)
ELLIPSIS = re.compile(r"\.\.\.|\u2026|\[\[[^\]]*\]\]")  # left-out words; a reference is ours, not the rulebook's
IDENTIFIER = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")  # an id or enum value of the data, never prose
_SENTENCE_END = re.compile(r"[.:;]\s*$")
_WORD = re.compile(r"[^\W_]+")
_MARKUP = re.compile(r"<[^>]+>|[*_#`\\|]")
_DASHES = re.compile(r"\s*(?:[\u2012\u2013\u2014\u2212]|--?)\s*")
_QUOTES = re.compile(r"[\"'\u2018\u2019\u201c\u201d]")
_PUNCTUATION = re.compile(r"\s*([.,;:!?()])\s*")
_SPACE = re.compile(r"\s+")
_BRITISH = re.compile(r"\b(col|fav)our")  # the edition spells British, the rulebooks American: colour is color


@dataclass(frozen=True)
class Rulebook:
    """A game's rulebook, normalised (``text``), and the set of its words."""

    text: str
    words: frozenset[str]

    @classmethod
    def of(cls, raw: str) -> "Rulebook":
        text = normalised(raw)
        return cls(text, frozenset(_WORD.findall(text)))


TEXT, QUOTE, UNKNOWN_FIELD = "text", "quotation", "unknown field"


@dataclass(frozen=True)
class Claim:
    """Words the data gives as the rulebook's (``kind``): a whole text of a rulebook record, or a quotation in
    a reasoning or note; or a field a provenance says is paraphrased that its record lacks."""

    path: PathKey
    words: str
    kind: str = TEXT


def normalised(text: str) -> str:
    """``text`` with markup, quotation marks, dash styles, spacing and letter case made uniform."""
    text = _MARKUP.sub(" ", text)
    text = _QUOTES.sub(" ", text)
    text = _DASHES.sub(" - ", text)
    text = _PUNCTUATION.sub(r" \1 ", text)
    return _BRITISH.sub(r"\1or", _SPACE.sub(" ", text).strip().casefold())


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


def foreign_words(rulebook: Rulebook, text: str) -> list[str]:
    """The words of ``text`` (references left out) that the rulebook never uses, in order."""
    return [w for w in _WORD.findall(normalised(ELLIPSIS.sub(" ", text))) if w not in rulebook.words]


def is_text(field: Any, value: str) -> bool:
    """Whether a string of a rulebook record is text to compare: not an identifier, not move notation."""
    return field not in NOTATION_FIELDS and not IDENTIFIER.match(value.strip())


def rulebook_of(game: GameData) -> Optional[Rulebook]:
    """The game's shipped rulebook, or None when the game ships none."""
    path = game.root / RULEBOOK_FILE
    if not path.is_file():
        return None
    return Rulebook.of(path.read_text(encoding="utf-8"))


def rulebook_text(game: GameData) -> Optional[str]:
    """The normalised text of the game's shipped rulebook, or None when the game ships none."""
    rulebook = rulebook_of(game)
    return rulebook.text if rulebook else None


def quote_problems(game: GameData) -> Iterator[Problem]:
    """One problem per text or quotation the data gives as the rulebook's words that the rulebook lacks."""
    rulebook: Optional[Rulebook] = None
    for doc in game.docs.values():
        for claim in claims(doc.data):
            if rulebook is None:
                rulebook = rulebook_of(game)
                if rulebook is None:
                    yield doc.problem(claim.path, f"{game.game} ships no {RULEBOOK_FILE} to check "
                                                  f"\"{_shown(claim.words)}\" against")
                    return
            message = _verdict(rulebook, claim)
            if message:
                label, inner = describe_path(doc.data, claim.path)
                yield doc.problem(claim.path, f"{label}{inner}: {message}")


def _verdict(rulebook: Rulebook, claim: Claim) -> Optional[str]:
    """Why ``claim`` is not the rulebook's words, or None when it is."""
    if claim.kind == UNKNOWN_FIELD:
        return (f"provenance says field '{claim.words}' is paraphrased, but the record has no such field; "
                f"name the record's own fields")
    if claim.kind == QUOTE:
        if contains(rulebook.text, claim.words):
            return None
        return (f"quotes \"{claim.words}\" as the rulebook's words, but the rulebook does not contain them; "
                f"quote it verbatim, or drop the quotation marks and mark a paraphrase inferred")
    if len(claim.words.split()) < MIN_WORDS:
        foreign = foreign_words(rulebook, claim.words)
        if not foreign:
            return None
        return (f"\"{claim.words}\" is marked provenance rulebook, but the rulebook never uses "
                f"{', '.join(repr(w) for w in foreign)}; use the rulebook's words, or mark the record inferred (or the field paraphrased)")
    if contains(rulebook.text, _SENTENCE_END.sub("", claim.words)):
        return None
    return (f"\"{_shown(claim.words)}\" is marked provenance rulebook, but the rulebook does not contain it; "
            f"quote the rulebook verbatim, or mark the record inferred (a paraphrase) with a reasoning")


def _shown(text: str) -> str:
    text = _SPACE.sub(" ", text).strip()
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS].rstrip() + "..."


def claims(node: Any, path: PathKey = (), claimed: bool = False) -> Iterator[Claim]:
    """Every text and quotation under ``node`` that the data gives as the rulebook's words.

    ``claimed``: ``node`` lies inside a record whose provenance is ``rulebook`` (and has none of its own), so
    each of its texts is a claim, except in the fields its provenance lists as ``paraphrased`` (our wording:
    inferred); a provenance's reasoning or note claims only its quotations.
    """
    if isinstance(node, str):
        field = next((step for step in reversed(path) if isinstance(step, str)), None)
        if claimed and is_text(field, node):
            yield Claim(path, node)
        return
    if isinstance(node, list):
        for index, item in enumerate(node):
            yield from claims(item, path + (index,), claimed)
        return
    if not isinstance(node, dict):
        return
    paraphrased: frozenset[str] = frozenset()
    provenance = node.get(PROVENANCE)
    if isinstance(provenance, dict):
        claimed = provenance.get("source") == RULEBOOK
        paraphrased = frozenset(provenance.get(PARAPHRASED) or ())
        for name in sorted(paraphrased - node.keys()):
            yield Claim(path + (PROVENANCE, PARAPHRASED), name, UNKNOWN_FIELD)
        for key in CITING_FIELDS:
            text = provenance.get(key)
            if isinstance(text, str):
                yield from (Claim(path + (PROVENANCE, key), q, QUOTE) for q in quotations(text))
    for key, value in node.items():
        if key != PROVENANCE:
            yield from claims(value, path + (key,), claimed and key not in paraphrased)
