"""`pantheon diff --balance`: each changed game's balance figures before and after the edit.

Each side's study is built from that side's validated data and played by the
balance runner with the same seed and size. A chunk's seed depends on the
run's seed, the game, the set-up and the chunk's place alone, so both sides
play the same seeded chunks (common random numbers: an edit that changes
nothing a game draws on leaves its figures exactly as they were). Only the
studies' simulated figures are compared (Monotheism's solver figures are the
diff's engine consequences); every rate and mean of the report's tables is
matched by section, table, row and column.

Each change is tested by a two-sided z-test: the two-proportion test (pooled
rate) for a rate, Welch's test (normal approximation) for a mean. The tests
treat the sides as independent samples; with common random numbers the sides
are positively correlated, so the tests are conservative. A game's report
compares a hundred figures and more, so the tests are corrected for their
number (Holm's step-down method, family-wise error 5% per game): a figure is
flagged only if it stays significant after the correction, and an unchanged
game flags nothing by chance more than once in twenty runs.

Figures are keyed by the card's id where a table row names a card (a renamed
card moves nothing); the label shows the name.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Iterator, Optional, Sequence

from pipeline.analysis.balance import runner, stats
from pipeline.analysis.balance.findings import Cell, Section, Table, value_data
from pipeline.analysis.balance.stats import MIN_MEAN_COUNT, Figure, Mean, Rate
from pipeline.analysis.balance.study import Study, study_of
from pipeline.analysis.diff.compare import Diff, GameDiff
from pipeline.analysis.diff.sources import Side
from pipeline.base.words import count
from pipeline.data.dataset import GameData
from pipeline.data.sheettable import record_list

DEFAULT_GAMES = 40  # games per set-up: a few seconds of CPU per changed game, quick enough for the edit loop
ALPHA = 0.05  # family-wise error rate of each game's figures (Holm)
LEGEND = ("rate [95% Wilson interval], mean [95% normal interval]; * significant after Holm's correction for the "
          "number of figures compared (5% family-wise; two-sided z-test: two-proportion for a rate, Welch for a "
          "mean); both sides play the same seeds")
NO_STUDY = "no balance study"
ONE_SIDE = "only on one side"


@dataclass(frozen=True)
class FigureChange:
    """One figure of a game's report on both sides (None: absent on that side)."""

    key: str  # section/table/row/column: stable between runs (a card's row by its id)
    label: str
    old: Optional[Figure]
    new: Optional[Figure]
    significant: bool = False  # after Holm's correction over the game's figures (set by compare_balance)

    @property
    def moved(self) -> bool:
        return self.old != self.new

    @property
    def z(self) -> Optional[float]:
        """The test statistic of the change (None: no test applies; see the module docstring)."""
        return z_score(self.old, self.new)

    @property
    def p_value(self) -> Optional[float]:
        """The two-sided p-value of the change (None: no test applies)."""
        z = self.z
        return None if z is None else math.erfc(abs(z) / math.sqrt(2))


def holm(figures: Sequence[FigureChange], alpha: float = ALPHA) -> tuple[FigureChange, ...]:
    """``figures`` with ``significant`` set by Holm's step-down method over every tested figure
    (:func:`stats.holm`): a moved figure whose corrected p-value is at most ``alpha``."""
    tested = [index for index, f in enumerate(figures) if f.p_value is not None]
    corrected = dict(zip(tested, stats.holm([figures[index].p_value or 0.0 for index in tested])))
    return tuple(replace(f, significant=f.moved and index in corrected and corrected[index] <= alpha)
                 for index, f in enumerate(figures))


@dataclass(frozen=True)
class GameBalance:
    game: str
    title: str
    games: int  # per set-up, on each side
    figures: tuple[FigureChange, ...]

    @property
    def moved(self) -> list[FigureChange]:
        return [f for f in self.figures if f.moved]


@dataclass(frozen=True)
class BalanceDiff:
    seed: int
    games: int
    studied: tuple[GameBalance, ...]
    skipped: tuple[tuple[str, str], ...]  # changed games not studied, and why


def z_score(old: Optional[Figure], new: Optional[Figure]) -> Optional[float]:
    """Two-proportion z for two rates, Welch's z for two means; 0 when equal; None when no test applies."""
    if isinstance(old, Rate) and isinstance(new, Rate):
        if not old.trials or not new.trials:
            return None
        pool = (old.hits + new.hits) / (old.trials + new.trials)
        spread = math.sqrt(pool * (1 - pool) * (1 / old.trials + 1 / new.trials))
        difference = new.hits / new.trials - old.hits / old.trials
    elif isinstance(old, Mean) and isinstance(new, Mean):
        if old.count < MIN_MEAN_COUNT or new.count < MIN_MEAN_COUNT:
            return None
        spread = math.sqrt(old.variance / old.count + new.variance / new.count)
        difference = new.total / new.count - old.total / old.count
    else:
        return None
    if spread == 0:  # no variation on either side: any difference is certain
        return 0.0 if difference == 0 else math.copysign(math.inf, difference)
    return difference / spread


def table_figures(sections: Sequence[Section], ids: Optional[dict[str, str]] = None) -> dict[str, tuple[str, Figure]]:
    """Every rate and mean in the tables of ``sections``, by key, with a label for people; a row that names
    a card (``ids``: card name -> id) is keyed by the card's id. Charts repeat the tables' figures and are
    left out."""
    found: dict[str, tuple[str, Figure]] = {}
    for section in sections:
        for item in section.items:
            if isinstance(item, Table):
                found.update(_table_cells(section.id, item, ids or {}))
    return found


def _table_cells(section: str, table: Table, ids: dict[str, str]) -> Iterator[tuple[str, tuple[str, Figure]]]:
    seen: dict[str, int] = {}
    for row in table.rows:
        name = _row_name(row)
        seen[name] = seen.get(name, 0) + 1
        key = f"id:{ids[name]}" if name in ids else name
        if seen[name] > 1:  # two rows of one name: the second is told apart by its place
            name, key = f"{name} #{seen[name]}", f"{key} #{seen[name]}"
        for column, cell in zip(table.header, row):
            if isinstance(cell, (Rate, Mean)):
                yield f"{section}/{table.id}/{key}/{column}", (f"{table.title}: {name}: {column}", cell)


def card_ids(data: GameData[Any]) -> dict[str, str]:
    """Each record's name -> its id, over every document's list of records (names used twice are left out)."""
    found: dict[str, str] = {}
    twice: set[str] = set()
    for doc in data.docs.values():
        key = record_list(doc)
        for record in doc.data[key] if key is not None else ():
            name = record.get("name")
            if isinstance(name, str):
                if name in found and found[name] != str(record["id"]):
                    twice.add(name)
                found.setdefault(name, str(record["id"]))
    return {name: card for name, card in found.items() if name not in twice}


def _row_name(row: Sequence[Cell]) -> str:
    return str(row[0]) if row and not isinstance(row[0], (Rate, Mean)) else "-"


def study_figures(studies: dict[str, Study], side: Side, games: int, seed: int, processes: int,
                  ids: Optional[dict[str, dict[str, str]]] = None) -> dict[str, dict[str, tuple[str, Figure]]]:
    """Play ``studies`` (one side's) on the balance runner; each game's table figures (``ids``: per game, its
    card names -> ids, so rows are keyed by card)."""
    setups = {game: study.simulated_setups() for game, study in studies.items()}
    results = runner.run(studies, setups, games=games, seed=seed, processes=processes, exact=False)
    return {game: table_figures(study.simulated_sections(results[game]), (ids or {}).get(game))
            for game, study in studies.items()}


def compare_balance(diff: Diff, *, games: int, seed: int, processes: int) -> BalanceDiff:
    """The balance figures of every changed game of ``diff`` on both sides (same seed, same size)."""
    chosen: list[GameDiff] = []
    skipped: list[tuple[str, str]] = []
    for game in diff.games:
        if not game.changed:
            continue
        if game.old_data is None or game.new_data is None:
            skipped.append((game.game, ONE_SIDE))
        elif game.new_data.spec.balance is None:
            skipped.append((game.game, NO_STUDY))
        else:
            chosen.append(game)
    sides = []
    for side, data in ((diff.old, [g.old_data for g in chosen]), (diff.new, [g.new_data for g in chosen])):
        studies = {g.game: study_of(d) for g, d in zip(chosen, data) if d is not None}
        ids = {g.game: card_ids(d) for g, d in zip(chosen, data) if d is not None}
        sides.append(study_figures(studies, side, games, seed, processes, ids) if studies else {})
    before, after = sides
    studied = []
    for game in chosen:
        old, new = before[game.game], after[game.game]
        keys = list(old) + [k for k in new if k not in old]
        figures = holm(tuple(FigureChange(k, (new.get(k) or old[k])[0], _figure(old.get(k)), _figure(new.get(k)))
                             for k in keys))
        title = game.new_data.spec.title if game.new_data is not None else game.game
        studied.append(GameBalance(game.game, title, games, figures))
    return BalanceDiff(seed, games, tuple(studied), tuple(skipped))


def _figure(entry: Optional[tuple[str, Figure]]) -> Optional[Figure]:
    return entry[1] if entry is not None else None


def shown(figure: Optional[Figure]) -> str:
    """A figure with its interval, as the text report prints it (absent: a dash)."""
    if figure is None or figure.value is None:
        return "-"
    interval = figure.interval
    if isinstance(figure, Rate):
        text = f"{100 * figure.value:.1f}%"
        return text + (f" [{100 * interval[0]:.1f}-{100 * interval[1]:.1f}]" if interval else "")
    text = f"{figure.value:.3g}"
    return text + (f" [{interval[0]:.3g}-{interval[1]:.3g}]" if interval else "")


def ordered(found: GameBalance) -> list[FigureChange]:
    """The figures that moved, the significant first (each group in the report's order)."""
    moved = found.moved
    return [f for f in moved if f.significant] + [f for f in moved if not f.significant]


def game_lines(found: GameBalance, *, every: bool = False) -> Iterator[str]:
    """A game's balance lines: the significant changes (``every``: every figure that moved, the significant
    first and marked)."""
    moved = ordered(found)
    flagged = [f for f in moved if f.significant]
    hidden = "" if every or len(moved) == len(flagged) else "; --all shows the others"
    yield (f"  balance: {count(len(found.figures), 'figure')} compared, {len(moved)} moved, {len(flagged)} "
           f"significant after correction ({found.games} games per set-up on each side{hidden})")
    for figure in moved if every else flagged:
        mark = " *" if figure.significant else ""
        yield f"    {figure.label}: {shown(figure.old)} -> {shown(figure.new)}{mark}"


def lines(found: BalanceDiff, *, every: bool = False) -> Iterator[str]:
    """The balance part of the text report: per game the significant changes (``every``: every figure that
    moved, the significant first)."""
    yield f"balance before -> after (seed {found.seed}, {found.games} games per set-up; --games N for more)"
    yield f"  legend: {LEGEND}"
    for game in found.studied:
        yield f"{game.game}:"
        yield from game_lines(game, every=every)
    for name, why in found.skipped:
        yield f"{name}: balance not compared ({why})"
    if not found.studied and not found.skipped:
        yield "  no game changed: nothing played"


def as_data(found: BalanceDiff) -> dict[str, Any]:
    """The balance comparison as JSON data: every figure compared, moved or not."""
    return {
        "seed": found.seed,
        "games_per_setup": found.games,
        "test": "two-sided z-test (two-proportion for a rate, Welch for a mean), Holm-corrected over each game's "
                "figures at a 5% family-wise error",
        "games": {
            game.game: [{"key": f.key, "label": f.label, "old": _data(f.old), "new": _data(f.new), "moved": f.moved,
                         "z": _z_data(f.z), "significant": f.significant}
                        for f in game.figures]
            for game in found.studied
        },
        "skipped": {name: why for name, why in found.skipped},
    }


def _data(figure: Optional[Figure]) -> Any:
    return value_data(figure) if figure is not None else None


def _z_data(z: Optional[float]) -> Any:
    if z is None or math.isinf(z):
        return None if z is None else ("inf" if z > 0 else "-inf")
    return round(z, 4)
