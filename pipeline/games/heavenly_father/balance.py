"""Who's Your Heavenly Father?'s balance study: win rates by seat, by the One True God and by seat under each
True God, and how often each Moral Dilemma and Philosopher matters to the final score.

Every player plays random legal actions (no player knows the True God; a
random player does not even guess). What happened is read from the engine's
events: ``dilemma-scored`` (the tokens a settled dilemma gave and took),
``third-option`` / ``choice-dictated`` / ``virtues-randomized`` (a
Philosopher invoked on a dilemma), ``philosopher-played`` and
``judgment-day`` (the True God, the scores, the winners).

**Matters.** A card matters in a game when Judgment Day would crown a
different set of winners had the token changes of the dilemma settlements it
took part in not happened: for a dilemma, its own settlement; for a
Philosopher, every settlement it was invoked on. Each player's tokens are
replayed from the starting tokens through their settlements in order (gains,
then losses, never below zero, as the engine does), once with every
settlement and once without the card's; the True God judges both.
Philosophers that never change tokens (peeking, revealing, cancelling,
extra actions) cannot matter by this measure; their play rate and how often
their player won are shown instead.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence

from pipeline.analysis.balance.findings import Bars, Outlier, Section, Series, Table, outliers
from pipeline.analysis.balance.standard import length_table, seat_charts, seat_table
from pipeline.analysis.balance.stats import Rate
from pipeline.analysis.balance.study import GAMES, SHARED, WINS, Results, Setup, Study, record_game
from pipeline.analysis.balance.tally import Tally, bump, count, folder, mean, merged, observe
from pipeline.data.dataset import GameData
from pipeline.engine import play, random_policy
from pipeline.games.heavenly_father import GAME_ID, TITLE
from pipeline.games.heavenly_father.engine import P_MAX, P_MIN, Game, apply_tokens, judge
from pipeline.games.heavenly_father.model import Consequence, HeavenlyFatherModel

DEFAULT_GAMES = 240  # per player count (5 set-ups): each dilemma is settled in about 200 games
MAX_ACTIONS = 5_000
SECONDS_PER_GAME = 0.0012  # per player, CPU, measured (bench/balance_report.py)
POLICY = "random"
INVOKED_ON = ("third-option", "choice-dictated", "virtues-randomized")  # a Philosopher used on a dilemma's outcome
SETTLED, MATTERS, PLAYED, INVOKED, PLAYER_WON = "settled", "matters", "played", "invoked", "player-won"
GOD, GOD_SHARED, GOD_TOP, GOD_WINS, TURNS = "true-god", "true-god-shared", "true-god-top", "true-god-wins", "turns"


@dataclass(frozen=True)
class Settlement:
    """One dilemma settled: who chose, and the tokens it gave and took."""

    dilemma: str
    chooser: int
    change: Consequence


def final_tokens(start: Mapping[str, int], players: int, settlements: Sequence[Settlement],
                 skipped: frozenset[str] = frozenset()) -> list[dict[str, int]]:
    """Each player's tokens after their settlements in order, leaving out the dilemmas in ``skipped``."""
    holdings = [dict(start) for _ in range(players)]
    for settled in settlements:
        if settled.dilemma not in skipped:
            holdings[settled.chooser] = apply_tokens(holdings[settled.chooser], settled.change)
    return holdings


def settlement_of(event: Any) -> Settlement:
    """The settlement a ``dilemma-scored`` event records."""
    return Settlement(event.subject, event.get("chooser"), Consequence(dict(event.get("gain")), dict(event.get("lose"))))


class HeavenlyFatherStudy(Study):
    game_id = GAME_ID
    title = TITLE
    policies = (POLICY,)
    chunk_games = 25
    method = ("Every player takes a uniformly random legal action, so these figures show what the cards do on "
              "their own, not what a player who reads the table makes of them. Seat 1 plays first. A card "
              "**matters** in a game when Judgment Day would crown a different set of winners had the token changes "
              "of the dilemma settlements it took part in not happened (a dilemma: its own; a Philosopher: those it "
              "was invoked on), replaying every player's tokens from the start.")

    def __init__(self, data: GameData[HeavenlyFatherModel]) -> None:
        self.model: HeavenlyFatherModel = data.model
        low, high = self.model.parameters[P_MIN], self.model.parameters[P_MAX]
        self.games = {n: Game.from_model(self.model, n) for n in range(low, high + 1)}

    def setups(self, *, players: Optional[int] = None, policy: Optional[str] = None) -> list[Setup]:
        if policy not in (None, POLICY):
            return []
        return [Setup(f"{n}p", f"{n} players", n, POLICY, DEFAULT_GAMES, (), SECONDS_PER_GAME * n)
                for n in self.games if players in (None, n)]

    def play(self, setup: Setup, games: int, seed: int) -> Tally:
        game = self.games[setup.players]
        start_tokens = {virtue: game.starting_tokens for virtue in game.virtues}
        rng = random.Random(seed)
        tally: Tally = {}
        for _ in range(games):
            settlements: list[Settlement] = []
            invoked: dict[str, set[str]] = {}
            played: dict[str, set[int]] = {}
            judged = None
            turns = 0
            for state in play(game.new_initial_state(), random_policy, rng, max_actions=MAX_ACTIONS):
                for event in state.events:
                    if event.kind == "dilemma-scored":
                        settlements.append(settlement_of(event))
                    elif event.kind in INVOKED_ON:
                        invoked.setdefault(event.subject, set()).add(event.get("dilemma"))
                    elif event.kind == "philosopher-played":
                        played.setdefault(event.subject, set()).add(event.get("player"))
                    elif event.kind == "judgment-day":
                        judged = event
                    elif event.kind == "turn-ended":
                        turns += 1
            outcome = state.outcome()
            record_game(tally, outcome, turns)
            if judged is None or outcome is None:
                continue
            self._judge(tally, game, start_tokens, judged, settlements, invoked, played, outcome.winners)
        return tally

    def _judge(self, tally: Tally, game: Game, start: Mapping[str, int], judged: Any, settlements: list[Settlement],
               invoked: Mapping[str, set[str]], played: Mapping[str, set[int]], winners: tuple[int, ...]) -> None:
        god = game.gods[judged.subject]
        bump(tally, GOD, judged.subject)
        bump(tally, GOD_SHARED, judged.subject, by=int(len(winners) > 1))
        for seat in winners:
            bump(tally, GOD_WINS, judged.subject, seat)
        observe(tally, GOD_TOP, judged.subject, value=max(judged.get("scores")))

        def crowned(skipped: frozenset[str]) -> tuple[int, ...]:
            return judge(god, final_tokens(start, game.num_players, settlements, skipped)).winners

        replayed = crowned(frozenset())  # the engine's winners (the tests hold the replay to the engine's tokens)

        def changes_winners(skipped: frozenset[str]) -> bool:
            return crowned(skipped) != replayed

        for settled in {s.dilemma for s in settlements}:
            bump(tally, SETTLED, settled)
            bump(tally, MATTERS, settled, by=int(changes_winners(frozenset({settled}))))
        for card, players in played.items():
            bump(tally, PLAYED, card)
            bump(tally, PLAYER_WON, card, by=int(bool(players & set(winners))))
        for card, dilemmas in invoked.items():
            bump(tally, INVOKED, card)
            bump(tally, MATTERS, card, by=int(changes_winners(frozenset(dilemmas))))

    # ------------------------------------------------------------------ figures
    def sections(self, results: Results) -> list[Section]:
        total = merged(results.tally(s) for s in results.setups)
        return [self._seats(results), self._gods(total), self._seats_by_god(results), self._dilemmas(total),
                self._philosophers(total), self._length(results)]

    def _seats(self, results: Results) -> Section:
        table, flagged = seat_table(results)
        charts = seat_charts(results, group=lambda s: s.players, series=lambda s: s.policy,
                             group_label=lambda n: f"{n} players")
        return Section("seats", "Seats", "How often each seat wins, per player count (ties share the win).",
                       (table, *charts), flagged)

    def _gods(self, total: Tally) -> Section:
        judged = sum(count(total, GOD, g.id) for g in self.model.gods)
        rows = tuple((g.name, Rate(count(total, GOD, g.id), judged), Rate(count(total, GOD_SHARED, g.id), count(total, GOD, g.id)),
                      mean(total, GOD_TOP, g.id)) for g in self.model.gods)
        table = Table("true-god", "Games by the One True God", ("One True God", "true god in", "shared victories",
                                                                "winning score"), rows,
                      "True god in: the share of judged games with this god in the envelope (a fair shuffle gives "
                      f"each of the {len(self.model.gods)} gods the same share). Every player count together.")
        shared = [(g.name, Rate(count(total, GOD_SHARED, g.id), count(total, GOD, g.id))) for g in self.model.gods]
        chart = Bars("true-god-shared", "Games ending in a shared victory, by the True God", tuple(n for n, _ in shared),
                     (Series("shared victories", tuple(r for _, r in shared)),), "share of games", horizontal=True)
        return Section("gods", "The One True God", "What each god as the True God does to the end of the game: how "
                       "often players tie on top, and the winning score.", (table, chart),
                       outliers("True Gods, shared victories", shared) +
                       outliers("True Gods, winning score", [(r[0], r[3]) for r in rows]))

    def _seats_by_god(self, results: Results) -> Section:
        """Seat win rates per player count and True God: a set-up per (player count, god), its games those the
        god judged, so the standard seat table flags a seat far from the rest under that god."""
        setups: list[Setup] = []
        tallies: dict[str, Tally] = {}
        for setup in results.setups:
            tally = results.tally(setup)
            for god in self.model.gods:
                made = Setup(f"{setup.id}-{god.id}", f"{setup.players} players, {god.name}", setup.players,
                             setup.policy, setup.games, (("true-god", god.id),))
                setups.append(made)
                tallies[made.id] = {GAMES: count(tally, GOD, god.id), WINS: dict(folder(tally, GOD_WINS, god.id)),
                                    SHARED: count(tally, GOD_SHARED, god.id)}
        by_god = Results(tuple(setups), tallies)
        table, flagged = seat_table(by_god, id="seat-wins-by-god", title="Win rate by seat, per One True God")
        chart, edge = self._first_and_last(results)
        games = min((count(results.tally(s), GOD, g.id) for s in results.setups for g in self.model.gods), default=0)
        return Section("seats-by-god", "Seats under each True God",
                       "Whether a True God favours a seat: the first and last seat's win rates under each god (every "
                       "player count together), then each seat's win rate in the games that god judged, per "
                       f"player count. Each table cell rests on about a tenth of a player count's games (at least {games} "
                       "here), so its interval is wide: only a large lean is flagged (more games per set-up narrow them).",
                       (chart, table), flagged + edge)

    def _first_and_last(self, results: Results) -> tuple[Bars, tuple[Outlier, ...]]:
        """The first and the last seat's win rates under each True God, every player count together (about
        five times the games of one table row); the reference is their fair share in that mix of counts."""
        series: dict[str, list[Rate]] = {"seat 1 (plays first)": [], "last seat": []}
        for god in self.model.gods:
            games = sum(count(results.tally(s), GOD, god.id) for s in results.setups)
            for name, seat_of in (("seat 1 (plays first)", lambda players: 0), ("last seat", lambda players: players - 1)):
                won = sum(count(results.tally(s), GOD_WINS, god.id, seat_of(s.players)) for s in results.setups)
                series[name].append(Rate(won, games))
        games = sum(count(results.tally(s), GOD, g.id) for s in results.setups for g in self.model.gods)
        fair = sum(count(results.tally(s), GOD, g.id) / s.players for s in results.setups for g in self.model.gods)
        fair = fair / games if games else 0.0
        names = tuple(g.name for g in self.model.gods)
        chart = Bars("first-last-seat-by-god", "First and last seat's win rate under each True God", names,
                     tuple(Series(name, tuple(rates)) for name, rates in series.items()), "games won",
                     horizontal=True, references=((fair, f"fair share {fair:.0%} (every player count)"),),
                     note="Every player count together: a seat's fair share is 1 / players, averaged over the games.")
        flagged = tuple(o for name, rates in series.items()
                        for o in outliers(f"True Gods, {name} wins", list(zip(names, rates))))
        return chart, flagged

    def _dilemmas(self, total: Tally) -> Section:
        dilemmas = self.model.dilemmas
        games = count(total, "games")
        matters = [(d.title, Rate(count(total, MATTERS, d.id), count(total, SETTLED, d.id))) for d in dilemmas]
        rows = tuple((d.title, Rate(count(total, SETTLED, d.id), games), rate) for d, (_, rate) in zip(dilemmas, matters))
        table = Table("dilemmas", "How often each Moral Dilemma matters", ("Moral Dilemma", "settled in",
                                                                           "matters when settled"), rows,
                      "Settled in: the share of all games in which the dilemma was settled (chosen, not prayed away "
                      "unresolved). Matters: of those games, the share in which leaving out its tokens changes who "
                      "wins.", (3.0, 1.5, 1.5))
        chart = Bars("dilemmas-matter", "Games in which each Moral Dilemma decides the winner (when settled)",
                     tuple(n for n, _ in matters), (Series("matters", tuple(r for _, r in matters)),),
                     "share of the games it was settled in", horizontal=True)
        return Section("dilemmas", "Moral Dilemmas", "How often each dilemma is settled, and how often its tokens "
                       "decide who wins.", (table, chart), outliers("Moral Dilemmas, matters", matters))

    def _philosophers(self, total: Tally) -> Section:
        games = count(total, "games")
        kinds = {k.id: k.name for k in self.model.philosopher_kinds}
        rows = []
        for card in self.model.philosophers:
            played = count(total, PLAYED, card.id)
            invoked = count(total, INVOKED, card.id)
            rows.append((card.name, kinds[card.kind], Rate(played, games), Rate(count(total, PLAYER_WON, card.id), played),
                         Rate(invoked, games) if invoked else None,
                         Rate(count(total, MATTERS, card.id), invoked) if invoked else None))
        table = Table("philosophers", "Each Philosopher", ("Philosopher", "kind", "played in", "its player won",
                                                           "invoked on a dilemma in", "matters when invoked"),
                      tuple(rows), "Its player won: of the games it was played in, the share won by a player who "
                      "played it. A kind that never changes tokens is never invoked on a dilemma, so cannot matter "
                      "(–).", (1.6, 1.4, 1.3, 1.3, 1.3, 1.3))
        by_kind = []
        for kind in self.model.philosopher_kinds:
            cards = [c.id for c in self.model.philosophers if c.kind == kind.id]
            played = sum(count(total, PLAYED, c) for c in cards)
            by_kind.append((kind.name, Rate(sum(count(total, PLAYER_WON, c) for c in cards), played)))
        chart = Bars("philosophers-won", "Games won by a player who played each kind of Philosopher",
                     tuple(n for n, _ in by_kind), (Series("player won", tuple(r for _, r in by_kind)),),
                     "share of the games it was played in", horizontal=True)
        return Section("philosophers", "Philosophers", "How often each Philosopher is played, whether its player "
                       "goes on to win, and (for those that change a dilemma's outcome) how often that decides the "
                       "winner.", (table, chart), outliers("Philosopher kinds, player won", by_kind))

    def _length(self, results: Results) -> Section:
        return Section("length", "Game length", "Turns played before Judgment Day, and how it came: called by a "
                       "player or forced by the empty draw pile.", (length_table(results, self.length_unit),))


def study(game: GameData[HeavenlyFatherModel]) -> HeavenlyFatherStudy:
    """Who's Your Heavenly Father?'s balance study from its validated data."""
    return HeavenlyFatherStudy(game)
