"""Every edit of every data file (tests/fuzz/mutations.py), validated one by one: none may crash.

Run: `.venv/bin/python -m tests.fuzz.exhaustive [GAME ...] [--only number,rename,delete]`
(an hour or more for everything; prints every crash and the counts per game and
kind of edit), or `pytest -m slow tests/fuzz` for the same run as a test. The normal suite draws a hundred of these edits instead
(tests/fuzz/test_checks_never_crash.py).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Optional

from pipeline.data.dataset import default_data_root
from tests.fuzz.mutations import CATEGORIES, MutationRunner, Result, all_mutations, bounded_search


def run_all(games: Optional[list[str]] = None, *, only: Optional[set[str]] = None,
            progress: bool = False) -> list[Result]:
    """Validate every edit (of the categories ``only``, default all); the results in enumeration order."""
    results: list[Result] = []
    mutations = [m for m in all_mutations(default_data_root(), games) if only is None or m.category in only]
    with tempfile.TemporaryDirectory(prefix="pantheon-fuzz-") as work:
        with bounded_search(Path(work) / "cache", prove_shipped=True):
            runner = MutationRunner(Path(work))
            started = time.perf_counter()
            for count, mutation in enumerate(mutations, 1):
                result = runner.run(mutation)
                results.append(result)
                if result.crash:
                    print(f"CRASH {mutation}: {result.crash}", flush=True)
                if progress and count % 500 == 0:
                    print(f"  {count}/{len(mutations)} edits, {time.perf_counter() - started:.0f} s", flush=True)
    return results


def summary(results: list[Result]) -> str:
    """One line per game and category: edits tried, schema-valid ones, ones with problems, crashes."""
    rows: dict[tuple[str, str], Counter] = {}
    for result in results:
        for key in ((result.mutation.game, result.mutation.category), (result.mutation.game, "all"), ("all", "all")):
            row = rows.setdefault(key, Counter())
            row["tried"] += 1
            row["schema-valid"] += result.cross_checks_ran
            row["problems"] += bool(result.report and result.report.problems)
            row["crashes"] += bool(result.crash)
    lines = [f"{'game':<20}{'edit':<11}{'tried':>7}{'schema-valid':>14}{'with problems':>15}{'crashes':>9}"]
    order = {category: i for i, category in enumerate((*CATEGORIES, "all"))}
    for (game, category), row in sorted(rows.items(), key=lambda item: (item[0][0] == "all", item[0][0],
                                                                        order[item[0][1]])):
        lines.append(f"{game:<20}{category:<11}{row['tried']:>7}{row['schema-valid']:>14}"
                     f"{row['problems']:>15}{row['crashes']:>9}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz.exhaustive", description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games to edit (default: all)")
    parser.add_argument("--only", help=f"comma-separated kinds of edit (of {', '.join(CATEGORIES)})")
    args = parser.parse_args(argv)
    only = set(args.only.split(",")) if args.only else None
    results = run_all(args.games or None, only=only, progress=True)
    print(summary(results))
    return 1 if any(result.crash for result in results) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
