"""A spinner for runs that take a while, so a silent terminal never looks hung.

``working("validating")`` shows nothing for the first ``SPINNER_DELAY_S``
seconds (most runs finish sooner and print no noise), then a spinner with the
elapsed time on stderr, only when stderr is a terminal: pipes, logs and tests
see no change. Commands with their own progress bar (build, export) do not
wear it.
"""
from __future__ import annotations

import sys
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Optional, TextIO

SPINNER_DELAY_S = 1.5
FRAME_S = 0.1
FRAMES = "|/-\\"
CLEAR_LINE = "\r\x1b[2K"


class Spinner:
    """A running spinner; ``stop()`` (idempotent) clears it, ``before(say)`` stops it before the first line printed."""

    def __init__(self, out: TextIO, label: str, delay_s: float) -> None:
        self._done = threading.Event()
        self._thread: Optional[threading.Thread] = None
        if _is_terminal(out):
            self._thread = threading.Thread(target=_spin, args=(out, label, self._done, delay_s), daemon=True,
                                            name="pantheon-spinner")
            self._thread.start()

    def stop(self) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join()

    def before(self, say: Callable[..., None]) -> Callable[..., None]:
        def said(*args: Any, **kwargs: Any) -> None:
            self.stop()
            say(*args, **kwargs)

        return said


@contextmanager
def working(label: str, *, stream: Optional[TextIO] = None, delay_s: float = SPINNER_DELAY_S) -> Iterator[Spinner]:
    """Show ``label`` with a spinner on ``stream`` (stderr) from ``delay_s`` seconds into the block until it ends."""
    spinner = Spinner(stream if stream is not None else sys.stderr, label, delay_s)
    try:
        yield spinner
    finally:
        spinner.stop()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


def _spin(out: TextIO, label: str, done: threading.Event, delay_s: float) -> None:
    start = time.monotonic()
    if done.wait(delay_s):
        return
    frame = 0
    while not done.is_set():
        out.write(f"{CLEAR_LINE}{FRAMES[frame % len(FRAMES)]} {label} ({time.monotonic() - start:.0f} s)")
        out.flush()
        frame += 1
        done.wait(FRAME_S)
    out.write(CLEAR_LINE)
    out.flush()
