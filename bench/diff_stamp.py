"""What `pantheon diff` and `build --stamp` cost, against their baselines in the same run.

* diff: ``pantheon diff --data-a data --data-b COPY GAME --no-engines`` (one
  edited card) against ``pantheon validate GAME`` run twice (a diff validates
  both sides; what it adds is the comparison and the card plans).
* diff --pdf: the same with the proof PDF written.
* stamp: ``build GAME --only cards --force --stamp --watermark PLAYTEST``
  against the same build unstamped.

CPU time (user + system) of each command in a fresh process, best of RUNS.
Run: `make bench` (or `.venv/bin/python bench/diff_stamp.py [--runs N] [--game GAME]`).
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = 3
GAME = "theocracy"
CLI = (sys.executable, "-m", "pipeline")


def cpu_seconds(*args: str) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([*CLI, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
                   env={**os.environ, "PYTHONPATH": str(ROOT)})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def best(runs: int, *args: str) -> float:
    return min(cpu_seconds(*args) for _ in range(runs))


def _edited_copy(folder: Path, game: str) -> Path:
    """A copy of data/ with one card's name changed (the first ``name:`` line of the game's first file)."""
    copy = folder / "data"
    shutil.copytree(ROOT / "data", copy)
    for path in sorted((copy / game).glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        if "\n    name: " in text:
            path.write_text(text.replace("\n    name: ", "\n    name: Renamed ", 1), encoding="utf-8")
            return copy
    raise SystemExit(f"{game}: no record with a name to edit")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--game", default=GAME)
    options = parser.parse_args()
    runs, game = options.runs, options.game
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        copy = _edited_copy(folder, game)
        data = str(ROOT / "data")
        validate = best(runs, "validate", game)
        diff = best(runs, "diff", "--data-a", data, "--data-b", str(copy), game, "--no-engines")
        proof = best(runs, "diff", "--data-a", data, "--data-b", str(copy), game, "--no-engines",
                     "--pdf", str(folder / "proof.pdf"))
        build = ("build", game, "--only", "cards", "--force", "--out", str(folder / "out"))
        plain = best(runs, *build)
        stamped = best(runs, *build, "--stamp", "--watermark", "PLAYTEST")
    print(f"{game}, CPU seconds, best of {runs}")
    print(f"  validate (baseline)        {validate:7.2f}   x2 = {2 * validate:.2f}")
    print(f"  diff --no-engines          {diff:7.2f}")
    print(f"  diff --no-engines --pdf    {proof:7.2f}")
    print(f"  build cards (baseline)     {plain:7.2f}")
    print(f"  build cards --stamp        {stamped:7.2f}   ({stamped / plain - 1:+.0%})")


if __name__ == "__main__":
    main()
