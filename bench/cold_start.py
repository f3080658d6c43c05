"""The first run: CPU seconds of `pantheon validate` (all games, and Monotheism alone) and of a full
`pantheon build` with no cache at all.

Each run gets an empty store ($PANTHEON_CACHE) and a fresh output folder, so
nothing an earlier run kept is used: a new clone, a new machine, CI. CPU is
user + system of the finished child (``resource.getrusage``), median of RUNS
runs. With ``--baseline DIR`` (a checkout of an older commit with its own
.venv, e.g. `git worktree add ../base-9104 9104bb1 && make -C ../base-9104
.venv/.installed`) the same commands run on it, in turn with these (A B A B ...),
and the ratio is taken pair by pair. The targets (issue #30): validate under
3 s CPU; build no more CPU than commit 9104bb1's. Then where a cold validate's
CPU goes (this checkout, one run): the imports, each game's card check and
document check, and the other checks.

Run: `.venv/bin/python bench/cold_start.py [--runs N] [--baseline DIR]`; `make bench` runs it.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

ROOT = Path(__file__).resolve().parents[1]
RUNS = 3
# Monotheism alone too: its scenario checks replay stored lines (the searches are `rate`'s and estimate-21's).
COMMANDS = {"pantheon validate": ("validate",), "pantheon validate monotheism": ("validate", "monotheism"),
            "pantheon build": ("build",)}


def cpu_seconds(checkout: Path, args: tuple[str, ...]) -> float:
    """CPU seconds of one cold run of `pantheon ARGS` of ``checkout`` (its own .venv and data)."""
    with tempfile.TemporaryDirectory(prefix="pantheon-cold-") as scratch:
        work = Path(scratch)
        env = {**os.environ, "PANTHEON_CACHE": str(work / "cache"), "XDG_CACHE_HOME": str(work / "xdg")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as a user runs it: bytecode is written once, then read
        extra = ("--out", str(work / "out")) if args[0] == "build" else ()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([str(checkout / ".venv" / "bin" / "pantheon"), *args, "--data", str(checkout / "data"), *extra],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=checkout, env=env)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(runs: int, baseline: Optional[Path]) -> list[str]:
    """The Markdown lines of the figures (and prints them as they come)."""
    lines = ["## The first run (no cache)", "",
             f"CPU seconds (user + system), median of {runs} runs, each with an empty store and output folder"
             + (f"; B = {baseline.name}, run in turn with A (this checkout)." if baseline else "."), ""]
    lines += ["| command | A: CPU s | B: CPU s | A/B (median of pairs) |", "|---|---:|---:|---:|"] if baseline \
        else ["| command | CPU s |", "|---|---:|"]
    for name, args in COMMANDS.items():
        for checkout in (ROOT, *((baseline,) if baseline else ())):
            cpu_seconds(checkout, args)  # writes the bytecode; not counted
        mine, theirs = [], []
        for _ in range(runs):
            mine.append(cpu_seconds(ROOT, args))
            if baseline:
                theirs.append(cpu_seconds(baseline, args))
        if baseline:
            ratio = statistics.median(a / b for a, b in zip(mine, theirs))
            lines.append(f"| {name} | {statistics.median(mine):.2f} | {statistics.median(theirs):.2f} | {ratio:.3f} |")
        else:
            lines.append(f"| {name} | {statistics.median(mine):.2f} |")
        print(lines[-1], flush=True)
    return lines + [""] + parts()


def parts() -> list[str]:
    """The Markdown lines of where one cold `pantheon validate` of this checkout spends its CPU (a child process
    with an empty store, timing itself: see ``_parts_child``)."""
    with tempfile.TemporaryDirectory(prefix="pantheon-cold-") as scratch:
        env = {**os.environ, "PANTHEON_CACHE": str(Path(scratch) / "cache")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([sys.executable, __file__, "--parts-child"], check=True, capture_output=True, text=True,
                              cwd=ROOT, env=env)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    found = json.loads(done.stdout)
    whole = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    games = found["games"]
    lines = ["Where a cold `pantheon validate` of this checkout spends its CPU (one run, seconds):", "",
             "| part | CPU s |", "|---|---:|",
             f"| Python start and imports | {whole - found['validate']:.2f} |"]
    lines += [f"| {game}: card faces | {parts['cards']:.2f} |" for game, parts in games.items()]
    lines += [f"| {game}: documents | {parts['documents']:.2f} |" for game, parts in games.items()]
    spent = sum(parts["cards"] + parts["documents"] for parts in games.values())
    lines += [f"| every other check (schemas, references, rules, scenarios) | {found['validate'] - spent:.2f} |",
              f"| whole process | {whole:.2f} |", ""]
    print("\n".join(lines), flush=True)
    return lines


def _parts_child() -> None:
    """Run `pantheon validate` in this process, timing each game's card check and document check (the two
    checks validate takes by name), and print the seconds as JSON."""
    sys.path.insert(0, str(ROOT))
    import pipeline.checks.validate as checks  # noqa: PLC0415  (here: this checkout's code, after its path is set)
    import pipeline.cli.main as cli  # noqa: PLC0415
    import pipeline.documents.docscheck as docscheck  # noqa: PLC0415  (the CLI imports its check when it runs)

    spent: dict[str, dict[str, float]] = {}

    def timed(part: str, check: Callable[..., Iterable[Any]]) -> Callable[..., list[Any]]:
        def run(data: Any, *args: Any, **options: Any) -> list[Any]:
            start = time.process_time()
            found = list(check(data, *args, **options))
            game = spent.setdefault(data.game, {"cards": 0.0, "documents": 0.0})
            game[part] += time.process_time() - start
            return found
        return run

    checks.card_problems = timed("cards", checks.card_problems)
    docscheck.document_problems = timed("documents", docscheck.document_problems)  # type: ignore[assignment]
    start = time.process_time()
    report = cli.run_validation(ROOT / "data", None)
    assert report.ok, report.problems[:3]
    print(json.dumps({"validate": time.process_time() - start, "games": spent}))


def main() -> None:
    if sys.argv[1:] == ["--parts-child"]:
        _parts_child()
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--baseline", type=Path, default=None, help="an older checkout with its own .venv")
    options = parser.parse_args()
    print("\n".join(measure(options.runs, options.baseline)))


if __name__ == "__main__":
    main()
