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

import os
import stat
from pathlib import Path
from typing import BinaryIO, Union

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


def open_regular(path: Union[str, "os.PathLike[str]"]) -> BinaryIO:
    """``path`` opened for reading in binary, only if it is a regular file (or a link to one).

    Checked before opening (a device is never opened), opened without blocking
    (a named pipe would wait for a writer) and checked again on the open
    handle. Raises FileRefused, an OSError, for anything else.
    """
    try:
        _require_regular(os.stat(path).st_mode)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except FileRefused:
        raise
    except OSError as exc:
        raise FileRefused(f"cannot read file: {exc.strerror or exc}") from None
    try:
        _require_regular(os.fstat(fd).st_mode)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular_file(path: Path, limit: int) -> bytes:
    """The bytes of ``path``, a regular file (or a link to one) of at most ``limit`` bytes.

    Raises FileRefused for anything else, or when the file cannot be read.
    """
    with open_regular(path) as handle:
        try:
            size = os.fstat(handle.fileno()).st_size
            if size > limit:
                raise FileRefused(f"file is too large: {size} bytes (at most {limit})")
            data = handle.read(limit + 1)  # a file that grows while it is read still stops at the limit
        except FileRefused:
            raise
        except OSError as exc:
            raise FileRefused(f"cannot read file: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise FileRefused(f"file is too large: more than {limit} bytes")
    return data
