"""`pantheon monotheism ...`: replay a scenario's stored line, solve a scenario, play a game, estimate #21."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from pipeline.core.dataset import default_data_root
from pipeline.core.errors import UserError
from pipeline.games.monotheism import estimate, solver
from pipeline.games.monotheism.engine import PLAYER
from pipeline.games.monotheism.play import describe, deal, load, run, scenario_by_number, scenario_from_file

app = typer.Typer(help="Monotheism: replay the scenarios' winning lines, solve puzzles, play a game.",
                  no_args_is_help=True)

DataOption = typer.Option(None, "--data", help="Data root to use instead of the project's data/.")
JsonOption = typer.Option(False, "--json", help="Print JSON instead of text.")
DEFAULT_SET = "haruspex-of-scriptures"


def _root(data: Optional[Path]) -> Path:
    return data if data is not None else default_data_root()


@app.command()
def replay(scenario: str = typer.Argument(..., help="Scenario number (1-5)."),
           as_json: bool = JsonOption, data: Optional[Path] = DataOption) -> None:
    """Replay a scenario's stored winning line on a fresh deck, step by step."""
    loaded = load(_root(data))
    chosen = scenario_by_number(loaded.model, scenario)
    if not chosen.winning_line:
        raise UserError(f"scenario {chosen.id} has no stored winning line")
    state = loaded.game.scenario_state(chosen)
    steps = []
    text = [f"Scenario {chosen.id}: {chosen.title}", *describe(state, reveal=True, detail=0)]
    for number, action in enumerate(chosen.winning_line, 1):
        if state.is_terminal() or action not in state.legal_actions():
            raise UserError(f"scenario {chosen.id}: stored move {number} ({action}) is not legal here")
        state = state.apply_action(action)
        deck = [card[0] for card in state.deck]
        steps.append({"move": number, "action": action, "deck": deck})
        text.append(f"{number:>3}. {action:<12} -> {' '.join(deck)}")
    outcome = state.outcome()
    result = {"won": bool(outcome and outcome.won_by(PLAYER)),
              "reason": outcome.detail if outcome else "the line stops mid-game"}
    if as_json:
        typer.echo(json.dumps({"scenario": chosen.id, "steps": steps, "outcome": result}, indent=2))
        return
    text.append(("WIN: " if result["won"] else "NOT WON: ") + result["reason"])
    typer.echo("\n".join(text))


@app.command()
def solve(scenario: Optional[str] = typer.Argument(None, help="Scenario number (1-5)."),
          file: Optional[Path] = typer.Option(None, "--file", help="A YAML file holding one scenario."),
          max_nodes: int = typer.Option(solver.DEFAULT_MAX_NODES, "--max-nodes", min=1),
          max_seconds: float = typer.Option(solver.DEFAULT_MAX_SECONDS, "--max-seconds", min=0.01),
          first: bool = typer.Option(False, "--first-moves", help="Also judge every possible first turn "
                                     "(slow: proves each losing one lost)."),
          as_json: bool = JsonOption, data: Optional[Path] = DataOption) -> None:
    """Search for a winning line (depth-first, transposition table, node and time limits)."""
    if (scenario is None) == (file is None):
        raise UserError("give a scenario number or --file FILE (one of them)")
    root = _root(data)
    loaded = load(root)
    chosen = scenario_from_file(file, root, loaded) if file is not None else scenario_by_number(loaded.model, scenario)
    result = solver.solve(loaded.game.scenario_state(chosen, track_history=False).with_events(False),
                          max_nodes=max_nodes, max_seconds=max_seconds)
    report = {"scenario": chosen.id, "status": result.status, "line": list(result.line),
              "nodes": result.nodes, "seconds": result.seconds}
    moves = None
    if first:
        moves = solver.first_moves(loaded.game.scenario_state(chosen, track_history=False).with_events(False),
                                   max_nodes=max_nodes, max_seconds=max_seconds)
        report["first_moves"] = {"winning": list(moves.winning), "losing": list(moves.losing),
                                 "undecided": list(moves.undecided), "losing_share": round(moves.losing_share, 3)}
    if as_json:
        typer.echo(json.dumps(report))
        return
    typer.echo(f"Scenario {chosen.id}: {chosen.title}: {result.status} "
               f"({result.nodes} nodes, {result.seconds:.3f} s)")
    for number, action in enumerate(result.line, 1):
        typer.echo(f"{number:>3}. {action}")
    if moves is not None:
        total = len(moves.winning) + len(moves.losing) + len(moves.undecided)
        typer.echo(f"First turns: {len(moves.losing)} of {total} lose ({moves.losing_share:.0%}), "
                   f"{len(moves.winning)} can still win, {len(moves.undecided)} undecided")
        for line in moves.losing:
            typer.echo(f"  loses: {line}")


@app.command()
def play(worshiper_set: str = typer.Option(DEFAULT_SET, "--set", help="Worshiper set id."),
         seed: Optional[int] = typer.Option(None, "--seed", help="Shuffle seed (same seed, same deal)."),
         scenario: Optional[str] = typer.Option(None, "--scenario", help="Play a puzzle scenario instead."),
         data: Optional[Path] = DataOption) -> None:
    """Play in the terminal: veiled gods stay hidden; type a choice's key in brackets, 'u' to undo."""
    loaded = load(_root(data))
    if scenario is not None:
        chosen = scenario_by_number(loaded.model, scenario)
        typer.echo(f"Scenario {chosen.id}: {chosen.title}")
        state = loaded.game.scenario_state(chosen)
    else:
        state = deal(loaded, worshiper_set, seed)
        typer.echo(f"Monotheism with {worshiper_set}" + (f", seed {seed}" if seed is not None else ""))
    interactive = sys.stdin.isatty()

    def ask(prompt: str) -> Optional[str]:
        try:
            return input(prompt)
        except (EOFError, KeyboardInterrupt):  # Ctrl-D or Ctrl-C: leave quietly
            return None

    run(state, ask, typer.echo, interactive=interactive)


@app.command("estimate-21")
def estimate_21(games: int = typer.Option(2_000, "--games", min=1, help="Deals per worshiper set."),
                seed: int = typer.Option(0, "--seed", help="First seed (deal and policy); same seed, same figure."),
                policy: str = typer.Option("random", "--policy",
                                           help=f"How moves are chosen: {', '.join(estimate.POLICIES)}."),
                worshiper_set: Optional[list[str]] = typer.Option(None, "--set", help="Worshiper set id "
                                                                  "(repeatable; default: every set)."),
                as_json: bool = JsonOption, data: Optional[Path] = DataOption) -> None:
    """Monte Carlo: how often is #21 unveiled three times during the first cycle through the deck?

    The first cycle runs from the deal until the highest worshiper first reaches the top or is
    submerged (or the game ends). The rulebook says about once in five hundred games.
    """
    if policy not in estimate.POLICIES:
        raise UserError(f"unknown policy {policy!r} (known: {', '.join(estimate.POLICIES)})")
    loaded = load(_root(data))
    known = [s.id for s in loaded.model.worshiper_sets]
    sets = worshiper_set or known
    unknown = [s for s in sets if s not in known]
    if unknown:
        raise UserError(f"unknown worshiper set {unknown[0]!r} (known: {', '.join(known)})")
    result = estimate.estimate(loaded, games=games, seed=seed, sets=sets, policy=policy)
    if as_json:
        typer.echo(json.dumps(result.as_dict()))
        return
    typer.echo(f"#{estimate.UNBIDDEN_GUEST} unveiled {estimate.FATAL_UNVEILINGS}+ times in the first cycle "
               f"({policy} policy, seeds from {seed}):")
    for set_id in sets:
        histogram = ", ".join(f"{k}x: {n}" for k, n in sorted(result.histogram[set_id].items()))
        typer.echo(f"  {set_id:<24} {result.hits[set_id]:>5} of {result.games[set_id]} "
                   f"({_one_in(result.rate(set_id))})   unveilings {histogram}")
    typer.echo(f"  {'all sets':<24} {result.total_hits:>5} of {result.total_games} ({_one_in(result.rate())}); "
               f"the rulebook says about 1 in {round(1 / estimate.RULEBOOK_RATE)}")


def _one_in(rate: float) -> str:
    return f"about 1 in {round(1 / rate)}" if rate else "never"
