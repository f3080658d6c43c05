"""Benchmark: the first 20 Haruspex deals decided by the solver (issue #29's figure), two processes.

Run with `make bench-all` (or `.venv/bin/python bench/monotheism_deals.py [--count N] [--max-nodes K]`).
Target (#29): 18 of the first 20 decided in under 10 minutes on a 2-core machine; 90 of 100 in under 30.
Prints each deal's verdict, nodes, wall and CPU seconds, then the totals with the load average before and
after (the machine is shared, so wall seconds say as much about the load as about the solver; node counts
and verdicts are the same on any machine).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.data.dataset import default_data_root, load_game  # noqa: E402
from pipeline.games.monotheism import deals  # noqa: E402
from pipeline.games.monotheism.play import load  # noqa: E402
from pipeline.games.registry import spec as spec_of  # noqa: E402

TARGET = (18, 20, 600.0)  # decided, of deals, wall seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-nodes", type=int, default=deals.DEFAULT_MAX_NODES)
    parser.add_argument("--processes", type=int, default=2)
    options = parser.parse_args()
    loaded = load(load_game(default_data_root(), spec_of("monotheism")))
    question = deals.Question("haruspex-of-scriptures", ("haruspex",), (),
                              tuple(range(options.seed, options.seed + options.count)), options.max_nodes)
    load_before = os.getloadavg()[0]
    started = time.perf_counter()

    def heard(_: deals.Question, verdict: deals.Verdict) -> None:
        print(f"deal {verdict.seed:>4}: {verdict.status:<7} {verdict.nodes:>10,} nodes {verdict.seconds:7.1f} s wall "
              f"{verdict.cpu_seconds:7.1f} s CPU", flush=True)

    batch, = deals.run(loaded.game, [question], processes=options.processes, on_verdict=heard)
    wall = time.perf_counter() - started
    decided = batch.won + batch.lost
    cpu = sum(verdict.cpu_seconds for verdict in batch.verdicts)
    print(f"monotheism deals: {decided} of {options.count} decided (won {batch.won}, proved lost {batch.lost}) at "
          f"{options.max_nodes:,} nodes each, {wall:.0f} s wall with {options.processes} processes, {cpu:.0f} s CPU "
          f"in all; load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after; target "
          f"{TARGET[0]} of {TARGET[1]} in {TARGET[2]:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
