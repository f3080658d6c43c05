"""Totems + Taboos solo: look-ahead win rates per difficulty and starting colour, with 95% Wilson intervals.

The table of docs/balance.md ("Totems + Taboos solo"). Game i of a cell is seeded on its own,
``random.Random(f"final-{difficulty}-{colour}-{i}")``, so any number of processes gives the same table, and
is cut off at the balance study's MAX_TURNS (counted as lost). Prints markdown rows (``--json``: the counts).

    python bench/tt_solo_table.py [--games 300] [--difficulty easy ...] [--colour red ...] [--processes 1]
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline.analysis.balance.stats import wilson  # noqa: E402
from pipeline.data.dataset import default_data_root, load_game  # noqa: E402
from pipeline.engine import playout  # noqa: E402
from pipeline.games.registry import spec  # noqa: E402
from pipeline.games.totems_and_taboos import GAME_ID  # noqa: E402
from pipeline.games.totems_and_taboos.balance import MAX_TURNS, starting_with  # noqa: E402
from pipeline.games.totems_and_taboos.engine import Game  # noqa: E402
from pipeline.games.totems_and_taboos.lookahead import lookahead_policy  # noqa: E402
from pipeline.games.totems_and_taboos.model import TotemsModel, build  # noqa: E402

COLOURS = ("yellow", "green", "blue", "purple", "red", "orange")
DIFFICULTIES = ("easy", "normal", "hard")


def _model() -> TotemsModel:
    return build(load_game(default_data_root(), spec(GAME_ID)))


def cell(difficulty: str, colour: str, games: int) -> int:
    """Games won of ``games`` seeded solo games from ``colour`` at ``difficulty``."""
    game = Game.solo_game(_model(), difficulty)
    policy = starting_with(colour, lookahead_policy)
    won = 0
    for i in range(games):
        final = playout(game.new_initial_state(), policy, random.Random(f"final-{difficulty}-{colour}-{i}"),
                        until=lambda s: s.turns >= MAX_TURNS)
        outcome = final.outcome()
        won += int(outcome is not None and outcome.won_by(0))
    return won


def shown(won: int, games: int) -> str:
    low, high = wilson(won, games)
    return f"{won}/{games}: {100 * won / games:.1f}% ({100 * low:.1f}-{100 * high:.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per cell")
    parser.add_argument("--difficulty", action="append", choices=DIFFICULTIES)
    parser.add_argument("--colour", action="append", choices=COLOURS)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    difficulties, colours = args.difficulty or DIFFICULTIES, args.colour or COLOURS
    cells = [(d, c) for d in difficulties for c in colours]
    with ProcessPoolExecutor(args.processes) as pool:
        won = dict(zip(cells, pool.map(cell, *zip(*cells), [args.games] * len(cells))))
    if args.json:
        print(json.dumps({f"{d}/{c}": [w, args.games] for (d, c), w in won.items()}))
        return
    print("| difficulty | " + " | ".join(colours) + " | all |")
    print("|---" * (len(colours) + 2) + "|")
    for d in difficulties:
        row = [shown(won[(d, c)], args.games) for c in colours]
        total = sum(won[(d, c)] for c in colours)
        print(f"| {d} | " + " | ".join(row) + f" | {shown(total, args.games * len(colours))} |")


if __name__ == "__main__":
    main()
