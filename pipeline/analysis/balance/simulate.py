"""``pantheon simulate GAME``: one game's standard figures per set-up (seat wins, endings, length).

The same set-ups, seeded chunks and process pool as the report, filtered by
player count and policy; the figures come from the standard record every
study keeps (:func:`pipeline.analysis.balance.study.record_game`).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Optional

from pipeline.analysis.balance import runner
from pipeline.analysis.balance.document import figure_text
from pipeline.analysis.balance.findings import value_data
from pipeline.analysis.balance.standard import seat_name
from pipeline.analysis.balance.study import Study, Summary, pick_setups
from pipeline.base.errors import UserError
from pipeline.base.words import count


def summaries(study: Study, *, players: Optional[int], policy: Optional[str], games: Optional[int], seed: int,
              processes: int, where: Optional[Mapping[str, Any]] = None) -> list[Summary]:
    """The standard figures (and the study's own per seat) of every set-up of ``study`` that ``players``,
    ``policy`` and the set-up parameters in ``where`` (a game command's ``--variant``) select."""
    where = where or {}
    chosen = [s for s in pick_setups(study, players, policy) if all(s.param(k) == v for k, v in where.items())]
    if not chosen:
        asked = ", ".join(f"{k} {v}" for k, v in where.items())
        every = study.setups(policy=policy)
        counts = sorted({s.players for s in every if all(s.param(k) == v for k, v in where.items())})
        if not counts:  # no set-up has these parameters at all: say which values they take
            known = "; ".join(f"{k}: {', '.join(dict.fromkeys(str(s.param(k)) for s in every if s.param(k) is not None))}"
                              for k in where)
            raise UserError(f"{study.game_id}: no set-up with {asked} ({known})")
        raise UserError(f"{study.game_id}: no set-up for {players} {'player' if players == 1 else 'players'} with {asked}"
                        f" (player counts: {', '.join(map(str, counts))})")
    results = runner.run({study.game_id: study}, {study.game_id: chosen}, games=games, seed=seed,
                         processes=processes, exact=False)[study.game_id]
    return [replace(Summary.of(setup, results.tally(setup)),
                    seat_figures=tuple(study.seat_figures(setup, results.tally(setup)))) for setup in chosen]


def summary_data(summary: Summary, seed: int) -> dict[str, Any]:
    setup = summary.setup
    return {"setup": setup.id, "label": setup.label, "players": setup.players, "policy": setup.policy,
            "params": dict(setup.params), "games": summary.games, "seed": seed,
            "seat_wins": [value_data(r) for r in summary.seat_wins], "shared_victories": value_data(summary.shared),
            "unfinished": value_data(summary.unfinished),
            "endings": {name: value_data(r) for name, r in summary.endings}, "length": value_data(summary.length),
            "seat_figures": {name: [value_data(f) for f in figures] for name, figures in summary.seat_figures}}


def summary_lines(study: Study, summary: Summary, seed: int) -> list[str]:
    lines = [f"{study.title}, {summary.setup.label}: {count(summary.games, 'game')}, seed {seed}"]
    lines += [f"  {seat_name(seat)} wins {figure_text(rate)}"
              + "".join(f", {name} {figure_text(figures[seat])}" for name, figures in summary.seat_figures)
              for seat, rate in enumerate(summary.seat_wins)]
    if summary.setup.players > 1:
        lines.append(f"  shared victories {figure_text(summary.shared)}")
    lines += [f"  ended by {name}: {figure_text(rate)}" for name, rate in summary.endings]
    if summary.unfinished.hits:
        lines.append(f"  unfinished (cut off): {figure_text(summary.unfinished)}")
    lines.append(f"  length: {figure_text(summary.length)} {study.length_unit}")
    return lines
