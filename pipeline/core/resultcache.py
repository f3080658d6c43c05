"""A small on-disk cache for expensive, deterministic results, keyed by content hashes.

Used where validation replays or solves something slow (JSON), and for parsed
data files (marshal, which reads back several times faster than YAML parses):
the key must hash every input the result depends on (data AND the code that
computes it), so an edit to either computes afresh. ``PANTHEON_CACHE`` moves the cache; the
test suite points it at a temporary folder.
"""
from __future__ import annotations

import hashlib
import json
import marshal
import os
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

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


def value_digest(value: Any, size: int = 16) -> Optional[str]:
    """A hash of plain data (dicts, lists, tuples, scalars; types count: 1, 1.0 and True differ), or
    None when ``value`` holds anything else, whose content a hash could miss. Marshal version 2
    writes no back-references, so equal values give equal bytes whatever objects hold them."""
    try:
        raw = marshal.dumps(value, 2)
    except ValueError:
        return None
    return hashlib.blake2b(raw, digest_size=size).hexdigest()


def key_of(parts: Iterable[str]) -> str:
    digest = hashlib.blake2b(digest_size=20)
    for part in parts:
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


@lru_cache(maxsize=None)
def file_hash(path: Path) -> str:
    """A hash of one source file (for a key that depends on a single module)."""
    return hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()


def _entry(namespace: str, key_parts: Iterable[str], suffix: str = "") -> Path:
    return cache_root() / RESULTS_DIR / namespace / f"{key_of(key_parts)}{suffix}"


def known(namespace: str, key_parts: Iterable[str]) -> bool:
    """Whether ``remember`` was called with this key (a yes/no result, such as "this file is valid")."""
    return _entry(namespace, key_parts).is_file()


def remember(namespace: str, key_parts: Iterable[str]) -> None:
    """Record a key for ``known`` (a cache that cannot be written is skipped)."""
    path = _entry(namespace, key_parts)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    except OSError:
        pass


def cached_json(namespace: str, key_parts: Iterable[str], compute: Callable[[], Any]) -> Any:
    """``compute()`` once per distinct key; the JSON result is kept on disk for later processes.

    A cache that cannot be read or written is ignored: the result is then simply computed.
    """
    return _cached(namespace, key_parts, compute, ".json", _json_dumps, json.loads)


def cached_marshal(namespace: str, key_parts: Iterable[str], compute: Callable[[], Any]) -> Any:
    """Like ``cached_json`` for plain Python data (dicts with tuple keys, lists, scalars) in marshal's
    format; a result marshal cannot store (a date, say) is simply not kept."""
    return _cached(namespace, [sys.version, *key_parts], compute, ".marshal", marshal.dumps, marshal.loads)


def _json_dumps(result: Any) -> bytes:
    return json.dumps(result, sort_keys=True).encode("utf-8")


def _cached(
    namespace: str,
    key_parts: Iterable[str],
    compute: Callable[[], Any],
    suffix: str,
    dumps: Callable[[Any], bytes],
    loads: Callable[[bytes], Any],
) -> Any:
    path = _entry(namespace, key_parts, suffix)
    try:
        return loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        pass
    result = compute()
    try:
        data = dumps(result)
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_suffix(f".{os.getpid()}.tmp")
        temp.write_bytes(data)
        os.replace(temp, path)
    except (OSError, ValueError):
        pass
    return result
