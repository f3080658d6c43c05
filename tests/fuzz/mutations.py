"""Schema-shaped edits of the real data files, and a runner that validates each one.

The edits are the ones a data editor makes by mistake: a number changed (to 0,
1, -1, its neighbours, huge values), a record or id renamed or deleted, a
record duplicated, a value swapped for another seen under the same key (enum
values and references), a list emptied, a boolean flipped, an optional field
dropped. Most keep the file valid for its schema, so the game's cross-checks
(and the engines they call) run on data they may not understand; the runner
asserts they answer with problems, never an exception.

Used by the property test (a few hundred drawn edits) and the exhaustive run
(every edit of every file), see tests/fuzz/.
"""
from __future__ import annotations

import copy
import shutil
import signal
import traceback
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Optional, Union

import yaml

from pipeline.checks.validate import INTERNAL_CHECK_ERROR, ValidationReport, validate, walk
from pipeline.data.dataset import DATA_SUFFIX, data_files, default_data_root, game_ids
from pipeline.games.registry import catalogue

PathKey = tuple[Union[str, int], ...]

NUMBER, RENAME, DELETE, DUPLICATE, SWAP, EMPTY, FLIP, DROP = (
    "number", "rename", "delete", "duplicate", "swap", "empty", "flip", "drop")
CATEGORIES = (NUMBER, RENAME, DELETE, DUPLICATE, SWAP, EMPTY, FLIP, DROP)

HUGE = 2**63 - 1
INT_EDITS = (0, 1, -1, 2**31, HUGE, -(2**31))       # plus the neighbours n-1 and n+1
FLOAT_EDITS = (0.0, 1.0, -1.0, 1e12, 0.5)
RENAMED_ID = "renamed-by-fuzz"
DUPLICATE_ID_SUFFIX = "-twin"
MAX_SWAPS_PER_VALUE = 4   # alternatives tried per string value (enum values, references, names) ...
FREE_TEXT_VALUES = 12     # ... or only one (a duplicate) where a key holds more distinct values (prose)
CASE_SECONDS = 60         # a case running longer than this is a hang (cases take well under a second)


@dataclass(frozen=True)
class Mutation:
    """One edit of one data file: ``action`` at ``path`` (``value`` for "set")."""

    game: str
    kind: str
    category: str
    path: PathKey
    action: str            # "set", "delete" (list item or key), "copy" (after it), "twin" (copy, new id)
    value: Any = None

    def apply(self, data: Any) -> Any:
        """A deep copy of ``data`` with this edit made."""
        edited = copy.deepcopy(data)
        *parents, last = self.path
        node = edited
        for step in parents:
            node = node[step]
        if self.action == "set":
            node[last] = copy.deepcopy(self.value)
        elif self.action == "delete":
            del node[last]
        elif self.action == "copy":
            node.insert(last + 1, copy.deepcopy(node[last]))
        elif self.action == "twin":
            twin = copy.deepcopy(node[last])
            twin["id"] = f"{twin['id']}{DUPLICATE_ID_SUFFIX}"
            node.insert(last + 1, twin)
        else:  # pragma: no cover - a bug in this module
            raise ValueError(self.action)
        return edited

    def __str__(self) -> str:
        where = "/".join(str(step) for step in self.path)
        shown = f" = {_short(self.value)}" if self.action == "set" else ""
        return f"{self.game}/{self.kind}{DATA_SUFFIX} {self.category}: {self.action} {where}{shown}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# --------------------------------------------------------------------------- enumeration
def _key_of(path: PathKey) -> Optional[str]:
    """The mapping key a value sits under (list indices skipped): ``(..., "deck", 3, "deity")`` -> deity."""
    for step in reversed(path):
        if isinstance(step, str):
            return step
    return None


def _number_values(value: Union[int, float]) -> list[Union[int, float]]:
    base = INT_EDITS if isinstance(value, int) else FLOAT_EDITS
    found: list[Union[int, float]] = []
    for candidate in (*base, value - 1, value + 1):
        if candidate != value and candidate not in found:
            found.append(candidate)
    return found


def _swap_values(value: str, seen: list[str]) -> list[str]:
    """Up to MAX_SWAPS_PER_VALUE other values seen under the same key, nearest in sorted order first."""
    others = [other for other in seen if other != value]
    limit = 1 if len(seen) > FREE_TEXT_VALUES else MAX_SWAPS_PER_VALUE
    if len(others) <= limit:
        return others
    position = sum(1 for other in others if other < value)
    picked: list[str] = []
    for offset in range(len(others)):
        for index in (position + offset, position - offset - 1):
            if 0 <= index < len(others) and others[index] not in picked:
                picked.append(others[index])
        if len(picked) >= limit:
            break
    return picked[:limit]


def mutations_of(game: str, kind: str, data: Any, strings_by_key: dict[str, list[str]]) -> Iterator[Mutation]:
    """Every edit of one document; ``strings_by_key`` holds the game's string values per key."""
    def make(category: str, path: PathKey, action: str, value: Any = None) -> Mutation:
        return Mutation(game, kind, category, path, action, value)

    for path, node in walk(data):
        if not path:
            continue
        if isinstance(node, bool):
            yield make(FLIP, path, "set", not node)
        elif isinstance(node, (int, float)):
            for value in _number_values(node):
                yield make(NUMBER, path, "set", value)
        elif isinstance(node, str):
            if path[-1] == "id":
                yield make(RENAME, path, "set", RENAMED_ID)
            for value in _swap_values(node, strings_by_key.get(_key_of(path) or "", [])):
                yield make(SWAP, path, "set", value)
        elif isinstance(node, list) and node:
            yield make(EMPTY, path, "set", [])
            for index, item in enumerate(node):
                yield make(DELETE, path + (index,), "delete")
                yield make(DUPLICATE, path + (index,), "copy")
                if isinstance(item, dict) and isinstance(item.get("id"), str):
                    yield make(DUPLICATE, path + (index,), "twin")
        if isinstance(node, dict):
            for key in node:
                if key != "id":
                    yield make(DROP, path + (key,), "delete")


def string_values_by_key(docs: dict[str, Any]) -> dict[str, list[str]]:
    """Every distinct string value of a game's documents, grouped by the key it sits under."""
    found: dict[str, set[str]] = defaultdict(set)
    for data in docs.values():
        for path, node in walk(data):
            key = _key_of(path)
            if isinstance(node, str) and key is not None:
                found[key].add(node)
    return {key: sorted(values) for key, values in found.items()}


def load_documents(data_root: Path, game: str) -> dict[str, Any]:
    return {path.name[: -len(DATA_SUFFIX)]: _load(path) for path in data_files(data_root / game)}


def _load(path: Path) -> Any:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def all_mutations(data_root: Path, games: Optional[list[str]] = None) -> list[Mutation]:
    """Every edit of every data file of ``games`` (all games when None), in a fixed order."""
    found: list[Mutation] = []
    for game in games or game_ids(data_root):
        docs = load_documents(data_root, game)
        strings = string_values_by_key(docs)
        for kind, data in docs.items():
            found.extend(mutations_of(game, kind, data, strings))
    return found


# --------------------------------------------------------------------------- running
class CaseHang(Exception):
    """A case ran past CASE_SECONDS."""


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    def expire(signum: int, frame: Any) -> None:
        raise CaseHang(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@dataclass
class Result:
    """What validating one edited data set gave: the report, or the crash."""

    mutation: Mutation
    report: Optional[ValidationReport] = None
    crash: Optional[str] = None      # exception and where it was raised, or the safety net's message

    @property
    def cross_checks_ran(self) -> bool:
        return self.report is not None and self.mutation.game not in self.report.skipped_cross_checks


class _NoAliasDumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """Safe YAML that writes a shared value out again instead of an anchor and alias."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def dump_yaml(data: Any) -> str:
    """Block-style YAML of plain data."""
    return yaml.dump(data, Dumper=_NoAliasDumper, sort_keys=False, allow_unicode=True, width=1_000_000)


@dataclass
class MutationRunner:
    """A private copy of the data under ``workdir``; each case edits one file, validates, restores it."""

    workdir: Path
    source: Path = field(default_factory=default_data_root)
    seconds: int = CASE_SECONDS

    def __post_init__(self) -> None:
        self.root = self.workdir / "data"
        if not self.root.exists():
            shutil.copytree(self.source, self.root)
        self._docs: dict[tuple[str, str], Any] = {}

    def path_of(self, mutation: Mutation) -> Path:
        return self.root / mutation.game / f"{mutation.kind}{DATA_SUFFIX}"

    def original(self, mutation: Mutation) -> Any:
        key = (mutation.game, mutation.kind)
        if key not in self._docs:
            self._docs[key] = _load(self.path_of(mutation))
        return self._docs[key]

    @contextmanager
    def edited(self, mutation: Mutation) -> Iterator[Path]:
        """The data root with ``mutation`` written into its file, restored afterwards."""
        path = self.path_of(mutation)
        before = path.read_bytes()
        path.write_text(dump_yaml(mutation.apply(self.original(mutation))), encoding="utf-8")
        try:
            yield self.root
        finally:
            path.write_bytes(before)

    def run(self, mutation: Mutation, check: Callable[[Path, str], ValidationReport] | None = None) -> Result:
        """Validate the game with ``mutation`` made; an exception or the safety net's message is a crash."""
        result = Result(mutation)
        with self.edited(mutation) as root:
            try:
                with time_limit(self.seconds):
                    result.report = (check or _validate_game)(root, mutation.game)
            except Exception as exc:  # noqa: BLE001 - any exception is what we are looking for
                frame = traceback.extract_tb(exc.__traceback__)[-1]
                result.crash = f"{type(exc).__name__}: {exc} at {frame.filename}:{frame.lineno}"
                return result
        net = [str(p) for p in result.report.problems if INTERNAL_CHECK_ERROR in p.message]
        if net:
            result.crash = net[0]
        return result


def _validate_game(root: Path, game: str) -> ValidationReport:
    return validate(root, catalogue(), [game])


# --------------------------------------------------------------------------- bounded search
SEARCH_NODES = 3_000  # per Monotheism solve while fuzzing: the engine still plays every edited deck
GUEST_DEALS = 5  # deals per worshiper set of validate's #21 run while fuzzing (the engine still plays them)


@contextmanager
def bounded_search(cache_dir: Path, max_nodes: int = SEARCH_NODES, *, prove_shipped: bool = False) -> Iterator[None]:
    """Monotheism's scenario proofs with a small node budget, cached only under ``cache_dir``.

    Validate solves the five scenarios afresh whenever card data changes (seconds
    each), and plays its seeded deals for #21; fuzzing needs the engine to play the
    edited cards, not full proofs or rates (so only a few deals).
    Results found under the small budget never reach the real caches.
    ``prove_shipped`` first proves the shipped scenarios in full (seconds), so
    edits that leave the cards alone are not reported as unproved.
    """
    import os

    from pipeline.games.monotheism import guest_check, solver
    from pipeline.store import CACHE_ENV

    real_solve, saved_env = solver.solve, os.environ.get(CACHE_ENV)
    real_deals = guest_check.GAMES_PER_SET

    def solve(*args: Any, **kwargs: Any) -> Any:
        kwargs["max_nodes"] = min(kwargs.get("max_nodes", max_nodes), max_nodes)
        return real_solve(*args, **kwargs)

    os.environ[CACHE_ENV] = str(cache_dir)
    if prove_shipped:
        validate(default_data_root(), catalogue(), ["monotheism"])
    solver.solve = solve  # type: ignore[assignment]
    guest_check.GAMES_PER_SET = GUEST_DEALS
    try:
        yield
    finally:
        solver.solve = real_solve  # type: ignore[assignment]
        guest_check.GAMES_PER_SET = real_deals
        if saved_env is None:
            os.environ.pop(CACHE_ENV, None)
        else:
            os.environ[CACHE_ENV] = saved_env
