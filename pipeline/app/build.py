"""`pantheon build`: validate, then write each game's card sheets and documents, skipping what is up to date.

The build works in *units*: one game's card sheets (``cards/<game>``: the full-colour
``cards-<paper>.pdf`` and the ink-friendly ``cards-<paper>-ink.pdf`` beside it), one game's
documents (``docs/<game>``) and the combined glossary (``docs/glossary``).
Each unit's inputs digest covers the data it reads (every file of the games it
read, their schemas and the shared schemas), its options and
:func:`pipeline.store.code_digest` (the whole package, the templates, the
library versions). The output folder's manifest (:mod:`pipeline.app.manifest`)
says which inputs made which files; a unit whose files are all recorded with
today's inputs digest and still hold the recorded bytes is up to date.

When every unit is up to date the build answers from the manifest alone,
without loading or validating any data: each unit's files were written by a
build that validated exactly these inputs, and the same inputs and code make
the same bytes. Otherwise the data is validated first (nothing is written,
not even the folder, when it is invalid); then, holding the output folder's
lock, the build looks again (another build may have written the folder
meanwhile) and builds the stale units. Each unit's files are written
atomically and its manifest entry saved right after, so a build interrupted
midway leaves the older files and a manifest that does not claim anything it
did not finish.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import partial
from pathlib import Path
from typing import Callable, Mapping, Optional, Protocol, Sequence

from pipeline import store
from pipeline.app.documents import (
    FORMATS,
    document_path,
    game_documents,
    games_to_validate,
    known_kinds,
    render_for_print,
    with_glossary,
)
from pipeline.app.manifest import Manifest
from pipeline.base import locations
from pipeline.base.errors import ProblemsFound, UsageProblem, UserError
from pipeline.base.safefile import folder_digest
from pipeline.cards import build as cards
from pipeline.cards import printers
from pipeline.cards.cardlayout import LaidOutCards
from pipeline.cards.imposition import Duplex
from pipeline.cards.pdfwrite import output_lock, own_folder, write_atomic
from pipeline.cards.stamp import with_stamp
from pipeline.checks.references import References
from pipeline.checks.validate import RecordCatalogue, validate
from pipeline.data.dataset import SCHEMA_DIR, game_ids
from pipeline.data.kinds import GLOSSARY_KIND
from pipeline.documents import structure as m
from pipeline.documents.docscheck import LaidOut, document_problems
from pipeline.documents.glossary import combined_glossary
from pipeline.games import registry


class Part(str, Enum):
    """What a build makes: card sheets, documents (rulebooks, aids, extras, glossary), or both (None)."""

    CARDS = "cards"
    DOCS = "docs"


@dataclass(frozen=True)
class CardSettings:
    """The card sheets' options as the user gave them (resolved by :func:`card_options`)."""

    duplex: Duplex = Duplex.LONG
    offset_across_mm: Optional[float] = None
    offset_along_mm: Optional[float] = None
    printer: Optional[str] = None  # a stored printer profile's offsets (not with the offsets)
    calibration: bool = False
    layout: Optional[str] = None  # None: the sheets' default
    ink_saver: bool = False
    stamp: bool = False  # print a version line (implied by version_label or watermark)
    version_label: Optional[str] = None
    watermark: Optional[str] = None


@dataclass(frozen=True)
class BuildRequest:
    """One build: which games, from which data and templates, into which folder, with which options."""

    data_root: Path
    out: Path
    template_root: Path
    games: tuple[str, ...] = ()  # none: every game
    paper: str = "a4"
    only: Optional[Part] = None  # None: cards and documents
    doc_format: str = "pdf"  # or "md"
    glossary: Optional[bool] = None  # the combined glossary (None: when every game is chosen)
    cards: CardSettings = field(default_factory=CardSettings)
    force: bool = False  # rebuild every unit, up to date or not


@dataclass(frozen=True)
class Output:
    """One file of the build: written now (with what it holds, for cards) or found up to date."""

    path: Path
    written: bool
    detail: str = ""


@dataclass(frozen=True)
class BuildOutcome:
    outputs: tuple[Output, ...]
    notes: tuple[str, ...]  # what the build passed over, and why

    @property
    def written(self) -> list[Path]:
        return [o.path for o in self.outputs if o.written]


class CardProgress(Protocol):
    """Where a build reports the cards it draws (a progress bar, or nothing)."""

    def begin(self, total: int) -> None: ...

    def game(self, game: str) -> None: ...

    def advance(self, cards: int) -> None: ...


@dataclass(frozen=True)
class _Unit:
    name: str
    part: Part
    game: Optional[str]  # None: the glossary


def card_options(request: BuildRequest) -> cards.BuildOptions:
    """The card sheets' build options: a printer profile's offsets when one is named, the version stamp
    when asked for; a bad offset, layout or stamp text is refused before anything is read or written."""
    given = request.cards
    across, along = given.offset_across_mm, given.offset_along_mm
    if given.printer is not None:
        if across is not None or along is not None:
            raise UsageProblem("give either --printer or --offset-across/--offset-along, not both")
        profile = printers.profile(given.printer)
        across, along = profile.offset_across_mm, profile.offset_along_mm
    options = cards.BuildOptions(request.paper, given.duplex, across or 0.0, along or 0.0, given.calibration,
                                 given.layout, given.ink_saver)
    if given.stamp or given.version_label is not None or given.watermark is not None:
        options = with_stamp(options, request.data_root, request.template_root, label=given.version_label,
                             watermark=given.watermark)
    cards.check_options(options, request.template_root)
    return options


class Inputs:
    """The inputs digests of one build's units, from the data files as they are when the build starts
    (taken before anything is read: an edit made while the build runs is never recorded as built), and the
    code: ``scope``, the build's store scope of its templates (taken once, as the build starts)."""

    def __init__(self, data_root: Path, scope: store.Scope) -> None:
        self.data_root = data_root
        self.scope = scope
        self.code = scope.code
        games = game_ids(data_root)
        schemas = data_root / SCHEMA_DIR
        self._shared = folder_digest(schemas, skip=[schemas / game for game in games])  # the shared schemas
        self._games = {game: self._game_files(game) for game in games}  # all now, before any is read

    def _game_files(self, game: str) -> str:
        return folder_digest(self.data_root / game) + folder_digest(self.data_root / SCHEMA_DIR / game)

    def game(self, game: str) -> str:
        """The digest of every file of ``game``'s data folder and its schema folder, as the build started."""
        if game not in self._games:  # not a game folder when the build started: its files (none) now
            self._games[game] = self._game_files(game)
        return self._games[game]

    def of(self, unit: str, options: Mapping[str, str], reads: Sequence[str]) -> str:
        """The inputs digest of ``unit`` built with ``options`` from the data of games ``reads``."""
        parts = {"code": self.code, "unit": unit, "options": dict(options), "shared": self._shared,
                 "reads": {game: self.game(game) for game in sorted(set(reads))}}
        return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def build(request: BuildRequest, *, progress: Optional[CardProgress] = None,
          on_wait: Optional[Callable[[], None]] = None, steps: Optional[Callable[[str], None]] = None) -> BuildOutcome:
    """Validate, then write the stale units of ``request`` into its output folder and record them in the
    folder's manifest. Invalid data raises ProblemsFound (nothing written); ``on_wait`` is called when another
    build holds the folder; ``steps`` is told what the build does and how far (``"documents 3/6"``)."""
    say = steps or (lambda _: None)
    if request.doc_format not in FORMATS:
        raise UserError(f"unknown format '{request.doc_format}' (known: {', '.join(FORMATS)})")
    root = request.data_root
    chosen = registry.select(root, request.games or None)
    options = card_options(request) if request.only != Part.DOCS else None
    units, notes = _units(request, chosen)
    inputs = Inputs(root, store.scope(request.template_root))  # the code of this build (a watch: of this rebuild)
    fresh = _up_to_date(request, units, Manifest.load(request.out), inputs, options)
    written: dict[str, list[Output]] = {}
    if len(fresh) < len(units):
        catalogue = RecordCatalogue(root, registry.catalogue())  # every game read once; each unit takes it from here
        validated: set[str] = set()
        laid_out = LaidOut(request.paper if request.doc_format == "pdf" else None)  # written as validation set them
        # drawn as validation laid them out, from the project's templates (the build's, unless --templates)
        faces = LaidOutCards(store.scope(reuse=inputs.scope))
        _validate(request, chosen, [unit for unit in units if unit.name not in fresh], catalogue, validated, laid_out,
                  faces, say)
        with output_lock(request.out, on_wait=on_wait):
            manifest = Manifest.load(request.out)  # again: another build may have written the folder meanwhile
            fresh = _up_to_date(request, units, manifest, inputs, options)
            stale = [unit for unit in units if unit.name not in fresh]
            _validate(request, chosen, stale, catalogue, validated, laid_out, faces, say)
            written = _build_units(request, stale, catalogue, manifest, inputs, options, progress, laid_out, faces, say)
    outputs = [Output(path, False) for unit in units for path in fresh.get(unit.name, [])]
    outputs += [output for unit in units for output in written.get(unit.name, [])]
    return BuildOutcome(tuple(outputs), tuple(notes))


def build_documents(data_root: Path, games: Optional[Sequence[str]] = None, *, paper: str = "a4", out_dir: Path,
                    fmt: str = "pdf", glossary: Optional[bool] = None) -> list[Path]:
    """Validate, then write every document of ``games`` (all when None), up to date or not; the paths written.
    ``glossary``: with the combined glossary (default: when every game is chosen)."""
    request = BuildRequest(data_root, out_dir, locations.template_root(), tuple(games or ()), paper, Part.DOCS, fmt,
                           glossary, force=True)
    return build(request).written


def _units(request: BuildRequest, chosen: list[str]) -> tuple[list[_Unit], list[str]]:
    """The units the request asks for, and a note for each game with no card plan (when not named)."""
    units, notes = [], []
    if request.only in (None, Part.CARDS):
        for game in chosen:
            if not request.games and registry.spec(game).cards is None:
                notes.append(f"note: {game}: no card renderer yet, skipped")
            else:
                units.append(_Unit(f"cards/{game}", Part.CARDS, game))
    if request.only in (None, Part.DOCS):
        units += [_Unit(f"docs/{game}", Part.DOCS, game) for game in chosen]
        if with_glossary(request.data_root, chosen, request.glossary):
            units.append(_Unit(f"docs/{GLOSSARY_KIND}", Part.DOCS, None))
    return units, notes


def _unit_options(request: BuildRequest, unit: _Unit, options: Optional[cards.BuildOptions]) -> dict[str, str]:
    if unit.part == Part.CARDS:
        assert options is not None
        return options.as_dict()
    # which games exist decides what a reference or the glossary finds
    return {"paper": request.paper, "format": request.doc_format, "games": ",".join(game_ids(request.data_root))}


def _inputs_of(inputs: Inputs, request: BuildRequest, unit: _Unit,
               options: Optional[cards.BuildOptions]) -> Callable[[tuple[str, ...]], str]:
    unit_options = _unit_options(request, unit, options)
    return lambda reads: inputs.of(unit.name, unit_options, reads)


def _up_to_date(request: BuildRequest, units: list[_Unit], manifest: Manifest, inputs: Inputs,
                options: Optional[cards.BuildOptions]) -> dict[str, list[Path]]:
    """The files of each unit that is up to date (none with ``force``), by unit name."""
    fresh: dict[str, list[Path]] = {}
    for unit in units if not request.force else []:
        found = manifest.unit_fresh(unit.name, _inputs_of(inputs, request, unit, options))
        if found is not None:
            fresh[unit.name] = found
    return fresh


def _validate(request: BuildRequest, chosen: list[str], stale: list[_Unit], catalogue: RecordCatalogue,
              validated: set[str], laid_out: LaidOut, faces: LaidOutCards, say: Callable[[str], None]) -> None:
    """Validate the games the stale units need that are not in ``validated`` yet (then added to it): every game
    the documents read, or for card sheets alone each stale sheet's game. ProblemsFound when a problem is found.
    The documents the check sets are kept in ``laid_out``, the card faces it lays out in ``faces``; ``say``
    hears how far validation is."""
    root = request.data_root
    if request.only is None or any(unit.part == Part.DOCS for unit in stale):
        needed = games_to_validate(root, chosen, request.glossary)
    else:
        needed = [unit.game for unit in stale if unit.game is not None]
    needed = [game for game in needed if game not in validated]
    if not needed:
        return
    report = validate(root, catalogue.specs, needed, catalogue, documents=partial(document_problems, keep=laid_out),
                      progress=lambda step: say(f"validating {step}"), cards=faces)
    if not report.ok:
        raise ProblemsFound([str(problem) for problem in report.problems], "no documents written")
    validated.update(needed)


def _build_units(request: BuildRequest, stale: list[_Unit], catalogue: RecordCatalogue, manifest: Manifest,
                 inputs: Inputs, options: Optional[cards.BuildOptions],
                 progress: Optional[CardProgress], laid_out: LaidOut, faces: LaidOutCards,
                 say: Callable[[str], None]) -> dict[str, list[Output]]:
    """Build each stale unit, recording it in the manifest as soon as its files are written (``say`` hears
    which document unit is being made, and how far)."""
    done: dict[str, list[Output]] = {}
    card_units = [unit for unit in stale if unit.part == Part.CARDS]
    if card_units:
        assert options is not None
        done.update(_build_cards(request, card_units, catalogue, manifest, inputs, options, progress, faces))
    doc_units = [unit for unit in stale if unit.part == Part.DOCS]
    for number, unit in enumerate(doc_units, 1):
        say(f"documents {number}/{len(doc_units)}: {unit.game or GLOSSARY_KIND}")
        done[unit.name] = _build_documents(request, unit, catalogue, manifest, inputs, laid_out, faces.scope)
    return done


def _build_cards(request: BuildRequest, units: list[_Unit], catalogue: RecordCatalogue, manifest: Manifest,
                 inputs: Inputs, options: cards.BuildOptions, progress: Optional[CardProgress],
                 faces: LaidOutCards) -> dict[str, list[Output]]:
    """Each stale game's card sheets, every edition (full colour, ink-friendly), written and recorded together
    as one unit (one progress count over all their cards), from the faces validation laid out (``faces``)."""
    games = [unit.game for unit in units if unit.game is not None]
    plans = cards.make_plans(request.data_root, games, catalogue.game)
    editions = cards.editions(options)
    sheets = cards.check_options(options, request.template_root)[0]  # read once for every sheet of the build
    if progress is not None:
        progress.begin(sum(plan.card_count for plan in plans) * len(editions))
    done: dict[str, list[Output]] = {}
    for unit, plan in zip(units, plans):
        if progress is not None:
            progress.game(plan.game)
        files: dict[Path, bytes] = {}
        details: list[str] = []
        for edition in editions:
            target = cards.pdf_path(request.out, plan.game, edition.paper, ink_saver=edition.ink_saver)
            own_folder(request.out, target.parent)
            stamped = edition if edition.stamp is None else replace(edition, stamp=edition.stamp.for_game(request.data_root / plan.game))
            data, pages = cards.render_pdf(plan, stamped, progress.advance if progress is not None else None,
                                           template_root=request.template_root,
                                           laid_out=faces.of(plan.game, request.template_root), art=faces.art,
                                           scope=inputs.scope, sheets=sheets)
            files[target] = data
            details.append(f"({plan.card_count} cards, {pages} pages)")
        _write_unit(manifest, unit.name, inputs.of(unit.name, options.as_dict(), [plan.game]), [plan.game], files)
        done[unit.name] = [Output(path, True, detail) for path, detail in zip(files, details)]
    return done


def _build_documents(request: BuildRequest, unit: _Unit, catalogue: RecordCatalogue, manifest: Manifest,
                     inputs: Inputs, laid_out: LaidOut, scope: store.Scope) -> list[Output]:
    """One game's documents (or the glossary): assembled, noting which games they read, rendered (or taken as
    validation set them, when it set these very documents), then written; ``scope``: the store scope the
    command's validation worked under (the project's card templates, which documents draw faces from)."""
    root = request.data_root
    assembled = laid_out.documents(unit.game, request.paper) if unit.game is not None else None
    docs: dict[str, m.Document]
    if assembled is not None and unit.game is not None:  # as validation assembled them, on this paper, from the same data
        docs, reads = known_kinds(unit.game, assembled[0]), assembled[1]
    else:
        with catalogue.noting_reads() as read:
            refs = References(catalogue)
            if unit.game is not None:
                docs = game_documents(unit.game, request.paper, refs, scope)
            else:
                docs = {GLOSSARY_KIND: combined_glossary(game_ids(root), refs)}
        reads = sorted(read)
    files: dict[Path, bytes] = {}
    for kind, doc in docs.items():
        kept = laid_out.pdf(unit.game, kind, request.paper, doc) if unit.game is not None else None  # (none for md)
        files[document_path(request.out, unit.game, kind, request.paper, request.doc_format)] = (
            kept if kept is not None else render_for_print(doc, request.paper, request.doc_format))
    for path in files:
        own_folder(request.out, path.parent)
    _write_unit(manifest, unit.name, inputs.of(unit.name, _unit_options(request, unit, None), reads), reads, files)
    return [Output(path, True) for path in files]


def _write_unit(manifest: Manifest, unit: str, digest: str, reads: Sequence[str], files: Mapping[Path, bytes]) -> None:
    """Write a unit's files atomically, then record them (the manifest never names a file before it is written)."""
    for path, data in files.items():
        write_atomic(path, data)
    manifest.record(unit, digest, reads, {path: hashlib.sha256(data).hexdigest() for path, data in files.items()})
    manifest.save()
