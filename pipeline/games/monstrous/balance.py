"""Monstrous' balance study: Faith by seat and player count, what each Monster and Location is worth when
played, how often traps spring, per variant.

Every god throws a random card on a random side; where it lands is drawn
from the engine's crude physical model of a throw (``LandingModel``), not
from skill. Each game is laid out as a scenario of the data drawn at random,
so every Location is met. A throw runs from its ``throw`` event to the next
throw or pass: the thrower's net Faith over it (``gain_faith``, and
``take_faith`` to or from the thrower) is what that throw was worth; the
Locations it landed on come from its landing (the chance action that
follows the throw).

Variants: the data lists them (``variants.yaml``); :data:`PLAYED_BY_ENGINE`
says how the engine plays each one it can. A variant the engine learns is
one entry there; the report's figures then cover it with no other change.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional

from pipeline.core.balance.figures import Bars, Section, Series, Table, Text, outliers
from pipeline.core.balance.standard import grouped, length_table, seat_charts, seat_name, seat_table
from pipeline.core.balance.stats import Mean, Rate
from pipeline.core.balance.study import Results, Setup, Study, record_game
from pipeline.core.balance.tally import Tally, bump, count, mean, merged, observe
from pipeline.core.dataset import GameData
from pipeline.core.engine import play, random_policy
from pipeline.games.monstrous import GAME_ID, TITLE
from pipeline.games.monstrous.engine import GAIN_FAITH, MONSTER_POWERS, TRAPS, Game, Landing
from pipeline.games.monstrous.model import MonstrousModel, Variant, build

DEFAULT_GAMES = 60  # per variant and player count (8 set-ups); about 14,000 throws for the card figures
MAX_ACTIONS = 5_000
SECONDS_PER_GAME = 0.02  # per god
STANDARD = "standard"
POLICY = "random"
FAITH, POWER, LOCATION, SEAT_FAITH, TRAP, TRAP_GAIN, THROWS, TURNS = (
    "faith", "power", "location", "seat-faith", "trap", "trap-gain", "throws", "turns")

# How the engine plays a variant of the data: the keyword arguments of Game.new_initial_state it needs.
PLAYED_BY_ENGINE: dict[str, Callable[[Variant], dict[str, Any]]] = {
    "epic": lambda variant: {"underworld_cards": variant.changes["setup_underworld"]},
}


@dataclass
class _Throw:
    """The throw being followed: who threw which card on which side, where it landed, what it was worth."""

    thrower: str
    card: str
    side: str
    locations: tuple[str, ...] = ()
    landed: bool = False
    net: int = 0
    power: int = 0
    trap: bool = False
    trap_gain: int = 0


class MonstrousStudy(Study):
    game_id = GAME_ID
    title = TITLE
    policies = (POLICY,)
    chunk_games = 10
    method = ("Every god throws a random card from hand on a random side; where it lands is drawn from the engine's "
              "crude physical model of a throw (10% off the table, 15% missing every Location, 10% flipped, ...), "
              "so these figures measure the cards and rules, not throwing skill. Each game is laid out as one of "
              "the data's scenarios, drawn at random. Seat 1 throws first.")

    def __init__(self, data: GameData) -> None:
        self.model: MonstrousModel = build(data)
        self.game = Game(self.model)
        self.variants: list[tuple[str, str, dict[str, Any]]] = [(STANDARD, "Standard", {})]
        self.variants += [(v.id, v.name, PLAYED_BY_ENGINE[v.id](v)) for v in self.model.variants if v.id in PLAYED_BY_ENGINE]
        self.step = {number: self.game.step_ids[number] for number in (TRAPS, MONSTER_POWERS, GAIN_FAITH)}
        self.design_of = {card.id: card.design for card in self.model.cards}

    # ------------------------------------------------------------------ set-ups and play
    def setups(self, *, players: Optional[int] = None, policy: Optional[str] = None) -> list[Setup]:
        rules = self.model.rules
        if policy not in (None, POLICY):
            return []
        return [Setup(f"{variant}-{n}p", f"{name}, {n} players", n, POLICY, DEFAULT_GAMES, (("variant", variant),),
                      SECONDS_PER_GAME * n)
                for variant, name, _ in self.variants
                for n in range(rules.min_players, rules.max_players + 1) if players in (None, n)]

    def play(self, setup: Setup, games: int, seed: int) -> Tally:
        rng = random.Random(seed)
        options = next(kwargs for variant, _, kwargs in self.variants if variant == setup.param("variant"))
        gods = self.game.gods[:setup.players]
        tally: Tally = {}
        for _ in range(games):
            scenario = rng.choice(self.model.scenarios)
            start = self.game.new_initial_state(gods, tuple(scenario.layout.values()), **options)
            throw: Optional[_Throw] = None
            turns = 0
            for state in play(start, random_policy, rng, max_actions=MAX_ACTIONS):
                action = state.last_action()
                if throw is not None and isinstance(action, Landing) and not throw.landed:
                    throw.locations, throw.landed = tuple(action.locations), True
                for event in state.events:
                    if event.kind in ("throw", "pass") or event.get("step") == "game-end":
                        self._close(tally, throw)
                        throw = None
                        turns += int(event.kind == "pass")
                    if event.kind == "throw":
                        throw = _Throw(event.get("god"), event.get("card"), event.get("side"))
                    elif throw is not None:
                        self._follow(throw, event)
            self._close(tally, throw)
            outcome = state.outcome()
            record_game(tally, outcome, turns)
            for seat, faith in enumerate(outcome.scores if outcome else ()):
                observe(tally, SEAT_FAITH, seat, value=int(faith))
        return tally

    def _follow(self, throw: _Throw, event: Any) -> None:
        """Add what ``event`` did to the thrower's Faith (and whether a trap sprang) to the throw."""
        step = event.get("step")
        change = 0
        if event.kind == "gain_faith" and event.get("god") == throw.thrower:
            change = event.get("amount")
        elif event.kind == "take_faith":
            change = event.get("amount") * ((event.get("god") == throw.thrower) - (event.get("from") == throw.thrower))
        throw.net += change
        if step == self.step[MONSTER_POWERS]:
            throw.power += change
        if step == self.step[TRAPS]:
            throw.trap = True
            if event.kind in ("gain_faith", "take_faith") and event.get("god") != throw.thrower:
                throw.trap_gain += event.get("amount")

    def _close(self, tally: Tally, throw: Optional[_Throw]) -> None:
        if throw is None:
            return
        design = self.design_of[throw.card].id
        bump(tally, THROWS)
        observe(tally, FAITH, design, throw.side, value=throw.net)
        observe(tally, POWER, design, throw.side, value=throw.power)
        for location in throw.locations:
            observe(tally, LOCATION, location, value=throw.net)
        bump(tally, TRAP, by=int(throw.trap))
        if throw.trap:
            observe(tally, TRAP_GAIN, value=throw.trap_gain)

    # ------------------------------------------------------------------ figures
    def sections(self, results: Results) -> list[Section]:
        return [self._variants(), self._seats(results), self._monsters(results), self._locations(results),
                self._traps(results), self._length(results)]

    def _variants(self) -> Section:
        played = {variant for variant, _, _ in self.variants}
        rows = tuple((v.name, "yes" if v.id in played else "not yet: the engine does not play it") for v in self.model.variants)
        return Section("variants", "Variants", "The standard game and every variant the engine plays are simulated "
                       "at every player count; the data's other variants appear here as soon as the engine plays them.",
                       (Table("variants", "Variants in the data", ("variant", "simulated"), ((("Standard", "yes"),) + rows)),))

    def _seats(self, results: Results) -> Section:
        table, flagged = seat_table(results)
        most = max(s.players for s in results.setups)
        faith_rows = tuple((s.label, *(mean(results.tally(s), SEAT_FAITH, seat, floor=None) if seat < s.players else None
                                       for seat in range(most))) for s in results.setups)
        faith = Table("seat-faith", "Mean final Faith by seat (after the penalty for Monsters left)",
                      ("set-up", *(seat_name(i) for i in range(most))), faith_rows)
        for setup in results.setups:
            flagged += outliers(f"final Faith by seat, {setup.label}",
                                [(f"{seat_name(i)}, {setup.label}", mean(results.tally(setup), SEAT_FAITH, i, floor=None))
                                 for i in range(setup.players)])
        names = dict((v, n) for v, n, _ in self.variants)
        charts = seat_charts(results, group=lambda s: s.param("variant"), series=lambda s: f"{s.players} players",
                             group_label=lambda v: names[v])
        return Section("seats", "Seats and Faith", "Who wins, and the Faith each seat ends with, per variant and "
                       "player count. The dashed line on each chart is the fair share of the largest table.",
                       (table, faith, *charts), flagged)

    def _all(self, results: Results) -> Tally:
        return merged(results.tally(s) for s in results.setups)

    def _monsters(self, results: Results) -> Section:
        total = self._all(results)
        sides = ("unique", "common")
        names = [d.name for d in self.model.designs]
        worth = {side: [mean(total, FAITH, d.id, side, floor=None) for d in self.model.designs] for side in sides}
        power = {side: [mean(total, POWER, d.id, side, floor=None) for d in self.model.designs] for side in sides}
        rows = tuple((name, "trap" if design.trap else "", worth["unique"][i].count, worth["unique"][i],
                      power["unique"][i], worth["common"][i].count, worth["common"][i], power["common"][i])
                     for i, (name, design) in enumerate(zip(names, self.model.designs)))
        table = Table("monsters", "Faith a throw of each Monster earns its thrower",
                      ("Monster", "", "unique throws", "whole throw", "its powers", "common throws", "whole throw",
                       "its powers"), rows,
                      "Whole throw: the thrower's net Faith from the throw to the next (Locations' Faith and powers, "
                      "traps sprung, Faith taken). Its powers: the part gained in Throw Step 3, the thrown Monster's "
                      "own powers. Every set-up together.", (1.3, 0.5, 0.8, 1.5, 1.5, 0.8, 1.5, 1.5))
        chart = Bars("monster-worth", "Faith a throw earns, by Monster and side", tuple(names),
                     tuple(Series(f"{side} side", tuple(worth[side])) for side in sides), "mean Faith per throw",
                     percent=False, horizontal=True)
        flagged = outliers("Monsters, unique side", list(zip([f"{n} (unique)" for n in names], worth["unique"])))
        return Section("monsters", "What each Monster is worth", "The mean net Faith a throw of each Monster earns "
                       "the god who throws it, by the side thrown face up.", (table, chart), flagged)

    def _locations(self, results: Results) -> Section:
        total = self._all(results)
        locations = [loc for loc in self.model.locations]
        worth = [mean(total, LOCATION, loc.id, floor=None) for loc in locations]
        met = {loc for s in self.model.scenarios for loc in s.layout.values()}
        rows = tuple((loc.name, loc.faith, value.count, value) for loc, value in zip(locations, worth) if loc.id in met)
        table = Table("locations", "Faith a throw landing on each Location earns its thrower",
                      ("Location", "printed Faith", "throws landing on it", "mean Faith per throw"), rows,
                      "A throw landing on two Locations counts for both. Locations no scenario uses are not met.")
        shown = [(loc.name, value) for loc, value in zip(locations, worth) if loc.id in met]
        chart = Bars("location-worth", "Faith a throw landing on each Location earns", tuple(n for n, _ in shown),
                     (Series("mean Faith", tuple(v for _, v in shown)),), "mean Faith per throw", percent=False,
                     horizontal=True)
        return Section("locations", "What each Location is worth", "The mean net Faith of the throws that land on "
                       "each Location (its printed Faith, its power and whatever else the throw did).", (table, chart),
                       outliers("Locations", shown))

    def _traps(self, results: Results) -> Section:
        rows = []
        for setup in results.setups:
            tally = results.tally(setup)
            rows.append((setup.label, count(tally, THROWS), Rate(count(tally, TRAP), count(tally, THROWS)),
                         mean(tally, TRAP_GAIN)))
        table = Table("traps", "Traps sprung", ("set-up", "throws", "throws springing a trap",
                                                "Faith the trap's god gains"), tuple(rows),
                      "A throw springs a trap when anything happens in Throw Step 2 (Trap Monster powers). Throws "
                      "within a game are not independent, so these intervals are a little too narrow.")
        chart = Bars("traps-chart", "Throws springing a trap", tuple(r[0] for r in rows),
                     (Series("springing a trap", tuple(r[2] for r in rows)),), "share of throws", horizontal=True)
        return Section("traps", "Traps", "How often a throw hits a face-up Trap Monster that does something, and "
                       "what its god gains.", (table, chart))

    def _length(self, results: Results) -> Section:
        return Section("length", "Game length", "Turns played (a pass ends a turn) and how the winner was decided.",
                       (length_table(results, self.length_unit),))


def study(game: GameData) -> MonstrousStudy:
    """Monstrous' balance study from its validated data."""
    return MonstrousStudy(game)
