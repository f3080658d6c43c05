"""Reading an input file that may be hostile: only regular files, never blocking, never unbounded.

A data folder is whatever the user points ``--data`` at, so a ``*.yaml`` or
``*.schema.json`` there may be a named pipe (opening it would wait forever
for a writer), a device (``/dev/zero`` never ends), a directory, or a file far
larger than any real one. The path is checked with ``stat`` before it is
opened, opened without blocking, checked again on the open descriptor (the
path may have been swapped in between), and read up to a limit. Every reader
of an input file (the YAML loader, the schemas, the digests) opens it here.
"""
from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path
from typing import Iterable, Iterator, Optional, Protocol, Union

READ_CHUNK = 1 << 16
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class FileRefused(OSError):
    """The file cannot be read as input; the message says why, in a few words."""


def _kind(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def _require_regular(mode: int) -> None:
    if not stat.S_ISREG(mode):
        raise FileRefused(f"cannot read file: it is {_kind(mode)}, not a regular file")


def read_regular_file(path: Union[Path, str], limit: int, *, dir_fd: Optional[int] = None, follow: bool = True) -> bytes:
    """The bytes of ``path``, a regular file (or a link to one, unless ``follow`` is off) of at most ``limit``
    bytes; ``path`` is relative to the open folder ``dir_fd`` when one is given.

    Raises FileRefused for anything else, or when the file cannot be read.
    """
    return b"".join(_chunks(path, limit, dir_fd, follow))


class Digest(Protocol):
    """What a hash object from ``hashlib`` offers a reader."""

    def update(self, data: bytes, /) -> None: ...


def hash_regular_file(path: Union[Path, str], limit: int, digest: Digest, *, follow: bool = True) -> None:
    """Feed the bytes of ``path`` into ``digest`` as :func:`read_regular_file` would read them, a chunk at a
    time (memory stays small however large ``limit`` is). Raises FileRefused as it does."""
    for chunk in _chunks(path, limit, None, follow):
        digest.update(chunk)


def _chunks(path: Union[Path, str], limit: int, dir_fd: Optional[int], follow: bool) -> Iterator[bytes]:
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | (0 if follow else os.O_NOFOLLOW)
    try:
        _require_regular(os.stat(path, dir_fd=dir_fd, follow_symlinks=follow).st_mode)
        fd = os.open(path, flags, dir_fd=dir_fd)
    except FileRefused:
        raise
    except OSError as exc:
        raise FileRefused(f"cannot read file: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        _require_regular(info.st_mode)
        if info.st_size > limit:
            raise FileRefused(f"file is too large: {info.st_size} bytes (at most {limit})")
        size = 0
        while size <= limit:  # a file that grows while it is read still stops at the limit
            chunk = os.read(fd, READ_CHUNK)
            if not chunk:
                return
            size += len(chunk)
            if size > limit:
                break
            yield chunk
        raise FileRefused(f"file is too large: more than {limit} bytes")
    except FileRefused:
        raise
    except OSError as exc:
        raise FileRefused(f"cannot read file: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


DIGEST_LIMIT = 16 << 20  # far above any file a loader reads (data files: 2 MiB at most)


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
        # every entry counts, folders and what is no regular file too: the loader refuses those, so a key
        # taken over a folder must change when one appears
        found += [((*inside, name), os.path.join(where, name)) for name in [*folders, *names]]
    digest = hashlib.blake2b(digest_size=20)
    for parts, path in sorted(found):
        content = _file_digest(Path(path)) if os.path.isfile(path) else f"not a regular file: {_entry_kind(path)}".encode()
        digest.update("/".join(parts).encode() + b"\0" + content + b"\0")
    return digest.hexdigest()


def _entry_kind(path: str) -> str:
    """What a folder entry that is no regular file is (its link target's kind for a link)."""
    try:
        return _kind(os.stat(path).st_mode)
    except OSError:
        return "unreadable"


def _file_digest(path: Path) -> bytes:
    """A regular file's hash, read a chunk at a time. A file larger than any loader reads (a scan left in a
    game folder) is not read at all: what ``stat`` says of it (size, times, inode) stands for it, which
    changes whenever it is written. A file that cannot be read hashes as such (so a key holding it never
    matches a readable one)."""
    try:
        info = os.stat(path)
        if stat.S_ISREG(info.st_mode) and info.st_size > DIGEST_LIMIT:
            return (f"too large to be an input: {info.st_size} bytes, modified {info.st_mtime_ns}, "
                    f"changed {info.st_ctime_ns}, inode {info.st_dev}:{info.st_ino}").encode()
        digest = hashlib.blake2b(digest_size=20)
        hash_regular_file(path, DIGEST_LIMIT, digest)
        return digest.digest()
    except (FileRefused, OSError) as exc:
        return f"unreadable: {exc}".encode()
