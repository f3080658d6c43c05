"""A toy balance study for the core's tests: a biased coin decides each game, in no time.

Seat 1 wins a game with probability ``SEAT_ONE_WINS``; a game lasts 1 to 6
"turns"; every game also counts its turns in a histogram. Figures: the
standard seat table and charts, a length table and distribution.
"""
from __future__ import annotations

import random
from typing import Optional

from pipeline.analysis.balance.findings import Section
from pipeline.analysis.balance.standard import length_distribution, length_table, seat_charts, seat_table
from pipeline.analysis.balance.study import Results, Setup, Study, record_game
from pipeline.analysis.balance.tally import Tally, bump
from pipeline.engine import Outcome

SEAT_ONE_WINS = 0.8
MAX_TURNS = 6


class CoinStudy(Study):
    game_id = "coin"
    title = "Coin"
    policies = ("fair", "biased")
    chunk_games = 7
    method = "A coin decides each game."

    def setups(self, *, players: Optional[int] = None, policy: Optional[str] = None) -> list[Setup]:
        return [Setup(f"2p-{name}", f"2 players, {name}", 2, name, 50, (), 0.001)
                for name in self.policies if policy in (None, name) and players in (None, 2)]

    def play(self, setup: Setup, games: int, seed: int) -> Tally:
        rng = random.Random(seed)
        tally: Tally = {}
        chance = SEAT_ONE_WINS if setup.policy == "biased" else 0.5
        for _ in range(games):
            winner = 0 if rng.random() < chance else 1
            turns = rng.randint(1, MAX_TURNS)
            record_game(tally, Outcome("toss", (winner,), (1.0 - winner, float(winner))), turns)
            bump(tally, "turns", turns)
        return tally

    def sections(self, results: Results) -> list[Section]:
        table, flagged = seat_table(results)
        charts = seat_charts(results, group=lambda s: s.players, series=lambda s: s.policy,
                             group_label=lambda n: f"{n} players")
        return [Section("seats", "Seats", "Who wins.", (table, *charts), flagged),
                Section("length", "Length", "How long.", (length_table(results, "turns"),
                                                          length_distribution(results, "turns", "turns")))]
