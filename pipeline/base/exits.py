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
command's JSON reads its failure too. Commands, game commands included,
raise; they never print their own ending.
"""
from __future__ import annotations

import json
import os
import sys
from typing import Any, Callable, NoReturn, Optional, Sequence

import typer

from pipeline.base.errors import UsageProblem, UserError
from pipeline.base.textsafety import one_line

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130
DEBUG_ENV = "PANTHEON_DEBUG"
JSON_FLAG = "--json"


def run(main: Callable[..., Any], *, argv: Optional[Sequence[str]] = None) -> NoReturn:
    """Run a typer/click ``main`` on ``argv`` (default: the process's arguments) in non-standalone mode and
    exit with the code its outcome calls for: the mapping of every outcome to its exit code and message."""
    args = list(sys.argv[1:] if argv is None else argv)
    as_json = JSON_FLAG in args
    try:
        outcome = main(args=args, standalone_mode=False)
    except typer.TyperException as exc:  # what click raises about the command line (and a file it cannot open)
        _click_error(exc, as_json)
    except UsageProblem as exc:
        _fail(str(exc), EXIT_USAGE, as_json)
    except UserError as exc:
        problems = getattr(exc, "problems", None)  # an error that lists every problem found (ProblemsFound)
        _fail(str(exc), EXIT_PROBLEMS, as_json, problems=[str(p) for p in problems] if problems else None)
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


def _click_error(exc: typer.TyperException, as_json: bool) -> NoReturn:
    """A click error: a group called with nothing to do shows its help (as click does), anything else one line
    with its own exit code (2 for usage) and, for usage, where to look for help."""
    context = getattr(exc, "ctx", None)  # a usage error knows the command it is about
    message = exc.format_message()
    code = exc.exit_code
    if context is not None and message == context.get_help():  # no_args_is_help: the group's help is the message
        typer.echo(message, err=True)
        sys.exit(EXIT_USAGE)
    hint = f" (see '{context.command_path} --help')" if context is not None else ""
    _fail(message + hint, code, as_json)


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
