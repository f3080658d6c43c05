"""A spinner for every run that takes a while, so a silent terminal never looks hung.

:func:`until_output` wraps a whole command (pipeline.base.exits does it
for every ``pantheon`` run): nothing for the first ``SPINNER_DELAY_S``
seconds (most runs finish sooner and print no noise), then a spinner with the
elapsed time on stderr until the command first writes anything (its result, a
prompt, its own progress bar) or ends. Only when stderr is a terminal: pipes,
logs and tests see no change. Commands need not know about it.
"""
from __future__ import annotations

import sys
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterable, Iterator, Optional, TextIO

SPINNER_DELAY_S = 1.5
FRAME_S = 0.1
FRAMES = "|/-\\"
CLEAR_LINE = "\r\x1b[2K"


class Spinner:
    """A spinner on ``out`` from ``delay_s`` seconds after it is made until ``stop()`` (idempotent)."""

    def __init__(self, out: TextIO, label: str, delay_s: float) -> None:
        self._done = threading.Event()
        self._thread: Optional[threading.Thread] = None
        if is_terminal(out):
            self._thread = threading.Thread(target=_spin, args=(out, label, self._done, delay_s), daemon=True,
                                            name="pantheon-spinner")
            self._thread.start()

    @property
    def running(self) -> bool:
        return self._thread is not None and not self._done.is_set()

    def stop(self) -> None:
        self._done.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()


class _StopOnWrite:
    """A text stream that stops the spinner before anything is written through it (else it is the stream)."""

    def __init__(self, stream: TextIO, spinner: Spinner) -> None:
        self._stream = stream
        self._spinner = spinner

    def write(self, text: str) -> int:
        self._spinner.stop()
        return self._stream.write(text)

    def writelines(self, lines: Iterable[str]) -> None:
        self._spinner.stop()
        self._stream.writelines(lines)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextmanager
def until_output(label: str, *, delay_s: float = SPINNER_DELAY_S) -> Iterator[Spinner]:
    """Show ``label`` with a spinner on stderr from ``delay_s`` seconds in until the block first prints or ends."""
    spinner = Spinner(sys.stderr, label, delay_s)
    if not spinner.running:
        yield spinner
        return
    saved = sys.stdout, sys.stderr
    sys.stdout = _StopOnWrite(sys.stdout, spinner)
    sys.stderr = _StopOnWrite(sys.stderr, spinner)
    try:
        yield spinner
    finally:
        spinner.stop()
        sys.stdout, sys.stderr = saved


def is_terminal(stream: TextIO) -> bool:
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
