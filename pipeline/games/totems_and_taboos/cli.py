"""`pantheon totems-and-taboos ...`: ask whether a block can be built, or simulate solo games.

Rule values (tower table, wheel, difficulties) come from the validated data.
Bad input prints one `error: ...` line on stderr and exits 1.
"""
from __future__ import annotations

import json
from typing import Optional

import typer

from pipeline.base.errors import UsageProblem, UserError, plain_errors
from pipeline.games.commands import valid_game
from pipeline.games.totems_and_taboos import GAME_ID
from pipeline.games.totems_and_taboos.engine import Game
from pipeline.games.totems_and_taboos.engine import can_build as check_build
from pipeline.games.totems_and_taboos.lookahead import POLICIES
from pipeline.games.totems_and_taboos.model import TotemsModel
from pipeline.games.totems_and_taboos.simulate import SoloSummary, simulate_solo, summary_json

PERCENT = 100

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
@plain_errors
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


def summary_text(summary: SoloSummary, seed: int) -> list[str]:
    return [
        f"{summary.games} solo game(s), difficulty {summary.difficulty}, seed {seed}",
        f"win share: {PERCENT * summary.win_share:.1f}% ({summary.wins} won, {summary.losses} lost, "
        f"{summary.unfinished} unfinished)",
        f"mean length: {summary.mean_turns:.2f} turns",
    ]


@app.command("simulate-solo")
@plain_errors
def simulate_solo_command(
    ctx: typer.Context,
    difficulty: str = typer.Option("normal", "--difficulty", help="easy, normal or hard."),
    games: int = typer.Option(100, "--games", min=1, help="Number of games to play."),
    seed: int = typer.Option(0, "--seed", help="Seed of the random generator."),
    policy: str = typer.Option("simple", "--policy", help="simple (greedy) or lookahead (stronger, slower)."),
    start_colour: Optional[str] = typer.Option(None, "--start-colour",
                                               help="Always start with this colour (default: the player chooses)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of text."),
) -> None:
    """Play solo games with the simple or the look-ahead player: win share and mean length in turns."""
    model = project_model(ctx)
    known = [d.id for d in model.solo.difficulties]
    if difficulty not in known:
        raise UsageProblem(f"--difficulty must be one of {', '.join(known)}, got {difficulty!r}")
    if policy not in POLICIES:
        raise UsageProblem(f"--policy must be one of {', '.join(POLICIES)}, got {policy!r}")
    colour = parse_colour(start_colour, model, "--start-colour") if start_colour is not None else None
    summary = simulate_solo(lambda d: Game.solo_game(model, d), difficulty, games, seed, policy=POLICIES[policy],
                            start_colour=colour)
    if as_json:
        typer.echo(json.dumps({**summary_json(summary), "seed": seed, "policy": policy, "start_colour": colour},
                              indent=2))
    else:
        for line in summary_text(summary, seed):
            typer.echo(line)
