"""Benchmark: simulated games per second per engine set-up, and the whole balance report as a user runs it.

Run with `make bench` (or `.venv/bin/python bench/balance_report.py`). Part one plays a quarter of each
set-up's default games through its study (events read and tallied, as the report does) on one
process and prints games per CPU-second, and each game's CPU at the default size. Part two times
`pantheon report` for all five games at the default size, each in a fresh process: with an empty
result cache (the Monotheism proofs searched again), on every core, and (the baseline) on one
process: wall time and the CPU time of the process and its workers. The machine is shared, so the
verdict against the 60 s target uses CPU / 2 (both cores busy until the pool drains) and the load
average is printed beside each run.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.analysis.balance.study import load_study  # noqa: E402
from pipeline.data.dataset import (
    default_data_root,
    game_ids,  # noqa: E402
)
from pipeline.games.registry import spec as spec_of
from pipeline.store import CACHE_ENV  # noqa: E402

SHARE_OF_DEFAULT = 4  # part one plays 1/4 of each set-up's default games
SEED = 1
TARGET_SECONDS = 60.0
CORES = 2  # the machine the target is set for


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


def engine_speeds() -> float:
    """Games per CPU-second of each set-up, and each game's CPU at the default size (the quarter played, times
    SHARE_OF_DEFAULT); their sum."""
    root = default_data_root()
    print(f"simulated games per CPU-second (one process, 1/{SHARE_OF_DEFAULT} of each set-up's default games; "
          "events tallied as the report does):")
    estimate = 0.0
    for game in game_ids(root):
        study = load_study(root, spec_of(game))
        total_games, total_seconds, default_seconds = 0, 0.0, 0.0
        for setup in study.setups():
            games = max(study.chunk_games, setup.games // SHARE_OF_DEFAULT)
            began = time.process_time()
            study.play(setup, games, SEED)
            spent = time.process_time() - began
            total_games, total_seconds = total_games + games, total_seconds + spent
            default_seconds += spent * setup.games / games
            print(f"  {game:<18} {setup.id:<32} {games:>4} games {spent:7.2f} s {games / spent:9.1f} games/CPU-s")
        print(f"  {game:<18} {'all set-ups':<32} {total_games:>4} games {total_seconds:7.2f} s "
              f"{total_games / total_seconds:9.1f} games/CPU-s; default size about {default_seconds:5.1f} CPU-s")
        estimate += default_seconds
    return estimate


def whole_report(*extra: str, env: Optional[dict[str, str]] = None) -> tuple[float, float]:
    """Wall and CPU seconds (the command's process and its workers) of `pantheon report ARGS`."""
    with tempfile.TemporaryDirectory() as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pipeline", "report", "--out", out, *extra], check=True,
                       capture_output=True, env=env)
        wall = time.perf_counter() - began
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def verdict(cpu: float) -> str:
    """On an idle machine of CORES cores every core is busy until the pool drains: about CPU / CORES of wall."""
    idle = cpu / CORES
    return f"idle {CORES}-core estimate {idle:5.1f} s: {'under' if idle < TARGET_SECONDS else 'OVER'} the {TARGET_SECONDS:.0f} s target"


def main() -> int:
    print(f"before: {load()}")
    simulated = engine_speeds()
    print(f"  simulation alone at the default size: about {simulated:.1f} CPU-s (solver proofs, start-up and PDFs "
          "come on top)")
    print("the whole report, all five games at the default size (fresh processes; CPU: the process and its workers):")
    with tempfile.TemporaryDirectory() as cold:
        wall, cpu = whole_report(env={**os.environ, CACHE_ENV: cold})
        print(f"  pantheon report, empty result cache       wall {wall:6.1f} s  CPU {cpu:6.1f} s  ({verdict(cpu)}; {load()})")
    wall, cpu = whole_report()
    print(f"  pantheon report (every core)              wall {wall:6.1f} s  CPU {cpu:6.1f} s  ({verdict(cpu)}; {load()})")
    wall_one, cpu_one = whole_report("--processes", "1")
    print(f"  pantheon report --processes 1 (baseline)  wall {wall_one:6.1f} s  CPU {cpu_one:6.1f} s  "
          f"(every core: {wall_one / wall:.2f}x faster in wall time under this load)")
    print(f"after: {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
