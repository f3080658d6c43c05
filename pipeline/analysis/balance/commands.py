"""The ``report`` and ``simulate`` commands behind their thin declarations in :mod:`pipeline.cli.main`.

Option values are checked before any work: a bad value (``--games 0``, an
unknown paper, ``--processes 0``) is a usage error, one ``error:`` line and
exit 2; an unknown game, policy or player count, or data that does not
validate, is exit 1 (a ``UserError``). Nothing is written unless every report
was made.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Mapping, NoReturn, Optional, Sequence

import typer

from pipeline.analysis.balance import report as reporting
from pipeline.analysis.balance import runner
from pipeline.analysis.balance.simulate import summaries, summary_data, summary_lines
from pipeline.base.errors import ProblemsFound, UsageProblem
from pipeline.base.textsafety import one_line
from pipeline.cards.imposition import load_sheets
from pipeline.data.dataset import display_path
from pipeline.data.gamespec import Specs

MIN_GAMES = 1
MIN_PROCESSES = 1
Say = Callable[..., None]


def say_line(line: str, *, err: bool = False) -> None:
    """Print one line (on stderr with ``err``); values in it cannot break it in two."""
    typer.echo(one_line(line), err=err)


def usage_error(message: str) -> NoReturn:
    """One ``error:`` line on stderr and exit 2 (a value the command cannot take): pipeline.base.exits ends it."""
    raise UsageProblem(message)


def check_options(games: Optional[int], processes: Optional[int], paper: Optional[str] = None) -> int:
    """Refuse option values no run could take; the number of processes to use."""
    if games is not None and games < MIN_GAMES:
        usage_error(f"--games must be at least {MIN_GAMES}, got {games}")
    if processes is not None and processes < MIN_PROCESSES:
        usage_error(f"--processes must be at least {MIN_PROCESSES}, got {processes}")
    if paper is not None:
        papers = load_sheets().papers
        if paper not in papers:
            usage_error(f"--paper must be one of {', '.join(papers)}, got {paper!r}")
    return processes if processes is not None else runner.default_processes()


def report_command(data_root: Path, specs: Specs, games: Optional[Sequence[str]], *, per_setup: Optional[int], seed: int, paper: str,
                   out: Path, processes: Optional[int], as_json: bool, say: Say) -> None:
    """Validate, simulate, render every report, then write them; ``--json`` prints the figures on stdout."""
    used = check_options(per_setup, processes, paper)
    try:
        studies = reporting.prepare(data_root, specs, games, paper)
    except ProblemsFound as exc:
        if not as_json:  # with --json the problems travel in the error object (pipeline.base.exits)
            for problem in exc.problems:
                say(problem)
        raise
    options = reporting.Options(per_setup, seed, paper, used)
    found = reporting.figures(studies, options)
    written = reporting.write(reporting.render_reports(found, paper, out, used), out)
    for path in written:
        say(f"wrote {display_path(path)}", err=as_json)
    if as_json:
        typer.echo(reporting.as_json(found))


def simulate_command(data_root: Path, specs: Specs, game: str, *, games: Optional[int], seed: int, players: Optional[int],
                     policy: Optional[str], processes: Optional[int], as_json: bool, say: Say = say_line,
                     where: Optional[Mapping[str, Any]] = None) -> None:
    """Play the set-ups ``players``, ``policy`` and ``where`` (set-up parameters) select and print their figures.

    The one simulation path: ``pantheon simulate GAME`` and every game's own simulate command call it."""
    used = check_options(games, processes)
    study = reporting.prepare(data_root, specs, [game])[game]
    found = summaries(study, players=players, policy=policy, games=games, seed=seed, processes=used,
                      where=where)
    if as_json:
        typer.echo(json.dumps({"game": game, "setups": [summary_data(s, seed) for s in found]}, indent=2,
                              sort_keys=True))
        return
    for summary in found:
        for line in summary_lines(study, summary, seed):
            say(line)
