"""The command-line options and arguments that several commands share, defined once (core and game commands).

Here, low in the layers, so a game's command group (below ``pipeline.cli``)
uses the same ``--data`` and ``--json`` as the core commands.
"""
from __future__ import annotations

import typer

DataOption = typer.Option(None, "--data", help="Data root to use instead of the project's data/ (same layout).")
JsonOption = typer.Option(False, "--json", help="Print JSON instead of text.")
GamesArgument = typer.Argument(None, help="Games to work on (default: all).")
TemplatesOption = typer.Option(None, "--templates", help="Templates folder to use instead of the project's templates/.")
SeedOption = typer.Option(0, "--seed", help="Seed of the simulations (same seed and sizes, same figures).")
ProcessesOption = typer.Option(None, "--processes", min=1,
                               help="Worker processes (default: every core); the results are the same for any number.")
