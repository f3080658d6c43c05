"""`pantheon theocracy ...`: resolve a bid, or simulate games with the reference engine.

Rule values (card range, player counts ...) come from the validated data.
Bad input prints one `error: ...` line on stderr and exits 1.
"""
from __future__ import annotations

import json
from typing import List

import typer

from pipeline.base.errors import UsageProblem, UserError, plain_errors
from pipeline.games.commands import valid_game
from pipeline.games.theocracy import GAME_ID
from pipeline.games.theocracy.engine import BidResult, Game, resolve_bid
from pipeline.games.theocracy.model import TheocracyModel
from pipeline.games.theocracy.simulate import PolicyName, Summary
from pipeline.games.theocracy.simulate import simulate as run_simulation

PERCENT = 100

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
@plain_errors
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


def summary_text(summary: Summary) -> list[str]:
    lines = [
        f"{summary.games} game(s), {summary.players} players, policy {summary.policy}, seed {summary.seed}",
        f"mean rounds: {summary.mean_rounds:.2f}",
    ]
    for ending, count in summary.endings.items():
        lines.append(f"ended by {ending}: {count} ({PERCENT * count / summary.games:.1f}%)")
    shares = ", ".join(f"seat {s} {PERCENT * w:.1f}%" for s, w in enumerate(summary.win_share))
    lines.append(f"win share: {shares}")
    lines.append(f"shared victories: {summary.shared_victories}")
    return lines


@app.command()
@plain_errors
def simulate(
    ctx: typer.Context,
    players: int = typer.Option(2, "--players", help="Number of players."),
    games: int = typer.Option(1000, "--games", min=1, help="Number of games to play."),
    seed: int = typer.Option(0, "--seed", help="Seed of the random generator."),
    policy: PolicyName = typer.Option(PolicyName.RANDOM, "--policy", help="How every seat plays."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of text."),
) -> None:
    """Play many games: mean rounds, how games ended (transcendence or fate), win share by seat."""
    model = project_model(ctx)
    if players not in model.player_counts:
        counts = ", ".join(str(c) for c in model.player_counts)
        raise UsageProblem(f"--players must be one of {counts}, got {players}")
    summary = run_simulation(Game.from_model(model, players), games, policy, seed)
    if as_json:
        typer.echo(json.dumps(summary.as_json(), indent=2))
    else:
        for line in summary_text(summary):
            typer.echo(line)

