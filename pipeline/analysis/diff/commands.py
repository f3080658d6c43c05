"""`pantheon diff`: read the command line's sides and games, compare, print, write the proof PDF."""
from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path
from typing import Callable, Optional, Sequence

from pipeline.analysis.balance.runner import default_processes
from pipeline.analysis.diff import balance as balancing
from pipeline.analysis.diff import report, sources
from pipeline.analysis.diff.compare import chosen_games, compare
from pipeline.analysis.diff.proof import write_proof
from pipeline.base.errors import UsageProblem
from pipeline.base.words import count
from pipeline.data.dataset import display_path, game_ids
from pipeline.data.gamespec import Specs

Say = Callable[..., None]  # (line, *, err=False)
MIN_GAMES = 1


def split_arguments(data_root: Path, specs: Specs, args: Sequence[str]) -> tuple[list[str], list[str]]:
    """The revisions and the games among the positional arguments: a game id (a registered game or a data
    folder) is a game, anything before the first game a revision; games come last."""
    known = set(game_ids(data_root)) | set(specs.ids())
    revs: list[str] = []
    games: list[str] = []
    for arg in args:
        if arg in known:
            games.append(arg)
        elif games:
            raise UsageProblem(f"'{arg}' after the games is not a game (revisions come first)")
        else:
            revs.append(arg)
    return revs, games


def check_balance_options(balance: bool, games: Optional[int], seed: Optional[int]) -> None:
    """``--games`` and ``--seed`` size and seed ``--balance``: alone they are a usage error."""
    if not balance and (games is not None or seed is not None):
        raise UsageProblem(f"{'--games' if games is not None else '--seed'} needs --balance")
    if games is not None and games < MIN_GAMES:
        raise UsageProblem(f"--games must be at least {MIN_GAMES}, got {games}")


def check_studies(old: sources.Side, new: sources.Side, specs: Specs, games: Sequence[str]) -> None:
    """Every game named for ``--balance`` must exist and have a balance study (checked before any work)."""
    for game in chosen_games(old, new, specs, games):
        if specs.spec(game).balance is None:
            raise UsageProblem(f"--balance: {game} has no balance study")


def diff_command(data_root: Path, specs: Specs, args: Sequence[str], *, data_a: Optional[Path], data_b: Optional[Path],
                 as_json: bool, pdf: Optional[Path], engines: bool, budget: Optional[int], paper: str,
                 template_root: Path, say: Say, balance: bool = False, balance_games: Optional[int] = None,
                 seed: Optional[int] = None, every: bool = False) -> bool:
    """Compare and print (``say``); False when a side does not validate: its records were compared and its
    problems printed after the diff, and what assumes valid data (--balance, --pdf) was not done."""
    check_balance_options(balance, balance_games, seed)
    revs: list[str] = []
    if data_a is not None or data_b is not None:  # two folders: every argument is a game
        games = list(args)
    else:
        revs, games = split_arguments(data_root, specs, args)
    with ExitStack() as stack:  # removes the revisions' extracted folders, whatever happens
        old, new = sources.sides(data_root, revs, data_a, data_b, stack)
        if balance and games:
            check_studies(old, new, specs, games)
        found = compare(old, new, specs, games or None, engines=engines, budget=budget)
        figures = None
        if balance and not found.broken:
            figures = balancing.compare_balance(found, games=balance_games or balancing.DEFAULT_GAMES,
                                                seed=seed or 0, processes=default_processes())
        proof = pdf is not None and not found.broken
        if proof:
            assert pdf is not None
            pages = write_proof(found, pdf, paper=paper, template_root=template_root, balance=figures)
        if as_json:
            data = report.as_data(found)
            if figures is not None:
                data["balance"] = balancing.as_data(figures)
            print(json.dumps(data, sort_keys=True, default=str))  # one line by construction: never cut like a message
        else:
            for line in report.lines(found):
                say(line)
            if figures is not None:
                for line in balancing.lines(figures, every=every):
                    say(line)
            for line in report.problem_lines(found):
                say(line)
        if proof:
            assert pdf is not None
            say(f"wrote {display_path(pdf)} ({pages} pages)", err=as_json)
        if found.broken:
            skipped = [what for what, asked in (("--balance", balance), ("--pdf", pdf is not None)) if asked]
            say(f"{count(len(found.problems), 'problem')} found: only records compared"
                f"{'; no ' + ' and no '.join(skipped) if skipped else ''}", err=True)
    return not found.broken
