"""The command-line options and arguments that several commands share, defined once (core and game commands).

Here, low in the layers, so a game's command group (below ``pipeline.cli``)
uses the same ``--data`` and ``--json`` as the core commands.
"""
from __future__ import annotations

import math
from typing import Callable, Optional

import typer

from pipeline.base import locations


def finite(minimum: Optional[float] = None) -> Callable[[str], float]:
    """The parser of a number option: a finite number, at least ``minimum`` when given. NaN and the
    infinities are refused before any bound is checked (every comparison with NaN is false, so NaN would
    pass any range); a refusal is a usage error, one line, exit 2."""

    def number(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise typer.BadParameter(f"{text!r} is not a number") from None
        if not math.isfinite(value):
            raise typer.BadParameter(f"{text!r} is not a finite number")
        if minimum is not None and value < minimum:
            raise typer.BadParameter(f"{text} is below the minimum of {minimum:g}")
        return value

    number.__name__ = "float"  # the help shows <float>, as for a plain number option
    return number


def complete_games(incomplete: str) -> list[str]:
    """Shell completion of game ids: the game folders of the project's data (schemas/ is none)."""
    try:
        folders = sorted(path.name for path in locations.data_root().iterdir() if path.is_dir())
    except OSError:
        return []
    return [name for name in folders if name != "schemas" and not name.startswith(".") and name.startswith(incomplete)]


DataOption = typer.Option(None, "--data", help="Data root to use instead of the project's data/ (same layout).")
JsonOption = typer.Option(False, "--json", help="Print JSON instead of text.")
GamesArgument = typer.Argument(None, help="Games to work on (default: all).", autocompletion=complete_games)
GameArgument = typer.Argument(..., help="Game id.", autocompletion=complete_games)
TemplatesOption = typer.Option(None, "--templates", help="Templates folder to use instead of the project's templates/.")
SeedOption = typer.Option(0, "--seed", help="Seed of the simulations (same seed and sizes, same figures).")
ProcessesOption = typer.Option(None, "--processes", min=1,
                               help="Worker processes (default: every core); the results are the same for any number.")
