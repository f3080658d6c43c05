"""How every ``pantheon`` run ends: one place that turns an outcome into an exit code and at most one line.

Exit codes (the conventions of sysexits and of shells):

====  =====================================================================
0     done
1     the data or another input has problems (a UserError, a refused build)
2     the command line is wrong: unknown option, bad value, missing argument
70    a bug of ours (EX_SOFTWARE); the traceback only with PANTHEON_DEBUG=1
130   interrupted (Ctrl-C)
====  =====================================================================

With ``--json`` anywhere on the command line an error is one JSON object on
stdout, ``{"error": message, "exit_code": n}`` (plus ``"problems"``, every
problem found, when the data did not validate), so a script that reads the
command's JSON reads its failure too. A run still silent after 1.5 s shows a
spinner (pipeline.cli.progress). Commands raise; they never print their
own ending (game commands wearing :func:`pipeline.base.errors.plain_errors`
hand their UserError up here when run under this function).
"""
from __future__ import annotations

import json
import os
import sys
from typing import Any, Callable, NoReturn, Optional, Sequence

import typer
from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError  # typer's own (vendored) click

from pipeline.base import errors
from pipeline.base.errors import UsageProblem, UserError
from pipeline.base.textsafety import one_line
from pipeline.cli.progress import until_output

EXIT_OK = 0
EXIT_PROBLEMS = errors.EXIT_BAD_INPUT
EXIT_USAGE = errors.EXIT_USAGE
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130
DEBUG_ENV = "PANTHEON_DEBUG"
JSON_FLAG = "--json"
LABEL_WORDS = 2


def run(main: Callable[..., Any], *, argv: Optional[Sequence[str]] = None) -> NoReturn:
    """Run a typer/click ``main`` (in non-standalone mode) and exit with the code its outcome calls for."""
    args = list(sys.argv[1:] if argv is None else argv)
    previous, errors.HANDED_UP = errors.HANDED_UP, True
    try:
        _end(main, args, as_json=JSON_FLAG in args)
    finally:  # a caller that goes on (a test catching SystemExit) gets plain_errors back as it was
        errors.HANDED_UP = previous


def _end(main: Callable[..., Any], args: list[str], *, as_json: bool) -> NoReturn:
    """Run ``main`` on ``args`` and exit: the mapping of every outcome to its exit code and message."""
    try:
        with until_output(_label(args)):  # a spinner on a terminal, should the run stay silent for a while
            outcome = main(args=args, standalone_mode=False)
    except NoArgsIsHelpError as exc:  # a group called with nothing to do: its help, as click does
        typer.echo(exc.format_message(), err=True)
        sys.exit(EXIT_USAGE)
    except UsageError as exc:
        hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
        _fail(exc.format_message() + hint, EXIT_USAGE, as_json)
    except UsageProblem as exc:
        _fail(str(exc), EXIT_USAGE, as_json)
    except UserError as exc:
        problems = getattr(exc, "problems", None)  # an error that lists every problem found (InvalidData)
        _fail(str(exc), EXIT_PROBLEMS, as_json, problems=[str(p) for p in problems] if problems else None)
    except ClickException as exc:  # a click error that is not about usage (a file that cannot be opened)
        _fail(exc.format_message(), exc.exit_code, as_json)
    except (KeyboardInterrupt, typer.Abort):
        _interrupted()
    except BrokenPipeError:  # the reader went away (`pantheon ... | head`): nothing more to say to it
        _silence_stdout()
        sys.exit(EXIT_PROBLEMS)
    except Exception as exc:
        if os.environ.get(DEBUG_ENV):
            raise
        _fail(f"internal error: {type(exc).__name__}: {exc} (set {DEBUG_ENV}=1 for the traceback)", EXIT_INTERNAL,
              as_json, prefix="")
    if outcome == EXIT_INTERRUPTED:  # typer turns a Ctrl-C inside a command into Exit(130)
        _interrupted()
    sys.exit(outcome if isinstance(outcome, int) else EXIT_OK)


def _label(args: Sequence[str]) -> str:
    """What the spinner says: the command's words (``monotheism solve``), without options or values."""
    words = []
    for arg in args[:LABEL_WORDS]:
        if arg.startswith("-"):
            break
        words.append(arg)
    return " ".join(["pantheon", *words])


def _fail(message: str, code: int, as_json: bool, *, prefix: str = "error: ",
          problems: Optional[list[str]] = None) -> NoReturn:
    if as_json:
        answer: dict[str, Any] = {"error": one_line(message), "exit_code": code}
        if problems:
            answer["problems"] = problems
        typer.echo(json.dumps(answer, sort_keys=True))
    else:
        typer.echo(one_line(prefix + message), err=True)
    sys.exit(code)


def _interrupted() -> NoReturn:
    try:
        typer.echo("interrupted", err=True)
    except OSError:
        pass
    sys.exit(EXIT_INTERRUPTED)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail a second time."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
