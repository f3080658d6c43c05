"""`pantheon totems-and-taboos ...`: ask whether a block can be built, or simulate solo games (the balance study's
solo set-ups, as `pantheon simulate totems-and-taboos --players 1`).

Rule values (tower table, wheel, difficulties) come from the validated data.
Bad input prints one `error: ...` line on stderr and exits 1.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from pipeline.analysis.balance.commands import simulate_command
from pipeline.base.errors import UserError
from pipeline.base.options import DataOption, JsonOption, ProcessesOption
from pipeline.data.dataset import default_data_root
from pipeline.games.commands import command_specs, valid_game
from pipeline.games.totems_and_taboos import GAME_ID
from pipeline.games.totems_and_taboos.engine import can_build as check_build
from pipeline.games.totems_and_taboos.lookahead import POLICIES
from pipeline.games.totems_and_taboos.model import TotemsModel

app = typer.Typer(
    help="Totems + Taboos: check a tower build, or simulate solo games with a simple or look-ahead player.",
    no_args_is_help=True,
    add_completion=False,
)

def project_model(ctx: typer.Context) -> TotemsModel:
    """The validated model of the project's data."""
    model: TotemsModel = valid_game(ctx, GAME_ID).model
    return model


def parse_colour(text: str, model: TotemsModel, what: str) -> str:
    colour = text.strip().lower()
    if colour not in model.colour_ids:
        raise UserError(f"{what} {text!r} is not a colour (colours: {', '.join(model.colour_ids)})")
    return colour


def parse_tower(text: str, model: TotemsModel) -> list[str]:
    """Comma-separated colours, bottom block first; an empty string is an empty tower."""
    if not text.strip():
        return []
    return [parse_colour(part, model, "tower block") for part in text.split(",")]


def non_negative(value: int, option: str) -> int:
    if value < 0:
        raise UserError(f"{option} must be 0 or more, got {value}")
    return value


@app.command("can-build")
def can_build(
    ctx: typer.Context,
    tower: str = typer.Option(..., "--tower", help="Tower colours, bottom block first, comma-separated ('' for none)."),
    shrines: int = typer.Option(..., "--shrines", help="Shrines you own."),
    servants: int = typer.Option(..., "--servants", help="Servants you have available this turn."),
    block: str = typer.Option(..., "--block", help="Colour of the block to add."),
    as_json: bool = typer.Option(False, "--json", help='Print JSON: {"can_build": bool, "reason": "..."}.'),
) -> None:
    """Can this block go on this tower with these shrines and available servants? Yes or no, and why."""
    model = project_model(ctx)
    result = check_build(
        model,
        parse_tower(tower, model),
        non_negative(shrines, "--shrines"),
        non_negative(servants, "--servants"),
        parse_colour(block, model, "block"),
    )
    if as_json:
        typer.echo(json.dumps({"can_build": result.can_build, "reason": result.reason}))
    else:
        typer.echo(f"{'yes' if result.can_build else 'no'}: {result.reason}")


@app.command("simulate-solo")
def simulate_solo_command(
    ctx: typer.Context,
    difficulty: str = typer.Option("normal", "--difficulty", help="easy, normal or hard."),
    games: Optional[int] = typer.Option(None, "--games", min=1, help="Games to play (default: the report's size)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the random generator."),
    policy: Optional[str] = typer.Option(None, "--policy", help=f"One of: {', '.join(POLICIES)} (default: the "
                                         "report's, lookahead)."),
    processes: Optional[int] = ProcessesOption,
    as_json: bool = JsonOption,
    data: Optional[Path] = DataOption,
) -> None:
    """Play solo games of one difficulty: win rate, endings and length in turns, with 95% intervals
    (`pantheon simulate totems-and-taboos --players 1`: the same set-ups, seeds and figures)."""
    simulate_command(data if data is not None else default_data_root(), command_specs(ctx), GAME_ID, games=games, seed=seed,
                     players=1,
                     policy=policy, processes=processes, as_json=as_json, where={"difficulty": difficulty})
