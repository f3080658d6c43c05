"""`pantheon validate`: schema checks, the checks every game shares, then each game's cross-checks.

Every stage reports all of its problems; a game's cross-checks run only on
documents that passed their schema, since they rely on its shape.
"""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional

from pipeline.core.dataset import DATA_SUFFIX, Document, GameData, display_path, game_ids, load_game
from pipeline.core.errors import UserError
from pipeline.core.names import NameRules, name_problems
from pipeline.core.problems import Location, Problem
from pipeline.core.schemas import SchemaSet, describe_path, load_schemas
from pipeline.core.yamlmarks import PathKey

# [[kind/id]] or [[game:kind/id]] inside prose; see CONVENTIONS.md.
REFERENCE = re.compile(r"\[\[(?:(?P<game>[a-z0-9-]+):)?(?P<kind>[a-z0-9-]+)/(?P<id>[a-z0-9-]+)\]\]")
REFERENCE_OPEN = "[["
GLOSSARY_KIND = "glossary"  # every game's glossary.yaml has the common shape (common.schema.json)
# Starts the message of the safety net below; the fuzz tests assert it never appears.
INTERNAL_CHECK_ERROR = "internal error in the checks"


@dataclass
class ValidationReport:
    """What `validate` found, per game, plus the games whose cross-checks could not run."""

    problems: list[Problem] = field(default_factory=list)
    skipped_cross_checks: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def package_name(game: str) -> str:
    return game.replace("-", "_")


def game_module(game: str, module: str) -> Optional[Any]:
    """``pipeline.games.<game>.<module>`` if the game has it, else None."""
    name = f"pipeline.games.{package_name(game)}.{module}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name and name.startswith(exc.name):
            return None
        raise


def select_games(data_root: Path, games: Optional[Iterable[str]]) -> list[str]:
    known = game_ids(data_root)
    if not games:
        return known
    chosen = list(dict.fromkeys(games))
    unknown = [g for g in chosen if g not in known]
    if unknown:
        raise UserError(f"unknown game {', '.join(unknown)} (known: {', '.join(known)})")
    return chosen


def validate(data_root: Path, games: Optional[Iterable[str]] = None) -> ValidationReport:
    """Validate ``games`` (all when None) under ``data_root``."""
    chosen = select_games(data_root, games)
    schemas = load_schemas(data_root)
    report = ValidationReport()
    catalogue = RecordCatalogue(data_root)
    for game in chosen:
        loaded = catalogue.game(game)
        problems = list(loaded.load_problems)
        problems += _pairing_problems(loaded, schemas)
        schema_clean = not problems
        for kind, doc in loaded.docs.items():
            found = schemas.problems(game, kind, doc) or []
            schema_clean = schema_clean and not found
            problems += found
        checks = game_module(game, "checks")
        name_rules = NameRules.of(checks)
        for doc in loaded.docs.values():
            problems += guarded(loaded, duplicate_id_problems(doc))
            problems += guarded(loaded, reference_problems(doc, catalogue))
            problems += guarded(loaded, name_problems(doc, name_rules))
        if schema_clean:
            if loaded.has(GLOSSARY_KIND):
                problems += guarded(loaded, glossary_problems(loaded.doc(GLOSSARY_KIND)))
            if checks is not None:
                problems += guarded(loaded, checks.cross_checks(loaded))
        else:
            report.skipped_cross_checks.append(game)
        report.problems += problems
    report.problems.sort()
    return report


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
    """Every data file has a schema and every schema has its data file."""
    present = set(loaded.docs) | loaded.unloadable
    for kind in sorted(present - set(schemas.kinds(loaded.game))):
        path = loaded.root / f"{kind}{DATA_SUFFIX}"
        expected = display_path(schemas.schema_path(loaded.game, kind))
        yield Problem(Location(display_path(path), 1, 1), f"no schema for this file (expected {expected})")
    for kind in sorted(set(schemas.kinds(loaded.game)) - present):
        schema = schemas.schema_path(loaded.game, kind)
        expected = display_path(loaded.root / f"{kind}{DATA_SUFFIX}")
        yield Problem(Location(display_path(schema), 1, 1), f"data file {expected} is missing")


def walk(data: Any, path: PathKey = ()) -> Iterator[tuple[PathKey, Any]]:
    """Every node of plain data with its path, parents before children."""
    yield path, data
    if isinstance(data, dict):
        for key, value in data.items():
            yield from walk(value, path + (key,))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from walk(value, path + (index,))


def duplicate_id_problems(doc: Document) -> Iterator[Problem]:
    """Ids must be unique within each list of records."""
    for path, node in walk(doc.data):
        if not isinstance(node, list):
            continue
        first_seen: dict[Any, int] = {}
        for index, record in enumerate(node):
            if not isinstance(record, dict) or "id" not in record:
                continue
            record_id = record["id"]
            if not isinstance(record_id, (str, int)):
                continue
            if record_id in first_seen:
                first_line = doc.at(*path, first_seen[record_id], "id").line
                yield doc.problem(path + (index, "id"), f"duplicate id '{record_id}' (first at line {first_line})")
            else:
                first_seen[record_id] = index


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


class RecordCatalogue:
    """Loads games on demand and answers which ``game/kind/id`` addresses exist."""

    def __init__(self, data_root: Path) -> None:
        self._root = data_root
        self._games: dict[str, GameData] = {}
        self._known = set(game_ids(data_root))

    def game(self, game: str) -> GameData:
        if game not in self._games:
            self._games[game] = load_game(self._root, game)
        return self._games[game]

    def find(self, game: str, kind: str, record_id: str) -> Optional[dict[str, Any]]:
        """The record addressed, or None; only records in a document's top-level lists are addressable."""
        if game not in self._known:
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
    """Every ``[[kind/id]]`` in prose names a record that exists."""
    own_game = doc.path.parent.name
    for path, node in walk(doc.data):
        if not isinstance(node, str) or REFERENCE_OPEN not in node:
            continue
        label, _ = describe_path(doc.data, path)
        matched = list(REFERENCE.finditer(node))
        if node.count(REFERENCE_OPEN) != len(matched):
            yield doc.problem(path, f"{label}malformed reference in {node!r}: write [[kind/id]] or [[game:kind/id]]")
        for match in matched:
            game = match["game"] or own_game
            if catalogue.find(game, match["kind"], match["id"]) is None:
                yield doc.problem(path, f"{label}reference {match[0]} names no record ({game}/{match['kind']}/{match['id']})")


def load_valid_game(game: str, data_root: Optional[Path] = None) -> GameData:
    """The loaded data of ``game``, refusing data that does not validate.

    Raises UserError naming the first problem (and how many there are), so a
    command that needs a model never works from broken data.
    """
    from pipeline.core.dataset import default_data_root

    root = data_root if data_root is not None else default_data_root()
    report = validate(root, [game])
    if not report.ok:
        raise UserError(f"{report.problems[0]} ({len(report.problems)} problem(s); run `pantheon validate {game}`)")
    return load_game(root, game)
