"""A game's clean validation, remembered: a game whose inputs are unchanged is not checked again (nor loaded).

Validation is the largest part of a build after a one-card edit, yet that edit
changes one game. A game that passed every check (schemas, shared checks, its
cross-checks, the card layout) is recorded in the results cache under a key
hashing everything those checks read:

- the game's own folder (every file, by relative name and content);
- everything else under the data folder that is no game's folder (the
  schemas, data/README.md), and the list of games there;
- the game's spec and any module it names outside the pipeline package (a
  game of another package);
- and, as every key of the store, the pipeline's code, the templates (the
  card and markup checks read them) and the installed libraries' versions.

Another game's records are read only through references (``[[game/kind/id]]``):
the games a check looked into are written into the entry with a hash of each
one's folder, and the entry counts only while those hashes still hold. So an
edit to game A re-checks A and any game that refers to A, not the others.

Entries are store entries (namespace ``validated``): a damaged or stale
entry is a miss and the game is checked. Only clean results are kept; a game with problems is always checked,
so every problem is reported afresh.
"""
from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path
from typing import Any, Iterable, Optional

from pipeline import store
from pipeline.base import locations
from pipeline.base.safefile import folder_digest
from pipeline.base.shape import ShapeError
from pipeline.data.dataset import GameData
from pipeline.data.gamespec import GameSpec

NAMESPACE = "validated"
def spec_digest(spec: GameSpec) -> str:
    """The game's spec (which module is each part) and the source of each part's module that lies outside
    the pipeline package (whose code is hashed whole)."""
    digest = hashlib.blake2b(repr(spec).encode(), digest_size=20)
    for _, part in spec.part_names():  # every part, those inside rulings and examples too
        module = part.partition(":")[0]
        if module.split(".")[0] != locations.PACKAGE.name:
            found = importlib.util.find_spec(module)
            origin = Path(found.origin) if found is not None and found.origin else None
            digest.update(origin.read_bytes() if origin is not None and origin.is_file() else b"?")
    return digest.hexdigest()


class ValidationMemo:
    """The remembered clean validations of the games under ``data_root``."""

    def __init__(self, data_root: Path, games: Iterable[str], scope: store.Scope, checked: str = "") -> None:
        self._root = data_root
        self._checked = checked  # the optional checks run beside the game's own (the documents'): part of the key
        self._games = sorted(games)
        self._scope = scope  # the command's: the code and the templates the checks read
        self._digests: dict[str, str] = {}
        self._shared: Optional[str] = None

    def game_digest(self, game: str) -> str:
        if game not in self._digests:
            self._digests[game] = folder_digest(self._root / game)
        return self._digests[game]

    def _inputs(self, game: str, spec: GameSpec) -> list[str]:
        if self._shared is None:
            self._shared = folder_digest(self._root, skip=[self._root / g for g in self._games])
        return [game, self.game_digest(game), spec_digest(spec), self._shared, self._checked, *self._games]

    def clean(self, game: str, spec: GameSpec) -> bool:
        """Whether ``game`` (with its ``spec``) passed every check with exactly its inputs of now; its data
        need not be loaded to tell."""
        looked_into = store.recall(NAMESPACE, self._inputs(game, spec), _decode, under=self._scope)
        if looked_into is None:
            return False
        return all(self.game_digest(other) == digest for other, digest in looked_into.items())

    def remember(self, loaded: GameData, looked_into: Iterable[str]) -> None:
        """Record the game as clean; ``looked_into``: the other games its checks read records of."""
        others = {other: self.game_digest(other) for other in sorted(set(looked_into) - {loaded.game})}
        store.keep(NAMESPACE, self._inputs(loaded.game, loaded.spec), {"clean": True, "looked_into": others},
                   under=self._scope)


def _decode(value: Any) -> dict[str, str]:
    """The games looked into, with their digests, of an entry that says the game is clean."""
    if not (isinstance(value, dict) and set(value) == {"clean", "looked_into"} and value["clean"] is True):
        raise ShapeError("expected {clean: true, looked_into: {game: digest}}")
    others = value["looked_into"]
    if not (isinstance(others, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in others.items())):
        raise ShapeError("expected looked_into: {game: digest}")
    return others
