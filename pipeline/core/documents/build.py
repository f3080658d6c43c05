"""Writing every document of the chosen games: validate, render all in memory, then write atomically.

``output/<game>/{rulebook,reference,cheatsheet,extras,puzzles}-<paper>.pdf`` (or ``<kind>.md``) per game
(a game lists what it has through its spec's ``documents`` part:
``documents(ctx) -> dict[kind, Document]``) and ``output/glossary-<paper>.pdf``
over every game. Invalid data writes nothing; nor does a failing render, since
all files are rendered before the first is written.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterable, Optional

from pipeline.core.dataset import game_ids
from pipeline.core.documents import model as m
from pipeline.core.documents.glossary import combined_glossary
from pipeline.core.documents.layout import load_layout
from pipeline.core.documents.markdown import render_markdown
from pipeline.core.documents.pdf import PdfRenderer
from pipeline.core.documents.standard import DocContext
from pipeline.core.errors import UserError
from pipeline.core.games import select as select_games
from pipeline.core.references import References
from pipeline.core.render.pdfwrite import output_lock, write_atomic
from pipeline.core.validate import RecordCatalogue, validate

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
    refs = refs or References(data_root)
    loaded = refs.catalogue.game(game)
    docs = loaded.spec.part("documents")(DocContext(loaded, refs, load_layout(paper)))
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
    """
    if fmt not in FORMATS:
        raise UserError(f"unknown format '{fmt}' (known: {', '.join(FORMATS)})")
    load_layout(paper)  # an unknown paper fails before any work
    chosen = select_games(data_root, games)
    with_glossary = _with_glossary(data_root, chosen, glossary)
    catalogue = catalogue or RecordCatalogue(data_root)
    if not validated:
        report = validate(data_root, games_to_validate(data_root, chosen, glossary), catalogue)
        if not report.ok:
            raise InvalidData([str(p) for p in report.problems])
    refs = References(data_root, catalogue)
    rendered: list[tuple[Path, bytes]] = []
    for game in chosen:
        for kind, doc in game_documents(data_root, game, paper, refs).items():
            rendered.append((document_path(out_dir, game, kind, paper, fmt), render(doc, paper, fmt)))
    if with_glossary:
        doc = combined_glossary(game_ids(data_root), refs)
        rendered.append((document_path(out_dir, None, GLOSSARY_KIND, paper, fmt), render(doc, paper, fmt)))
    with output_lock(out_dir):
        for path, data in rendered:
            write_atomic(path, data)
    return [path for path, _ in rendered]
