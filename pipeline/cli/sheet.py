"""`pantheon sheet export|import`: a game's cards as a spreadsheet and back (pipeline/app/sheet.py)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from pipeline.base import locations
from pipeline.base.options import DataOption, GameArgument, JsonOption

app = typer.Typer(help="A game's cards as a spreadsheet (one row per card) and back into the YAML.",
                  no_args_is_help=True)


def _root(data: Optional[Path]) -> Path:
    from pipeline.data.dataset import default_data_root

    return data if data is not None else default_data_root()


@app.command("export")
def export(game: str = GameArgument,
           out: Optional[Path] = typer.Option(None, "--out", help="FILE.xlsx (one sheet per card kind) or FILE.csv "
                                              "(one file per card kind); default output/<game>/cards.xlsx."),
           as_json: bool = JsonOption, data: Optional[Path] = DataOption) -> None:
    """Write every card of a game as one row (one sheet per card kind, ids first, read-only columns marked)."""
    from pipeline.app import sheet  # each command imports what it uses (the top level starts without them)
    from pipeline.data.dataset import display_path
    from pipeline.games import registry

    specs = registry.catalogue()
    target = out if out is not None else locations.output_root() / game / "cards.xlsx"
    chosen, = registry.select(_root(data), [game])  # an unknown game: one line, with the nearest id
    written = sheet.export(_root(data), specs, chosen, target)
    if as_json:
        typer.echo(json.dumps({"game": game, "files": [str(path) for path in written]}))
        return
    for path in written:
        typer.echo(f"wrote {display_path(path)}")


@app.command("import")
def import_(file: Path = typer.Argument(..., help="A sheet written by `pantheon sheet export` (.xlsx or .csv)."),
            as_json: bool = JsonOption, data: Optional[Path] = DataOption) -> None:
    """Write a sheet's edits into the YAML (comments, key order and formatting kept), if the result validates."""
    from pipeline.app import sheet
    from pipeline.data.dataset import display_path
    from pipeline.games import registry

    done = sheet.import_sheet(file, _root(data), registry.catalogue())
    if as_json:
        typer.echo(json.dumps({"cells": done.cells, "files": [str(path) for path in done.files]}))
        return
    if not done.files:
        typer.echo("no change: the sheet matches the data")
        return
    cells = f"{done.cells} cell{'' if done.cells == 1 else 's'}"
    typer.echo(f"imported {cells} into {', '.join(display_path(path) for path in done.files)}; the data validates")
