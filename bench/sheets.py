"""Paper: duplex sheets per game and paper, the butted layout (default) against the gutter layout
(every card its own bleed, the layout before butted sheets). Counts, not timings.

Run: `make bench` (or `.venv/bin/python bench/sheets.py`).
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PAPERS = ("a4", "letter")
LAYOUTS = ("gutter", "butted")


def main() -> None:
    from pipeline.cards.build import BuildOptions, plan, render_pdf
    from pipeline.checks.validate import select_games
    from pipeline.data.dataset import default_data_root

    root = default_data_root()
    columns = [f"{layout} {paper}" for layout in LAYOUTS for paper in PAPERS]
    print("duplex sheets per game (gutter = each card its own bleed, as before; butted = shared cut lines)")
    print(f"{'game':<20}" + "".join(f"{c:>15}" for c in columns))
    totals = [0] * len(columns)
    for game in select_games(root, None):
        the_plan = plan(root, game)
        counts = []
        for layout in LAYOUTS:
            for paper in PAPERS:
                _, pages = render_pdf(the_plan, BuildOptions(paper=paper, layout=layout))
                counts.append(pages // 2)
        totals = [t + c for t, c in zip(totals, counts)]
        print(f"{game:<20}" + "".join(f"{c:>15}" for c in counts))
    print(f"{'total':<20}" + "".join(f"{t:>15}" for t in totals))


if __name__ == "__main__":
    main()
