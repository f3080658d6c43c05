"""Start-up cost of the command line: CPU time of short commands against a bare interpreter, same run.

Each command runs RUNS times in a fresh process (user + system CPU of the
child, from ``resource.getrusage``); best and median are printed, with
``python -c pass`` measured in the same run as the floor. The target for
``pantheon --help`` and ``pantheon --version`` is TARGET_S of CPU.
``build --only cards (imports)`` is the import set of that command (the CLI,
validation and the card renderer, without the documents), imported and not run.

Run: `make bench` (or `.venv/bin/python bench/startup.py [--runs N]`).
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = 7
TARGET_S = 0.15
CLI = ("-m", "pipeline")  # as the pantheon script runs it (pipeline.cli.main:run)
CARDS_IMPORTS = ("-c", "import pipeline.cli.main, pipeline.checks.validate, pipeline.cards.build, "
                       "pipeline.cards.imposition")
COMMANDS: dict[str, tuple[str, ...]] = {
    "python -c pass": ("-c", "pass"),
    "pantheon --help": (*CLI, "--help"),
    "pantheon --version": (*CLI, "--version"),
    "pantheon validate --help": (*CLI, "validate", "--help"),
    "pantheon theocracy --help": (*CLI, "theocracy", "--help"),
    "build --only cards (imports)": CARDS_IMPORTS,
}


VERDICTS = ("pantheon --help", "pantheon --version")
# As installed: modules compiled to bytecode once (the untimed first run of each command), not on every run.
ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONPATH": str(ROOT)}


def cpu_seconds(args: tuple[str, ...]) -> float:
    """CPU time (user + system) of one run of ``python ARGS`` in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, *args], check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    runs = parser.parse_args().runs
    load_before = " ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"CPU seconds per command, {runs} runs each after one untimed (target for --help/--version: {TARGET_S} s)")
    print(f"{'command':<32}{'best':>8}{'median':>8}{'x bare':>8}")
    bare = None
    for name, args in COMMANDS.items():
        cpu_seconds(args)  # untimed: compiles what a fresh checkout has not compiled yet
        times = [cpu_seconds(args) for _ in range(runs)]
        best, median = min(times), statistics.median(times)
        bare = bare or median
        verdict = f"   target < {TARGET_S} s: {'met' if median < TARGET_S else 'NOT met'}" if name in VERDICTS else ""
        print(f"{name:<32}{best:>8.3f}{median:>8.3f}{median / bare:>8.1f}{verdict}")
    print(f"  (verdicts on the median; load average (1, 5, 15 min): {load_before} before, "
          f"{' '.join(f'{value:.2f}' for value in os.getloadavg())} after)")


if __name__ == "__main__":
    main()
