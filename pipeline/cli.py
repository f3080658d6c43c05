"""The `pantheon` command line: each stage of the pipeline runs on its own from here.

Games mount their own commands (``pantheon theocracy bid ...``) from
``pipeline/games/<package>/cli.py``. Bad input never shows a traceback: a
UserError becomes one line on stderr and exit code 1.
"""
from __future__ import annotations

import importlib
import importlib.util
import json
import os
import pkgutil
import sys
from pathlib import Path
from typing import Any, List, Optional

import typer

import pipeline.games
from pipeline.core.dataset import default_data_root
from pipeline.core.errors import UserError
from pipeline.core.provenance import SOURCES, provenance_counts
from pipeline.core.validate import validate as run_validation

EXIT_PROBLEMS = 1
EXIT_INTERNAL = 2
DEBUG_ENV = "PANTHEON_DEBUG"


class PantheonApp(typer.Typer):
    """A Typer app that turns errors into one plain line instead of a traceback."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().__call__(*args, **kwargs)
        except UserError as exc:
            typer.echo(f"error: {exc}", err=True)
            sys.exit(EXIT_PROBLEMS)
        except KeyboardInterrupt:
            typer.echo("interrupted", err=True)
            sys.exit(130)
        except Exception as exc:  # a bug of ours: say so plainly, keep the traceback for developers
            if os.environ.get(DEBUG_ENV):
                raise
            typer.echo(f"internal error: {type(exc).__name__}: {exc} (set {DEBUG_ENV}=1 for details)", err=True)
            sys.exit(EXIT_INTERNAL)


app = PantheonApp(
    help="Pantheon Press: validate card data and build print-and-play PDFs.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

DataOption = typer.Option(None, "--data", help="Data root to use instead of the project's data/ (same layout).")
JsonOption = typer.Option(False, "--json", help="Print JSON instead of text.")
GamesArgument = typer.Argument(None, help="Games to work on (default: all).")


def _data_root(data: Optional[Path]) -> Path:
    return data if data is not None else default_data_root()


@app.command()
def validate(games: Optional[List[str]] = GamesArgument, data: Optional[Path] = DataOption) -> None:
    """Check data against the schemas and every game's cross-checks; list every problem."""
    report = run_validation(_data_root(data), games)
    for problem in report.problems:
        typer.echo(str(problem))
    for game in report.skipped_cross_checks:
        typer.echo(f"note: {game}: cross-checks not run until the problems above are fixed", err=True)
    if not report.ok:
        typer.echo(f"{len(report.problems)} problem(s) found", err=True)
        raise typer.Exit(EXIT_PROBLEMS)
    typer.echo("ok: data is valid")


@app.command()
def provenance(
    games: Optional[List[str]] = GamesArgument, data: Optional[Path] = DataOption, as_json: bool = JsonOption
) -> None:
    """Count each game's records by source: rulebook, inferred, authored."""
    counts = provenance_counts(_data_root(data), games)
    if as_json:
        typer.echo(json.dumps(counts, indent=2, sort_keys=True))
        return
    columns = (*SOURCES, "total")
    typer.echo(f"{'game':<20}" + "".join(f"{c:>10}" for c in columns))
    for game, row in counts.items():
        typer.echo(f"{game:<20}" + "".join(f"{row[c]:>10}" for c in columns))


def _mount_game_commands() -> None:
    """Add each game's own command group, named by its game id."""
    for module in pkgutil.iter_modules(pipeline.games.__path__):
        if not module.ispkg:
            continue
        package = importlib.import_module(f"pipeline.games.{module.name}")
        spec = importlib.util.find_spec(f"pipeline.games.{module.name}.cli")
        if spec is None:
            continue
        game_cli = importlib.import_module(f"pipeline.games.{module.name}.cli")
        app.add_typer(game_cli.app, name=package.GAME_ID)


_mount_game_commands()
