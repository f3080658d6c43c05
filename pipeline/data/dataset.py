"""A data root on disk: its games, their YAML documents, and where things are.

Layout (see docs/editing-data.md): ``<root>/<game>/<kind>.yaml`` with a schema at
``<root>/schemas/<game>/<kind>.schema.json``. A loaded game (:class:`GameData`)
also carries its spec (it is loaded with it) and its model, built from its documents by the spec once per command.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Iterator, Optional, Sequence, TypeVar, Union, cast

from pipeline.base import locations
from pipeline.base.errors import UserError
from pipeline.data.problems import Location, Problem
from pipeline.data.yamlmarks import Mark, MarkedData, PathKey, YamlLoadError, load_marked, position

if TYPE_CHECKING:
    from pipeline.data.gamespec import GameSpec
    from pipeline.store import Scope

SCHEMA_DIR = "schemas"
DATA_SUFFIX = ".yaml"
SCHEMA_SUFFIX = ".schema.json"
PROJECT_DATA = locations.data_root()
MAX_TEXT_LINES = 400  # lines searched for a fragment of one text (the longest paragraph of the data is ~30)
M = TypeVar("M")  # the game's model


def default_data_root() -> Path:
    """The project's own data/ folder."""
    return PROJECT_DATA


def display_path(path: Path) -> str:
    """A path as the user should read it: relative to the working directory when inside it."""
    absolute = Path(os.path.abspath(path))
    try:
        return str(absolute.relative_to(Path.cwd()))
    except ValueError:
        return str(absolute)


@dataclass
class Document:
    """One YAML file of a game: its data and the marks of its nodes."""

    kind: str
    path: Path
    marked: MarkedData

    @property
    def data(self) -> Any:
        return self.marked.data

    @cached_property
    def file(self) -> str:  # asked for every located problem and record: computed once
        return display_path(self.path)

    def at(self, *path: Union[str, int]) -> Location:
        """Where the node at ``path`` starts; the nearest existing ancestor if it is missing."""
        return self._locate(tuple(path), self.marked.value_marks)

    def key_at(self, *path: Union[str, int]) -> Location:
        """Where the key that ends ``path`` is written (falls back like ``at``: to where the key of the
        nearest existing ancestor is written, or its value when it has no key)."""
        return self._locate(tuple(path), self.marked.value_marks, self.marked.key_marks)

    def problem(self, path: Sequence[Union[str, int]], message: str) -> Problem:
        return Problem(self.at(*path), message)

    def fragment_at(self, path: Sequence[Union[str, int]], fragment: str, occurrence: int = 0) -> Location:
        """Where the ``occurrence``-th ``fragment`` (0: the first) of the text at ``path`` is written: its own
        line in a folded or multi-line text, not the text's first line. Any run of white space in the file (a
        line break and the next line's indent) stands for a space of ``fragment``; written in other capitals
        it is found when it is not found as written. The text's start when it is not written at all (escaped,
        or set in other words)."""
        start = self.at(*path)
        words = fragment.split()
        if not words or not 0 < start.line <= len(self.marked.lines):
            return start
        first = start.line - 1
        text = "\n".join(self.marked.lines[first:first + MAX_TEXT_LINES + 1])
        written = r"\s+".join(re.escape(word) for word in words)
        for flags in (0, re.IGNORECASE):
            for seen, match in enumerate(re.finditer(written, text[start.column - 1:], flags)):
                if seen == occurrence:
                    offset = start.column - 1 + match.start()
                    line_start = text.rfind("\n", 0, offset) + 1
                    return Location(start.file, first + 1 + text.count("\n", 0, offset), offset - line_start + 1)
        return start

    def record_at(self, key: str, record_id: Any, *path: Union[str, int]) -> tuple[Union[str, int], ...]:
        """The node path of the record with ``id`` ``record_id`` in the list under ``key`` (then ``path``
        inside it): how a message about a record, known by its id, finds its file, line and column.
        ``(key,)`` when no record has that id."""
        records = self.data.get(key) if isinstance(self.data, dict) else None
        for index, record in enumerate(records if isinstance(records, list) else ()):
            if isinstance(record, dict) and record.get("id") == record_id:
                return (key, index, *path)
        return (key,)

    def _locate(self, path: PathKey, marks: dict[PathKey, Mark], preferred: Optional[dict[PathKey, Mark]] = None) -> Location:
        """The mark of ``path`` or of its nearest ancestor that has one, in ``preferred`` before ``marks``."""
        for cut in range(len(path), -1, -1):
            mark = (preferred.get(path[:cut]) if preferred is not None else None) or marks.get(path[:cut])
            if mark is not None:
                return Location(self.file, *position(mark))
        return Location(self.file, 1, 1)


@dataclass
class GameData(Generic[M]):
    """Every document of one game that loaded, plus the problems of those that did not, and its spec.

    ``model`` is the game's typed model, built by its spec's builder on first
    use and kept: one build per command, whichever stage asks first. Ask for it
    only on data that passed its schemas (validate, then hand the GameData on).
    """

    game: str
    root: Path
    spec: "GameSpec[M]" = field(repr=False)
    docs: dict[str, Document] = field(default_factory=dict)
    load_problems: list[Problem] = field(default_factory=list)
    unloadable: set[str] = field(default_factory=set)  # kinds whose file exists but did not load
    # The store scope of the command validating the game (validate sets it): a check that keeps entries keys
    # them under it rather than take a code digest of its own (the package and templates read again, ~25 ms).
    scope: Optional["Scope"] = field(default=None, repr=False, compare=False)
    _model: Optional[M] = field(default=None, init=False, repr=False, compare=False)
    _built: bool = field(default=False, init=False, repr=False, compare=False)

    @property
    def model(self) -> M:
        """The game's model, built once from these documents by the spec's model builder."""
        if not self._built:
            self._model = self.spec.model(self)
            self._built = True
        return cast(M, self._model)  # built just above (a model may itself be None-able: hence no check)

    def edited(self) -> None:
        """Say the documents were changed in memory: the model is built again when next asked for."""
        self._model, self._built = None, False

    def doc(self, kind: str) -> Document:
        try:
            return self.docs[kind]
        except KeyError:
            raise UserError(f"{display_path(self.root)}: no {kind}{DATA_SUFFIX} for {self.game}") from None

    def has(self, kind: str) -> bool:
        return kind in self.docs


def record_lists(doc: Optional[Document]) -> list[str]:
    """The keys of ``doc``'s top-level lists of records with ids, in file order."""
    if doc is None or not isinstance(doc.data, dict):
        return []
    return [key for key, value in doc.data.items()
            if isinstance(value, list) and any(isinstance(item, dict) and "id" in item for item in value)]


def record_list(doc: Optional[Document]) -> Optional[str]:
    """The key of the one top-level list of records with ids in ``doc``, if there is exactly one."""
    keys = record_lists(doc)
    return keys[0] if len(keys) == 1 else None


def game_ids(data_root: Path) -> list[str]:
    """The games present under a data root (every folder except schemas/), sorted."""
    if not data_root.is_dir():
        raise UserError(f"{display_path(data_root)}: data folder not found")
    return sorted(p.name for p in data_root.iterdir() if p.is_dir() and p.name != SCHEMA_DIR and not p.name.startswith("."))


def data_files(game_dir: Path) -> Iterator[Path]:
    return iter(sorted(game_dir.glob(f"*{DATA_SUFFIX}")))


def load_game(data_root: Path, spec: "GameSpec[M]") -> GameData[M]:
    """Load every YAML document of the game ``spec`` describes (folder ``data_root/<spec.id>``); unreadable
    or malformed files become problems. The spec builds its model when first asked for."""
    game_dir = data_root / spec.id
    loaded = GameData(game=spec.id, root=game_dir, spec=spec)
    for path in data_files(game_dir):
        kind = path.name[: -len(DATA_SUFFIX)]
        try:
            marked = load_marked(path)
        except YamlLoadError as exc:
            loaded.load_problems.append(Problem(Location(display_path(path), exc.line, exc.column), exc.message))
            loaded.unloadable.add(kind)
            continue
        if not isinstance(marked.data, dict):
            loaded.load_problems.append(
                Problem(Location(display_path(path), 1, 1), "top level must be a mapping (key: value), not a list or a value")
            )
            loaded.unloadable.add(kind)
            continue
        loaded.docs[kind] = Document(kind=kind, path=path, marked=marked)
    return loaded
