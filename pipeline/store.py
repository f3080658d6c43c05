"""The one on-disk format of every cache entry: plain data, sealed with a digest of its key and content.

Everything a build keeps for the next one (converted art, face records,
validation results) is stored through this module, so one set of rules
holds for all of it:

- An entry is JSON, never a Python object or code: reading one can at worst
  give wrong *data*, and every reader checks the shape of what it gets.
- The first line of an entry is ``pantheon-cache/<version> <digest>``; the
  digest covers the namespace, the entry's name (the hash of its key) and the
  payload, so an edited, truncated, bit-flipped or swapped entry fails.
- An entry that fails any check (missing, unparsable, wrong digest, wrong
  shape or types, old format) is a *miss*: the caller computes the result and
  the entry is rewritten. Reading never raises.
- Writes are atomic (a temporary ``*.tmp`` beside the entry, then a rename)
  and made while holding the cache root's lock; a cache that cannot be
  written (read-only, full disk, lock busy for long) is silently skipped.
- Because every temporary file lives only while its writer holds the lock,
  whoever holds the lock may delete any ``*.tmp`` it finds: those are what a
  killed run left. The first process to use a cache root sweeps them.

The digest guards against damage and mix-ups, not a deliberate forger (who
could recompute it): what a forged entry can do is limited to data of the
right shape, never running code.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import sysconfig
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, TypeVar

from pipeline.base import locations, locks
from pipeline.base.filedigest import hashed

PROJECT_ROOT = Path(__file__).resolve().parents[1]
CACHE_ENV = "PANTHEON_CACHE"
FORMAT = "pantheon-cache/1"
ENTRY_SUFFIX = ".json"
TEMP_SUFFIX = ".tmp"
LOCK_NAME = ".lock"
# A write waits this long for another process's write to finish, then skips (the cache is optional).
WRITE_LOCK_TIMEOUT_S = 10.0
DIGEST_SIZE = 32

T = TypeVar("T")
# Turns the JSON read back into the caller's value, raising ShapeError (or TypeError, ValueError,
# LookupError) when it does not have the shape the caller wrote.
Decoder = Callable[[Any], T]


def cache_root() -> Path:
    """Where caches live: $PANTHEON_CACHE, else the project's .cache/ (git-ignored), else the user cache directory
    (an installed package, or a project folder that cannot be written)."""
    configured = os.environ.get(CACHE_ENV)
    return Path(configured) if configured else locations.cache_root()


def key_of(parts: Iterable[str]) -> str:
    """The name of the entry for a key given as parts (each part is kept apart from the next)."""
    digest = hashlib.blake2b(digest_size=20)
    for part in parts:
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


@lru_cache(maxsize=None)
def _distribution_folders() -> tuple[str, ...]:
    """The names of the dist-info / egg-info folders in this environment's site-packages (only there, not
    sys.path, which differs between `pantheon` and `python -m pipeline`)."""
    folders = sorted({Path(sysconfig.get_paths()[kind]) for kind in ("purelib", "platlib")})
    return tuple(sorted(
        entry.name for folder in folders if folder.is_dir()
        for entry in folder.iterdir() if entry.name.endswith((".dist-info", ".egg-info"))
    ))


@lru_cache(maxsize=None)
def installed_libraries() -> str:
    """The distributions installed in this environment (their dist-info folder names carry the versions) and
    Python's version: cheaper than asking importlib.metadata for each library the checks use."""
    return "\n".join([sys.version, *_distribution_folders()])


def _tree_digest(digest: "hashlib.blake2b", root: Path, pattern: str) -> None:
    """Feed every regular file under ``root`` matching ``pattern`` (name and bytes, sorted by path) into
    ``digest``; links and other non-regular files are named but not followed."""
    for path in sorted(root.rglob(pattern)):
        if "__pycache__" in path.parts or "bundled" in path.relative_to(root).parts[:1]:
            continue
        digest.update(str(path.relative_to(root)).encode() + b"\0")
        if path.is_file() and not path.is_symlink():
            digest.update(path.read_bytes())
        digest.update(b"\0")


@lru_cache(maxsize=None)
def code_digest(template_root: Path) -> str:
    """One digest of everything that turns data into a result: every source file of the installed
    ``pipeline`` package, every file under ``template_root``, Python's and every installed library's
    version. It is part of every key, so no change to code, templates or libraries meets a stale entry."""
    digest = hashlib.blake2b(digest_size=20)
    _tree_digest(digest, locations.PACKAGE, "*.py")
    digest.update(b"\1")
    _tree_digest(digest, template_root, "*")
    digest.update(installed_libraries().encode())
    return digest.hexdigest()


def _normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


@lru_cache(maxsize=None)
def _folder_versions() -> dict[str, str]:
    """Distribution (normalised name) -> version, read off the folder names (``name-version.dist-info``)."""
    found = {}
    for folder in _distribution_folders():
        name, _, version = folder.rsplit(".", 1)[0].partition("-")
        if version:
            found[_normalised(name)] = version
    return found


@lru_cache(maxsize=None)  # asked for every cached YAML file
def library_versions(*distributions: str) -> str:
    """Python's version and the installed versions of ``distributions``: part of a key whenever
    those libraries compute the result. Read off site-packages' folder names; importlib.metadata (slow to
    import, and each look-up scans sys.path) only for a library installed elsewhere."""
    found = []
    for name in distributions:
        version = _folder_versions().get(_normalised(name))
        if version is None:
            from importlib.metadata import PackageNotFoundError
            from importlib.metadata import version as metadata_version

            try:
                version = metadata_version(name)
            except PackageNotFoundError:
                version = "?"
        found.append(f"{name} {version}")
    return "; ".join([f"python {sys.version}", *found])


def file_digest(path: Path) -> Optional[str]:
    """A file's SHA-256 (read in blocks), or None when it cannot be read: for keys that notice a file changed."""
    try:  # only a regular file is read: a named pipe or a device could block or never end
        return str(hashed(path, hashlib.sha256()).hexdigest())
    except OSError:
        return None


def entry_path(namespace: str, name: str, root: Optional[Path] = None) -> Path:
    return (root or cache_root()) / namespace / f"{name}{ENTRY_SUFFIX}"


def _seal(namespace: str, name: str, payload: bytes) -> bytes:
    digest = hashlib.blake2b(digest_size=DIGEST_SIZE)
    for part in (FORMAT.encode(), namespace.encode(), name.encode()):
        digest.update(part)
        digest.update(b"\0")
    digest.update(payload)
    return f"{FORMAT} {digest.hexdigest()}".encode()


def sealed(namespace: str, name: str, payload: bytes) -> bytes:
    """An entry's bytes as ``write`` stores them: its seal line, then ``payload`` (any bytes, JSON or not)."""
    return _seal(namespace, name, payload) + b"\n" + payload


def read(namespace: str, name: str, decode: Decoder[T], *, root: Optional[Path] = None) -> Optional[T]:
    """The value stored under ``namespace``/``name``, or None when there is none that passes every check."""
    root = root or cache_root()
    sweep_once(root)
    try:
        raw = entry_path(namespace, name, root).read_bytes()
    except OSError:
        return None
    header, _, payload = raw.partition(b"\n")
    if header != _seal(namespace, name, payload):
        return None
    try:
        return decode(json.loads(payload))
    except (ValueError, TypeError, LookupError, RecursionError):
        return None


def write(namespace: str, name: str, value: Any, *, root: Optional[Path] = None) -> bool:
    """Store ``value`` (plain JSON data) under ``namespace``/``name``; False when it was skipped
    (not JSON data, or a cache that cannot be written)."""
    try:
        payload = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")
    except (TypeError, ValueError, RecursionError):
        return False
    root = root or cache_root()
    path = entry_path(namespace, name, root)
    return _publish(root, path, sealed(namespace, name, payload))


def _publish(root: Path, path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` (inside cache ``root``) atomically under the root's lock; False when skipped."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with locks.holding(root, LOCK_NAME, timeout=WRITE_LOCK_TIMEOUT_S):
            _sweep(root)
            temp = path.with_name(f"{path.name}.{os.getpid()}{TEMP_SUFFIX}")
            try:
                temp.write_bytes(data)
                os.replace(temp, path)
            finally:
                temp.unlink(missing_ok=True)
    except (OSError, locks.NotAcquired):
        return False
    return True


def remove(paths: Iterable[Path], root: Optional[Path] = None) -> None:
    """Delete cache files (stale generations), under the lock; a cache that cannot be changed is left."""
    root = root or cache_root()
    try:
        with locks.holding(root, LOCK_NAME, timeout=WRITE_LOCK_TIMEOUT_S):
            for path in paths:
                path.unlink(missing_ok=True)
    except (OSError, locks.NotAcquired):
        pass


_tried: set[Path] = set()  # roots whose sweep this process has attempted
_swept: set[Path] = set()  # roots this process has swept


def sweep_once(root: Path) -> None:
    """Delete what killed runs left under ``root``, once per process and only if the lock is free
    right now (a busy lock means another process is writing; a later run sweeps)."""
    if root in _tried:
        return
    _tried.add(root)
    if not root.is_dir() or not _temporaries(root):  # nothing to sweep: the lock (and its library) is not needed
        return
    try:
        with locks.holding(root, LOCK_NAME, timeout=0):
            _sweep(root)
    except (OSError, locks.NotAcquired):
        pass


def _temporaries(root: Path) -> list[str]:
    """Every temporary file under ``root`` (a live write's, or one a killed run left)."""
    return [os.path.join(folder, file) for folder, _, files in os.walk(root) for file in files if file.endswith(TEMP_SUFFIX)]


def _sweep(root: Path) -> None:
    """Delete every temporary file under ``root``, once per process (call holding the lock: while
    it is held no live write has a temporary file, so each one found was left by a killed run)."""
    if root in _swept:
        return
    _swept.add(root)
    for path in _temporaries(root):
        try:
            os.unlink(path)
        except OSError:
            pass
