"""What a run shows on stderr besides its result: one rich display, a spinner while it works, a bar when it counts.

Both draw on one rich console on stderr and only when stderr is a terminal:
pipes, logs and tests see nothing. A progress bar opened while the spinner
turns takes its place (rich nests live displays on one console).
"""
from __future__ import annotations

import sys
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, Iterator

import typer
from rich.console import Console
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.spinner import Spinner

# Writes to whatever sys.stderr is at the time; drawn only when that is a terminal (checked at each use, so rich's
# own reading of "interactive", fixed when the console is made, is forced on).
STDERR = Console(stderr=True, force_interactive=True)
SPINNER_KEY = "pantheon.spinner"  # where the run's spinner is kept in the command's context (``ctx.meta``)


def spin_while(ctx: typer.Context, label: str) -> None:
    """Show :func:`working`'s spinner from now until the command's context ``ctx`` closes."""
    ctx.meta[SPINNER_KEY] = ctx.with_resource(working(label))


def stop_spinner(ctx: typer.Context) -> None:
    """Take the run's spinner off the terminal for good (a command about to ask the user something)."""
    spinner = ctx.meta.get(SPINNER_KEY)
    if isinstance(spinner, Live):
        spinner.stop()


def working(label: str) -> AbstractContextManager[Any]:
    """A spinner with ``label`` on stderr for the duration of the block, gone when it ends; nothing off a terminal.

    Lines the block prints go above the spinner: stdout is routed through the
    console only when it is that terminal too (a redirected stdout stays as it is).
    """
    if not STDERR.is_terminal:
        return nullcontext()
    return _shown(Live(Spinner("dots", text=label), console=STDERR, transient=True,
                       redirect_stdout=_is_terminal(sys.stdout), redirect_stderr=True))


@contextmanager
def _shown(live: Live) -> Iterator[Live]:
    """``live`` on the terminal for the block; taken off even when a Ctrl-C lands while it starts (rich's own
    ``with`` would leave a half-started display, its line and a hidden cursor, behind)."""
    try:
        live.start(refresh=True)
        yield live
    finally:
        live.stop()


def progress_bar() -> Progress:
    """A progress bar (``add_task``/``advance``) on stderr, drawn only when stderr is a terminal."""
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    return Progress(*columns, console=STDERR, transient=True, disable=not STDERR.is_terminal,
                    redirect_stdout=_is_terminal(sys.stdout))


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False
