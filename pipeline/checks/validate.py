"""`pantheon validate`: schema checks, the checks every game shares, then each game's cross-checks.

Every stage reports all of its problems; a game's cross-checks run only on
documents that passed their schema, since they rely on its shape. Each game
is loaded once (:class:`RecordCatalogue`); the report hands the loaded games
on (``report.game(id)``), with the model their checks built, so the stages
after validation (cards, documents, game commands) never read the data again.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Optional

from pipeline import store
from pipeline.base.errors import UserError
from pipeline.base.words import count
from pipeline.cards import fonts
from pipeline.cards.cardcheck import card_problems
from pipeline.cards.cardlayout import LaidOutCards
from pipeline.cards.svgtemplates import ICON_DIR, TEMPLATE_ROOT, IconLibrary
from pipeline.checks.components import count_problems
from pipeline.checks.deleted import fold_deleted
from pipeline.checks.names import NameRules, name_problems
from pipeline.checks.required import REQUIRED_KIND, numbered_list_problems, required_problems
from pipeline.checks.rulebook_facts import FACTS_KIND, fact_problems, node_at
from pipeline.checks.rulebook_quotes import quote_problems
from pipeline.checks.rulecontract import example_problems, ruling_problems, section_problems
from pipeline.checks.validcache import ValidationMemo
from pipeline.data import markup
from pipeline.data.dataset import DATA_SUFFIX, Document, GameData, default_data_root, display_path, game_ids, load_game
from pipeline.data.effects import language_problems
from pipeline.data.gamespec import GameSpec, SpecError, Specs
from pipeline.data.kinds import COMPONENTS_KIND, GLOSSARY_KIND
from pipeline.data.problems import Location, Problem
from pipeline.data.schemas import SchemaSet, describe_path, load_schemas
from pipeline.data.yamlmarks import PathKey

__all__ = ["ValidationReport", "validate", "load_valid_game", "RecordCatalogue", "walk"]

REFERENCE = markup.REFERENCE  # kept here for the games' checks that scan prose for references
EXCERPT_BEFORE, EXCERPT_AFTER = 12, 18  # characters of a text shown around a markup problem
# Starts the message of the safety net below; the fuzz tests assert it never appears.
INTERNAL_CHECK_ERROR = "internal error in the checks"


@dataclass
class ValidationReport:
    """What `validate` found, per game, plus the games whose cross-checks could not run.

    ``games`` holds every game validated, loaded once (a game remembered clean is
    loaded when first asked for); ``catalogue`` every game loaded on the way
    (references may reach other games). Hand them on: a
    stage after validation takes ``report.game(id)``, never the files again.
    """

    problems: list[Problem] = field(default_factory=list)
    skipped_cross_checks: list[str] = field(default_factory=list)
    games: Mapping[str, GameData] = field(default_factory=dict)
    catalogue: Optional["RecordCatalogue"] = None

    @property
    def ok(self) -> bool:
        return not self.problems

    def game(self, game: str) -> GameData:
        """The vetted data of ``game`` (its model built on first use, once); only on a clean report."""
        if self.problems:
            raise UserError(f"{self.problems[0]} ({count(len(self.problems), 'problem')}; run `pantheon validate {game}`)")
        if game not in self.games:
            raise UserError(f"{game}: not validated in this run")
        return self.games[game]


# A check of a layer above this one, run last on a game every other check passed: the documents'
# (pipeline.documents.docscheck: the documents laid out as the build lays them out), given the card faces
# the card check laid out (the player aids show the icons the cards print).
DocumentCheck = Callable[[GameData, "RecordCatalogue", LaidOutCards], Iterable[Problem]]


def validate(data_root: Path, specs: Specs, games: Optional[Iterable[str]] = None,
             catalogue: Optional["RecordCatalogue"] = None, documents: Optional[DocumentCheck] = None,
             progress: Optional[Callable[[str], None]] = None, fold: bool = True,
             cards: Optional[LaidOutCards] = None, scope: Optional[store.Scope] = None) -> ValidationReport:
    """Validate ``games`` (all when None) under ``data_root``, each by its spec in ``specs``;
    ``catalogue``: games loaded already; ``documents``: the document check (`pantheon validate` and `build`
    pass it; commands that print no document leave it out, and a game they found clean is not clean for it);
    ``progress``: told what is being checked and how far (``"monstrous (3/5): documents"``); ``fold`` False:
    a deleted record's consequences are listed after it, one by one, as each check found them; ``cards``:
    where the card check leaves the faces it laid out (the build draws them; the document check reads their
    records either way); ``scope``: the command's store scope, used when it is of the project's templates (the
    checks read those; else one is taken here), when ``cards`` does not bring one."""
    chosen = specs.select(data_root, games)
    schemas: Optional[SchemaSet] = None  # read when a game must be checked (the memo's key holds their content)
    catalogue = catalogue or RecordCatalogue(data_root, specs)
    report = ValidationReport(catalogue=catalogue)
    printable = PrintableText()
    # what the card check lays out, for the documents too; its scope keys every store entry the checks keep
    faces = cards if cards is not None else LaidOutCards(store.scope(reuse=scope))
    memo = ValidationMemo(data_root, game_ids(data_root), faces.scope, checked=_check_name(documents))
    report.games = vouched = ValidatedGames(catalogue)
    say = progress or (lambda _: None)
    for number, game in enumerate(chosen, 1):
        if memo.clean(game, specs.spec(game)):  # passed every check with exactly these inputs: not checked again,
            vouched.add(game)  # and loaded only when a later stage asks for it
            continue
        say(f"{game} ({number}/{len(chosen)}): data, rules and card faces")
        loaded = catalogue.game(game)
        loaded.scope = faces.scope  # (of the project's templates: what a check keeping entries keys them under)
        schemas = schemas or load_schemas(data_root)
        catalogue.requested.clear()
        problems, cross_checked = game_problems(loaded, schemas, catalogue, printable, fold=fold, cards=faces)
        if cross_checked and not problems and documents is not None:  # laid out only from data every check vouched for
            say(f"{game} ({number}/{len(chosen)}): documents")
            problems = guarded(loaded, documents(loaded, catalogue, faces))
        if not cross_checked:
            report.skipped_cross_checks.append(game)
        elif not problems:
            memo.remember(loaded, catalogue.requested)
        report.problems += problems
        vouched.add(game)
    report.problems.sort(key=lambda problem: (not problem.leads, problem))  # causes first, then by place
    return report


def game_problems(
    loaded: GameData[Any], schemas: SchemaSet, catalogue: RecordCatalogue, printable: Optional[PrintableText] = None,
    *, fold: bool = True, cards: Optional[LaidOutCards] = None,
) -> tuple[list[Problem], bool]:
    """Every problem of one loaded game, and whether its cross-checks ran (they need schema-clean data); a
    deleted record is one line that leads with it, its consequences folded in (checks/deleted.py), unless
    ``fold`` is False (the cause still leads, and each check's own finding follows it)."""
    problems, cross_checked = _all_game_problems(loaded, schemas, catalogue, printable, cards)
    return (fold_deleted(loaded, problems, fold=fold) if problems else problems), cross_checked


def _all_game_problems(
    loaded: GameData[Any], schemas: SchemaSet, catalogue: RecordCatalogue, printable: Optional[PrintableText] = None,
    cards: Optional[LaidOutCards] = None,
) -> tuple[list[Problem], bool]:
    game = loaded.game
    printable = printable or PrintableText()
    problems = list(loaded.load_problems)
    problems += _pairing_problems(loaded, schemas)
    schema_clean = not problems
    facts_checkable = FACTS_KIND not in loaded.unloadable
    # Kinds whose own problems are reported already (unreadable, missing beside their schema, ...).
    unread = frozenset(loaded.unloadable) | (set(schemas.kinds(game)) - set(loaded.docs))
    unsettled = set(unread)
    duplicated = False
    for kind, doc in loaded.docs.items():
        found = schemas.problems(game, kind, doc)
        duplicates = guarded(loaded, duplicate_id_problems(doc))
        schema_clean = schema_clean and not found
        if kind == FACTS_KIND:
            facts_checkable = found == [] and not duplicates  # a facts file without a schema, or with problems, is not read
        if found or duplicates:
            unsettled.add(kind)
        if duplicates:
            copies = _inside_copies(doc, found or [])
            found = [problem for problem in found or [] if problem not in copies]
        problems += (found or []) + duplicates
        duplicated = duplicated or bool(duplicates)
    if duplicated:
        # Every later check finds records by id: a used-twice id makes the records it hides "missing" and
        # the copy "wrong", consequences that would be printed before the cause. Only the cause is told.
        return problems, False
    spec = loaded.spec
    checks = spec.checks
    name_rules = NameRules.of(checks)
    for doc in loaded.docs.values():
        if holds_references(doc.data):
            problems += guarded(loaded, reference_problems(doc, catalogue))
        problems += guarded(loaded, markup_problems(doc, printable))
        problems += guarded(loaded, name_problems(doc, name_rules))
        problems += guarded(loaded, numbered_list_problems(doc))
    problems += guarded(loaded, quote_problems(loaded))
    if facts_checkable:
        # Facts are compared even when another file has problems, so a value that
        # contradicts the rulebook is reported alongside them.
        problems += guarded(loaded, fact_problems(loaded, checks, frozenset(unsettled)))
    if loaded.has(REQUIRED_KIND) and REQUIRED_KIND not in unsettled:  # records the rulebook states are never lost
        problems += guarded(loaded, required_problems(loaded, unread))
    if spec.effects is not None:  # checked even when the data fails its schemas: a drifted schema may be why
        problems += guarded(loaded, language_problems(loaded, spec.effects))
    if not schema_clean:
        return problems, False
    if loaded.has(GLOSSARY_KIND):
        problems += guarded(loaded, glossary_problems(loaded.doc(GLOSSARY_KIND)))
    if spec.counts is not None and loaded.has(COMPONENTS_KIND):
        problems += guarded(loaded, component_problems(loaded, spec))
    problems += guarded(loaded, section_problems(loaded, spec.rule_sections))
    if spec.rulings is not None:
        problems += guarded(loaded, ruling_problems(loaded, spec.rulings))
    problems += guarded(loaded, checks.cross_checks(loaded))
    for examples in spec.examples if not problems else ():  # replays rely on every fact the checks vouch for
        problems += guarded(loaded, example_problems(loaded, examples))
    if not problems:  # the cards are laid out only from data every check vouched for
        problems += guarded(loaded, card_problems(loaded, keep=cards))
    return problems, True


def _check_name(check: Optional[DocumentCheck]) -> str:
    """What the memo records of the document check (its code is in the store's code digest); a check given
    options (a partial, such as the build's that keeps what it laid out) is the check it wraps."""
    while isinstance(check, partial):
        check = check.func
    return "" if check is None else f"{check.__module__}.{getattr(check, '__qualname__', type(check).__name__)}"


def component_problems(loaded: GameData[Any], spec: GameSpec[Any]) -> Iterator[Problem]:
    """components.yaml against the game's count (its spec's ``counts``), when the files it counts are there
    (a missing document is reported by the game's own checks)."""
    counter = spec.counts
    if counter is None:
        raise spec.missing("counts")
    try:
        inventory = counter(loaded)
    except SpecError:
        raise
    except UserError:  # GameData.doc: a document the count reads is missing
        return
    yield from count_problems(loaded, inventory)


def guarded(game: GameData, found: Iterable[Problem]) -> list[Problem]:
    """The problems ``found`` yields; if a check raises, one more problem says so (exit 1, not 2).

    Defence in depth only: every check is written to report data it does not
    understand as a problem, and the fuzz tests (tests/fuzz/) assert that this
    message never appears. It names the data file the failing check was reading
    (the innermost frame holding a Document), else the game's folder.
    """
    problems: list[Problem] = []
    try:
        for problem in found:
            problems.append(problem)
    except UserError:
        raise  # a deliberate message for the user, printed as it is
    except Exception as exc:  # noqa: BLE001 - a bug of ours must not hide the problems already found
        problems.append(Problem(_failing_location(game, exc), (
            f"{INTERNAL_CHECK_ERROR} of {game.game}: {type(exc).__name__}: {' '.join(str(exc).split())}; "
            "the checks after it did not run "
            "(a bug: please report it with this data)")))
    return problems


def _failing_location(game: GameData, exc: BaseException) -> Location:
    tb = exc.__traceback__
    frames = []
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):
        for value in frame.f_locals.values():
            if isinstance(value, Document):
                return Location(value.file, 1, 1)
    return Location(display_path(game.root), 1, 1)


def _pairing_problems(loaded: GameData, schemas: SchemaSet) -> Iterator[Problem]:
    """Every data file has a schema and every schema has its data file (a file that could not be read
    has its one problem already)."""
    present = set(loaded.docs) | loaded.unloadable
    for kind in sorted(set(loaded.docs) - set(schemas.kinds(loaded.game))):
        path = loaded.root / f"{kind}{DATA_SUFFIX}"
        expected = display_path(schemas.schema_path(loaded.game, kind))
        yield Problem(Location(display_path(path), 1, 1), f"no schema for this file (expected {expected})")
    for kind in sorted(set(schemas.kinds(loaded.game)) - present):
        schema = schemas.schema_path(loaded.game, kind)
        expected = display_path(loaded.root / f"{kind}{DATA_SUFFIX}")
        yield Problem(Location(display_path(schema), 1, 1), f"data file {expected} is missing")


def walk(data: Any, path: PathKey = ()) -> Iterator[tuple[PathKey, Any]]:
    """Every node of plain data with its path, parents before children, in document order.

    With a stack rather than recursion: a recursive generator passes each node up through every
    level above it, and every check walks every document."""
    stack: list[tuple[PathKey, Any]] = [(path, data)]
    while stack:
        path, node = stack.pop()
        yield path, node
        if isinstance(node, dict):
            stack.extend([(path + (key,), value) for key, value in reversed(node.items())])
        elif isinstance(node, list):
            stack.extend([(path + (index,), node[index]) for index in range(len(node) - 1, -1, -1)])


def duplicate_ids(doc: Document) -> Iterator[tuple[PathKey, Any, list[int]]]:
    """Each id used more than once in a list of records of ``doc``: the list's path, the id, the indexes."""
    for path, node in walk(doc.data):
        if not isinstance(node, list):
            continue
        uses: dict[Any, list[int]] = {}
        for index, record in enumerate(node):
            if isinstance(record, dict) and isinstance(record.get("id"), (str, int)):
                uses.setdefault(record["id"], []).append(index)
        yield from ((path, record_id, indexes) for record_id, indexes in uses.items() if len(indexes) > 1)


def duplicate_id_problems(doc: Document) -> Iterator[Problem]:
    """Ids must be unique within each list of records: one problem per id used more than once, at its
    second use (the copy), naming every other line that uses it."""
    for path, record_id, indexes in duplicate_ids(doc):
        others = ", ".join(f"{doc.file}:{doc.at(*path, index, 'id').line}" for index in indexes if index != indexes[1])
        times = "twice" if len(indexes) == 2 else f"{len(indexes)} times"
        yield doc.problem(path + (indexes[1], "id"), f'id "{record_id}" is used {times} (also at {others})')


def _inside_copies(doc: Document, found: list[Problem]) -> list[Problem]:
    """The problems of ``found`` inside a record whose id is used twice, from its second use on: a schema that
    reads a record by its id (``phase tribulation`` must have ``roll``) judges the copy by the wrong id."""
    spans = []
    for path, _, indexes in duplicate_ids(doc):
        records = node_at(doc.data, path)
        for index in indexes[1:]:
            start = doc.at(*path, index).line
            end = doc.at(*path, index + 1).line if index + 1 < len(records) else None
            spans.append((start, end))
    return [problem for problem in found if problem.at.file == doc.file and any(
        start <= problem.at.line and (end is None or problem.at.line < end) for start, end in spans)]


def glossary_problems(doc: Document) -> Iterator[Problem]:
    """Each ``see_also`` of a glossary term names another term of the same glossary."""
    terms = {term["id"] for term in doc.data["terms"]}
    for index, term in enumerate(doc.data["terms"]):
        for position, other in enumerate(term.get("see_also", [])):
            where = ("terms", index, "see_also", position)
            if other == term["id"]:
                yield doc.problem(where, f"term {term['id']}: see_also names the term itself")
            elif other not in terms:
                yield doc.problem(where, f"term {term['id']}: see_also '{other}' is not a term")


class ValidatedGames(Mapping[str, GameData]):
    """The games a validation vouched for, by id, each loaded from the catalogue on first use (a build
    after a one-game edit never loads the games whose checks it skipped and whose outputs are fresh)."""

    def __init__(self, catalogue: "RecordCatalogue") -> None:
        self._catalogue = catalogue
        self._ids: list[str] = []

    def add(self, game: str) -> None:
        if game not in self._ids:
            self._ids.append(game)

    def __getitem__(self, game: str) -> GameData:
        if game not in self._ids:
            raise KeyError(game)
        return self._catalogue.game(game)

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)


class RecordCatalogue:
    """Loads games on demand and answers which ``game/kind/id`` addresses exist."""

    def __init__(self, data_root: Path, specs: Specs) -> None:
        self._root = data_root
        self.specs = specs
        self._games: dict[str, GameData] = {}
        self._known = set(game_ids(data_root))
        self.requested: set[str] = set()  # every game asked for (validate: which games a game's checks read)

    @contextmanager
    def noting_reads(self) -> Iterator[set[str]]:
        """The games asked for inside the ``with`` block (filled in when it ends), still noted as asked for
        outside it: what a build unit reads, within what a game's checks read."""
        before = set(self.requested)
        self.requested.clear()
        reads: set[str] = set()
        try:
            yield reads
        finally:
            reads.update(self.requested)
            self.requested.update(before)

    def game(self, game: str) -> GameData:
        self.requested.add(game)
        if game not in self._games:
            self._games[game] = load_game(self._root, self.specs.spec(game))
        return self._games[game]

    def unread(self, game: str, kind: str) -> bool:
        """Whether ``kind`` of ``game`` is a file that could not be read (its records are unknown, not missing)."""
        return game in self._known and self.specs.find(game) is not None and kind in self.game(game).unloadable

    def find(self, game: str, kind: str, record_id: str) -> Optional[dict[str, Any]]:
        """The record addressed, or None; only records in a document's top-level lists are addressable."""
        if game not in self._known or self.specs.find(game) is None:  # (a folder without spec: no records)
            return None
        doc = self.game(game).docs.get(kind)
        if doc is None:
            return None
        for value in doc.data.values():
            if isinstance(value, list):
                for record in value:
                    if isinstance(record, dict) and str(record.get("id")) == record_id:
                        return record
        return None


def reference_problems(doc: Document, catalogue: RecordCatalogue) -> Iterator[Problem]:
    """Every ``[[kind/id]]`` in prose names a record that exists (a malformed one is a markup problem)."""
    own_game = doc.path.parent.name
    for path, node in walk(doc.data):
        if not isinstance(node, str) or markup.REFERENCE_OPEN not in node:
            continue
        try:
            found = list(markup.references(node))
        except markup.MarkupError:
            continue  # reported by markup_problems
        label, _ = describe_path(doc.data, path)
        seen: dict[str, int] = {}  # how often each reference's text came before it in this string
        for reference in found:
            earlier = seen.get(reference.source, 0)
            seen[reference.source] = earlier + 1
            game = reference.game or own_game
            if catalogue.unread(game, reference.kind):
                continue  # the file it points into is malformed, told at its own line
            if catalogue.find(game, reference.kind, reference.id) is None:  # blamed at its own line of the text
                yield Problem(doc.fragment_at(path, reference.source, earlier),
                              f"{label}reference {reference.source} names no record ({game}/{reference.kind}/{reference.id})")


def holds_references(data: Any) -> bool:
    """Whether any text of ``data`` opens a ``[[reference]]`` (well formed or not)."""
    return any(isinstance(node, str) and markup.REFERENCE_OPEN in node for _, node in walk(data))


class PrintableText:
    """Whether a text can be printed: its markup parses, its icons exist, the font has every character.

    The icon folder and the font are read on first need (most texts are plain ASCII and need neither).
    """

    @cached_property
    def icons(self) -> frozenset[str]:
        return frozenset(IconLibrary(TEMPLATE_ROOT / ICON_DIR).names())

    def problem(self, text: str) -> Optional[tuple[int, str]]:
        """The first reason ``text`` cannot be printed, with the character it concerns, or None."""
        if text.isascii() and markup.is_plain(text):
            return None
        try:
            nodes = markup.parse(text)
        except markup.MarkupError as exc:
            return exc.offset, exc.message
        for node in markup.walk(nodes):
            if isinstance(node, markup.Icon) and node.name not in self.icons:
                return node.offset, (
                    f"unknown icon ':{node.name}:' (no templates/icons/{node.name}.svg; write \\: for a literal colon)"
                )
        if not text.isascii():
            return self._glyph_problem(text, nodes)
        return None

    @staticmethod
    def _glyph_problem(text: str, nodes: tuple[markup.Inline, ...]) -> Optional[tuple[int, str]]:
        letters = "".join(piece for _, _, piece in markup.styled_text(nodes))
        for style in fonts.STYLES:  # any text may be set in any style of the family
            missing = fonts.missing_glyphs(letters, style)
            if missing:
                char = missing[0]
                return text.find(char), (
                    f"character '{char}' (U+{ord(char):04X}) is not in the {fonts.FAMILY} font ({style}): use another character"
                )
        return None


def markup_problems(doc: Document, printable: PrintableText) -> Iterator[Problem]:
    """Every text of ``doc`` can be printed (see PrintableText); each problem names the record, the field
    and the words around the place."""
    for path, node in walk(doc.data):
        if not isinstance(node, str):
            continue
        found = printable.problem(node)
        if found is None:
            continue
        offset, message = found
        label, field_path = describe_path(doc.data, path)
        where = f"{field_path}: " if field_path else ""
        yield doc.problem(path, f"{label}{where}{message} (near {_excerpt(node, offset)!r})")


def _excerpt(text: str, offset: int) -> str:
    start, end = max(0, offset - EXCERPT_BEFORE), min(len(text), offset + EXCERPT_AFTER)
    return ("..." if start else "") + text[start:end] + ("..." if end < len(text) else "")


def load_valid_game(specs: Specs, game: str, data_root: Optional[Path] = None) -> GameData[Any]:
    """The loaded data of ``game`` (its model built on first use), refusing data that does not validate.

    Raises UserError naming the first problem (and how many there are), so a
    command that needs a model never works from broken data. The data is read
    once: validation's GameData is the one returned.
    """
    root = data_root if data_root is not None else default_data_root()
    return validate(root, specs, [game]).game(game)
