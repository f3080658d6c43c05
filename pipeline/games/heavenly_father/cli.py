"""`pantheon heavenly-father ...`: score a Judgment Day with the reference engine.

The gods, the Virtue order (S, X, B, J) and the player counts come from the
validated data. Bad input prints one `error: ...` line on stderr and exits 1.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable, List, Optional

import typer

from pipeline.base.choose import choose
from pipeline.base.errors import UserError
from pipeline.games.commands import valid_game
from pipeline.games.heavenly_father import GAME_ID
from pipeline.games.heavenly_father.engine import Judgment, judge
from pipeline.games.heavenly_father.model import HeavenlyFatherModel

PLAYER_ARG = re.compile(r"^(?P<name>[^=\s]+)=(?P<counts>[^=]*)$")
COUNT = re.compile(r"^-?\d+$")
P_MIN, P_MAX = "min-players", "max-players"

app = typer.Typer(
    help="Who's Your Heavenly Father?: score Judgment Day with the reference engine.",
    no_args_is_help=True,
    add_completion=False,
)


def project_model(ctx: typer.Context) -> HeavenlyFatherModel:
    """The validated model of the project's data."""
    model: HeavenlyFatherModel = valid_game(ctx, GAME_ID).model
    return model


def _usage(model: HeavenlyFatherModel) -> str:
    letters = ",".join(v.abbreviation for v in model.virtues)
    return f"NAME={letters} (one whole number per Virtue: {', '.join(v.name for v in model.virtues)})"


def parse_player(text: str, model: HeavenlyFatherModel) -> tuple[str, dict[str, int]]:
    """``NAME=S,X,B,J`` -> (name, tokens by virtue id); UserError on anything else."""
    match = PLAYER_ARG.match(text)
    if match is None:
        raise UserError(f"{text!r} is not {_usage(model)}")
    name, parts = match["name"], match["counts"].split(",")
    if len(parts) != len(model.virtues) or not all(COUNT.match(p.strip()) for p in parts):
        raise UserError(f"player {name}: {match['counts']!r} is not {_usage(model)}")
    counts = [int(p) for p in parts]
    negative = [f"{n} {v.name}" for n, v in zip(counts, model.virtues) if n < 0]
    if negative:
        raise UserError(f"player {name}: token counts cannot be negative ({', '.join(negative)})")
    return name, dict(model.holdings(counts))


def parse_players(raw: List[str], model: HeavenlyFatherModel) -> list[tuple[str, dict[str, int]]]:
    low, high = model.parameters[P_MIN], model.parameters[P_MAX]
    if not low <= len(raw) <= high:
        raise UserError(f"give {low} to {high} players as {_usage(model)}, got {len(raw)}")
    players = [parse_player(text, model) for text in raw]
    names = [name for name, _ in players]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise UserError(f"player {'name' if len(repeated) == 1 else 'names'} given twice: {', '.join(repeated)}")
    return players


def find_god(god_id: str, model: HeavenlyFatherModel) -> Any:
    """The god a user means: its id as the YAML writes it, as an address (``gods/<id>``), or its name."""
    ways: tuple[Callable[[Any, str], bool], ...] = (
        lambda god, text: god.id == text or f"gods/{god.id}" == text,
        lambda god, text: god.name.casefold() == text.casefold(),
    )
    return choose(god_id, list(model.gods), ways, key=lambda god: god.id, name=lambda god: god.name,
                  scope="heavenly-father", noun="god")


def score_json(god: Any, players: list[tuple[str, dict[str, int]]], result: Judgment) -> dict[str, Any]:
    return {
        "god": god.id,
        "players": [{"name": name, "tokens": tokens, "score": score}
                    for (name, tokens), score in zip(players, result.scores)],
        "winners": [players[i][0] for i in result.winners],
    }


def score_text(god: Any, players: list[tuple[str, dict[str, int]]], result: Judgment) -> list[str]:
    lines = [f"One True God: {god.name}"]
    width = max(len(name) for name, _ in players)
    lines += [f"{name:<{width}}  {score:>4}" for (name, _), score in zip(players, result.scores)]
    winners = [players[i][0] for i in result.winners]
    label = "winner" if len(winners) == 1 else "winners (tied)"
    lines.append(f"{label}: {', '.join(winners)}")
    return lines


@app.command(context_settings={"ignore_unknown_options": True})
def score(
    ctx: typer.Context,
    god_id: Optional[str] = typer.Argument(None, metavar="GOD_ID", help="Id of the One True God, e.g. country-club-god."),
    players: Optional[List[str]] = typer.Argument(None, metavar="NAME=S,X,B,J...", help="Each player's tokens, in S,X,B,J order."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON: {god, players: [{name, tokens, score}], winners}."),
) -> None:
    """Score Judgment Day: every player's points under the god, and the winner(s); ties all win."""
    model = project_model(ctx)
    if god_id is None:
        raise UserError(f"give GOD_ID, then the players as {_usage(model)}")
    god = find_god(god_id, model)
    parsed = parse_players(players or [], model)
    result = judge(god, [tokens for _, tokens in parsed])
    if as_json:
        typer.echo(json.dumps(score_json(god, parsed, result)))
    else:
        for line in score_text(god, parsed, result):
            typer.echo(line)
