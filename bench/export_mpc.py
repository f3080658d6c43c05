"""`pantheon export GAME --target mpc` (300 dpi PNG per face, pypdfium2) against `pdftoppm -r 300 -png`
on the same faces, in the same run, as whole commands (startup included).

The pdftoppm side rasterises the DTC export of the game (one PDF page per face, the same vector faces
at 2.75 x 3.75 in for poker cards, about the MPC image size), so both sides draw the same faces at the
same resolution; pdftoppm does not have to lay anything out, so it is the floor of the work.
Figures: ms per face, best of three.

Run: `make bench` (or `.venv/bin/python bench/export_mpc.py`).
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAME = "theocracy"
RUNS = 3


def best(command: list[str]) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    if shutil.which("pdftoppm") is None:
        print("pdftoppm missing (make tools): skipped")
        return
    pantheon = [sys.executable, "-m", "pipeline"]
    with tempfile.TemporaryDirectory() as work:
        out = Path(work)
        subprocess.run([*pantheon, "export", GAME, "--target", "dtc", "--out", str(out)], check=True, capture_output=True, cwd=ROOT)
        pdf = next((out / GAME / "dtc").glob("*.pdf"))
        faces = int(next(line.split()[-1] for line in subprocess.run(
            ["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout.splitlines() if line.startswith("Pages:")))
        ours = best([*pantheon, "export", GAME, "--target", "mpc", "--out", str(out)])
        pngs = len(list((out / GAME / "mpc").glob("*.png")))
        theirs = best(["pdftoppm", "-r", "300", "-png", str(pdf), str(out / "ppm")])
    print(f"{GAME}: export --target mpc: {pngs} PNGs, {ours * 1000 / pngs:.1f} ms per face ({ours:.2f} s, startup and validation included)")
    print(f"{GAME}: pdftoppm -r 300 -png on the DTC PDF: {faces} pages, {theirs * 1000 / faces:.1f} ms per face ({theirs:.2f} s)")
    print(f"ratio: {(ours / pngs) / (theirs / faces):.2f}x")


if __name__ == "__main__":
    main()
