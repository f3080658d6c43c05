"""What each namespace of the store saves, as whole commands a user runs; writes bench/RESULTS.md.

A namespace earns its place by saving at least 0.5 s of a whole command. For
each command this measures, in fresh processes (wall clock around
``subprocess.run``, median of RUNS), the command with an empty cache, with a
warm one (as the same command left it), and warm but without each namespace
the command uses: that namespace's saving is the difference to warm. The
commands: ``pantheon validate``, ``pantheon build --only cards --force``, a
one-card edit then ``pantheon build --only cards``, a Monotheism card's
flavour edited then ``pantheon validate`` (the edits on a copy of the data),
and #21's check (``pantheon monotheism estimate-21 --check``). The first run's
CPU figures (bench/cold_start.py; ``--baseline DIR`` pairs them with an older
checkout) and the start-up CPU figures (bench/startup.py) close the file.

Run: `make bench` (or `.venv/bin/python bench/store.py [--runs N]`); a few minutes.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cold_start  # noqa: E402  (bench/cold_start.py: the first run's figures)
import startup  # noqa: E402  (bench/startup.py: the start-up figures)

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "RESULTS.md"
RUNS = 3
SLOW_S = 15.0  # a variant slower than this is timed once (a cold Monotheism validation plays 20,000 deals)
THRESHOLD_S = 0.5
# (file, a card's line): each run writes that line with a number new to every cache (a one-card edit).
CARD_EDIT = ("theocracy/power-cards.yaml", "flavour: The smallest spark still opens the sky.")
DEITY_EDIT = ("monotheism/deities.yaml", "flavour: Before the first dawn there was a coal that would not go out.")


def pantheon(*args: str) -> list[str]:
    return [sys.executable, "-m", "pipeline", *args]


def timed(command: list[str], cache: Path, before: Optional[Callable[[], None]] = None) -> float:
    """Wall seconds of one run of ``command`` (a whole process) with ``cache`` as its store."""
    if before is not None:
        before()
    env = {**os.environ, "PANTHEON_CACHE": str(cache)}
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, env=env, cwd=ROOT)
    return time.perf_counter() - start


def median_of(command: list[str], prepare: Callable[[], Path], before: Optional[Callable[[], None]], runs: int) -> float:
    """The median wall time over ``runs`` runs, each with the cache ``prepare()`` makes (once if slow)."""
    times = [timed(command, prepare(), before)]
    if times[0] < SLOW_S:
        times += [timed(command, prepare(), before) for _ in range(runs - 1)]
    return statistics.median(times)


class Command:
    """One user command, measured cold, warm and warm without each namespace it uses."""

    def __init__(self, name: str, command: list[str], work: Path, before: Optional[Callable[[], None]] = None) -> None:
        self.name, self.command, self.work, self.before = name, command, work, before
        self.warm_cache = work / f"warm-{len(list(work.glob('warm-*')))}"
        timed(command, self.warm_cache, before)  # warms it: the cache as this command leaves it
        timed(command, self.warm_cache, before)

    def copy(self, without: Optional[str] = None) -> Callable[[], Path]:
        def make() -> Path:
            run = self.work / "run-cache"
            shutil.rmtree(run, ignore_errors=True)
            shutil.copytree(self.warm_cache, run)
            if without is not None:
                shutil.rmtree(run / without, ignore_errors=True)
            return run
        return make

    def measure(self, runs: int) -> tuple[float, float, dict[str, float]]:
        empty = self.work / "empty-cache"

        def cold() -> Path:
            shutil.rmtree(empty, ignore_errors=True)
            return empty

        cold_s = median_of(self.command, cold, self.before, runs)
        warm_s = median_of(self.command, self.copy(), self.before, runs)
        namespaces = sorted(p.name for p in self.warm_cache.iterdir() if p.is_dir())
        without = {ns: median_of(self.command, self.copy(ns), self.before, runs) for ns in namespaces}
        return cold_s, warm_s, without


def editor(data: Path, edit: tuple[str, str]) -> Callable[[], None]:
    """Each call writes the card's line with a new number: every run (warm-up too) sees a one-card edit."""
    path, line = data / edit[0], edit[1]
    original = path.read_text(encoding="utf-8")
    assert line in original, (path, line)
    count = [0]

    def edit_once() -> None:
        count[0] += 1
        path.write_text(original.replace(line, f"{line[:-1]} {count[0]}."), encoding="utf-8")
    return edit_once


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--baseline", type=Path, default=None, help="an older checkout with its own .venv, for the "
                        "first-run figures (bench/cold_start.py)")
    options = parser.parse_args()
    runs = options.runs
    load_before = " ".join(f"{value:.2f}" for value in os.getloadavg())
    lines = ["# Benchmark results", "", "Written by `make bench` (bench/store.py); wall seconds of whole commands "
             f"(fresh processes), median of {runs} runs (a variant over {SLOW_S:.0f} s: one run).", "",
             "## The store: what each namespace saves", "",
             f"A namespace is kept only if it saves at least {THRESHOLD_S} s of some command (\"saves\": the "
             "command warm but without that namespace, minus the command warm).", "",
             "| command | empty cache | warm | namespace | warm without it | saves |", "|---|---:|---:|---|---:|---:|"]
    best: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        data = work / "data"
        shutil.copytree(ROOT / "data", data)
        commands = [
            Command("pantheon validate", pantheon("validate"), work),
            Command("pantheon build --only cards --force", pantheon("build", "--only", "cards", "--force",
                                                                    "--out", str(work / "out")), work),
            Command("one-card edit, then pantheon build --only cards",
                    pantheon("build", "--only", "cards", "--data", str(data), "--out", str(work / "out-edit")),
                    work, editor(data, CARD_EDIT)),
            Command("a Monotheism flavour edit, then pantheon validate", pantheon("validate", "--data", str(data)),
                    work, editor(data, DEITY_EDIT)),
            Command("pantheon monotheism estimate-21 --check", pantheon("monotheism", "estimate-21", "--check"), work),
        ]
        for command in commands:
            cold_s, warm_s, without = command.measure(runs)
            print(f"{command.name}: empty {cold_s:.2f} s, warm {warm_s:.2f} s", flush=True)
            for namespace, seconds in without.items():
                saving = seconds - warm_s
                best[namespace] = max(best.get(namespace, float("-inf")), saving)
                lines.append(f"| {command.name} | {cold_s:.2f} | {warm_s:.2f} | {namespace} | {seconds:.2f} | "
                             f"{saving:+.2f} |")
                print(f"  without {namespace}: {seconds:.2f} s ({saving:+.2f} s)", flush=True)
    lines += ["", "Best saving per namespace: " + ", ".join(
        f"{ns} {s:+.2f} s{'' if s >= THRESHOLD_S else ' (under the bar)'}" for ns, s in sorted(best.items())) + ".", ""]
    lines += cold_start.measure(runs, options.baseline)
    lines += ["## Start-up", "", "CPU seconds (user + system) of short commands, median of "
              f"{startup.RUNS} runs after one untimed.", "", "| command | CPU s |", "|---|---:|"]
    for name, args in startup.COMMANDS.items():
        startup.cpu_seconds(args)
        lines.append(f"| {name} | {statistics.median(startup.cpu_seconds(args) for _ in range(startup.RUNS)):.3f} |")
    load_after = " ".join(f"{value:.2f}" for value in os.getloadavg())
    lines += ["", f"Load average (1, 5, 15 min): {load_before} before, {load_after} after.", ""]
    RESULTS.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
