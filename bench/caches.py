"""What each on-disk cache saves, measured as whole commands: cold, warm, and warm without that cache.

For each command (``pantheon validate``, ``pantheon build --force --only
cards``, ``pantheon build --force``) this runs, in fresh processes, best of
RUNS:
- cold: an empty cache (a first run);
- warm: every cache as the previous run left it;
- warm without X: the same warm cache, with cache X switched off (every read
  a miss, every write skipped), so the difference to "warm" is what X saves.
A cache that saves nothing measurable on any command does not earn its place.

Also, on a single-load basis (each data file read once, as when a command
loads its data once): parsing every data file against reading it back from
the parsed-data cache.

Run: `make bench` (or `.venv/bin/python bench/caches.py [--runs N]`).
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CACHE_ENV = "PANTHEON_CACHE"
RUNS = 3
# Each cache by the cachestore namespace(s) it writes under (a prefix).
CACHES = {
    "art": "art",
    "faces": "faces/",
    "parsed yaml": "results/yaml",
    "schema-valid": "results/schema-valid",
    "scenario proofs": "results/monotheism-scenarios",
}
COMMANDS = {
    "validate": ["validate"],
    "build --force --only cards": ["build", "--force", "--only", "cards"],
    "build --force": ["build", "--force"],
}


def run_cli_without(prefix: Optional[str], args: list[str]) -> None:
    """Run the CLI in this process with the cache namespaces starting with ``prefix`` switched off."""
    from pipeline import store as cachestore

    if prefix:
        read, write = cachestore.read, cachestore.write

        def no_read(namespace: str, *rest, **kwargs):  # type: ignore[no-untyped-def]
            return None if namespace.startswith(prefix) else read(namespace, *rest, **kwargs)

        def no_write(namespace: str, *rest, **kwargs):  # type: ignore[no-untyped-def]
            return False if namespace.startswith(prefix) else write(namespace, *rest, **kwargs)

        cachestore.read, cachestore.write = no_read, no_write  # type: ignore[assignment]
    from pipeline.cli.main import app

    app(args, prog_name="pantheon")


def timed(args: list[str], cache: Path, out: Path, without: Optional[str] = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one command in a fresh process, as a user runs it (compiled
    modules may be kept). CPU time (user + system) is the steadier figure on a busy machine."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env[CACHE_ENV] = str(cache)
    extra = ["--out", str(out)] if args[0] == "build" else []
    command = [sys.executable, __file__, "--cli", without or "", "--", *args, *extra]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def fastest(samples: list[tuple[float, float]]) -> tuple[float, float]:
    """The best wall and the best CPU time of several runs (on a shared machine the minimum is the cost)."""
    return min(s[0] for s in samples), min(s[1] for s in samples)


def measure(runs: int, args: list[str], work: Path) -> dict[str, tuple[float, float]]:
    """Cold runs first (each from an empty cache); then rounds of warm and warm-without-each-cache runs,
    interleaved so that the machine's load drifts over all of them alike."""
    cache, out = work / "cache", work / "out"
    cold = []
    for _ in range(runs):
        shutil.rmtree(cache, ignore_errors=True)
        cold.append(timed(args, cache, out))
    timed(args, cache, out)  # the cache as a run leaves it
    samples: dict[str, list[tuple[float, float]]] = {"warm": [], **{name: [] for name in CACHES}}
    for _ in range(runs):
        samples["warm"].append(timed(args, cache, out))
        for name, prefix in CACHES.items():
            samples[name].append(timed(args, cache, out, prefix))
    return {"cold": fastest(cold), **{name: fastest(found) for name, found in samples.items()}}


def single_load() -> tuple[float, float, int]:
    """(ms to parse every data file once, ms to read them all back from the parsed-data cache, files)."""
    from pipeline.data import yamlmarks
    from pipeline.data.dataset import default_data_root

    texts = [p.read_text(encoding="utf-8") for p in sorted(default_data_root().rglob("*.yaml"))]
    with tempfile.TemporaryDirectory() as scratch:
        os.environ[CACHE_ENV] = scratch
        for text in texts:
            yamlmarks.loads_marked_cached(text)

        def best_ms(load) -> float:  # type: ignore[no-untyped-def]
            times = []
            for _ in range(7):
                start = time.perf_counter()
                for text in texts:
                    load(text)
                times.append(time.perf_counter() - start)
            return 1000 * min(times)

        return best_ms(yamlmarks.loads_marked), best_ms(yamlmarks.loads_marked_cached), len(texts)


def main(runs: int) -> None:
    print(f"whole commands, best of {runs} fresh processes; wall seconds (CPU seconds, user + system):")
    print(f"{'command':<28}{'cache':<17}{'cold':>13}{'warm':>13}{'warm without':>15}{'saves':>15}")
    with tempfile.TemporaryDirectory() as scratch:
        for label, args in COMMANDS.items():
            found = measure(runs, args, Path(scratch))
            (cold, cold_cpu), (warm, warm_cpu) = found["cold"], found["warm"]
            for cache in CACHES:
                without, without_cpu = found[cache]
                print(
                    f"{label:<28}{cache:<17}{cold:>6.2f} ({cold_cpu:4.2f}){warm:>6.2f} ({warm_cpu:4.2f})"
                    f"{without:>8.2f} ({without_cpu:4.2f}){without - warm:>+8.2f} ({without_cpu - warm_cpu:+4.2f})"
                )
    parse_ms, cached_ms, files = single_load()
    print(f"single load of all {files} data files: parse {parse_ms:.0f} ms, from the parsed-data cache {cached_ms:.0f} ms")


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[1] == "--cli" and sys.argv[3] == "--":
        run_cli_without(sys.argv[2] or None, sys.argv[4:])
    else:
        parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
        parser.add_argument("--runs", type=int, default=RUNS)
        main(parser.parse_args().runs)
