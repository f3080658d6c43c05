"""A small on-disk cache for expensive, deterministic results (JSON), keyed by content hashes.

Used where validation replays or solves something slow: the key must hash
every input the result depends on (data AND the code that computes it), so
an edit to either computes afresh. ``PANTHEON_CACHE`` moves the cache; the
test suite points it at a temporary folder.
"""
from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable

PROJECT_ROOT = Path(__file__).resolve().parents[2]
CACHE_ENV = "PANTHEON_CACHE"
RESULTS_DIR = "results"


def cache_root() -> Path:
    """Where caches live: $PANTHEON_CACHE, else the project's .cache/ (git-ignored)."""
    configured = os.environ.get(CACHE_ENV)
    return Path(configured) if configured else PROJECT_ROOT / ".cache"


@lru_cache(maxsize=None)
def source_hash(folder: Path) -> str:
    """A hash of every Python file under ``folder``: part of a key whenever that code computes the result."""
    digest = hashlib.blake2b(digest_size=16)
    for path in sorted(folder.rglob("*.py")):
        digest.update(str(path.relative_to(folder)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def key_of(parts: Iterable[str]) -> str:
    digest = hashlib.blake2b(digest_size=20)
    for part in parts:
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def cached_json(namespace: str, key_parts: Iterable[str], compute: Callable[[], Any]) -> Any:
    """``compute()`` once per distinct key; the JSON result is kept on disk for later processes.

    A cache that cannot be read or written is ignored: the result is then simply computed.
    """
    path = cache_root() / RESULTS_DIR / namespace / f"{key_of(key_parts)}.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        pass
    result = compute()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_suffix(f".{os.getpid()}.tmp")
        temp.write_text(json.dumps(result, sort_keys=True), encoding="utf-8")
        os.replace(temp, path)
    except OSError:
        pass
    return result
