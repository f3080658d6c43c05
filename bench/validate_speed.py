"""How long `pantheon validate` takes on all five games once Python has started.

Prints the best and median of several in-process runs (imports excluded), and
the wall time of the whole command for comparison.
"""
from __future__ import annotations

import statistics
import subprocess
import sys
import time

from pipeline.core.dataset import default_data_root
from pipeline.core.validate import validate

RUNS = 7
TARGET_SECONDS = 1.0


def main() -> None:
    root = default_data_root()
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        report = validate(root)
        times.append(time.perf_counter() - start)
    status = "clean" if report.ok else f"{len(report.problems)} problems"
    best, median = min(times), statistics.median(times)
    verdict = "within" if median < TARGET_SECONDS else "OVER"
    print(f"validate (all games, after start-up): best {best:.3f} s, median {median:.3f} s "
          f"over {RUNS} runs ({status}); {verdict} the {TARGET_SECONDS:.0f} s target")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pipeline", "validate"], capture_output=True, check=False)
    print(f"`pantheon validate` whole command incl. interpreter start-up: {time.perf_counter() - start:.3f} s")


if __name__ == "__main__":
    main()
