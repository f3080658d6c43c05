"""What a run shows on stderr besides its result: one rich display, a spinner while it works, a bar when it counts.

Both draw on one rich console on stderr (``richconsole.STDERR``) and only when
stderr is a terminal: pipes, logs and tests see nothing. A progress bar opened
while the spinner turns takes its place (rich nests live displays on one
console). Off a terminal the spinner is not even made: rich is imported only
by a run that may draw (:func:`may_draw`), or that counts on a progress bar.
"""
from __future__ import annotations

import os
import sys
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import TYPE_CHECKING, Any, Callable, Iterator, TypeGuard

import typer

if TYPE_CHECKING:
    from rich.live import Live
    from rich.progress import Progress
    from rich.spinner import Spinner

STEP_MARK = " - "  # between the spinner's label and what the command does now
SPINNER_KEY = "pantheon.spinner"  # where the run's spinner is kept in the command's context (``ctx.meta``)
STEP_KEY = "pantheon.spinner.label"  # and the spinner itself with its first label, for ``stepper``


def spin_while(ctx: typer.Context, label: str) -> None:
    """Show :func:`working`'s spinner from now until the command's context ``ctx`` closes."""
    if not may_draw():
        return
    from rich.spinner import Spinner

    spinner = Spinner("dots", text=label)
    ctx.meta[SPINNER_KEY] = ctx.with_resource(working(spinner))
    ctx.meta[STEP_KEY] = (spinner, label)


def stepper(ctx: typer.Context) -> Callable[[str], None]:
    """A function that says on the run's spinner (``spin_while``) what the command does now and how far it is
    (``"monstrous (3/5): documents"``), after the command's label; it does nothing when no spinner turns
    (off a terminal)."""
    def step(text: str) -> None:
        meta = ctx.find_root().meta
        if _shown_live(meta.get(SPINNER_KEY)):  # shown: on a terminal
            spinner, label = meta[STEP_KEY]
            spinner.update(text=f"{label}{STEP_MARK}{text}")
    return step


def stop_spinner(ctx: typer.Context) -> None:
    """Take the run's spinner off the terminal for good (a command about to ask the user something)."""
    spinner = ctx.meta.get(SPINNER_KEY)
    if _shown_live(spinner):
        spinner.stop()


def _shown_live(value: Any) -> TypeGuard[Live]:
    """Whether ``value`` (what ``spin_while`` kept) is a spinner on the terminal (never, when none was made)."""
    if value is None:
        return False
    from rich.live import Live

    return isinstance(value, Live)


def working(spinner: Spinner | str) -> AbstractContextManager[Any]:
    """``spinner`` (or a spinner with that label) on stderr for the duration of the block, gone when it ends;
    nothing off a terminal.

    Lines the block prints go above the spinner: stdout is routed through the
    console only when it is that terminal too (a redirected stdout stays as it is).
    """
    if not may_draw():
        return nullcontext()
    from rich.live import Live
    from rich.spinner import Spinner

    from pipeline.base.richconsole import STDERR

    if not STDERR.is_terminal:
        return nullcontext()
    if isinstance(spinner, str):
        spinner = Spinner("dots", text=spinner)
    return _shown(Live(spinner, console=STDERR, transient=True,
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
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from pipeline.base.richconsole import STDERR

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    return Progress(*columns, console=STDERR, transient=True, disable=not STDERR.is_terminal,
                    redirect_stdout=_is_terminal(sys.stdout))


def may_draw() -> bool:
    """False when rich would certainly not draw on stderr: it is no terminal, and the environment does not ask
    rich to act as if it were (``TTY_COMPATIBLE=1``, a non-empty ``FORCE_COLOR``); otherwise rich decides."""
    if os.environ.get("TTY_COMPATIBLE") == "1" or os.environ.get("FORCE_COLOR"):
        return True
    return _is_terminal(sys.stderr)


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False
