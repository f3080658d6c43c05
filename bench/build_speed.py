"""Whole `pantheon build` commands against the plain reportlab baseline drawing 400 cards, in the same run.

Every figure is a whole command in a fresh process, start-up included, best
of three, wall clock and CPU (user + system of the child). The baseline is
bench/render_cards.py's plain reportlab script drawing 400 cards and writing
the PDF. Ours run on a scratch copy of data/ with their own output folder and
cache, after one untimed full build:

- no-op: `pantheon build` again, nothing changed (issue #14: <= 1.25x baseline);
- one card edited: one card's text changes in one game (a real edit each run:
  a wording the card never had), then `pantheon build`: validate, that game's
  card sheet, its documents; measured for a card of each of the five games
  (issue #14: <= 2.5x baseline);
- card sheets: `pantheon build --only cards --force`, every game's cards drawn
  (warm caches), as cost per card against the baseline's per card
  (issue #12: <= 1.5x).

Run: `make bench` (or `.venv/bin/python bench/build_speed.py`).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from render_cards import timed_command as timed  # type: ignore[import-not-found]  # bench/ is the script's folder

ROOT = Path(__file__).resolve().parents[1]
BENCH = Path(__file__).resolve().parent
PANTHEON = Path(sys.executable).parent / "pantheon"
BASELINE_CARDS = 400
NOOP_TARGET, EDIT_TARGET, PER_CARD_TARGET = 1.25, 2.5, 1.5  # the goals of #14 (no-op, one edit) and #12 (per card)
# One card per game whose text each edit words anew: (game, data file, the text, the word the edit follows
# with a number). Flavour lines (or a board's slot text) with room to grow: the card must still fit.
EDITS = (
    ("monotheism", "deities.yaml", "Patient as millstones, and as hungry.", "hungry"),
    ("theocracy", "believers.yaml", "Trims the wick so the word is never dark.", "dark"),
    ("heavenly-father", "gods.yaml", "Peace, love and no borders, man. Now share your snacks.", "snacks"),
    ("monstrous", "gods.yaml", "Keep the Faith tokens you have gained here, in plain view.", "view"),
    ("totems-and-taboos", "commandments.yaml", "Every dawn, new souls wander toward the warmth.", "warmth"),
)
CARDS_LINE = re.compile(r"\((\d+) cards, ")


def baseline_command(out: Path) -> None:
    """The baseline as a command of its own (run in a child): draw 400 cards, write the PDF."""
    sys.path.insert(0, str(BENCH))
    sys.path.insert(0, str(ROOT))
    from render_cards import baseline  # type: ignore[import-not-found]

    out.write_bytes(baseline(BASELINE_CARDS))




class CardEdit:
    """Called: words ``text`` in ``path`` anew (``word`` followed by the next number: a wording the card never
    had, and this run's cache is new, so no cache holds a result for it); ``undo`` puts ``text`` back."""

    def __init__(self, path: Path, text: str, word: str) -> None:
        self.path, self.text, self.word = path, text, word
        self.now, self.runs = text, 0

    def _put(self, new: str) -> None:
        source = self.path.read_text(encoding="utf-8")
        if source.count(self.now) != 1:
            raise SystemExit(f"{self.path}: {self.now!r} is not there once")
        self.path.write_text(source.replace(self.now, new), encoding="utf-8")
        self.now = new

    def __call__(self) -> None:
        self.runs += 1
        self._put(self.text.replace(self.word, f"{self.word} {self.runs}", 1))

    def undo(self) -> None:
        self._put(self.text)


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    load_before = load()
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        data, out = work / "data", work / "out"
        shutil.copytree(ROOT / "data", data)
        env = {**os.environ, "PANTHEON_CACHE": str(work / "cache")}
        env.pop("PANTHEON_DEBUG", None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: modules compiled once (the untimed build), not per run
        build = [str(PANTHEON), "build", "--data", str(data), "--out", str(out)]

        base_wall, base_cpu, _ = timed([sys.executable, __file__, "--baseline", str(work / "baseline.pdf")], env)
        subprocess.run(build, check=True, capture_output=True, env=env)  # the first build, untimed

        noop = timed(build, env)
        edited: dict[str, tuple[float, float, str]] = {}
        for game, file_name, text, word in EDITS:
            edit = CardEdit(data / game / file_name, text, word)
            edited[game] = timed(build, env, edit)
            edit.undo()
            subprocess.run(build, check=True, capture_output=True, env=env)  # back as it was, untimed
        sheets = timed([*build, "--only", "cards", "--force"], env)
        cards = sum(int(n) for n in CARDS_LINE.findall(sheets[2]))

        def rebuilt(stdout: str) -> str:
            done = [str(Path(line.split(" ")[1]).relative_to(out)) for line in stdout.splitlines() if line.startswith("wrote")]
            return ", ".join(done) or "nothing"

    def line(label: str, wall: float, cpu: float, target: float, per: float = 1.0) -> str:
        ratio_wall, ratio_cpu = (wall / per) / base_wall, (cpu / per) / base_cpu
        def verdict(ratio: float) -> str:
            return "met" if ratio <= target else "NOT met"

        return (f"{label:<44}{wall:>8.3f}{cpu:>8.3f}{ratio_wall:>8.2f}x{ratio_cpu:>7.2f}x   "
                f"target <= {target}x: wall {verdict(ratio_wall)}, cpu {verdict(ratio_cpu)}")

    print(f"{'':<44}{'wall s':>8}{'cpu s':>8}{'wall':>9}{'cpu':>8}")
    print(f"{'plain reportlab baseline, 400 cards':<44}{base_wall:>8.3f}{base_cpu:>8.3f}")
    print(line("no-op `pantheon build`", noop[0], noop[1], NOOP_TARGET))
    for game, (wall, cpu, stdout) in edited.items():
        print(line(f"one card edited ({game})", wall, cpu, EDIT_TARGET))
        print(f"    rebuilt: {rebuilt(stdout)}")
    per = cards / BASELINE_CARDS
    print(line(f"card sheets, {cards} cards, per card (x{per:.2f})", sheets[0], sheets[1], PER_CARD_TARGET, per))
    print("  (whole commands, start-up included, best of 3; ratios against the baseline in this run; each edit")
    print("   is a wording the card never had; the card-sheet line is `build --only cards --force` (validation")
    print("   of every game included) per card against the baseline per card; on a busy machine wall time")
    print("   includes waiting for a core, so CPU is the steadier figure)")
    print(f"  load average (1, 5, 15 min): {load_before} before, {load()} after")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--baseline":
        baseline_command(Path(sys.argv[2]))
    else:
        main()
