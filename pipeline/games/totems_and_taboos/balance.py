"""Totems + Taboos' balance study: solo win rates by difficulty and starting colour, multiplayer win rates by
colour and seat, and how often each card is played, by level.

Solo games are played by the look-ahead player (``lookahead``), the one the
rulebook's promises are about (easy: most games won; hard: few), with the
starting colour drawn at random for each game, so every colour is measured.
Multiplayer games are played by the simple player at every seat, colours as
it chooses them. Colours and cards are read from the engine's events
(``start-colour``, ``card-played``, and ``miracle`` for a miracle, resolved when drawn); a game still going after
:data:`MAX_TURNS` turns is cut off and counted unfinished (nobody won it).
``pantheon simulate totems-and-taboos`` and ``pantheon totems-and-taboos
simulate-solo`` play these set-ups through the one simulation path
(:mod:`pipeline.analysis.balance`).
"""
from __future__ import annotations

import random
from typing import Any, Optional

from pipeline.analysis.balance.findings import Bars, Cell, Outlier, Section, Series, Table, outliers
from pipeline.analysis.balance.standard import grouped, length_table, seat_charts, seat_table
from pipeline.analysis.balance.stats import Rate
from pipeline.analysis.balance.study import Results, Setup, Study, record_game
from pipeline.analysis.balance.tally import Tally, bump, count, mean, merged, observe
from pipeline.data.dataset import GameData
from pipeline.engine import Policy, play
from pipeline.games.totems_and_taboos import GAME_ID, TITLE
from pipeline.games.totems_and_taboos.engine import A_COLOUR, Game
from pipeline.games.totems_and_taboos.lookahead import POLICIES
from pipeline.games.totems_and_taboos.model import TotemsModel

MAX_TURNS = 200  # a safety net for a game that never ends (a player that never builds): counted unfinished
SOLO_GAMES = 90  # per difficulty (3 set-ups): about 15 games per starting colour
MULTI_GAMES = 36  # per player count (3 set-ups): the slowest games (cut off at 200 turns)
SOLO_POLICY, MULTI_POLICY = "lookahead", "simple"
SOLO_SECONDS = {"easy": 0.24, "normal": 0.25, "hard": 0.02}  # look-ahead, measured: normal games now last as long as easy ones
MULTI_SECONDS = 0.05  # per player
SOLO, MULTI = "solo", "multiplayer"
PLAY_EVENTS = ("card-played", "miracle")  # a commandment played (or a reaction), a miracle resolved when drawn
COLOUR_GAMES, COLOUR_WINS, PLAYED, PLAYS, TURNS = "colour-games", "colour-wins", "played", "plays", "turns"


def starting_with(colour: str, policy: Policy) -> Policy:
    """``policy``, except that it starts with ``colour``."""
    def chosen(state: Any, rng: random.Random) -> Any:
        actions = state.legal_actions()
        if actions and actions[0].kind == A_COLOUR:
            return next(a for a in actions if a.args[0] == colour)
        return policy(state, rng)
    return chosen


class TotemsStudy(Study):
    game_id = GAME_ID
    title = TITLE
    policies = tuple(POLICIES)
    chunk_games = 5
    method = ("Solo games are played by the look-ahead player (one ply on a solo-aware score; the stronger of the "
              "two players the engine has), its starting colour drawn at random each game. Multiplayer games are "
              "played by the simple greedy player at every seat, choosing its own colours. A game still going after "
              f"{MAX_TURNS} turns is cut off and counted unfinished: nobody won it. Seat 1 plays first.")

    def __init__(self, data: GameData[TotemsModel]) -> None:
        self.model: TotemsModel = data.model
        self.colours = self.model.colour_ids
        self.difficulties = tuple(d.id for d in self.model.solo.difficulties)

    def setups(self, *, players: Optional[int] = None, policy: Optional[str] = None) -> list[Setup]:
        found = []
        if players in (None, 1):
            name = policy or SOLO_POLICY
            found += [Setup(f"solo-{d}-{name}", f"solo, {d}, {name}", 1, name, SOLO_GAMES, (("difficulty", d),),
                            SOLO_SECONDS.get(d, max(SOLO_SECONDS.values())))
                      for d in self.difficulties]
        setup = self.model.setup
        name = policy or MULTI_POLICY
        found += [Setup(f"{n}p-{name}", f"{n} players, {name}", n, name, MULTI_GAMES, (), MULTI_SECONDS * n)
                  for n in range(setup.min_players, setup.max_players + 1) if players in (None, n)]
        return found

    def play(self, setup: Setup, games: int, seed: int) -> Tally:
        difficulty = setup.param("difficulty")
        game = Game.solo_game(self.model, difficulty) if difficulty else Game.multiplayer(self.model, setup.players)
        policy = POLICIES[setup.policy]
        rng = random.Random(seed)
        tally: Tally = {}
        for _ in range(games):
            chosen = starting_with(rng.choice(self.colours), policy) if difficulty else policy
            colours: dict[int, str] = {}
            plays: dict[str, int] = {}
            for state in play(game.new_initial_state(), chosen, rng, until=lambda s: s.turns >= MAX_TURNS):
                for event in state.events:
                    if event.kind == "start-colour":
                        colours[event.get("seat")] = event.subject
                    elif event.kind in PLAY_EVENTS:
                        plays[event.subject] = plays.get(event.subject, 0) + 1
            outcome = state.outcome()
            record_game(tally, outcome, state.turns)
            bump(tally, TURNS, state.turns)
            winners = outcome.winners if outcome else ()
            for seat in range(setup.players):
                bump(tally, COLOUR_GAMES, colours[seat])
                bump(tally, COLOUR_WINS, colours[seat], by=int(seat in winners))
            for card in self.model.cards:
                bump(tally, PLAYED, card.id, by=int(card.id in plays))
                observe(tally, PLAYS, card.id, value=plays.get(card.id, 0))
        return tally

    # ------------------------------------------------------------------ figures
    def sections(self, results: Results) -> list[Section]:
        solo = [s for s in results.setups if s.players == 1]
        multi = [s for s in results.setups if s.players > 1]
        sections = []
        if solo:
            sections.append(self._solo(results, solo))
        if multi:
            sections.append(self._multi(results, multi))
        sections.append(self._cards(results, solo, multi))
        sections.append(Section("length", "Game length", "Turns played and how games end.",
                                (length_table(results, self.length_unit),)))
        return sections

    def _colour_rates(self, tally: Tally) -> list[Rate]:
        return [Rate(count(tally, COLOUR_WINS, c), count(tally, COLOUR_GAMES, c)) for c in self.colours]

    def _solo(self, results: Results, setups: list[Setup]) -> Section:
        rows: list[tuple[Cell, ...]] = []
        flagged: tuple[Outlier, ...] = ()
        series: list[Series] = []
        for setup in setups:
            tally = results.tally(setup)
            games = count(tally, "games")
            by_colour = self._colour_rates(tally)
            rows.append((setup.param("difficulty"), games, Rate(count(tally, "wins", 0), games), *by_colour))
            series.append(Series(setup.param("difficulty"), tuple(by_colour)))
            flagged += outliers(f"starting colours, solo {setup.param('difficulty')}",
                                [(f"{c}, solo {setup.param('difficulty')}", r) for c, r in zip(self.colours, by_colour)])
        table = Table("solo", "Solo win rate by difficulty and starting colour",
                      ("difficulty", "games", "all colours", *self.colours), tuple(rows),
                      "The rulebook calls easy an easy mode to win and says of hard that few have succeeded.")
        chart = Bars("solo-colours", "Solo win rate by starting colour", tuple(self.colours), tuple(series), "games won")
        return Section("solo", "Solo", "Win rates of the look-ahead player, by difficulty and by the colour it "
                       "started with.", (table, chart), flagged)

    def _multi(self, results: Results, setups: list[Setup]) -> Section:
        view = Results(tuple(setups), results.tallies)
        table, flagged = seat_table(view)
        charts = seat_charts(view, group=lambda s: s.players, series=lambda s: s.policy,
                             group_label=lambda n: f"{n} players")
        rows: list[tuple[Cell, ...]] = []
        series: list[Series] = []
        for setup in setups:
            by_colour = self._colour_rates(results.tally(setup))
            rows.append((setup.label, *by_colour))
            series.append(Series(f"{setup.players} players", tuple(by_colour)))
            flagged += outliers(f"colours, {setup.label}", [(f"{c}, {setup.label}", r) for c, r in zip(self.colours, by_colour)
                                                            if r.trials])
        colours = Table("multi-colours", "Win rate by starting colour", ("set-up", *self.colours), tuple(rows),
                        "Of the seats that started with the colour, the share that won.")
        chart = Bars("multi-colours-chart", "Win rate by starting colour", tuple(self.colours), tuple(series), "games won")
        return Section("multiplayer", "Multiplayer", "Win rates by seat and by starting colour; unfinished games "
                       "(cut off) count as won by nobody.", (table, *charts, colours, chart), flagged)

    def _cards(self, results: Results, solo: list[Setup], multi: list[Setup]) -> Section:
        modes = [(SOLO, merged(results.tally(s) for s in solo)), (MULTI, merged(results.tally(s) for s in multi))]
        modes = [(name, tally) for name, tally in modes if count(tally, "games")]
        levels = grouped(sorted(self.model.cards, key=lambda c: (c.level is None, c.level or 0, c.colour, c.id)),
                         lambda c: c.level)
        items: list[Table] = []
        flagged: tuple[Outlier, ...] = ()
        for level, cards in levels.items():
            label = f"level {level}" if level is not None else "no level"
            rows: tuple[tuple[Cell, ...], ...] = tuple(
                (c.name, c.colour, *(x for _, t in modes for x in (Rate(count(t, PLAYED, c.id), count(t, "games")), mean(t, PLAYS, c.id))))
                for c in cards)
            header = ("card", "colour", *(x for name, _ in modes for x in (f"{name}: played in", f"{name}: plays per game")))
            items.append(Table(f"cards-{label}", f"Cards of {label}", header, rows))
            for name, tally in modes:
                flagged += outliers(f"cards of {label}, {name}", [(f"{c.name} ({name})", Rate(count(tally, PLAYED, c.id),
                                                                                                count(tally, "games")))
                                                                   for c in cards])
        summary: tuple[tuple[Cell, ...], ...] = tuple((f"level {lv}" if lv is not None else "no level", len(cards),
                         *(sum(mean(t, PLAYS, c.id).total for c in cards) / max(1, count(t, "games")) for _, t in modes))
                        for lv, cards in levels.items())
        overview = Table("levels", "Plays per game by level", ("level", "cards", *(f"{name}: plays per game" for name, _ in modes)),
                         summary)
        return Section("cards", "Cards played, by level", "How often each card is played (reactions included; a "
                       "miracle counts when it is drawn and resolved), per game, in solo and multiplayer games. Solo "
                       "removes some levels from the decks.",
                       (overview, *items), flagged)


def study(game: GameData[TotemsModel]) -> TotemsStudy:
    """Totems + Taboos' balance study from its validated data."""
    return TotemsStudy(game)
