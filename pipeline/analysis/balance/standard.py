"""Figures every game's report shares, built from the standard record (seat wins, endings, length).

A study groups its set-ups as it likes (by player count, by variant, by
difficulty); these helpers make the tables, charts and outlier checks the
same way for all of them.
"""
from __future__ import annotations

from typing import Callable, Hashable, Iterable, Mapping, Sequence, TypeVar

from pipeline.analysis.balance.findings import Bars, Cell, Lines, Outlier, Series, Table, outliers
from pipeline.analysis.balance.stats import Rate
from pipeline.analysis.balance.study import Results, Setup, Summary
from pipeline.analysis.balance.tally import folder

GroupKey = Callable[[Setup], object]
Item = TypeVar("Item")
Key = TypeVar("Key", bound=Hashable)
LABEL_WIDTH, COUNT_WIDTH, FIGURE_WIDTH = 1.7, 0.75, 1.25  # relative column widths: a set-up, a count, a figure
MAX_SEAT_COLUMNS = 6  # more seats than this and a per-seat table is turned sideways
MAX_POINTS = 25  # a distribution shows at most this many points; wider spreads are binned
ROUND_WIDTHS = (1, 2, 5)  # bin widths go 1, 2, 5, 10, 20, 50 ...
DECADE = 10


def seat_name(seat: int) -> str:
    """Seats are numbered from 1 for people (seat 1 plays first); the engines and JSON count from 0."""
    return f"seat {seat + 1}"


def ending_name(termination: str) -> str:
    """An engine's termination id as words for a heading (``most-monsters-in-play``: most monsters in play)."""
    return termination.replace("-", " ").replace("_", " ")


def summaries(results: Results) -> list[Summary]:
    return [Summary.of(setup, results.tally(setup)) for setup in results.setups]


def seat_table(results: Results, *, id: str = "seat-wins", title: str = "Win rate by seat",
               setups: Sequence[Setup] | None = None) -> tuple[Table, tuple[Outlier, ...]]:
    """Each set-up's games, each seat's win rate and the shared victories (see :func:`per_seat_table` for the
    shape); and the seats flagged per set-up."""
    chosen = list(setups if setups is not None else results.setups)
    found = {s.id: Summary.of(s, results.tally(s)) for s in chosen}
    flagged: list[Outlier] = []
    for setup in chosen:
        flagged += outliers(f"seats, {setup.label}", [(f"{seat_name(i)}, {setup.label}", r)
                                                      for i, r in enumerate(found[setup.id].seat_wins)])
    note = ("A game won jointly counts as a win for every winner, so a set-up's seat rates may add up to more "
            "than 100%.")
    table = per_seat_table(chosen, lambda s, seat: found[s.id].seat_wins[seat], id=id, title=title, note=note,
                           before=(("games", lambda s: found[s.id].games),),
                           after=(("shared wins", lambda s: found[s.id].shared),))
    return table, tuple(flagged)


SeatValue = Callable[[Setup, int], Cell]
Column = tuple[str, Callable[[Setup], Cell]]


def per_seat_table(setups: Sequence[Setup], value: SeatValue, *, id: str, title: str, note: str = "",
                   before: Sequence[Column] = (), after: Sequence[Column] = ()) -> Table:
    """A figure per seat of each set-up: a row per set-up and a column per seat, with the ``before`` and
    ``after`` columns around the seats; with more seats than :data:`MAX_SEAT_COLUMNS` (a figure with its
    interval no longer fits a column), turned sideways: a row per seat (then per extra column), a column per
    set-up."""
    most = max((s.players for s in setups), default=1)
    seat_cell = lambda s, seat: value(s, seat) if seat < s.players else None  # noqa: E731
    if most <= MAX_SEAT_COLUMNS:
        rows = tuple((s.label, *(f(s) for _, f in before), *(seat_cell(s, i) for i in range(most)),
                      *(f(s) for _, f in after)) for s in setups)
        header = ("set-up", *(name for name, _ in before), *(seat_name(i) for i in range(most)),
                  *(name for name, _ in after))
        widths = (LABEL_WIDTH, *(COUNT_WIDTH,) * len(before), *(FIGURE_WIDTH,) * (most + len(after)))
        return Table(id, title, header, rows, note, widths)
    extra = [(name, lambda s, f=f: f(s)) for name, f in (*before, *after)]
    rows = tuple((seat_name(i), *(seat_cell(s, i) for s in setups)) for i in range(most))
    rows += tuple((name, *(f(s) for s in setups)) for name, f in extra)
    return Table(id, title, ("seat", *(s.label for s in setups)), rows, note,
                 (COUNT_WIDTH, *(FIGURE_WIDTH,) * len(setups)))


def seat_charts(results: Results, *, group: GroupKey, series: GroupKey, group_label: Callable[[object], str],
                id: str = "seat-wins") -> list[Bars]:
    """One bar chart per group of set-ups (a player count, a variant): seats across, one series per ``series`` key,
    with the fair share (1 / players) of each player count in the group as a reference line."""
    charts = []
    for key, members in grouped(results.setups, group).items():
        players = max(s.players for s in members)
        counts = sorted({s.players for s in members})
        fair = tuple((1 / n, f"{n} players: fair {1 / n:.0%}" if len(counts) > 1 else f"fair share {1 / n:.0%}")
                     for n in counts)
        made = tuple(Series(str(series(s)), tuple(Summary.of(s, results.tally(s)).seat_wins) + (None,) * (players - s.players))
                     for s in members)
        charts.append(Bars(f"{id}-{key}", f"Win rate by seat: {group_label(key)}", tuple(seat_name(i) for i in range(players)),
                           made, "games won", references=fair))
    return charts


def grouped(items: Iterable[Item], key: Callable[[Item], Key]) -> dict[Key, list[Item]]:
    """Items (set-ups, cards) by ``key``, in first-seen order."""
    groups: dict[Key, list[Item]] = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    return groups


def length_table(results: Results, unit: str, *, id: str = "length", title: str = "Game length and endings",
                 setups: Sequence[Setup] | None = None) -> Table:
    """One row per set-up (of ``setups``, default all): games, mean length, the share of each ending any of them
    reached, and the games cut off unfinished."""
    summaries_ = [Summary.of(s, results.tally(s)) for s in (setups if setups is not None else results.setups)]
    endings = sorted({name for s in summaries_ for name, _ in s.endings})
    rows: list[tuple[Cell, ...]] = []
    for summary in summaries_:
        found = dict(summary.endings)
        rows.append((summary.setup.label, summary.games, summary.length,
                     *(found.get(name, Rate(0, summary.games)) for name in endings), summary.unfinished))
    header = ("set-up", "games", f"mean {unit}", *(f"ended by {ending_name(name)}" for name in endings), "unfinished")
    return Table(id, title, header, tuple(rows), widths=(LABEL_WIDTH, COUNT_WIDTH, *(FIGURE_WIDTH,) * (len(endings) + 2)))


def shares(counts: Mapping[str, int], width: int = 1) -> dict[int, float]:
    """A histogram tally (value -> games) as the share of the games in each bin of ``width`` (by its lowest value)."""
    total = sum(counts.values())
    binned: dict[int, float] = {}
    for key, n in counts.items():
        start = int(key) // width * width
        binned[start] = binned.get(start, 0.0) + n / total
    return binned


def bin_width(values: Sequence[int], points: int = MAX_POINTS) -> int:
    """The smallest round bin width (1, 2, 5, 10, 20 ...) that shows ``values`` in at most ``points`` bins."""
    spread = max(values) - min(values) + 1 if values else 1
    scale = 1
    while True:
        for step in ROUND_WIDTHS:
            if spread / (step * scale) <= points:
                return step * scale
        scale *= DECADE


def distribution(id: str, title: str, named: Sequence[tuple[str, Mapping[str, int]]], x_label: str,
                 y_label: str = "share of games", note: str = "") -> Lines:
    """Lines of the share of observations at each value (in round bins when they spread widely), one per
    (name, histogram tally)."""
    width = bin_width([int(k) for _, counts in named for k in counts])
    per = [(name, shares(counts, width)) for name, counts in named]
    xs = sorted({x for _, found in per for x in found})
    series = tuple(Series(name, tuple(found.get(x, 0.0) for x in xs)) for name, found in per)
    label = x_label if width == 1 else f"{x_label} (bins of {width}, by their lowest value)"
    return Lines(id, title, tuple(float(x) for x in xs), series, label, y_label, note=note)


def length_distribution(results: Results, key: str, unit: str, *, setups: Sequence[Setup] | None = None,
                        id: str = "length-distribution", title: str = "",
                        name: Callable[[Setup], str] = lambda s: s.label) -> Lines:
    """The share of games at each length (the ``key`` histogram each game bumped), one line per set-up."""
    chosen = setups if setups is not None else results.setups
    return distribution(id, title or f"Game length in {unit}", [(name(s), folder(results.tally(s), key)) for s in chosen],
                        unit)
