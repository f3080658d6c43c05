"""What validate's card check costs (every face laid out as the build lays it out), per game.

"cold": a fresh process, an empty cache (no face records, no stamp): every face is rendered and fitted.
"records": the face records of an earlier check are kept but its stamp is gone (as after an edit of the
data: here no face changed, so none is laid out again, but every card is still held to the rules).
"stamped": the game's card inputs are unchanged since a clean check, so nothing is laid out.
Each figure is the median of fresh processes, imports and data loading excluded (a command that lays
out any game loads the renderer once, about 0.3 s; a stamped game never loads it).
"""
from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from pipeline.cards.cardcheck import STAMPS
from pipeline.data.dataset import default_data_root, game_ids

RUNS = 3
PROBE = """
import json, sys, time
from pipeline.data.dataset import default_data_root, load_game
from pipeline.cards import cardcheck, cardlayout  # the renderer loaded before timing (once a command)
from pipeline.games.registry import spec as spec_of
data = load_game(default_data_root(), spec_of(sys.argv[1]))
data.model
start = time.perf_counter()
found = cardcheck.card_problems(data)
print(json.dumps({"seconds": time.perf_counter() - start, "problems": len(found)}))
"""


def timed(game: str, cache: str) -> float:
    env = {**os.environ, "PANTHEON_CACHE": cache}
    out = subprocess.run([sys.executable, "-c", PROBE, game], capture_output=True, text=True, env=env, check=True)
    result = json.loads(out.stdout)
    if result["problems"]:
        raise SystemExit(f"{game}: the cards do not pass: run `pantheon validate {game}`")
    return float(result["seconds"])


def median_of(game: str, mode: str) -> float:
    times = []
    for _ in range(RUNS):
        with tempfile.TemporaryDirectory() as cache:
            if mode != "cold":
                timed(game, cache)
            if mode == "records":
                shutil.rmtree(os.path.join(cache, "results", STAMPS))
            times.append(timed(game, cache))
    return statistics.median(times)


def main() -> None:
    print(f"validate's card check, seconds (median of {RUNS} fresh processes)")
    modes = ("cold", "records", "stamped")
    print(f"{'game':<20}" + "".join(f"{mode:>9}" for mode in modes))
    totals = dict.fromkeys(modes, 0.0)
    for game in game_ids(default_data_root()):
        figures = {mode: median_of(game, mode) for mode in modes}
        for mode, seconds in figures.items():
            totals[mode] += seconds
        print(f"{game:<20}" + "".join(f"{figures[mode]:>9.3f}" for mode in modes))
    print(f"{'all five':<20}" + "".join(f"{totals[mode]:>9.3f}" for mode in modes))


if __name__ == "__main__":
    main()
