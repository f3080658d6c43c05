"""File digests taken once per process for files that have not changed since.

One card build hashes the same inputs several times: the whole-build stamp,
each game's card fingerprint (its data, the templates, fonts and every
pipeline module, about 2 MB a game), each game's face-record key. Here a
file's digest is kept in memory under its identity (device, inode, size,
modification and change times in ns) and reused while that identity holds.

File times are only as fine as the kernel's clock tick, so a file rewritten
twice within one tick at the same size would keep its identity. As git does
with its "racily clean" index entries, a file whose change time is within
``RACY_WINDOW_NS`` of the moment it was looked at is never remembered: it is
read and hashed every time.
"""
from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path
from typing import Any, Union

from pipeline.base.safefile import open_regular

RACY_WINDOW_NS = 2_000_000_000  # far above any file system's timestamp granularity
DIGEST_SIZE = 32
BLOCK = 1 << 20

_known: dict[str, tuple[tuple[int, ...], bytes]] = {}


def hashed(path: Union[str, "os.PathLike[str]"], hasher: Any) -> Any:
    """``hasher`` fed with the bytes of the regular file ``path`` (see :func:`pipeline.base.safefile.open_regular`),
    read in blocks so a stray huge file is not held whole; OSError when it cannot be read."""
    with open_regular(path) as handle:
        for block in iter(lambda: handle.read(BLOCK), b""):
            hasher.update(block)
    return hasher


def content_digest(path: Path) -> bytes:
    """The BLAKE2b digest of ``path``'s bytes; OSError when it cannot be read."""
    key = os.fspath(path)
    now = time.time_ns()
    before = os.stat(key)
    identity = (before.st_dev, before.st_ino, before.st_size, before.st_mtime_ns, before.st_ctime_ns)
    known = _known.get(key)
    if known is not None and known[0] == identity:
        return known[1]
    digest = hashed(key, hashlib.blake2b(digest_size=DIGEST_SIZE)).digest()
    if now - max(before.st_mtime_ns, before.st_ctime_ns) > RACY_WINDOW_NS:
        _known[key] = (identity, digest)
    else:
        _known.pop(key, None)
    return digest
