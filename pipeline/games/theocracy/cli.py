"""`pantheon theocracy ...`: resolve a bid, or simulate games with the reference engine (the balance study's
set-ups, as `pantheon simulate theocracy`).

Rule values (card range, player counts ...) come from the validated data.
Bad input prints one `error: ...` line on stderr and exits 1.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer

from pipeline.analysis.balance.commands import simulate_command
from pipeline.base.errors import UserError
from pipeline.base.options import DataOption, JsonOption, ProcessesOption
from pipeline.data.dataset import default_data_root
from pipeline.games.commands import command_specs, valid_game
from pipeline.games.theocracy import GAME_ID
from pipeline.games.theocracy.balance import POLICIES
from pipeline.games.theocracy.engine import BidResult, resolve_bid
from pipeline.games.theocracy.model import TheocracyModel

app = typer.Typer(
    help="Theocracy: resolve bids and simulate games with the reference engine.",
    no_args_is_help=True,
    add_completion=False,
)


def project_model(ctx: typer.Context) -> TheocracyModel:
    """The validated model of the project's data."""
    model: TheocracyModel = valid_game(ctx, GAME_ID).model
    return model


def parse_bids(raw: List[str], model: TheocracyModel) -> list[int]:
    """Bid values from the command line, checked against the card values and player counts."""
    values = sorted({v for p in model.players for v in model.power_values(p.id)})
    counts = model.player_counts
    low, high = min(counts), max(counts)
    if not low <= len(raw) <= high:
        raise UserError(f"give {low} to {high} bids (one per player), got {len(raw)}")
    bids = []
    for text in raw:
        try:
            value = int(text)
        except ValueError:
            raise UserError(f"bid {text!r} is not a whole number (power cards are {values[0]}-{values[-1]})") from None
        if value not in values:
            raise UserError(f"bid {value} is not a power card value (power cards are {values[0]}-{values[-1]})")
        bids.append(value)
    return bids


def describe_bid(result: BidResult) -> str:
    if result.winner is None:
        return f"draw ({result.rule})"
    return f"seat {result.winner} wins ({result.rule})"


@app.command(context_settings={"ignore_unknown_options": True})
def bid(
    ctx: typer.Context,
    values: List[str] = typer.Argument(..., help="One power card value per seat, in seat order, e.g. 1 3 4 5."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON: {winner, rule}; winner is null for a draw."),
) -> None:
    """Resolve one bid: the winning seat (0-based, in argument order) or a draw, and the deciding rule."""
    model = project_model(ctx)
    result = resolve_bid(parse_bids(values, model), model.upset)
    if as_json:
        typer.echo(json.dumps({"winner": result.winner, "rule": result.rule}))
    else:
        typer.echo(describe_bid(result))


@app.command()
def simulate(
    ctx: typer.Context,
    players: Optional[int] = typer.Option(None, "--players", min=1, help="Only set-ups for this many players."),
    games: Optional[int] = typer.Option(None, "--games", min=1, help="Games per set-up (default: the report's size)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the random generator."),
    policy: Optional[str] = typer.Option(None, "--policy", help=f"Only set-ups played by: {', '.join(POLICIES)}."),
    processes: Optional[int] = ProcessesOption,
    as_json: bool = JsonOption,
    data: Optional[Path] = DataOption,
) -> None:
    """Play seeded games: each seat's win rate, endings and length in rounds, with 95% intervals
    (`pantheon simulate theocracy`: the same set-ups, seeds and figures)."""
    simulate_command(data if data is not None else default_data_root(), command_specs(ctx), GAME_ID, games=games, seed=seed,
                     players=players, policy=policy, processes=processes, as_json=as_json)
