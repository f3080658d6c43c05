"""The one exception type that reaches the user as a plain message, and the wrapper that prints it."""
from __future__ import annotations

import functools
from typing import Callable, ParamSpec, TypeVar

from pipeline.base.textsafety import one_line

EXIT_BAD_INPUT = 1
EXIT_USAGE = 2
HANDED_UP = False  # set by pipeline.base.exits.run, which ends every `pantheon` run in one place

P = ParamSpec("P")
R = TypeVar("R")


class UserError(Exception):
    """Bad input or an impossible request: the CLI prints the message and exits 1."""


class UsageProblem(Exception):
    """An option value or combination no run can take, found by the command (typer checks each value's type, choices
    and range first): the CLI prints the message and exits 2, as for typer's own usage errors."""


def plain_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Turn a UserError into one ``error:`` line on stderr and exit 1 (a UsageProblem: exit 2).

    The main CLI does this for every command; game commands wear it too so
    they behave the same when a game's Typer app is run or tested on its own.
    """
    import typer

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except (UserError, UsageProblem) as exc:
            if HANDED_UP:
                raise
            typer.echo(one_line(f"error: {exc}"), err=True)  # one line, whatever values it quotes
            raise typer.Exit(EXIT_USAGE if isinstance(exc, UsageProblem) else EXIT_BAD_INPUT) from None

    return wrapper
