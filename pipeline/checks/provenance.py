"""`pantheon provenance`: how much of each game is from the rulebook, inferred, or authored."""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Iterable, Optional

from pipeline.base.errors import UserError
from pipeline.checks.validate import walk
from pipeline.data.dataset import load_game
from pipeline.data.gamespec import Specs

SOURCES = ("rulebook", "inferred", "authored")


def provenance_counts(data_root: Path, specs: Specs, games: Optional[Iterable[str]] = None) -> dict[str, dict[str, int]]:
    """Per game, the number of records (mappings with a ``provenance``) of each source, plus the total."""
    report: dict[str, dict[str, int]] = {}
    for game in specs.select(data_root, games):
        loaded = load_game(data_root, specs.spec(game))
        if loaded.load_problems:
            raise UserError(f"{loaded.load_problems[0]} (run `pantheon validate {game}`)")
        counts: Counter[str] = Counter()
        for doc in loaded.docs.values():
            for _, node in walk(doc.data):
                if isinstance(node, dict) and isinstance(node.get("provenance"), dict):
                    counts[str(node["provenance"].get("source"))] += 1
        row = {source: counts.get(source, 0) for source in SOURCES}
        row["total"] = sum(counts.values())
        report[game] = row
    return report
