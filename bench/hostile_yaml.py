"""How fast, and in how little memory, the YAML reader refuses hostile files.

Each attack is parsed in this process with ``loads_marked`` (the parse path,
no result cache): the figures are the time to the refusal and the peak of
memory allocated meanwhile (tracemalloc), next to a real data file read in
full for scale. The tests check that each attack is refused; this says how
cheaply.
"""
from __future__ import annotations

import statistics
import time
import tracemalloc
from typing import Callable

from pipeline.data.dataset import default_data_root
from pipeline.data.yamlmarks import YamlLoadError, loads_marked

RUNS = 5
DEPTH = 30_000


def _bomb(width: int, levels: int) -> str:
    lines = ["l0: &l0 [lol, lol]"]
    lines += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * width) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


ATTACKS: dict[str, str] = {
    f"flow nesting, {DEPTH:,} levels": "a: " + "[" * DEPTH + "]" * DEPTH + "\n",
    f"block nesting, {DEPTH:,} levels": "a:\n  " + "- " * DEPTH + "x\n",
    "alias bomb 9^9": _bomb(9, 9),
    "tag !!python/object": "a: !!python/object:os.system {}\n",
    "NUL in a value": 'a: "x\\0y"\n',
}


def measure(parse: Callable[[], object]) -> tuple[float, int]:
    """Median seconds and the largest allocation peak (bytes) over RUNS parses."""
    times, peaks = [], []
    for _ in range(RUNS):
        tracemalloc.start()
        start = time.perf_counter()
        try:
            parse()
        except YamlLoadError:
            pass
        times.append(time.perf_counter() - start)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    return statistics.median(times), max(peaks)


def main() -> None:
    largest = max((default_data_root()).glob("*/*.yaml"), key=lambda p: p.stat().st_size)
    cases = {f"real file {largest.parent.name}/{largest.name} (read in full)": largest.read_text(encoding="utf-8"), **ATTACKS}
    print(f"YAML reader: time to result and peak memory (median of {RUNS})")
    print(f"{'input':<52}{'bytes':>9}{'ms':>9}{'peak KB':>10}")
    for name, text in cases.items():
        seconds, peak = measure(lambda: loads_marked(text))
        print(f"{name:<52}{len(text.encode()):>9}{seconds * 1000:>9.2f}{peak / 1024:>10.0f}")


if __name__ == "__main__":
    main()
