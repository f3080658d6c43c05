"""How long `pantheon validate` takes once Python has started, per game and for all five.

Each figure is measured in a fresh process (imports excluded), so no
in-memory cache flatters it. "cold" starts with an empty result cache, so
Monotheism's engine checks replay and solve every scenario; "warm" reuses
the on-disk results of a previous run with the same data and engine code.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile

from pipeline.data.dataset import default_data_root, game_ids

RUNS = 3
TARGET_SECONDS = 1.0
PROBE = """
import json, sys, time
from pipeline.checks.validate import validate
from pipeline.data.dataset import default_data_root
from pipeline.games.registry import catalogue
games = sys.argv[1:] or None
start = time.perf_counter()
report = validate(default_data_root(), catalogue(), games)
print(json.dumps({"seconds": time.perf_counter() - start, "ok": report.ok}))
"""


def timed(games: list[str], cache: str) -> float:
    env = {**os.environ, "PANTHEON_CACHE": cache}
    out = subprocess.run([sys.executable, "-c", PROBE, *games], capture_output=True, text=True, env=env, check=True)
    result = json.loads(out.stdout)
    if not result["ok"]:
        raise SystemExit("the data does not validate: run `pantheon validate`")
    return result["seconds"]


def median_of(games: list[str], *, warm: bool) -> float:
    times = []
    for _ in range(RUNS):
        with tempfile.TemporaryDirectory() as cache:
            if warm:
                timed(games, cache)
            times.append(timed(games, cache))
    return statistics.median(times)


def main() -> None:
    print(f"validate, seconds after start-up (median of {RUNS} fresh processes)")
    print(f"{'games':<20}{'cold':>8}{'warm':>8}")
    for game in game_ids(default_data_root()):
        print(f"{game:<20}{median_of([game], warm=False):>8.3f}{median_of([game], warm=True):>8.3f}")
    cold, warm = median_of([], warm=False), median_of([], warm=True)
    print(f"{'all five':<20}{cold:>8.3f}{warm:>8.3f}   (target {TARGET_SECONDS:.0f} s)")


if __name__ == "__main__":
    main()
