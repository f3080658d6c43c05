"""Monstrous Wars: a campaign of several games whose Faith is added up, as one engine state.

A :class:`Campaign` is a kit state that plays the campaign's games one after
another on the Monstrous engine. Between games it draws the next scenario (a
chance event over the scenarios of the next level of complexity: Wars rule 1)
unless the campaign was given its scenarios; each game after the first is set
up with the previous winner's swaps (rules 2 and 3, decided inside that
game's setup, see ``engine._wars_locations`` / ``_wars_monsters``); every
game's final scores are added up (rule 4) and the highest total wins.
Team Wars plays the same campaign in teams, without rule 3.

:class:`WarsGame` is the campaign's set-up (seats or teams, young gods,
scenarios) and what restores a serialised campaign.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Hashable, Mapping, Optional

from pipeline.engine import Decision, Event, IllegalAction, Outcome, State
from pipeline.engine.types import TERMINAL_DECISION
from pipeline.games.monstrous import GAME_ID
from pipeline.games.monstrous.engine import Action, EngineError, Game
from pipeline.games.monstrous.engine import State as GameState
from pipeline.games.monstrous.variants import SWAP_LOCATION, SWAP_MONSTERS, TEAM_WARS, TOTAL_FAITH, WARS, Table, Wars

SCENARIO, PLAY, OVER = "scenario", "play", "over"
SCENARIO_ACTION = "scenario"


@dataclass(frozen=True)
class WarsGame:
    """One campaign's set-up: gods (or teams) in turn order, young gods, and optionally its scenarios."""

    game: Game
    seats: tuple[str, ...] = ()  # gods in turn order (empty in a team campaign)
    teams: tuple[str, ...] = ()  # God Board colours of a Team Wars campaign, in turn order
    young_gods: frozenset[str] = frozenset()
    scenarios: Optional[tuple[str, ...]] = None  # one per game; None: drawn at random, level by level

    def __post_init__(self) -> None:
        if bool(self.seats) == bool(self.teams):
            raise EngineError("a Wars campaign is played by gods or by teams (one of the two)")
        if self.scenarios is not None:
            known = {s.id for s in self.game.model.scenarios}
            for scenario in self.scenarios:
                if scenario not in known:
                    raise EngineError(f"scenario '{scenario}' does not exist")
            if len(self.scenarios) != self.rules.games:
                raise EngineError(f"a Wars campaign is {self.rules.games} games: give {self.rules.games} scenarios")
        first = self.first_game_table()
        players = self.players
        unknown = sorted(set(self.young_gods) - set(players))
        if unknown:
            raise EngineError(f"young god {unknown[0]} has no seat")
        if first.teams:
            self.game._check_teams(first.teams)

    @property
    def rules(self) -> Wars:
        return self.game.variants.team_wars if self.teams else self.game.variants.wars

    @property
    def players(self) -> tuple[str, ...]:
        return self.game.team_players(self.teams) if self.teams else self.seats

    def god_of(self, seat: int) -> str:
        """The god (a team's God Board colour) playing at ``seat``."""
        if not self.teams:
            return self.seats[seat]
        return next(team for team in self.teams if self.players[seat] in self.game.team_players((team,)))

    def first_game_table(self) -> Table:
        return Table(young_gods=self.young_gods, teams=self.teams, swap_monsters=SWAP_MONSTERS in self.rules.rules)

    def levels(self) -> tuple[str, ...]:
        """The scenario difficulties in data order, least complex first (rule 1: one per game)."""
        return tuple(dict.fromkeys(s.difficulty for s in self.game.model.scenarios))

    def scenarios_for(self, number: int) -> list[str]:
        """The scenarios game ``number`` (from 0) may be played on: the next level of complexity."""
        levels = self.levels()
        level = levels[min(number, len(levels) - 1)]
        return [s.id for s in self.game.model.scenarios if s.difficulty == level]

    def locations(self, scenario: str) -> tuple[str, ...]:
        found = next(s for s in self.game.model.scenarios if s.id == scenario)
        return tuple(found.layout.values())

    def new_initial_state(self) -> "Campaign":
        return Campaign(self)._opened()

    def setup(self) -> dict[str, Any]:
        return {"campaign": TEAM_WARS if self.teams else WARS, "seats": list(self.seats), "teams": list(self.teams),
                "young_gods": sorted(self.young_gods),
                "scenarios": list(self.scenarios) if self.scenarios is not None else None}

    def state_from_setup(self, setup: Mapping[str, Any]) -> "Campaign":
        """The first state of a serialised campaign (its set-up must be this campaign's)."""
        if dict(setup) != self.setup():
            raise IllegalAction(f"a campaign set up as {dict(setup)} cannot be restored as {self.setup()}")
        return self.new_initial_state()


@dataclass
class Campaign(State[Action]):
    """A Monstrous Wars campaign between (or during) its games; ``apply_action`` returns the next state."""

    game_id = GAME_ID

    wars: WarsGame
    stage: str = SCENARIO
    number: int = 0  # the game being played (or about to be), from 0
    inner: Optional[GameState] = None
    totals: tuple[int, ...] = ()  # per seat: Faith added up over the games played
    results: tuple[tuple[int, ...], ...] = ()  # per game: each seat's final score
    winner: Optional[str] = None  # the last game's single winning god (team colour), who makes the swaps

    @property
    def num_players(self) -> int:
        return len(self.wars.players)

    def _opened(self) -> "Campaign":
        self.totals = (0,) * self.num_players
        events = self._begin_game_if_known()
        return self._started(self.wars.setup(), events)

    # ---- the kit's interface
    def _decide(self) -> Decision[Action]:
        if self.stage == OVER:
            return TERMINAL_DECISION
        if self.stage == SCENARIO:
            options = self.wars.scenarios_for(self.number)
            return Decision.chance((f"{SCENARIO_ACTION} {s}", Fraction(1, len(options))) for s in options)
        assert self.inner is not None
        return self.inner.decision()

    def outcome(self) -> Optional[Outcome]:
        if self.stage != OVER:
            return None
        best = max(self.totals)
        winners = tuple(seat for seat, total in enumerate(self.totals) if total == best)
        names = ", ".join(dict.fromkeys(self.wars.god_of(seat) for seat in winners))
        return Outcome(TOTAL_FAITH, winners, self.totals,
                       f"Most Monstrous God of War: {names}, with {best} Faith over {len(self.results)} games")

    def key(self) -> Hashable:
        return (self.stage, self.number, self.totals, self.results, self.winner,
                self.inner.key() if self.inner is not None else None)

    def _copy(self) -> "Campaign":
        other = Campaign.__new__(Campaign)
        other.__dict__.update(self.__dict__)  # the kit's record (history, events) comes along; the game is cloned
        other.inner = self.inner.clone() if self.inner is not None else None
        return other

    def _successor(self, action: Action) -> "Campaign":
        after = Campaign(self.wars, self.stage, self.number, self.inner, self.totals, self.results, self.winner)
        if self.stage == SCENARIO:
            events = after._begin_game(str(action).split(" ", 1)[1])
        else:
            assert self.inner is not None
            after.inner = self.inner.apply_action(action)
            events = tuple(after.inner.events) + after._close_game_if_over()
        object.__setattr__(after, "events", events)
        return after

    def _conditioned(self, outcome: Action) -> "Campaign":
        """A declared landing of the game being played."""
        if self.stage != PLAY or self.inner is None:
            raise IllegalAction("only a throw's landing can be declared")
        after = self._copy()
        after.inner = self.inner.condition(outcome)
        return after

    def action_from_string(self, text: str) -> Action:
        if self.stage == PLAY and self.inner is not None:
            return self.inner.action_from_string(text)
        return super().action_from_string(text)

    # ---- the campaign's own steps
    def _begin_game_if_known(self) -> tuple[Event, ...]:
        if self.wars.scenarios is None:
            self.stage = SCENARIO
            return ()
        return self._begin_game(self.wars.scenarios[self.number])

    def _begin_game(self, scenario: str) -> tuple[Event, ...]:
        """Lay out game ``number`` on ``scenario``; the previous winner's swaps are its first decisions."""
        table = self.wars.first_game_table()
        if self.winner is not None and SWAP_LOCATION in self.wars.rules.rules:
            table = Table(table.young_gods, table.teams, self.winner, table.swap_monsters)
        game, locations = self.wars.game, self.wars.locations(scenario)
        self.inner = (game.new_team_state(self.wars.teams, locations, table=table) if self.wars.teams
                      else game.new_initial_state(self.wars.seats, locations, table=table))
        self.stage = PLAY
        opening = Event.of("wars_game", scenario, game=self.number + 1, swaps_by=self.winner)
        return (opening, *self.inner.events)

    def _close_game_if_over(self) -> tuple[Event, ...]:
        """Rule 4 when the game being played is over: add its final scores (ruling wars-game-faith)."""
        assert self.inner is not None
        outcome = self.inner.outcome()
        if outcome is None:
            return ()
        scores = tuple(int(s) for s in outcome.scores)
        self.results = self.results + (scores,)
        self.totals = tuple(t + s for t, s in zip(self.totals, scores))
        gods = {self.wars.god_of(seat) for seat in outcome.winners}
        self.winner = gods.pop() if len(gods) == 1 else None  # ruling wars-tied-winner
        self.number += 1
        self.inner = None
        closing = Event.of("wars_scored", self.number, scores=scores, totals=self.totals, winner=self.winner)
        if self.number >= self.wars.rules.games:
            self.stage = OVER
            return (closing,)
        return (closing, *self._begin_game_if_known())

