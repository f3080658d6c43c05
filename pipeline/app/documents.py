"""Writing every document of the chosen games: validate, render all in memory, then write atomically.

``output/<game>/{rulebook,reference,cheatsheet,extras,puzzles}-<paper>.pdf`` (or ``<kind>.md``) per game
(a game lists what it has through its spec's ``documents`` part:
``documents(ctx) -> dict[kind, Document]``) and ``output/glossary-<paper>.pdf``
over every game. Invalid data writes nothing; nor does a failing render, since
all files are rendered before the first is written.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Optional

from pipeline.app.freshness import DocEntry, Freshness, GameEntry, ReadRecorder, TocGuess
from pipeline.base.errors import UserError
from pipeline.cards.pdfwrite import output_lock, write_atomic
from pipeline.checks.references import References
from pipeline.checks.validate import RecordCatalogue, validate
from pipeline.data.dataset import game_ids
from pipeline.documents import structure as m
from pipeline.documents.glossary import combined_glossary
from pipeline.documents.layout import load_layout
from pipeline.documents.markdown import render_markdown
from pipeline.documents.standard import DocContext
from pipeline.games import registry

FORMATS = ("pdf", "md")
DOC_KINDS = ("rulebook", "reference", "cheatsheet", "extras", "puzzles")
GLOSSARY_KIND = "glossary"


class InvalidData(UserError):
    """The data did not validate; ``problems`` lists what is wrong (nothing was written)."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems + [f"{len(problems)} problem(s) found: no documents written"]))
        self.problems = problems


def game_documents(data_root: Path, game: str, paper: str, refs: Optional[References] = None) -> dict[str, m.Document]:
    """The documents of one validated game, by kind (its data as ``refs.catalogue`` loaded it)."""
    refs = refs or References(RecordCatalogue(data_root, registry.catalogue()))
    loaded = refs.catalogue.game(game)
    if loaded.spec.documents is None:
        raise loaded.spec.missing("documents")
    docs = dict(loaded.spec.documents(DocContext(loaded, refs, load_layout(paper))))
    unknown = set(docs) - set(DOC_KINDS)
    if unknown:
        raise UserError(f"{game}: unknown document kind(s) {', '.join(sorted(unknown))} (known: {', '.join(DOC_KINDS)})")
    return docs


def document_path(out_dir: Path, game: Optional[str], kind: str, paper: str, fmt: str) -> Path:
    """``<kind>-<paper>.pdf``; Markdown has no paper, so one ``<kind>.md`` per document."""
    folder = out_dir / game if game else out_dir
    return folder / (f"{kind}.{fmt}" if fmt == "md" else f"{kind}-{paper}.{fmt}")


def render(doc: m.Document, paper: str, fmt: str) -> bytes:
    """One document as PDF or Markdown bytes."""
    if fmt == "md":
        return render_markdown(doc).encode("utf-8")
    from pipeline.documents.pdf import PdfRenderer  # the layout engine (platypus, charts): only to lay out

    pdf, _ = PdfRenderer(load_layout(paper)).render(doc)
    return pdf


def _with_glossary(data_root: Path, chosen: list[str], glossary: Optional[bool]) -> bool:
    return glossary if glossary is not None else set(chosen) == set(game_ids(data_root))


def games_to_validate(data_root: Path, chosen: list[str], glossary: Optional[bool] = None) -> list[str]:
    """The games whose data the documents of ``chosen`` read: all of them when the combined glossary is built."""
    return game_ids(data_root) if _with_glossary(data_root, chosen, glossary) else chosen


def build_documents(
    data_root: Path,
    games: Optional[Iterable[str]] = None,
    *,
    paper: str = "a4",
    out_dir: Path,
    fmt: str = "pdf",
    glossary: Optional[bool] = None,
    validated: bool = False,
    catalogue: Optional[RecordCatalogue] = None,
) -> list[Path]:
    """Validate, render and write the documents of ``games`` (all when None); the paths written.

    ``glossary`` (default: when every game is chosen) adds the combined glossary of all games.
    ``validated``: the caller has already validated ``games_to_validate(data_root, games)``.
    ``catalogue``: the games as the caller's validation loaded them (else they are loaded here, once).
    Every document is rendered and written (``update_documents`` skips those that are up to date).
    """
    return update_documents(
        data_root, games, paper=paper, out_dir=out_dir, fmt=fmt, glossary=glossary, validated=validated,
        catalogue=catalogue, force=True,
    ).written


@dataclass(frozen=True)
class DocumentsBuilt:
    """What ``update_documents`` did: the files it wrote and those that were already up to date."""

    written: list[Path]
    up_to_date: list[Path]


def update_documents(
    data_root: Path,
    games: Optional[Iterable[str]] = None,
    *,
    paper: str = "a4",
    out_dir: Path,
    fmt: str = "pdf",
    glossary: Optional[bool] = None,
    validated: bool = False,
    catalogue: Optional[RecordCatalogue] = None,
    force: bool = False,
) -> DocumentsBuilt:
    """As ``build_documents``, but a document whose inputs did not change since it was written is left
    as it is (see :mod:`pipeline.app.freshness`); ``force`` renders every one."""
    if fmt not in FORMATS:
        raise UserError(f"unknown format '{fmt}' (known: {', '.join(FORMATS)})")
    load_layout(paper)  # an unknown paper fails before any work
    catalogue = catalogue or RecordCatalogue(data_root, registry.catalogue())
    chosen = catalogue.specs.select(data_root, games)
    with_glossary = _with_glossary(data_root, chosen, glossary)
    if not validated:
        report = validate(data_root, catalogue.specs, games_to_validate(data_root, chosen, glossary), catalogue)
        if not report.ok:
            raise InvalidData([str(p) for p in report.problems])
    fresh = Freshness(catalogue, data_root, {"paper": paper, "format": fmt})
    owners: list[tuple[str, Callable[[References], dict[str, m.Document]], Callable[[str], Path]]] = [
        (game, _game_maker(data_root, game, paper), _path_maker(out_dir, game, paper, fmt)) for game in chosen
    ]
    if with_glossary:
        everyone = game_ids(data_root)
        owners.append((
            f"/{GLOSSARY_KIND}",  # not a game id (those are folder names)
            lambda refs: {GLOSSARY_KIND: combined_glossary(everyone, refs)},
            _path_maker(out_dir, None, paper, fmt),
        ))
    rendered: list[tuple[Path, bytes]] = []
    up_to_date: list[Path] = []
    entries: list[tuple[str, GameEntry]] = []
    for owner, make, path_of in owners:
        done = _owner_documents(fresh, owner, make, path_of, paper, fmt, force)
        rendered += done.rendered
        up_to_date += done.up_to_date
        if done.entry is not None:
            entries.append((owner, done.entry))
    with output_lock(out_dir):
        for path, data in rendered:
            write_atomic(path, data)
        for owner, entry in entries:
            fresh.store(owner, entry)
    return DocumentsBuilt([path for path, _ in rendered], up_to_date)


def _game_maker(data_root: Path, game: str, paper: str) -> Callable[[References], dict[str, m.Document]]:
    return lambda refs: game_documents(data_root, game, paper, refs)


def _path_maker(out_dir: Path, game: Optional[str], paper: str, fmt: str) -> Callable[[str], Path]:
    return lambda kind: document_path(out_dir, game, kind, paper, fmt)


@dataclass
class _OwnerDone:
    rendered: list[tuple[Path, bytes]]
    up_to_date: list[Path]
    entry: Optional[GameEntry]  # to store once the files are written (None: nothing changed)


def _owner_documents(
    fresh: Freshness,
    owner: str,
    make: Callable[[References], dict[str, m.Document]],
    path_of: Callable[[str], Path],
    paper: str,
    fmt: str,
    force: bool,
) -> _OwnerDone:
    """The documents of one game (or the glossary) that need writing, and those that are up to date."""
    entry = None if force else fresh.entry(owner)
    if entry is not None and entry.docs and all(fresh.still_written(path_of(kind), d) for kind, d in entry.docs.items()):
        held = fresh.check(entry)
        if held is not None:  # every read returns what it did: nothing assembled (a new entry if files moved on)
            return _OwnerDone([], [path_of(kind) for kind in entry.docs], None if held is entry else held)
    recorder = ReadRecorder(fresh.catalogue)
    docs = make(References(recorder))
    done = _OwnerDone([], [], None)
    kept: dict[str, DocEntry] = {}
    for kind, doc in docs.items():
        path, content = path_of(kind), fresh.content(kind, doc)
        old = entry.docs.get(kind) if entry is not None else None
        if old is not None and content and old.content == content and fresh.still_written(path, old):
            kept[kind] = old
            done.up_to_date.append(path)
            continue
        data, toc = _render(doc, paper, fmt, old.toc if old is not None else None)
        kept[kind] = DocEntry(content, hashlib.sha256(data).hexdigest(), toc)
        done.rendered.append((path, data))
    done.entry = fresh.record(recorder.reads, kept)
    return done


def _render(doc: m.Document, paper: str, fmt: str, toc_guess: Optional[TocGuess]) -> tuple[bytes, TocGuess]:
    """One document's bytes, and where its contents entries landed (PDF only)."""
    if fmt == "md":
        return render_markdown(doc).encode("utf-8"), []
    from pipeline.documents.pdf import (
        PdfRenderer,
        TocEntry,  # not imported when every document is fresh
    )

    guess = [TocEntry(level, text, page) for level, text, page in toc_guess] if toc_guess is not None else None
    pdf, toc = PdfRenderer(load_layout(paper)).render(doc, toc_guess=guess)
    return pdf, [(e.level, e.text, e.page) for e in toc]
