"""Who's Your Heavenly Father?'s balance study: the token replay behind "matters", against the engine."""
from __future__ import annotations

import random

from pipeline.analysis.balance.findings import Bars, Table
from pipeline.analysis.balance.stats import Rate
from pipeline.analysis.balance.study import Results, load_study
from pipeline.analysis.balance.tally import count, folder
from pipeline.engine import play, random_policy
from pipeline.games.heavenly_father.balance import GOD_WINS, MATTERS, SETTLED, Settlement, final_tokens, settlement_of
from pipeline.games.heavenly_father.engine import judge
from pipeline.games.heavenly_father.model import Consequence
from pipeline.games.registry import spec as spec_of
from tests.conftest import REPO_DATA

STUDY = load_study(REPO_DATA, spec_of("heavenly-father"))


def test_replaying_the_settlements_gives_the_engines_final_tokens() -> None:
    rng = random.Random(8)
    for players in (2, 4, 6):
        game = STUDY.games[players]
        start = {v: game.starting_tokens for v in game.virtues}
        for _ in range(6):
            settled = []
            for state in play(game.new_initial_state(), random_policy, rng):
                settled += [settlement_of(e) for e in state.events if e.kind == "dilemma-scored"]
            assert final_tokens(start, players, settled) == [dict(t) for t in state.tokens]


def test_a_dilemma_matters_exactly_when_leaving_it_out_changes_the_winners() -> None:
    god = STUDY.games[2].gods[STUDY.model.gods[0].id]
    virtue = max(god.points, key=god.points.get)  # the virtue this god rewards most
    start = {v: 0 for v in STUDY.games[2].virtues}
    decisive = Settlement("a", 0, Consequence({virtue: 1}, {}))
    idle = Settlement("b", 1, Consequence({}, {}))
    settled = [decisive, idle]
    assert judge(god, final_tokens(start, 2, settled)).winners == (0,)
    assert judge(god, final_tokens(start, 2, settled, frozenset({"a"}))).winners == (0, 1)
    assert judge(god, final_tokens(start, 2, settled, frozenset({"b"}))).winners == (0,)


def test_matters_is_counted_only_for_settled_dilemmas() -> None:
    tally = STUDY.play(STUDY.setups(players=3)[0], 10, seed=2)
    dilemmas = {d.id for d in STUDY.model.dilemmas}
    for card, n in folder(tally, MATTERS).items():
        if card in dilemmas:
            assert n <= count(tally, SETTLED, card)
    assert sum(folder(tally, "true-god").values()) == count(tally, "games") - count(tally, "unfinished")


def test_seat_wins_per_true_god_add_up_to_each_seats_wins() -> None:
    setup = STUDY.setups(players=3)[0]
    tally = STUDY.play(setup, 30, seed=5)
    for seat in range(3):
        assert sum(count(tally, GOD_WINS, god, seat) for god in folder(tally, GOD_WINS)) == count(tally, "wins", seat)
    section = next(s for s in STUDY.sections(Results((setup,), {setup.id: tally})) if s.id == "seats-by-god")
    chart, table = section.items
    assert isinstance(table, Table) and table.header[:2] == ("set-up", "games")
    for row, god in zip(table.rows, STUDY.model.gods):  # one row per True God: its judged games, then each seat
        assert row[0] == f"3 players, {god.name}" and row[1] == count(tally, "true-god", god.id)
        rates = [cell for cell in row[2:5] if isinstance(cell, Rate)]
        assert [r.hits for r in rates] == [count(tally, GOD_WINS, god.id, seat) for seat in range(3)]
    assert isinstance(chart, Bars) and len(chart.categories) == len(STUDY.model.gods)
    first, last = chart.series  # seat 1 and the last seat (seat 3) under each god
    assert [r.hits for r in first.values if isinstance(r, Rate)] == [count(tally, GOD_WINS, g.id, 0) for g in STUDY.model.gods]
    assert [r.hits for r in last.values if isinstance(r, Rate)] == [count(tally, GOD_WINS, g.id, 2) for g in STUDY.model.gods]
