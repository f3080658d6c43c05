"""Theocracy's balance study: seat wins and scores by player count and policy, the rule that decides each bid,
and how long games last.

Every seat plays the same policy, declared here (:data:`POLICIES`), and
``pantheon simulate theocracy`` and ``pantheon theocracy simulate`` play the
set-ups below through the one simulation path (:mod:`pipeline.analysis.balance`):

- ``random``: a uniformly random legal action;
- ``greedy``: a simple heuristic that looks only at what its seat may know
  (its own hand and bid, the table, the revealed die), never at hidden bids.

What a bid's revelation decided is read from the engine's ``bid-won`` /
``bid-drawn`` events (their ``rule``); rounds from its ``new-round`` events.
"""
from __future__ import annotations

import random
from typing import Optional

from pipeline.analysis.balance.findings import Bars, Cell, Section, Series, Table
from pipeline.analysis.balance.standard import distribution, grouped, length_distribution, length_table, seat_charts, seat_name, seat_table
from pipeline.analysis.balance.stats import Rate
from pipeline.analysis.balance.study import Results, Setup, Study, record_game
from pipeline.analysis.balance.tally import Tally, bump, count, folder, mean, observe
from pipeline.data.dataset import GameData
from pipeline.engine import Policy, play, random_policy
from pipeline.games.theocracy import GAME_ID, TITLE
from pipeline.games.theocracy.engine import (
    BID_RULE_IDS,
    RULE_HIGHER,
    RULE_OUROBOROS,
    RULE_RUIN,
    RULE_RUIN_VOID,
    RULE_TIE,
    RULE_UPSET,
    Action,
    ActionKind,
    Game,
    Stage,
    State,
)
from pipeline.games.theocracy.model import TheocracyModel

DEFAULT_GAMES = 300  # per set-up (6 set-ups): seat rates within about +/- 6 points
SECONDS_PER_GAME = 0.0025  # per player, CPU, measured (bench/balance_report.py)
BID_EVENTS = ("bid-won", "bid-drawn")
RULE_NAMES = {RULE_HIGHER: "higher card", RULE_UPSET: "1 beats 5", RULE_TIE: "tie (2 players)", RULE_RUIN: "Ruin",
              RULE_RUIN_VOID: "Ruin leaves nothing", RULE_OUROBOROS: "Ouroboros"}
ROUNDS, BIDS, RULES, SCORES, SCORE = "rounds", "bids", "rules", "scores", "score"
GREEDY_NUDGES = (-1, 0, 0, 1)  # how far a greedy bid may stray from the die's rank


def _die_worth(state: State, believer: int) -> int:
    die = state.die_on[believer]
    return 0 if die is None else state.die_values[die] or 0


def greedy_policy(state: State, rng: random.Random) -> Action:
    """Bid in proportion to the die, prophesy only a sure-looking win, give and lose cheaply."""
    actions = state.legal_actions()
    seat = state.current_player()
    if state.stage is Stage.BID:
        return _greedy_bid(state, actions, rng)
    if state.stage is Stage.OMEN:
        own = state.bids[seat]
        best = max(state.game.power_values)
        sure = Action(ActionKind.PROPHESY, seat, "win")
        return sure if own == best and sure in actions else Action(ActionKind.PASS)
    if state.stage is Stage.CHOOSE_GIVER:
        return max(actions, key=lambda a: (state.round_score(a.value or 0), rng.random()))
    if state.stage in (Stage.GIVE, Stage.LOSE):
        return min(actions, key=lambda a: _die_worth(state, a.value or 0))
    return actions[0]


def _greedy_bid(state: State, actions: list[Action], rng: random.Random) -> Action:
    """Match the die's rank among the faces with the card's rank in hand, give or take one card.

    The random nudge keeps identical greedy players from always tying.
    """
    faces = state.game.die_faces
    die = state.die_values[state.turn] or faces[0]
    rank = (die - faces[0]) / max(1, faces[-1] - faces[0])
    index = round(rank * (len(actions) - 1)) + rng.choice(GREEDY_NUDGES)
    return actions[min(max(index, 0), len(actions) - 1)]


POLICIES: dict[str, Policy] = {"random": random_policy, "greedy": greedy_policy}  # in the report's order


class TheocracyStudy(Study):
    game_id = GAME_ID
    title = TITLE
    policies = tuple(POLICIES)
    length_unit = "rounds"
    chunk_games = 25
    method = ("Every seat plays the same policy: **random** (a uniformly random legal action) or **greedy** (bids in "
              "proportion to the die, prophesies only a sure-looking win). Seat 1 is First in the first round; roles "
              "then rotate as the rules say. Chance (dice, fate) is drawn with the engine's exact probabilities.")

    def __init__(self, game: GameData[TheocracyModel]) -> None:
        model = game.model
        self.games = {n: Game.from_model(model, n) for n in model.player_counts}

    def setups(self, *, players: Optional[int] = None, policy: Optional[str] = None) -> list[Setup]:
        return [Setup(f"{n}p-{name}", f"{n} players, {name}", n, name, DEFAULT_GAMES,
                      (("players", n),), SECONDS_PER_GAME * n)
                for n in self.games if players in (None, n)
                for name in self.policies if policy in (None, name)]

    def play(self, setup: Setup, games: int, seed: int) -> Tally:
        game, policy = self.games[setup.players], POLICIES[setup.policy]
        rng = random.Random(seed)
        tally: Tally = {}
        for _ in range(games):
            rounds = 1
            for state in play(game.new_initial_state(), policy, rng):
                for event in state.events:
                    if event.kind in BID_EVENTS:
                        bump(tally, BIDS)
                        bump(tally, RULES, event.get("rule"))
                    elif event.kind == "new-round":
                        rounds += 1
            outcome = state.outcome()
            record_game(tally, outcome, rounds)
            bump(tally, ROUNDS, rounds)
            for seat, score in enumerate(outcome.scores if outcome else ()):
                bump(tally, SCORES, int(score))
                observe(tally, SCORE, seat, value=int(score))
        return tally

    def sections(self, results: Results) -> list[Section]:
        return [self._seats(results), self._scores(results), self._bids(results), self._length(results)]

    def _seats(self, results: Results) -> Section:
        table, flagged = seat_table(results)
        charts = seat_charts(results, group=lambda s: s.players, series=lambda s: s.policy,
                             group_label=lambda n: f"{n} players")
        return Section("seats", "Seats", "How often each seat wins, per player count and policy. The dashed line is "
                       "the fair share (one game in as many as there are players).", (table, *charts), flagged)

    def _scores(self, results: Results) -> Section:
        most = max(s.players for s in results.setups)
        rows = tuple((s.label, *(mean(results.tally(s), SCORE, seat) if seat < s.players else None for seat in range(most)))
                     for s in results.setups)
        table = Table("scores", "Mean final eternal memory by seat", ("set-up", *(seat_name(i) for i in range(most))), rows)
        lines = [distribution(f"score-distribution-{n}", f"Final scores, {n} players (every seat)",
                              [(s.policy, folder(results.tally(s), SCORES)) for s in members], "eternal memory",
                              "share of seats")
                 for n, members in grouped(results.setups, lambda s: s.players).items()]
        return Section("scores", "Scores", "Eternal memory at the end of the game: its mean per seat, and how it is "
                       "spread over every seat's final score.", (table, *lines))

    def _bids(self, results: Results) -> Section:
        rows: list[tuple[Cell, ...]] = []
        for setup in results.setups:
            tally = results.tally(setup)
            bids = count(tally, BIDS)
            rows.append((setup.label, bids, *(Rate(count(tally, RULES, rule), bids) for rule in BID_RULE_IDS)))
        table = Table("bid-rules", "Share of bids decided by each rule", ("set-up", "bids",
                      *(RULE_NAMES[r] for r in BID_RULE_IDS)), tuple(rows),
                      "Ruin removes every card bid twice or more; with two players an equal pair is a plain tie. The "
                      "bids of one game are not independent trials, so these intervals are somewhat too narrow.")
        charts = []
        for name, members in grouped(results.setups, lambda s: s.policy).items():
            series = tuple(Series(f"{s.players} players", tuple(Rate(count(results.tally(s), RULES, r), count(results.tally(s), BIDS))
                                                                  for r in BID_RULE_IDS)) for s in members)
            charts.append(Bars(f"bid-rules-{name}", f"Which rule decides a bid, {name} play",
                               tuple(RULE_NAMES[r] for r in BID_RULE_IDS), series, "share of bids"))
        return Section("bids", "What decides a bid", "Each revelation is decided by one rule (the engine's record of "
                       "the bid). Higher card and 1-beats-5 need a card that beats every other card left after Ruin; "
                       "Ouroboros is a circle of wins, a draw.", (table, *charts))

    def _length(self, results: Results) -> Section:
        lines = [length_distribution(results, ROUNDS, self.length_unit, setups=members, id=f"rounds-{name}",
                                     title=f"Game length in rounds, {name} play")
                 for name, members in grouped(results.setups, lambda s: s.policy).items()]
        return Section("length", "Game length", "Rounds played (the round a game ends in included), and how games "
                       "end: a seat reaching transcendence, or the fate roll.",
                       (length_table(results, self.length_unit), *lines))


def study(game: GameData[TheocracyModel]) -> TheocracyStudy:
    """Theocracy's balance study from its validated data."""
    return TheocracyStudy(game)
