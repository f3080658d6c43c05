"""The document lint: the words a player reads are clean copy, checked on every `validate` and `build`.

It reads a :class:`~pipeline.documents.structure.Document` as printed (references
already resolved to names) and finds, per text, what a publisher would strike:

- ``identifier``: an internal identifier (a record id such as
  ``easier-to-gain-by-tokens``, a snake_case key, a file or data path, a
  ``kind: field`` data address);
- ``development``: development vocabulary (engine, solver, simulator, the
  project, provenance, seats numbered from 0, node or position counts);
- ``doubled``: a doubled word ("the The", "token token");
- ``missing``: a cross-reference to something the edition does not hold (a
  cover, a page or figure number, a picture with no picture in its section,
  "see X" where the document has no X);
- ``component``: a listed component the edition does not produce (see
  :func:`component_findings`).

Each finding keeps the printed text it was found in and the words matched, so
:mod:`pipeline.documents.origin` can name the data file and line they came from.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Collection, Iterable, Iterator, Mapping

from pipeline.data import markup
from pipeline.documents import structure as m

IDENTIFIER, DEVELOPMENT, DOUBLED, MISSING, COMPONENT = "identifier", "development", "doubled", "missing", "component"

_FILE_PATH = re.compile(r"\b[\w-]+\.(?:ya?ml|json|py|svg|j2|pdf|md|csv)\b|\b(?:data|templates|pipeline|output)/[\w./-]+")
_SNAKE_KEY = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
# Words only the software needs. "engine" alone, as a word, is never a player's word in these games.
_DEVELOPMENT = re.compile(
    r"\b(?:engines?|engine's|solvers?|solver's|simulators?|simulations?|simulated|provenance|the project(?:'s)?"
    r"|seats? 0|from 0|nodes?|[\d,]+ positions|from: (?:rulebook|ruling|inferred|authored))\b",
    re.IGNORECASE,
)
_DOUBLED = re.compile(r"\b([A-Za-z]+)\s+(\1)\b", re.IGNORECASE)
_COVER = re.compile(r"\b(?:back|front|inside) cover\b", re.IGNORECASE)
# A pointer to a page or figure number ("see page 7", "on p. 4", "figure 2"); "print this page 4 times" is not one.
_PAGE_OR_FIGURE = re.compile(r"\b(?:(?:on|see|to|at|in) (?:pages?|p\.) ?\d+|pp?\. ?\d+|(?:figure|fig\.) ?\d+)", re.IGNORECASE)
# Words that promise a drawing in the section they stand in.
_PICTURE = re.compile(r"\b(?:in pictures|pictured|the picture|shown (?:below|above|here)|illustrated below|the diagram below)\b",
                      re.IGNORECASE)
# "(see Tied for the most memory)": a pointer to a heading or entry; "See also:" lists are the glossary's own.
_SEE = re.compile(r"\b[Ss]ee (?!also\b)([A-Z][\w' +-]*)")
PROVENANCE_WORDS = frozenset({"rulebook", "ruling", "inferred", "authored"})
NOT_PRODUCED_WORDS = re.compile(r"\bnot included\b|\byour own\b", re.IGNORECASE)


@dataclass(frozen=True)
class Finding:
    """One thing to strike: its class, the printed text it stands in, the words matched and why."""

    kind: str
    text: str
    words: str
    message: str
    record: str = ""  # the id of the record at fault, when the finding knows it (a component)


@dataclass(frozen=True)
class Vocabulary:
    """What the data calls things internally: record ids of three words or more joined by hyphens or
    underscores (shorter ones are ordinary words: set-up, face-down), the data kinds and their records' fields."""

    ids: frozenset[str]
    kinds: frozenset[str]
    fields: frozenset[str]


def plain(text: str) -> str:
    """A printed text as read: markup removed (a text the renderer could not parse is read as written)."""
    try:
        return markup.plain(markup.parse(text))
    except markup.MarkupError:
        return text


# --------------------------------------------------------------------------- what a document prints


def block_texts(block: m.Block) -> Iterator[str]:
    """Every text a block prints (headings, paragraphs, items, cells, captions, legend entries, labels, keys)."""
    if isinstance(block, m.Heading):
        yield block.text
    elif isinstance(block, m.Paragraph):
        yield block.text
    elif isinstance(block, m.ListBlock):
        yield from block.items
    elif isinstance(block, m.Table):
        yield from block.header
        for row in block.rows:
            yield from row
        yield block.caption
    elif isinstance(block, m.Legend):
        for entry in block.entries:
            yield from (entry.name, entry.meaning, entry.label)
    elif isinstance(block, m.Diagram):
        yield from (s.text for s in block.shapes if isinstance(s, m.Label))
        yield block.caption
    elif isinstance(block, m.CardFigure):
        yield from (c.key for c in block.callouts)
        yield block.caption
    elif isinstance(block, (m.BarChart, m.LineChart)):
        yield block.caption
    elif isinstance(block, m.Group):
        for inner in block.blocks:
            yield from block_texts(inner)


def document_texts(doc: m.Document) -> Iterator[str]:
    """Every non-empty text ``doc`` prints, its title first."""
    for text in (doc.title, doc.subtitle, *(t for b in doc.blocks for t in block_texts(b))):
        if text:
            yield text


def _drawn(block: m.Block) -> bool:
    if isinstance(block, m.Group):
        return any(_drawn(b) for b in block.blocks)
    return isinstance(block, (m.Diagram, m.CardFigure, m.BarChart, m.LineChart))


def sections(doc: m.Document) -> list[tuple[list[str], bool]]:
    """The document cut at its headings: each section's texts, and whether it holds a drawing."""
    out: list[tuple[list[str], bool]] = [([], False)]
    for block in doc.blocks:
        if isinstance(block, m.Heading):
            out.append(([], False))
        texts, drawn = out[-1]
        out[-1] = (texts + [t for t in block_texts(block) if t], drawn or _drawn(block))
    return out


def anchors(doc: m.Document, read: Callable[[str], str] = plain) -> set[str]:
    """What a "see X" may point at in ``doc``: its headings, the first cell of each table row, legend names
    (``read``: a text as read, markup removed)."""
    found: set[str] = set()
    for block in _flat(doc.blocks):
        if isinstance(block, m.Heading):
            found.add(read(block.text))
        elif isinstance(block, m.Table):
            found.update(read(row[0]) for row in block.rows if row)
        elif isinstance(block, m.Legend):
            found.update(read(e.name) for e in block.entries)
    return {a.strip(" .:").casefold() for a in found if a.strip()}


# --------------------------------------------------------------------------- the rules


def text_findings(text: str, vocabulary: Vocabulary) -> Iterator[Finding]:
    """What is wrong with one printed text on its own: identifiers, development words, doubled words,
    covers, page and figure numbers."""
    return _read_findings(text, plain(text), vocabulary)


_WORD = re.compile(r"[\w-]+")


def _read_findings(text: str, read: str, vocabulary: Vocabulary) -> Iterator[Finding]:
    """:func:`text_findings` of ``text``, given as ``read`` (its markup removed)."""
    words = _WORD.findall(read)
    if not vocabulary.ids.isdisjoint(words):  # (the usual answer found at set speed, not word by word)
        for word in words:
            if word in vocabulary.ids:
                yield Finding(IDENTIFIER, text, word, f"internal identifier '{word}' in print: say it in words")
    for pattern in (_FILE_PATH, _SNAKE_KEY):
        for match in pattern.finditer(read):
            yield Finding(IDENTIFIER, text, match.group(0), f"file path or data key '{match.group(0)}' in print")
    for match in re.finditer(r"\b([a-z-]+): ([a-z_]+)\b", read):
        if match.group(1) in vocabulary.kinds and match.group(2) in vocabulary.fields:
            yield Finding(IDENTIFIER, text, match.group(0), f"data address '{match.group(0)}' in print: say it in words")
    for match in _DEVELOPMENT.finditer(read):
        yield Finding(DEVELOPMENT, text, match.group(0), f"development vocabulary '{match.group(0)}' in print: "
                      "write for players (what only the software needs stays in the data and docs/)")
    for match in _DOUBLED.finditer(read):
        yield Finding(DOUBLED, text, match.group(0), f"doubled word '{match.group(0)}'")
    for match in _COVER.finditer(read):
        yield Finding(MISSING, text, match.group(0), f"'{match.group(0)}': this edition has no cover to point at")
    for match in _PAGE_OR_FIGURE.finditer(read):
        yield Finding(MISSING, text, match.group(0), f"'{match.group(0)}': page and figure numbers change with the "
                      "paper; point at a section by its heading")


def documents_findings(docs: Iterable[m.Document], vocabulary: Vocabulary) -> Iterator[Finding]:
    """Every finding of each of ``docs``, a text's own findings given once however often the documents print it
    (the same text is the same finding)."""
    reads: dict[str, str] = {}
    for doc in docs:
        yield from _document_findings(doc, vocabulary, reads)


def _document_findings(doc: m.Document, vocabulary: Vocabulary, reads: dict[str, str]) -> Iterator[Finding]:
    """Every finding of ``doc``: each text's own (but for the texts already in ``reads``, each text as read,
    markup removed: parsed once, not once a rule, whose own findings were given with another document),
    pictures promised in a section without one, and "see X" where the document holds no X."""
    fresh = [text for text in dict.fromkeys(document_texts(doc)) if text not in reads]
    reads.update((text, plain(text)) for text in fresh)

    def read(text: str) -> str:
        return reads[text] if text in reads else plain(text)

    for text in fresh:
        yield from _read_findings(text, reads[text], vocabulary)
    for texts, drawn in sections(doc):
        for text in texts if not drawn else ():
            for match in _PICTURE.finditer(reads[text]):
                yield Finding(MISSING, text, match.group(0), f"'{match.group(0)}' but this section has no picture: "
                              "say it in words until it is illustrated")
    for table in _tables(doc.blocks):
        for column, name in enumerate(table.header):
            values = {read(row[column]).strip().casefold() for row in table.rows if len(row) > column}
            if values and values <= PROVENANCE_WORDS:
                yield Finding(DEVELOPMENT, name, name, f"table column '{plain(name)}' prints where records come from "
                              f"({', '.join(sorted(values))}): that is the data's provenance, not a player's concern")
    targets = anchors(doc, read)
    for text in document_texts(doc):
        for match in _SEE.finditer(reads[text]):
            wanted = match.group(1).strip().casefold()
            parts = re.split(r",\s*|\s+and\s+|\s+or\s+", wanted)  # "see Ruin and Ouroboros": each is there
            if not any(_points_at(wanted, a) for a in targets) and not all(any(_points_at(p, a) for a in targets) for p in parts):
                yield Finding(MISSING, text, match.group(0), f"'{match.group(0)}' points at something "
                              f"{doc.title} does not hold: say it here")


def _points_at(wanted: str, anchor: str) -> bool:
    """Whether "see <wanted>" names ``anchor``: the same words, or (for an anchor of two words or more) words
    that start with it ("see The Herald of Dawn and the others")."""
    return wanted == anchor or (len(anchor.split()) > 1 and wanted.startswith(anchor + " "))


def component_findings(listed: Iterable[tuple[str, str, str]], counted: Collection[str],
                       produced: Iterable[m.Document]) -> Iterator[Finding]:
    """Each listed component (id, name, description as printed) is in the edition: counted from the data the
    cards and sheets print (``counted``: component ids), named by a document or a heading of one (the
    rulebook, the Lightning Start Rules, cheat sheets) or with its description saying it is printed as one
    ("prints them as Totem tokens"), or said to be not included."""
    titles = [plain(text).strip().casefold() for doc in produced
              for text in (doc.title.split(": ", 1)[-1], *(b.text for b in _headings(doc.blocks)))]
    names = {_singular(title) for title in titles}
    for component_id, name, description in listed:
        described = plain(description).casefold()
        if (component_id in counted or _singular(plain(name)) in names or NOT_PRODUCED_WORDS.search(described)
                or any(re.search(rf"\bprint\w* (?:\w+ )?as (?:the )?{re.escape(title)}", described) for title in titles)):
            continue
        yield Finding(COMPONENT, name, name, f"component '{plain(name)}' is listed but this edition does not produce it "
                      "(no card, sheet or document holds it): produce it, or say it is not included", component_id)


def _flat(blocks: Iterable[m.Block]) -> Iterator[m.Block]:
    """Every block, those inside groups included, in order."""
    for block in blocks:
        if isinstance(block, m.Group):
            yield from _flat(block.blocks)
        else:
            yield block


def _tables(blocks: Iterable[m.Block]) -> Iterator[m.Table]:
    return (block for block in _flat(blocks) if isinstance(block, m.Table))


def _headings(blocks: Iterable[m.Block]) -> Iterator[m.Heading]:
    return (block for block in _flat(blocks) if isinstance(block, m.Heading))


def _singular(name: str) -> str:
    words = name.strip().casefold().split()
    if words and words[-1].endswith("s") and not words[-1].endswith("ss"):
        words[-1] = words[-1][:-1]
    return " ".join(words)


def vocabulary(datasets: Iterable[Mapping[str, object]]) -> Vocabulary:
    """The internal names of the given documents' data (kind -> data): multi-word ids, kinds, record fields."""
    ids: set[str] = set()
    kinds: set[str] = set()
    fields: set[str] = set()
    for kind, data in (item for mapping in datasets for item in mapping.items()):
        kinds.add(kind)
        for value in data.values() if isinstance(data, dict) else ():
            for record in value if isinstance(value, list) else ():
                if isinstance(record, dict):
                    fields.update(k for k in record if isinstance(k, str))
                    record_id = record.get("id")
                    if isinstance(record_id, str) and len(re.findall(r"[-_]", record_id.strip("-_"))) >= 2:
                        ids.add(record_id)
    return Vocabulary(frozenset(ids), frozenset(kinds), frozenset(fields))
