"""`pantheon monstrous ...`: resolve a declared throw through the rules engine, or simulate seeded games."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer

from pipeline.analysis.balance.commands import simulate_command
from pipeline.base.errors import UsageProblem, UserError
from pipeline.base.options import DataOption, JsonOption, ProcessesOption
from pipeline.data.dataset import default_data_root
from pipeline.games.commands import command_specs, valid_game
from pipeline.games.monstrous import GAME_ID
from pipeline.games.monstrous.balance import POLICIES, VARIANTS
from pipeline.games.monstrous.declared import DeclarationError, TurnReport, describe_event, load_throw_file, run_turn
from pipeline.games.monstrous.engine import EngineError, Game, State

app = typer.Typer(help="Monstrous: resolve declared throws with the rules engine, or simulate seeded games.",
                  no_args_is_help=True)



def load_engine(ctx: typer.Context, root: Path) -> Game:
    """The rules engine built from validated data (bad data is a UserError, not a traceback)."""
    return Game(valid_game(ctx, GAME_ID, root).model)


@app.command()
def throw(ctx: typer.Context, file: Path = typer.Argument(..., help="YAML game state with the declared throws of one turn."),
          as_json: bool = JsonOption, data: Optional[Path] = DataOption) -> None:
    """Resolve declared throws (Throw Steps 2-7) from a game state file and say what happened, step by step."""
    root = data if data is not None else default_data_root()
    game = load_engine(ctx, root)
    doc, spec = load_throw_file(file, root)
    try:
        state = game.state_from(spec["state"])
    except EngineError as exc:
        raise UserError(f"{doc.at('state')}: {exc}") from None
    try:
        state, report = run_turn(game, state, spec["throws"])
    except DeclarationError as exc:
        raise UserError(f"{doc.at(*exc.where)}: {exc}") from None
    if as_json:
        typer.echo(json.dumps(_summary(state, report), indent=2))
        return
    typer.echo("\n".join(_text(game, state, report)))


def _summary(state: State, report: TurnReport) -> dict[str, Any]:
    b = state.board
    return {
        "throws": report.throws_resolved,
        "events": report.events,
        "faith": dict(b.faith),
        "hands": {g: list(h) for g, h in b.hands.items()},
        "decks": {g: d.cards() for g, d in b.decks.items()},
        "underworlds": {g: list(u) for g, u in b.underworlds.items()},
        "table": [{"card": c, "side": p.side, "on_locations": list(p.locations)} for c, p in b.table.items()],
        "next": None if state.is_terminal() else state.active,
        "stopped": report.stopped,
    }


def _text(game: Game, state: State, report: TurnReport) -> list[str]:
    names = {step.id: f"Step {step.number} - {step.name}" for step in game.model.throw_steps}
    lines: list[str] = []
    last: tuple = ()
    for event in report.events:
        if event["event"] == "throw":
            lines.append(f"Throw {event['throw']}: {describe_event(event)}")
            last = (event["throw"], event["step"])
            continue
        if (event["throw"], event["step"]) != last:
            lines.append(f"  {names.get(event['step'], event['step'])}:")
            last = (event["throw"], event["step"])
        lines.append(f"    {describe_event(event)}")
    faith = ", ".join(f"{g} {n}" for g, n in state.board.faith.items())
    lines += [f"Faith: {faith}", f"Stopped: {report.stopped}"]
    return lines


@app.command()
def simulate(ctx: typer.Context,
             players: int = typer.Option(..., "--players", min=1, help="Gods at the table (team variants: 4-10, in twos)."),
             variant: str = typer.Option("standard", "--variant", help=f"One of: {', '.join(VARIANTS)}."),
             games: Optional[int] = typer.Option(None, "--games", min=1,
                                                 help="Games (campaigns, for Wars) to play (default: the report's size)."),
             seed: int = typer.Option(0, "--seed", help="Seed of the random generator."),
             policy: str = typer.Option("random", "--policy", help=f"One of: {', '.join(POLICIES)}."),
             processes: Optional[int] = ProcessesOption,
             as_json: bool = JsonOption, data: Optional[Path] = DataOption) -> None:
    """Play seeded games of one variant: each seat's win rate and final Faith, endings and length, with 95% intervals
    (`pantheon simulate monstrous` for one variant: the same set-ups, seeds and figures)."""
    if variant not in VARIANTS:
        raise UsageProblem(f"--variant must be one of {', '.join(VARIANTS)}, got {variant!r}")
    if policy not in POLICIES:
        raise UsageProblem(f"--policy must be one of {', '.join(POLICIES)}, got {policy!r}")
    simulate_command(data if data is not None else default_data_root(), command_specs(ctx), GAME_ID, games=games, seed=seed,
                     players=players, policy=policy, processes=processes, as_json=as_json, where={"variant": variant})
