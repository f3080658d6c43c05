"""Inter-process locks on folders (the ``filelock`` library), for builds and caches shared by processes.

A lock is a file inside the folder it guards. The operating system drops a
lock when its process dies, even by kill -9, so a lock is never left stale.
Within one process the same folder always gets the same lock object, which
counts nested acquisitions (a build holding its output folder's lock can
call code that takes it again).

Only the folder's path is resolved, never the lock file's: filelock opens the
lock file with O_NOFOLLOW, so a link planted in its place is refused
(NotAcquired) instead of followed and truncated.
"""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Optional

import filelock

if TYPE_CHECKING:
    import filelock

# Waiting longer than this for a lock is worth telling the user (another build is running).
NOTICE_AFTER_S = 0.5
WAIT_FOREVER = -1.0


class NotAcquired(Exception):
    """The lock was not taken: another process held it past the time allowed, or its file cannot be created."""


_locks: dict[Path, filelock.FileLock] = {}  # by lock file: making a FileLock costs more than taking it


def _lock(path: Path) -> filelock.FileLock:
    if path not in _locks:
        _locks[path] = filelock.FileLock(str(path), is_singleton=True)
    return _locks[path]


@contextmanager
def holding(
    folder: Path, name: str, *, timeout: float = WAIT_FOREVER, on_wait: Optional[Callable[[], None]] = None
) -> Iterator[None]:
    """Hold the lock file ``name`` in ``folder`` (which must exist) for the duration.

    ``timeout`` seconds at most (raising Busy), or without limit when negative;
    ``on_wait`` is called once if the lock is not free within NOTICE_AFTER_S.
    Raises NotAcquired when the lock is busy past ``timeout`` or its file cannot be created.
    """
    path = folder.resolve() / name  # one lock object per file, however the folder was named; the file itself not followed
    lock = _lock(path)
    try:
        if on_wait is not None and (timeout < 0 or timeout > NOTICE_AFTER_S):
            try:
                lock.acquire(timeout=NOTICE_AFTER_S)
            except filelock.Timeout:
                on_wait()
                lock.acquire(timeout=timeout if timeout < 0 else timeout - NOTICE_AFTER_S)
        else:
            lock.acquire(timeout=timeout)
    except filelock.Timeout:
        raise NotAcquired(f"{path} is held by another process") from None
    except OSError as exc:
        raise NotAcquired(f"cannot create {path}: {exc.strerror or exc}") from None
    try:
        yield
    finally:
        lock.release()
