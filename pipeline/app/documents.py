"""A game's documents: assembled from its validated data, named, and rendered as PDF or Markdown.

``output/<game>/{rulebook,reference,cheatsheet,extras,puzzles}-<paper>.pdf`` (or ``<kind>.md``) per game
(a game lists what it has through its spec's ``documents`` part:
``documents(ctx) -> dict[kind, Document]``) and ``output/glossary-<paper>.pdf``
over every game. :mod:`pipeline.app.build` decides which to make and writes them.
"""
from __future__ import annotations

from pathlib import Path
from typing import Mapping, Optional

from pipeline.base.errors import UserError
from pipeline.checks.references import References
from pipeline.data.dataset import game_ids
from pipeline.documents import structure as m
from pipeline.documents.facedraw import card_templates
from pipeline.documents.layout import load_layout
from pipeline.documents.render import FORMATS, render, render_for_print  # noqa: F401  (the build's names for them)
from pipeline.documents.standard import DocContext
from pipeline.store import Scope

DOC_KINDS = ("rulebook", "reference", "cheatsheet", "extras", "puzzles")


def game_documents(game: str, paper: str, refs: References, scope: Optional[Scope] = None) -> dict[str, m.Document]:
    """The documents of one validated game, by kind (its data as ``refs.catalogue`` loaded it); ``scope``: the
    command's store scope of the project's card templates (None: taken now)."""
    loaded = refs.catalogue.game(game)
    if loaded.spec.documents is None:
        raise loaded.spec.missing("documents")
    layout = load_layout(paper)
    context = DocContext(loaded, refs, templates=card_templates(scope=scope))
    return {kind: doc.on(layout) for kind, doc in known_kinds(game, loaded.spec.documents(context)).items()}


def known_kinds(game: str, docs: Mapping[str, m.Document]) -> dict[str, m.Document]:
    """``docs``, each of a kind the build knows how to name (UserError naming any other)."""
    unknown = set(docs) - set(DOC_KINDS)
    if unknown:
        kinds = "kind" if len(unknown) == 1 else "kinds"
        raise UserError(f"{game}: unknown document {kinds} {', '.join(sorted(unknown))} (known: {', '.join(DOC_KINDS)})")
    return dict(docs)


def document_path(out_dir: Path, game: Optional[str], kind: str, paper: str, fmt: str) -> Path:
    """``<kind>-<paper>.pdf``; Markdown has no paper, so one ``<kind>.md`` per document."""
    folder = out_dir / game if game else out_dir
    return folder / (f"{kind}.{fmt}" if fmt == "md" else f"{kind}-{paper}.{fmt}")


def with_glossary(data_root: Path, chosen: list[str], glossary: Optional[bool]) -> bool:
    """Whether the combined glossary is made: as ``glossary`` says, else when every game is chosen."""
    return glossary if glossary is not None else set(chosen) == set(game_ids(data_root))


def games_to_validate(data_root: Path, chosen: list[str], glossary: Optional[bool] = None) -> list[str]:
    """The games whose data the documents of ``chosen`` read: all of them when the combined glossary is built."""
    return game_ids(data_root) if with_glossary(data_root, chosen, glossary) else chosen
