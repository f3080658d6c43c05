"""The one cache: results kept between runs as plain data, under a key that always covers all the code.

``cached(namespace, inputs, compute)`` returns ``compute()``, from an entry
when an earlier run kept one for the same key. The key is always the
caller's ``inputs`` (the data the result depends on) plus :func:`code_digest`:
every source file of the ``pipeline`` package, every file of the templates in
use and the versions of Python and of every installed library. No caller
chooses a narrower scope of code, so no change to code, templates or
libraries ever meets a stale entry.

The rules every entry follows:

- An entry is JSON, never a Python object or code. Its first line is
  ``pantheon-cache/<version> <digest>``; the digest covers the namespace, the
  entry's name and the payload, so a truncated, bit-flipped or swapped entry
  fails. The digest is keyed with the cache's secret (``.key``: 32 random
  bytes, made on first use, readable by its owner only), so an entry written
  by anyone who cannot read the key (another user sharing the cache folder)
  is a miss: a forged entry can only come from someone who could as well
  change the code. A key that is a link, not a regular file, not the user's
  own, readable by others or of the wrong size means the cache is skipped. The payload is parsed strictly (no NaN or infinity) and the
  caller's ``decode`` checks its shape (raising ShapeError, ValueError,
  TypeError or LookupError).
- An entry is read only from a regular file inside the cache folder, opened
  without following links or blocking and read up to ``MAX_ENTRY_BYTES``: a
  link, a named pipe, a device or a folder in its place is a miss.
- Anything that fails is a *miss*: the result is computed and the entry
  rewritten. Reading never raises, never hangs, never gives another key's data.
- Writes are atomic (a temporary file of the writer's own, then a rename), so
  concurrent writers need no lock: each rename leaves a whole entry. A cache
  that cannot be written (read-only, full disk) is skipped.
- The store is bounded: each command that takes a :func:`scope` first holds
  it within ``BUDGET_BYTES`` (:func:`tidy`), removing the entries used
  longest ago (a hit refreshes an entry's time) and the temporary files of
  writers killed an hour or more ago. Entries of old code versions are never
  read again, so without this a designer's cache would grow with every edit.

The keyed digest guards against damage, mix-ups and other users; even an
entry forged with the key can at worst give data of the right shape (finite
numbers, the decoder's types), never run code. ``$PANTHEON_CACHE`` moves the cache; delete it to clear it.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import math
import os
import re
import secrets
import stat
import sys
import sysconfig
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional, Sequence, TypeVar

from pipeline.base import locations
from pipeline.base.safefile import read_regular_file

CACHE_ENV = "PANTHEON_CACHE"
FORMAT = "pantheon-cache/2"
ENTRY_SUFFIX = ".json"
TEMP_SUFFIX = ".tmp"
KEY_NAME = ".key"
KEY_SIZE = 32
MAX_ENTRY_BYTES = 64 << 20  # far above any real entry (a game's face records are about 1 MB)
DIGEST_SIZE = 32
# About 30 cold builds' worth of entries (one writes some 4.5 MB): room for many code and data versions.
BUDGET_BYTES = 128 << 20
LEFT_BEHIND_SECONDS = 3600  # a temporary file this old was left by a writer that was killed
ENTRY_NAME = re.compile(r"[0-9a-f]{40}\.json")  # entry_name's digest (20 bytes, in hex) and the suffix
STORE_MARK = FORMAT.split("/")[0].encode() + b"/"  # how every entry and temporary file of any format version begins
TEMP_NAME = re.compile(r"\.[0-9a-f]{40}\.\d+\.[0-9a-f]{8}\.tmp")  # _write's temporary names
NAMESPACE = re.compile(r"[a-z][a-z0-9-]*")
_DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW

T = TypeVar("T")
# Turns the JSON read back into the caller's value, raising ShapeError (a ValueError), TypeError or
# LookupError when it does not have the shape the caller's encoder writes.
Decoder = Callable[[Any], T]


def _as_is(value: Any) -> Any:
    return value


def cache_root() -> Path:
    """Where entries live: $PANTHEON_CACHE, else the project's .cache/ (git-ignored), else the user cache
    directory (an installed package, or a project folder that cannot be written)."""
    configured = os.environ.get(CACHE_ENV)
    return Path(configured) if configured else locations.cache_root()


def installed_libraries() -> str:
    """Python's version and the distributions installed in this environment's site-packages (their
    dist-info folder names carry the versions; sys.path differs between `pantheon` and `python -m`)."""
    folders = sorted({Path(sysconfig.get_paths()[kind]) for kind in ("purelib", "platlib")})
    names = sorted(
        entry.name for folder in folders if folder.is_dir()
        for entry in folder.iterdir() if entry.name.endswith((".dist-info", ".egg-info"))
    )
    return "\n".join([sys.version, *names])


def _files(root: Path, pattern: str) -> list[Path]:
    """Every file under ``root`` matching ``pattern``, sorted, leaving out caches and bundled copies."""
    return sorted(path for path in root.rglob(pattern)
                  if "__pycache__" not in path.parts and "bundled" not in path.relative_to(root).parts[:1])


def _tree_digest(root: Path, pattern: str) -> str:
    """A digest of every file under ``root`` matching ``pattern`` (name and bytes, sorted by path); links and
    other non-regular files are named but not followed."""
    digest = hashlib.blake2b(digest_size=20)
    for path in _files(root, pattern):
        digest.update(str(path.relative_to(root)).encode() + b"\0")
        if path.is_file() and not path.is_symlink():
            digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def code_digest(template_root: Path, package: Path = locations.PACKAGE) -> str:
    """One digest of everything that turns data into a result: every source file of the ``package``
    (the installed ``pipeline``), every file under ``template_root``, Python's and every installed
    library's version. It is part of every key. Read afresh on every call (some 25 ms): a command takes
    it once, through :func:`scope`, and hands the :class:`Scope` to whatever reads or writes entries."""
    package_digest = hashlib.blake2b((_tree_digest(package, "*.py") + installed_libraries()).encode(),
                                     digest_size=20).hexdigest()
    return hashlib.blake2b((package_digest + _tree_digest(template_root, "*")).encode(), digest_size=20).hexdigest()


@dataclass(frozen=True)
class Scope:
    """The code every key holds, as :func:`scope` took it: ``code``, the :func:`code_digest` of the package,
    the libraries and the templates under ``templates`` (resolved). A command takes it once where it starts
    its work (a watch: once per rebuild, so an edited template is seen) and passes it to every reader and
    writer of the store; made only by :func:`scope`."""

    code: str
    templates: Path


def scope(templates: Optional[Path] = None, *, reuse: Optional[Scope] = None) -> Scope:
    """The :func:`code_digest` of now, for the templates in use (``templates``, default: the project's);
    ``reuse``, a scope this command took already, when it is of the same templates."""
    root = (templates or locations.template_root()).resolve()
    if reuse is not None and reuse.templates == root:
        return reuse
    tidy()  # a command takes its scope where it starts using the store: the store is held to its budget there
    return Scope(code_digest(root), root)


def entry_name(namespace: str, inputs: Sequence[Any], under: Scope) -> str:
    """The file name (without suffix) of the entry for ``inputs`` (JSON data) under the code of ``under``."""
    if not NAMESPACE.fullmatch(namespace):
        raise ValueError(f"bad cache namespace {namespace!r}")
    code = under.code
    key = json.dumps([FORMAT, namespace, code, list(inputs)], sort_keys=True, ensure_ascii=False, allow_nan=False)
    return hashlib.blake2b(key.encode(), digest_size=20).hexdigest()


def cached(
    namespace: str,
    inputs: Sequence[Any],
    compute: Callable[[], T],
    *,
    encode: Callable[[T], Any] = _as_is,
    decode: Decoder[T] = _as_is,
    under: Scope,
) -> T:
    """``compute()``, read back from the entry for ``inputs`` when a run kept one, else computed and kept.

    ``inputs`` is JSON data naming everything the result depends on besides code, templates and libraries;
    ``under``: the command's :func:`scope` (the templates in use). ``encode`` turns the result
    into JSON data (a result it cannot encode, or one JSON cannot hold, is simply not kept); ``decode``
    turns an entry's data back into the result and raises on any shape ``encode`` does not write.
    """
    name = entry_name(namespace, inputs, under)
    found = _lookup(namespace, name, decode)
    if found is not None:
        return found[0]
    result = compute()
    try:
        plain = encode(result)
    except (TypeError, ValueError):
        return result
    _write(namespace, name, plain)
    return result


def recall(namespace: str, inputs: Sequence[Any], decode: Decoder[T], *, under: Scope) -> Optional[T]:
    """The value :func:`keep` stored for ``inputs`` under the code of ``under``, or None when there is no
    entry that passes every check."""
    found = _lookup(namespace, entry_name(namespace, inputs, under), decode)
    return None if found is None else found[0]


def keep(namespace: str, inputs: Sequence[Any], value: Any, *, under: Scope) -> bool:
    """Store ``value`` (JSON data) for ``inputs`` under the code of ``under``; False when it was skipped
    (not JSON data, or a cache that cannot be written)."""
    return _write(namespace, entry_name(namespace, inputs, under), value)


def cache_key(folder: int) -> Optional[bytes]:
    """The secret of the cache folder open as ``folder``, made when there is none yet; None when it cannot
    be made or is not a private regular file of this user's (the cache is then skipped)."""
    try:
        handle = os.open(KEY_NAME, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600,
                         dir_fd=folder)
    except FileExistsError:
        pass
    except OSError:
        return None  # a cache that cannot be written: nothing kept, nothing trusted
    else:
        made = secrets.token_bytes(KEY_SIZE)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(made)
        except OSError:
            return None
    try:
        info = os.stat(KEY_NAME, dir_fd=folder, follow_symlinks=False)
        if info.st_uid != os.getuid() or info.st_mode & 0o077:
            return None
        key = read_regular_file(KEY_NAME, KEY_SIZE, dir_fd=folder, follow=False)
    except OSError:  # FileRefused included
        return None
    return key if len(key) == KEY_SIZE else None


def _seal(namespace: str, name: str, payload: bytes, key: bytes) -> bytes:
    digest = hashlib.blake2b(digest_size=DIGEST_SIZE, key=key)
    for part in (FORMAT.encode(), namespace.encode(), name.encode()):
        digest.update(part + b"\0")
    digest.update(payload)
    return f"{FORMAT} {digest.hexdigest()}".encode()


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e999 parses to infinity
        raise ValueError("not a finite number")
    return number


def _refuse_constant(text: str) -> Any:
    raise ValueError(f"{text} is not JSON data")


def _lookup(namespace: str, name: str, decode: Decoder[T], root: Optional[Path] = None) -> Optional[tuple[T]]:
    """The decoded entry ``name`` in a 1-tuple (so a stored None is told from a miss), or None on any failure.
    A hit refreshes the entry's time, so that :func:`tidy` removes the entries used longest ago first."""
    try:
        folder = os.open(root or cache_root(), os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return None
    inner = -1
    try:
        inner = os.open(namespace, _DIRECTORY, dir_fd=folder)
        raw = read_regular_file(name + ENTRY_SUFFIX, MAX_ENTRY_BYTES, dir_fd=inner, follow=False)
        key = cache_key(folder)
        header, _, payload = raw.partition(b"\n")
        if key is None or not hmac.compare_digest(header, _seal(namespace, name, payload, key)):
            return None
        try:
            found = (decode(json.loads(payload, parse_float=_finite, parse_constant=_refuse_constant)),)
        except (ValueError, TypeError, LookupError, RecursionError):
            return None
        try:
            os.utime(name + ENTRY_SUFFIX, dir_fd=inner, follow_symlinks=False)
        except OSError:
            pass  # (someone else's entry in a shared folder: it is served, and ages as it is)
        return found
    except OSError:  # FileRefused included
        return None
    finally:
        if inner >= 0:
            os.close(inner)
        os.close(folder)


def _write(namespace: str, name: str, value: Any, root: Optional[Path] = None) -> bool:
    """Write entry ``name`` atomically: a temporary file only this writer names, then a rename; no link is
    followed inside the cache folder. False when the value is not JSON data or the cache cannot be written."""
    try:
        payload = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()
    except (TypeError, ValueError, RecursionError):
        return False
    temp = f".{name}.{os.getpid()}.{secrets.token_hex(4)}{TEMP_SUFFIX}"
    try:
        root = root or cache_root()
        root.mkdir(parents=True, exist_ok=True)
        folder = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return False
    inner = -1
    try:
        key = cache_key(folder)
        if key is None:
            return False
        data = _seal(namespace, name, payload, key) + b"\n" + payload
        try:
            os.mkdir(namespace, dir_fd=folder)
        except FileExistsError:
            pass
        inner = os.open(namespace, _DIRECTORY, dir_fd=folder)
        handle = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644, dir_fd=inner)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temp, name + ENTRY_SUFFIX, src_dir_fd=inner, dst_dir_fd=inner)
        except OSError:
            os.unlink(temp, dir_fd=inner)
            raise
        return True
    except OSError:
        return False
    finally:
        if inner >= 0:
            os.close(inner)
        os.close(folder)


def tidy(root: Optional[Path] = None, budget: Optional[int] = None) -> None:
    """Hold the store under ``root`` (default: :func:`cache_root`) within ``budget`` bytes of entries (default:
    ``BUDGET_BYTES``): when it
    holds more, the entries used longest ago are removed until a quarter of the budget is free (so that the
    next few commands need not remove any). Temporary files of writers killed ``LEFT_BEHIND_SECONDS`` ago or
    more go too. Only files a store wrote (its names, its seal line) are removed, inside the namespace folders
    of a folder that holds a store's key, never through a link; whatever cannot be listed or removed is left as
    it is (a shared folder: another user's file). Never raises."""
    try:
        folder = os.open(root or cache_root(), os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    opened: dict[str, int] = {}
    try:
        if not stat.S_ISREG(os.stat(KEY_NAME, dir_fd=folder, follow_symlinks=False).st_mode):
            return  # (no store was ever kept here: PANTHEON_CACHE pointed at some other folder)
        entries: list[tuple[int, int, str, str]] = []  # (last used, size, namespace, file name)
        stale: list[tuple[str, str]] = []
        now = time.time_ns()
        with os.scandir(folder) as namespaces:
            for listed in namespaces:
                if NAMESPACE.fullmatch(listed.name) and listed.is_dir(follow_symlinks=False):
                    with suppress(OSError):
                        opened[listed.name] = os.open(listed.name, _DIRECTORY, dir_fd=folder)
        for space, inner in opened.items():
            with suppress(OSError), os.scandir(inner) as found:
                for item in found:
                    try:
                        if not item.is_file(follow_symlinks=False):
                            continue
                        info = item.stat(follow_symlinks=False)
                    except OSError:
                        continue  # (gone since it was listed)
                    if ENTRY_NAME.fullmatch(item.name):
                        entries.append((info.st_mtime_ns, info.st_size, space, item.name))
                    elif TEMP_NAME.fullmatch(item.name) and now - info.st_mtime_ns >= LEFT_BEHIND_SECONDS * 10**9:
                        stale.append((space, item.name))
        total = sum(size for _, size, _, _ in entries)
        budget = BUDGET_BYTES if budget is None else budget
        if total > budget:
            for _, size, space, name in sorted(entries):
                if total <= budget * 3 // 4:
                    break
                stale.append((space, name))
                total -= size
        for space, name in stale:
            if _begins_as_ours(name, opened[space]):
                with suppress(OSError):
                    os.unlink(name, dir_fd=opened[space])
    except OSError:
        return
    finally:
        for inner in opened.values():
            os.close(inner)
        os.close(folder)


def _begins_as_ours(name: str, folder: int) -> bool:
    """Whether the regular file ``name`` in ``folder`` begins as every entry a store writes (its seal line):
    a file of the right name that a store did not write is never removed."""
    try:
        handle = os.open(name, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_NOCTTY, dir_fd=folder)
    except OSError:
        return False
    try:
        return stat.S_ISREG(os.fstat(handle).st_mode) and os.read(handle, len(STORE_MARK)) == STORE_MARK
    except OSError:
        return False
    finally:
        os.close(handle)
