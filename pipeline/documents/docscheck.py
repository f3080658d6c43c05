"""Validate = build for documents: a game's documents are assembled, linted and laid out in memory, as the
build lays them out, so whatever would make the build refuse a document is a validation problem at the data
file and line it came from.

Run by `pantheon validate` and `build` (passed to :func:`pipeline.checks.validate.validate` as its document
check, after every other check of the game passed). Per game:

- the documents are assembled, once for every paper (a rules section a document looks up and the data lacks
  is a problem at rules.yaml, never a KeyError); on each paper, their parts sized by the paper are built;
- on the first paper, every text is linted (:mod:`pipeline.documents.copylint`), and every component the
  rulebook lists must be produced;
- each document is laid out with the build's own renderer: a table cell taller than a page, a label that
  runs off its drawing (a footer cut at the page edge), a sheet over its page budget or an orphan page are the
  renderer's refusals, and so is a page left more than a third empty but a chapter's last (the layout notes how
  far down each column it reaches: :mod:`pipeline.documents.fill`), reported here with file:line. On a paper
  whose PDFs nobody keeps, the layout is only measured (:mod:`pipeline.documents.measuring`: text, drawings and
  card faces take their room unpainted). The build passes a :class:`LaidOut` for its paper: the documents are
  set in full on it, kept, and written by the build rather than set again;
- the game's terms are measured in the combined glossary's table (its cells, not its pages: the glossary is
  laid out whole by the build; the see-alsos other games add to a term are left out, so that validating a game
  never reads the others).
"""
from __future__ import annotations

from typing import Iterable, Iterator, Mapping, Optional

from pipeline.base.errors import UserError
from pipeline.cards.cardlayout import LaidOutCards, Layouts
from pipeline.cards.faces import FaceRecord, FaceRecords
from pipeline.cards.imposition import load_sheets
from pipeline.cards.svgtemplates import TEMPLATE_ROOT, Templates
from pipeline.checks.components import data_counts
from pipeline.checks.references import References
from pipeline.checks.validate import RecordCatalogue
from pipeline.data.dataset import GameData
from pipeline.data.kinds import COMPONENTS_KIND, GLOSSARY_KIND, RULES_KIND
from pipeline.data.problems import Location, Problem
from pipeline.documents import copylint
from pipeline.documents import structure as m
from pipeline.documents.facedraw import card_templates
from pipeline.documents.fill import PageTooEmpty
from pipeline.documents.glossary import combined_glossary
from pipeline.documents.layout import load_layout
from pipeline.documents.origin import Origins
from pipeline.documents.parsedtexts import ParsedTexts
from pipeline.documents.pdf import PdfRenderer, TextDoesNotFit
from pipeline.documents.render import filled_pdf
from pipeline.documents.standard import DocContext, MissingSection


class LaidOut:
    """The PDFs the document check set on ``paper`` (None: none), each with the document it set, by game, kind
    and paper: what the build writes instead of setting a document again in the same process (only for an
    equal document, since the renderer makes the same bytes from the same document)."""

    def __init__(self, paper: Optional[str]) -> None:
        self.paper = paper
        self._pdfs: dict[tuple[str, str, str], tuple[m.Document, bytes]] = {}
        self._documents: dict[tuple[str, str], tuple[dict[str, m.Document], list[str]]] = {}

    def keep_documents(self, game: str, paper: str, docs: Mapping[str, m.Document], reads: Iterable[str]) -> None:
        """Keep game ``game``'s documents as assembled on ``paper`` and the games they read: the build writes
        them rather than assembling them again."""
        self._documents[(game, paper)] = (dict(docs), sorted(reads))

    def documents(self, game: str, paper: str) -> Optional[tuple[dict[str, m.Document], list[str]]]:
        """Game ``game``'s documents on ``paper`` and the games they read (None: not assembled here)."""
        return self._documents.get((game, paper))

    def keep(self, game: str, kind: str, paper: str, doc: m.Document, pdf: bytes) -> None:
        """Keep ``pdf``, set for ``doc`` and passed by every check the build makes (the fill check included)."""
        self._pdfs[(game, kind, paper)] = (doc, pdf)

    def pdf(self, game: str, kind: str, paper: str, doc: m.Document) -> Optional[bytes]:
        """The PDF set for ``doc`` as game ``game``'s ``kind`` on ``paper``, or None when none was set for it."""
        found = self._pdfs.get((game, kind, paper))
        return found[1] if found is not None and found[0] == doc else None


def document_problems(game: GameData, catalogue: RecordCatalogue, cards: Optional[LaidOutCards] = None, *,
                      keep: Optional[LaidOut] = None) -> Iterator[Problem]:
    """Every problem the documents of ``game`` would meet in print, on every paper (see the module doc);
    ``cards``: the faces the card check of this command laid out; ``keep``: where the PDFs set are kept for
    the build."""
    spec = game.spec
    if spec.documents is None:
        return
    refs = References(catalogue)
    origins = Origins(game, refs, spec.documents)
    laid_out = cards.of(game.game, TEMPLATE_ROOT) if cards is not None else None
    sheets = load_sheets()  # read once: the papers and the cards' bleed
    templates = card_templates(cards=cards, sheets=sheets)  # the command's, which the card check laid its faces out from
    faces = CheckedFaces(laid_out, game.game, templates) if spec.cards is not None else None
    try:
        with catalogue.noting_reads() as reads:
            assembled = spec.documents(DocContext(game, refs, faces, templates))
            papers = [(paper, load_layout(paper, sheets=sheets)) for paper in sorted(sheets.papers)]
            on_papers = [(paper, layout, {kind: doc.on(layout) for kind, doc in assembled.items()}) for paper, layout in papers]
    except MissingSection as missing:
        rules = game.doc(RULES_KIND)
        yield rules.problem(("sections",), f"rules: no section {missing.section_id} (a document prints it)")
        return
    glossary = [combined_glossary([game.game], refs)] if game.has(GLOSSARY_KIND) else []  # its terms, the same on every paper
    parsed = ParsedTexts()  # each text made ready to set once, for every paper
    for index, (paper, layout, docs) in enumerate(on_papers):
        kept = keep if keep is not None and keep.paper == paper else None
        if kept is not None:
            kept.keep_documents(game.game, paper, docs, reads | {game.game})  # (a game's documents read its own data)
        if index == 0:  # the words are the same on every paper
            yield from _lint(game, [*docs.values(), *glossary], origins)
        renderer = PdfRenderer(layout, parsed, cards=cards)
        for terms in glossary:
            yield from _glossary_cells(terms, renderer, origins, check_texts=index == 0)
        for kind, doc in docs.items():
            try:
                pdf = filled_pdf(renderer, doc, paint=kept is not None)  # the build's paper set in full, to be kept
            except TextDoesNotFit as unfit:
                yield Problem(origins.locate(unfit.text), str(unfit))
            except PageTooEmpty as empty:  # blamed on the text that would not fit under the gap, if any
                yield Problem(origins.locate(empty.text) if empty.text else _main_source(doc, origins), str(empty))
            except UserError as refused:  # a page fault: blamed on the data file that gives the document most words
                yield Problem(_main_source(doc, origins), str(refused))
            else:
                if kept is not None:
                    kept.keep(game.game, kind, paper, doc, pdf)


class CheckedFaces:
    """The records of a game's card faces: as the card check of this command laid them out (``laid_out``), else
    as a build or check before it kept them (read only if a face was not laid out here)."""

    def __init__(self, laid_out: Optional[Layouts], game: str, templates: Templates) -> None:
        self._laid_out = laid_out
        self._game = game
        self._templates = templates
        self._kept: Optional[FaceRecords] = None

    def get(self, key: str) -> Optional[FaceRecord]:
        record = self._laid_out.record(key) if self._laid_out is not None else None
        if record is None:
            if self._kept is None:
                self._kept = FaceRecords(self._templates, self._game)
            record = self._kept.get(key)
        return record


def _lint(game: GameData, docs: Iterable[m.Document], origins: Origins) -> Iterator[Problem]:
    docs = list(docs)
    words = copylint.vocabulary([{kind: doc.data for kind, doc in game.docs.items()}])
    seen: set[tuple[Location, str]] = set()
    findings = list(copylint.documents_findings(docs, words))
    if game.has(COMPONENTS_KIND):
        listed = [(c["id"], c["name"], c.get("description", "")) for c in game.doc(COMPONENTS_KIND).data["components"]]
        findings += copylint.component_findings(listed, data_counts(game), docs)
    for finding in findings:
        if finding.kind == copylint.COMPONENT:
            components = game.doc(COMPONENTS_KIND)
            at = components.at(*components.record_at("components", finding.record, "name"))
        else:
            at = origins.locate(finding.text, finding.words)
        if (at, finding.message) not in seen:  # a text printed in two documents is one finding
            seen.add((at, finding.message))
            yield Problem(at, finding.message)


def _glossary_cells(glossary: m.Document, renderer: PdfRenderer, origins: Origins, *, check_texts: bool) -> Iterator[Problem]:
    """The game's rows of the combined glossary (``glossary``: of this game alone, so that validating a game never
    reads the others) fit a page of its table, as the build lays it out on this paper; ``check_texts``: their
    markup and glyphs checked too (the same on every paper)."""
    for block in glossary.blocks:
        if isinstance(block, m.Table):
            try:
                renderer.measure_table(block, glossary.title, check_texts=check_texts)
            except TextDoesNotFit as unfit:
                yield Problem(origins.locate(unfit.text), f"{glossary.title}: {unfit.reason}")


def _main_source(doc: m.Document, origins: Origins) -> Location:
    """The place of the longest text of the data file that prints the most words in ``doc``."""
    by_file: dict[str, list[tuple[int, Location]]] = {}
    for text in copylint.document_texts(doc):
        at = origins.locate(text)
        by_file.setdefault(at.file, []).append((len(text), at))
    best = max(by_file.values(), key=lambda found: sum(size for size, _ in found))
    return max(best)[1]

