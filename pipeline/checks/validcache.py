"""A game's clean validation, remembered: a game whose inputs are unchanged is not checked again (nor loaded).

Validation is the largest part of a build after a one-card edit, yet that edit
changes one game. A game that passed every check (schemas, shared checks, its
cross-checks, the card layout) is recorded in the results cache under a key
hashing everything those checks read:

- the game's own folder (every file, by relative name and content);
- everything else under the data folder that is no game's folder (the
  schemas, data/README.md), and the list of games there;
- the templates folder (icons, card templates, sheets, fonts: the card and
  markup checks read them);
- the pipeline's code, the game's spec and any module it names outside the
  pipeline package (a game of another package), the installed libraries' versions.

Another game's records are read only through references (``[[game/kind/id]]``):
the games a check looked into are written into the entry with a hash of each
one's folder, and the entry counts only while those hashes still hold. So an
edit to game A re-checks A and any game that refers to A, not the others.

Entries are ``cachestore`` entries (sealed with a digest, checked on read):
a damaged, forged-by-accident or stale entry is a miss and the game is
checked. Only clean results are kept; a game with problems is always checked,
so every problem is reported afresh.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
from pathlib import Path
from typing import Any, Iterable, Optional

from pipeline import store as cachestore
from pipeline.base import locations
from pipeline.base.filedigest import content_digest
from pipeline.base.shape import ShapeError
from pipeline.data import resultcache
from pipeline.data.dataset import GameData
from pipeline.data.gamespec import GameSpec

NAMESPACE = "results/validated"
CODE = Path(__file__).resolve().parents[1]  # the pipeline package


def folder_digest(folder: Path, skip: Iterable[Path] = ()) -> str:
    """A hash of every file under ``folder`` (relative name and content), leaving out the folders ``skip``;
    "absent" when there is no such folder. Linked folders are not entered; linked files count."""
    if not folder.is_dir():
        return "absent"
    skipped = {os.fspath(path) for path in skip}
    top = os.fspath(folder)
    found: list[tuple[tuple[str, ...], str]] = []  # (relative parts, path): sorted by parts, as paths sort
    for where, folders, names in os.walk(top):
        folders[:] = [name for name in folders if os.path.join(where, name) not in skipped]
        inside = tuple(os.path.relpath(where, top).split(os.sep)) if where != top else ()
        found += [((*inside, name), os.path.join(where, name)) for name in names]
    digest = hashlib.blake2b(digest_size=20)
    for parts, path in sorted(found):
        if os.path.isfile(path):
            digest.update("/".join(parts).encode() + b"\0" + _file_digest(Path(path)) + b"\0")
    return digest.hexdigest()


def _file_digest(path: Path) -> bytes:
    """A file's hash, read in chunks (a huge file is refused by the loader, not held here); a file that
    cannot be read hashes as such, and its game is checked (which reports it) and never remembered."""
    try:
        return content_digest(path)  # taken once per process while the file is unchanged
    except OSError as exc:
        return f"unreadable: {type(exc).__name__}".encode()


def spec_digest(spec: GameSpec) -> str:
    """The game's spec (which module is each part) and the source of each part's module that lies outside
    the pipeline package (whose code is hashed whole)."""
    digest = hashlib.blake2b(repr(spec).encode(), digest_size=20)
    for _, part in spec.part_names():  # every part, those inside rulings and examples too
        module = part.partition(":")[0]
        if module.split(".")[0] != CODE.name:
            found = importlib.util.find_spec(module)
            origin = Path(found.origin) if found is not None and found.origin else None
            digest.update(origin.read_bytes() if origin is not None and origin.is_file() else b"?")
    return digest.hexdigest()


class ValidationMemo:
    """The remembered clean validations of the games under ``data_root``."""

    def __init__(self, data_root: Path, games: Iterable[str], template_root: Optional[Path] = None) -> None:
        self._root = data_root
        self._games = sorted(games)
        self._templates = template_root if template_root is not None else locations.template_root()
        self._digests: dict[str, str] = {}
        self._shared: Optional[str] = None

    def game_digest(self, game: str) -> str:
        if game not in self._digests:
            self._digests[game] = folder_digest(self._root / game)
        return self._digests[game]

    def _name(self, game: str, spec: GameSpec) -> str:
        if self._shared is None:
            outside = folder_digest(self._root, skip=[self._root / g for g in self._games])
            self._shared = cachestore.key_of([outside, *self._games, folder_digest(self._templates),
                                              resultcache.source_hash(CODE), cachestore.installed_libraries()])
        return cachestore.key_of([game, self.game_digest(game), spec_digest(spec), self._shared])

    def clean(self, game: str, spec: GameSpec) -> bool:
        """Whether ``game`` (with its ``spec``) passed every check with exactly its inputs of now; its data
        need not be loaded to tell."""
        looked_into = cachestore.read(NAMESPACE, self._name(game, spec), _decode)
        if looked_into is None:
            return False
        return all(self.game_digest(other) == digest for other, digest in looked_into.items())

    def remember(self, loaded: GameData, looked_into: Iterable[str]) -> None:
        """Record the game as clean; ``looked_into``: the other games its checks read records of."""
        others = {other: self.game_digest(other) for other in sorted(set(looked_into) - {loaded.game})}
        cachestore.write(NAMESPACE, self._name(loaded.game, loaded.spec), {"clean": True, "looked_into": others})


def _decode(value: Any) -> dict[str, str]:
    """The games looked into, with their digests, of an entry that says the game is clean."""
    if not (isinstance(value, dict) and set(value) == {"clean", "looked_into"} and value["clean"] is True):
        raise ShapeError("expected {clean: true, looked_into: {game: digest}}")
    others = value["looked_into"]
    if not (isinstance(others, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in others.items())):
        raise ShapeError("expected looked_into: {game: digest}")
    return others
