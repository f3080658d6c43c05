"""`pantheon diff`: read the command line's sides and games, compare, print, write the proof PDF."""
from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path
from typing import Callable, Optional, Sequence

from pipeline.core import games as registry
from pipeline.core.dataset import display_path, game_ids
from pipeline.core.diff import report, sources
from pipeline.core.diff.compare import compare
from pipeline.core.errors import UsageProblem

Say = Callable[..., None]  # (line, *, err=False)


def split_arguments(data_root: Path, args: Sequence[str]) -> tuple[list[str], list[str]]:
    """The revisions and the games among the positional arguments: a game id (a registered game or a data
    folder) is a game, anything before the first game a revision; games come last."""
    known = set(game_ids(data_root)) | {spec.id for spec in registry.specs()}
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


def diff_command(data_root: Path, args: Sequence[str], *, data_a: Optional[Path], data_b: Optional[Path],
                 as_json: bool, pdf: Optional[Path], engines: bool, budget: Optional[int], paper: str,
                 template_root: Path, say: Say) -> None:
    revs: list[str] = []
    if data_a is not None or data_b is not None:  # two folders: every argument is a game
        games = list(args)
    else:
        revs, games = split_arguments(data_root, args)
    with ExitStack() as stack:  # removes the revisions' extracted folders, whatever happens
        old, new = sources.sides(data_root, revs, data_a, data_b, stack)
        found = compare(old, new, games or None, engines=engines, budget=budget)
        if pdf is not None:
            from pipeline.core.diff.proof import write_proof

            pages = write_proof(found, pdf, paper=paper, template_root=template_root)
        if as_json:
            say(json.dumps(report.as_data(found), sort_keys=True, default=str))
        else:
            for line in report.lines(found):
                say(line)
        if pdf is not None:
            say(f"wrote {display_path(pdf)} ({pages} pages)", err=as_json)
