"""Benchmark: simulated games per second per engine set-up, and the whole balance report as a user runs it.

Run with `make bench` (or `.venv/bin/python bench/balance_report.py`). Part one plays a quarter of each
set-up's default games through its study (events read and tallied, as the report does) on one
process and prints games per second of CPU time. Part two times `pantheon report` for all five games
at the default size, on every core and (the baseline) on one process, each in a fresh process: wall
time and the CPU time of the process and its workers. The machine is shared: the load average is
printed before and after, since other work on the cores slows the wall-clock figures.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.core.balance.study import load_study  # noqa: E402
from pipeline.core.dataset import default_data_root, game_ids  # noqa: E402

SHARE_OF_DEFAULT = 4  # part one plays 1/4 of each set-up's default games
SEED = 1
TARGET_SECONDS = 60.0


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


def engine_speeds() -> None:
    root = default_data_root()
    print("simulated games per second of CPU (one process; events tallied as the report does):")
    for game in game_ids(root):
        study = load_study(root, game)
        total_games, total_seconds = 0, 0.0
        for setup in study.setups():
            games = max(study.chunk_games, setup.games // SHARE_OF_DEFAULT)
            began = time.process_time()
            study.play(setup, games, SEED)
            spent = time.process_time() - began
            total_games, total_seconds = total_games + games, total_seconds + spent
            print(f"  {game:<18} {setup.id:<32} {games:>4} games {spent:7.2f} s {games / spent:9.1f} games/s")
        print(f"  {game:<18} {'all set-ups':<32} {total_games:>4} games {total_seconds:7.2f} s "
              f"{total_games / total_seconds:9.1f} games/s")


def whole_report(*extra: str) -> tuple[float, float]:
    """Wall and CPU seconds (the command's process and its workers) of `pantheon report ARGS`."""
    with tempfile.TemporaryDirectory() as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pipeline", "report", "--out", out, *extra], check=True,
                       capture_output=True)
        wall = time.perf_counter() - began
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> int:
    print(f"before: {load()}")
    engine_speeds()
    print("the whole report, all five games at the default size (fresh processes):")
    wall, cpu = whole_report()
    verdict = "under" if wall < TARGET_SECONDS else "OVER"
    print(f"  pantheon report (every core)            wall {wall:6.1f} s  CPU {cpu:6.1f} s  "
          f"({verdict} the {TARGET_SECONDS:.0f} s target)")
    wall_one, cpu_one = whole_report("--processes", "1")
    print(f"  pantheon report --processes 1 (baseline) wall {wall_one:6.1f} s  CPU {cpu_one:6.1f} s  "
          f"(every core: {wall_one / wall:.2f}x faster)")
    print(f"after: {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
