"""Expensive, deterministic results kept between runs, keyed by content hashes.

Used where validation replays or solves something slow: the key must hash
every input the result depends on (data AND the code that computes it), so
an edit to either computes afresh. Entries are stored by ``cachestore``
(JSON sealed with a digest, checked on read; a bad entry is recomputed).
``PANTHEON_CACHE`` moves the cache; the test suite points it at a temporary folder.
"""
from __future__ import annotations

import hashlib
import marshal
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

from pipeline import store as cachestore
from pipeline.base.shape import ShapeError

# CACHE_ENV, PROJECT_ROOT and cache_root are re-exported: callers name them from here too.
from pipeline.store import CACHE_ENV, PROJECT_ROOT, Decoder, cache_root, key_of  # noqa: F401

RESULTS_DIR = "results"


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


@lru_cache(maxsize=None)
def file_hash(path: Path) -> str:
    """A hash of one source file (for a key that depends on a single module)."""
    return hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()


def _namespace(namespace: str) -> str:
    return f"{RESULTS_DIR}/{namespace}"


def _name(key_parts: Iterable[str]) -> str:
    return key_of([cachestore.library_versions(), *key_parts])


def known(namespace: str, key_parts: Iterable[str]) -> bool:
    """Whether ``remember`` was called with this key (a yes/no result, such as "this file is valid")."""
    return cachestore.read(_namespace(namespace), _name(key_parts), _true) is True


def remember(namespace: str, key_parts: Iterable[str]) -> None:
    """Record a key for ``known`` (a cache that cannot be written is skipped)."""
    cachestore.write(_namespace(namespace), _name(key_parts), True)


def read_json(namespace: str, key_parts: Iterable[str], decode: Decoder[Any]) -> Any:
    """What ``store_json`` kept under this key, through ``decode`` (which raises ShapeError on anything
    it would not have stored); None when there is no sound entry."""
    found = _read(namespace, _name(key_parts), decode)
    return None if found is None else found[0]


def _read(namespace: str, name: str, decode: Decoder[Any]) -> Optional[tuple[Any]]:
    """The decoded entry ``name``, in a 1-tuple (so a stored None is told from no entry), or None."""
    return cachestore.read(_namespace(namespace), name, lambda value: (decode(value),))


def store_json(namespace: str, key_parts: Iterable[str], value: Any) -> None:
    """Keep plain JSON data under a key for ``read_json`` (a cache that cannot be written is skipped)."""
    cachestore.write(_namespace(namespace), _name(key_parts), value)


def _true(value: Any) -> bool:
    if value is not True:
        raise ShapeError("expected true")
    return True


def _as_is(value: Any) -> Any:
    return value


def cached_json(
    namespace: str,
    key_parts: Iterable[str],
    compute: Callable[[], Any],
    *,
    encode: Callable[[Any], Any] = _as_is,
    decode: Decoder[Any] = _as_is,
) -> Any:
    """``compute()`` once per distinct key; the result is kept on disk, as JSON, for later processes.

    ``encode`` turns a result into JSON data (a result it cannot store, such as a date, is simply
    not kept); ``decode`` turns stored data back into the result, raising ShapeError when it is not
    what ``encode`` writes: such an entry, like a damaged one, is computed afresh and rewritten.
    A cache that cannot be read or written is ignored: the result is then simply computed.
    """
    name = _name(key_parts)
    found = _read(namespace, name, decode)
    if found is not None:
        return found[0]
    result = compute()
    cachestore.write(_namespace(namespace), name, encode(result))
    return result
