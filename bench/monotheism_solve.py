"""Benchmark: solve the five Monotheism scenarios; print total seconds, nodes per second, peak memory.

Run with `make bench` (or `.venv/bin/python bench/monotheism_solve.py`). Target: all five under 2 s.
"""
from __future__ import annotations

import resource
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.data.dataset import (
    default_data_root,  # noqa: E402
    load_game,
)
from pipeline.games.monotheism import solver  # noqa: E402
from pipeline.games.monotheism.play import load  # noqa: E402
from pipeline.games.registry import spec as spec_of

TARGET_SECONDS = 2.0
KIB = 1024


def solve_all(loaded, *, report: bool) -> int:
    nodes = 0
    for scenario in loaded.model.scenarios:
        result = solver.solve(loaded.game.scenario_state(scenario, track_history=False).with_events(False))
        nodes += result.nodes
        if report:
            print(f"scenario {scenario.id}: {result.status:<6} {result.nodes:>7} nodes {result.seconds:>7.3f} s "
                  f"line of {len(result.line)} actions")
    return nodes


def main() -> int:
    loaded = load(load_game(default_data_root(), spec_of("monotheism")))
    started = time.perf_counter()
    nodes = solve_all(loaded, report=True)
    total = time.perf_counter() - started
    tracemalloc.start()  # a second, untimed run: tracing slows Python down
    solve_all(loaded, report=False)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(f"monotheism solve: {total:.3f} s total (target < {TARGET_SECONDS} s), {nodes} nodes, "
          f"{nodes / total:,.0f} nodes/s, peak traced memory {peak / KIB / KIB:.1f} MiB, max RSS {rss / KIB:.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
