"""Inter-process locks on folders, so builds writing into one folder take turns.

A folder is locked by itself: ``flock`` on a descriptor of the folder, opened
read-only as a directory. No lock file is made, so nothing is left in the
folder, and there is no file in whose place a link could be planted. The
operating system drops the lock when its process dies, even by kill -9, so a
lock is never stale. Within one process the same folder (by device and inode,
however it was named) is locked once and counted, so a build holding its
output folder can call code that takes it again.

The folder itself is the one the caller names (a ``--out`` given as a link to
a folder locks that folder); nothing inside it is followed.
"""
from __future__ import annotations

import fcntl
import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Optional

# Waiting longer than this for a lock is worth telling the user (another build is running).
NOTICE_AFTER_S = 0.5
WAIT_FOREVER = -1.0
_POLL_S = 0.05

_held: dict[tuple[int, int], tuple[int, int]] = {}  # (device, inode) -> (descriptor, how many holds)


class NotAcquired(Exception):
    """The lock was not taken: another process held it past the time allowed, or the folder cannot be opened."""


def _try(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _acquire(fd: int, folder: Path, timeout: float, on_wait: Optional[Callable[[], None]]) -> None:
    """Take the lock on ``fd``: at once, else after telling ``on_wait`` (past NOTICE_AFTER_S), waiting
    ``timeout`` seconds at most (forever when negative)."""
    started = time.monotonic()
    told = on_wait is None
    while not _try(fd):
        waited = time.monotonic() - started
        if not told and waited >= NOTICE_AFTER_S:
            assert on_wait is not None
            on_wait()
            told = True
        if timeout < 0 and told:
            fcntl.flock(fd, fcntl.LOCK_EX)  # wait in the kernel; Ctrl-C still ends the run
            return
        if 0 <= timeout <= waited:
            raise NotAcquired(f"{folder} is held by another process")
        time.sleep(_POLL_S)


@contextmanager
def holding(folder: Path, *, timeout: float = WAIT_FOREVER, on_wait: Optional[Callable[[], None]] = None) -> Iterator[None]:
    """Hold the lock of ``folder`` (which must exist) for the duration.

    ``timeout`` seconds at most, or without limit when negative; ``on_wait`` is called once if the lock is
    not free within NOTICE_AFTER_S. Raises NotAcquired when the lock stays busy past ``timeout`` or the
    folder cannot be opened.
    """
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise NotAcquired(f"cannot open {folder}: {exc.strerror or exc}") from None
    info = os.fstat(fd)
    key = (info.st_dev, info.st_ino)
    if key in _held:  # this process holds it already: count, do not lock a second descriptor (flock would wait)
        os.close(fd)
        held_fd, count = _held[key]
        _held[key] = (held_fd, count + 1)
    else:
        try:
            _acquire(fd, folder, timeout, on_wait)
        except BaseException:
            os.close(fd)
            raise
        _held[key] = (fd, 1)
    try:
        yield
    finally:
        held_fd, count = _held[key]
        if count > 1:
            _held[key] = (held_fd, count - 1)
        else:
            del _held[key]
            os.close(held_fd)  # closing the only descriptor releases the lock
