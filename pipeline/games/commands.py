"""What the games' own commands (``pantheon <game> ...``) share: their data, validated like every command's.

``pantheon`` puts the registered specs in a game's group context (``pipeline.cli.main``:
``ctx.obj``); a game's command takes its ``typer.Context`` and asks
:func:`valid_game` for its data, so it goes through the same validation as
``pantheon validate`` (all checks, every referenced game's records). A game's
Typer app run on its own is handed the specs as ``obj`` (``CliRunner.invoke(app, args, obj=specs)``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

from pipeline.base.errors import UserError
from pipeline.checks.validate import load_valid_game
from pipeline.data.dataset import GameData
from pipeline.data.gamespec import Specs


def command_specs(ctx: typer.Context) -> Specs:
    """The game specs of the running command (a UserError when none were handed to it)."""
    specs = ctx.find_object(Specs)
    if specs is None:
        raise UserError("a game's commands run inside `pantheon` (no game specs were handed to this one)")
    return specs


def valid_game(ctx: typer.Context, game: str, data_root: Optional[Path] = None) -> GameData[Any]:
    """The validated data of ``game`` under ``data_root`` (default: the project's), its model built on first use;
    a UserError naming the first problem when the data does not validate."""
    return load_valid_game(command_specs(ctx), game, data_root)
