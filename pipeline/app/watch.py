"""`pantheon watch`: poll data/ and templates/, rebuild the games an edit touches, keep going.

Polling compares each file's modification time and size (the standard
library only; a notification library would save little at a one-second
interval). An edit under ``data/<game>/``, ``data/schemas/<game>/`` or
``templates/cards/<game>/`` rebuilds that game; an edit to anything shared
(the common schema, icons, sheets, design rules) rebuilds every watched game.
A rebuild is ``pantheon build GAME`` run in this process: it validates, then
prints the problems or the files written. Bad data is reported and the watch
goes on; Ctrl-C stops it (exit 130).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Mapping, Optional, Sequence

from pipeline.cards.svgtemplates import CARD_DIR
from pipeline.data.dataset import SCHEMA_DIR

Snapshot = Mapping[Path, tuple[int, int]]  # file -> (modification time in ns, size)


@dataclass(frozen=True)
class Watched:
    """What is watched: the data root, the template root, the games."""

    data_root: Path
    template_root: Path
    games: Sequence[str]

    def folders(self) -> list[Path]:
        return [self.data_root, self.template_root]

    def affected(self, changed: Iterable[Path]) -> list[str]:
        """The watched games an edit of ``changed`` files rebuilds, in watch order."""
        hit: set[str] = set()
        for path in changed:
            owner = self._owner(path)
            if owner is None:
                return list(self.games)
            hit.add(owner)
        return [game for game in self.games if game in hit]

    def _owner(self, path: Path) -> Optional[str]:
        """The game a file belongs to (None: shared by every game); "" for a file of no watched game."""
        for base in (self.data_root, self.data_root / SCHEMA_DIR, self.template_root / CARD_DIR):
            try:
                parts = path.relative_to(base).parts
            except ValueError:
                continue
            if parts and parts[0] in self.games:
                return parts[0]
            if len(parts) > 1 and parts[0] != SCHEMA_DIR:
                return ""  # a file of another game
        return None


def snapshot(folders: Iterable[Path]) -> dict[Path, tuple[int, int]]:
    """Every file under ``folders`` with its modification time and size (a file that vanishes mid-walk is skipped)."""
    found: dict[Path, tuple[int, int]] = {}
    for folder in folders:
        for path in sorted(folder.rglob("*")) if folder.is_dir() else ():
            if "__pycache__" in path.parts or path.name.startswith(".tmp-"):
                continue
            try:
                info = path.stat()
            except OSError:
                continue
            if path.is_file():
                found[path] = (info.st_mtime_ns, info.st_size)
    return found


def changes(before: Snapshot, after: Snapshot) -> list[Path]:
    """Files added, removed or modified between two snapshots."""
    return sorted(path for path in set(before) | set(after) if before.get(path) != after.get(path))


def watch(watched: Watched, rebuild: Callable[[str], None], say: Callable[[str], None], *, interval: float,
          max_cycles: Optional[int] = None, sleep: Callable[[float], None] = time.sleep) -> None:
    """Build every watched game, then poll every ``interval`` seconds and rebuild what each edit touches.
    ``max_cycles``: stop after that many polls (None: until interrupted; 0: build once and stop)."""
    state = snapshot(watched.folders())
    for game in watched.games:
        rebuild(game)
    cycles = 0
    say(f"watching {', '.join(watched.games)} (every {interval:g} s; Ctrl-C stops)")
    while max_cycles is None or cycles < max_cycles:
        sleep(interval)
        cycles += 1
        now = snapshot(watched.folders())
        changed = changes(state, now)
        if not changed:
            continue
        sleep(interval)  # let an editor finish writing (some save in two steps)
        state = snapshot(watched.folders())
        changed = changes(now, state) + changed
        for game in watched.affected(changed):
            say(f"changed: {_shown(changed)}: rebuilding {game}")
            rebuild(game)


def _shown(paths: Sequence[Path], at_most: int = 3) -> str:
    names = sorted({path.name for path in paths})
    return ", ".join(names[:at_most]) + (f" and {len(names) - at_most} more" if len(names) > at_most else "")
