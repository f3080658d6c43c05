"""How long a cold `pantheon validate monotheism` takes as a whole command, against `python -c pass`.

Cold: an empty result cache, so the #21 estimate (20,000 seeded deals) and the
solver's searches of every scenario run; they are most of its CPU time, and
the Monotheism engine is what they spend it in. Each run is a fresh process;
wall and CPU time (user + system of the child) are the best of RUNS, with
the bare interpreter measured in the same run as the baseline, since the
machine is shared and wall time alone is noisy.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 3
PANTHEON = str(Path(sys.executable).with_name("pantheon"))


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of ``command`` with a fresh, empty cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "PANTHEON_CACHE": cache}
        cpu, start = _cpu(), time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, env=env)
        wall = time.perf_counter() - start
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")
        return wall, _cpu() - cpu


def best_of(command: list[str]) -> tuple[float, float]:
    runs = [timed(command) for _ in range(RUNS)]
    return min(wall for wall, _ in runs), min(cpu for _, cpu in runs)


def main() -> None:
    print(f"cold `pantheon validate monotheism` (best of {RUNS} fresh processes, empty cache each)")
    print(f"{'command':<34}{'wall s':>8}{'CPU s':>8}")
    base = best_of([sys.executable, "-c", "pass"])
    whole = best_of([PANTHEON, "validate", "monotheism"])
    print(f"{'python -c pass':<34}{base[0]:>8.2f}{base[1]:>8.2f}")
    print(f"{'pantheon validate monotheism':<34}{whole[0]:>8.2f}{whole[1]:>8.2f}")
    print(f"{'  less the bare interpreter':<34}{whole[0] - base[0]:>8.2f}{whole[1] - base[1]:>8.2f}")


if __name__ == "__main__":
    main()
