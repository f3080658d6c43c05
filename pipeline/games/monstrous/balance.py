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

Variants, their player counts and the policies are declared here
(``VARIANTS``, ``POLICIES`` and ``starter``, which refuses a player count a
variant does not allow); ``pantheon simulate monstrous`` and ``pantheon
monstrous simulate --variant`` play these set-ups through the one simulation
path (:mod:`pipeline.analysis.balance`). Where a throw lands is the engine's
chance model (``LandingModel``), not skill, so the policies differ only in
the choices a god makes:

- ``random``: a uniformly random legal action;
- ``simple``: throws a Monster's unique side up, uses a young god's re-throw
  whenever it may, hands a drawn card to a teammate whose hand is empty,
  keeps the scenario and the decks as they are in Wars, and otherwise picks
  at random.

Variants: ``standard``, ``epic`` (all 12 Monsters), ``young-gods`` (every god
a young god), ``team`` (``players`` gods in teams of two: 4 to 10), ``wars``
and ``team-wars`` (three-game campaigns; a state is a Campaign). In a team game the Faith goes to the team's God Board, so a throw's
worth counts what its thrower's God gains. Throws resolved together (a team
throwing at once) cannot be told apart: they count for traps and game
figures, not for the worth of one Monster or Location.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence

from pipeline.analysis.balance.findings import Bars, Item, Outlier, Section, Series, Table, outliers
from pipeline.analysis.balance.standard import grouped, length_table, per_seat_table, seat_charts, seat_name, seat_table
from pipeline.analysis.balance.stats import Figure, Rate
from pipeline.analysis.balance.study import Results, Setup, Study, record_game
from pipeline.analysis.balance.tally import Tally, bump, count, mean, merged, observe
from pipeline.data.dataset import GameData
from pipeline.engine import Policy, State, play, random_policy
from pipeline.games.monstrous import GAME_ID, TITLE
from pipeline.games.monstrous.campaign import WarsGame
from pipeline.games.monstrous.engine import GAIN_FAITH, KEEP, MONSTER_POWERS, TRAPS, UNIQUE, Game, Landing
from pipeline.games.monstrous.model import MonstrousModel
from pipeline.games.monstrous.variants import EPIC, STANDARD, TEAM, TEAM_WARS, WARS, YOUNG_GODS
from pipeline.games.monstrous.variants import Table as Seating

STANDARD_GAMES = 60  # per player count of the standard game: seat rates within about +/- 12 points
VARIANT_GAMES = 20  # per player count of each variant (20 set-ups, Wars campaigns three games each): a first look
# within the report's time budget; `--games N` plays more
MAX_ACTIONS = 20_000  # a Wars campaign is several games
MAX_SEATS_PROBED = 16  # player counts asked of each variant (the rules refuse the ones they do not allow)
SECONDS_PER_GAME = 0.005  # per god, CPU, measured (bench/balance_report.py); a Wars campaign is three games
WARS_GAMES = 3
WARS_VARIANTS = (WARS, TEAM_WARS)
POLICY = "random"  # the report's policy; ``simulate --policy`` takes any of POLICIES
STANDARD_NAME = "Standard"
FAITH, POWER, LOCATION, SEAT_FAITH, TRAP, TRAP_GAIN, THROWS, TURNS, TOGETHER = (
    "faith", "power", "location", "seat-faith", "trap", "trap-gain", "throws", "turns", "together")
VARIANTS = (STANDARD, EPIC, YOUNG_GODS, TEAM, WARS, TEAM_WARS)
TEAM_VARIANTS = (TEAM, TEAM_WARS)


def simple_policy(state: Any, rng: random.Random) -> Any:
    """The ``simple`` policy of the module docstring."""
    actions = state.legal_actions()
    kind = _pending_kind(state)
    if kind == "throw":
        unique = [a for a in actions if a.endswith(f" {UNIQUE}")]
        return rng.choice(unique or actions)
    if kind == "rethrow":
        return next((a for a in actions if a.endswith(f" {UNIQUE}")), actions[0])
    if kind == "share":
        board = _board(state)
        empty = [a for a in actions if a != KEEP and not board.hands[a.split(" ", 1)[1]]]
        return empty[0] if empty else KEEP
    if kind == "swap" and KEEP in actions:
        return KEEP
    return rng.choice(actions)


def _board(state: Any) -> Any:
    return state.inner.board if hasattr(state, "inner") else state.board


def _pending_kind(state: Any) -> Any:
    inner = getattr(state, "inner", state)
    return inner.pending_kind() if inner is not None else None


POLICIES: dict[str, Policy] = {"random": random_policy, "simple": simple_policy}


def starter(game: Game, players: int, variant: str = STANDARD,
            locations: Optional[Sequence[str]] = None) -> Callable[[], State[Any]]:
    """What makes the first state of a game of ``players`` gods (the first gods of gods.yaml) with ``variant``.

    Team variants seat ``players`` gods in teams (their God Boards are the first ``players / team size``
    colours); ValueError for a variant or a count the rules do not allow. ``locations`` lays out the table
    (default: the first game's); a Wars campaign draws its own scenarios and ignores it.
    """
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r} (variants: {', '.join(VARIANTS)})")
    if variant in TEAM_VARIANTS:
        rules = game.variants.teams
        teams, odd = divmod(players, rules.size)
        if odd or not rules.teams_min <= teams <= rules.teams_max:
            raise ValueError(f"{players} gods: {variant} is for {rules.players(rules.teams_min)} to "
                             f"{rules.players(rules.teams_max)} gods in teams of {rules.size}")
        colours = game.gods[:teams]
        if variant == TEAM_WARS:
            return WarsGame(game, teams=colours).new_initial_state
        return lambda: game.new_team_state(colours, locations)
    if not game.rules.min_players <= players <= game.rules.max_players:
        raise ValueError(f"{players} gods: Monstrous is for {game.rules.min_players} to {game.rules.max_players}")
    gods = game.gods[:players]
    if variant == WARS:
        return WarsGame(game, seats=gods).new_initial_state
    if variant == EPIC:
        return lambda: game.new_initial_state(gods, locations, underworld_cards=0)
    table = Seating(young_gods=frozenset(gods)) if variant == YOUNG_GODS else Seating()
    return lambda: game.new_initial_state(gods, locations, table=table)


@dataclass
class _Throw:
    """The throw being followed: who threw which card on which side, where it landed, what it was worth."""

    thrower: str
    owners: Mapping[str, str]  # a team player's God Board colour (a god alone owns their own Faith)
    card: str
    side: str
    together: bool = False  # thrown before the previous throw landed: not the throw's own worth
    locations: tuple[str, ...] = ()
    landed: bool = False
    net: int = 0
    power: int = 0
    trap: bool = False
    trap_gain: int = 0

    def ours(self, who: Optional[str]) -> bool:
        """Whether Faith gained by (or taken from) ``who`` is the thrower's God's."""
        owner = self.owners.get(self.thrower, self.thrower)
        return who is not None and self.owners.get(who, who) == owner


def _owners(state: Any) -> Mapping[str, str]:
    """Each team player's God Board colour in the game being played (a Wars campaign plays one at a time)."""
    return getattr(state, "inner", state).board.team_of


class MonstrousStudy(Study):
    game_id = GAME_ID
    title = TITLE
    policies = tuple(POLICIES)
    chunk_games = 10
    method = ("Every god throws a random card from hand on a random side; where it lands is drawn from the engine's "
              "crude physical model of a throw (10% off the table, 15% missing every Location, 10% flipped, ...), "
              "so these figures measure the cards and rules, not throwing skill. Each game is laid out as one of "
              "the data's scenarios, drawn at random (a Wars campaign draws its own, level by level). Seat 1 "
              "throws first; in team games seats are players, teammates side by side.")

    def __init__(self, data: GameData[MonstrousModel]) -> None:
        self.model: MonstrousModel = data.model
        self.game = Game(self.model)
        names = {v.id: v.name for v in self.model.variants}
        self.variants: dict[str, str] = {v: names.get(v, STANDARD_NAME if v == STANDARD else v) for v in VARIANTS}
        self.step = {number: self.game.step_ids[number] for number in (TRAPS, MONSTER_POWERS, GAIN_FAITH)}
        self.design_of = {card.id: card.design for card in self.model.cards}

    def player_counts(self, variant: str) -> list[int]:
        """The player counts the rules allow ``variant`` (the game's ``starter`` refuses the others)."""
        allowed = []
        for players in range(1, MAX_SEATS_PROBED + 1):
            try:
                starter(self.game, players, variant)
            except ValueError:
                continue
            allowed.append(players)
        return allowed

    # ------------------------------------------------------------------ set-ups and play
    def setups(self, *, players: Optional[int] = None, policy: Optional[str] = None) -> list[Setup]:
        if policy is not None and policy not in POLICIES:
            return []
        chosen = policy or POLICY
        suffix = "" if chosen == POLICY else f", {chosen}"
        return [Setup(f"{variant}-{n}p" + (f"-{chosen}" if suffix else ""), f"{name}, {n} players{suffix}", n, chosen,
                      STANDARD_GAMES if variant == STANDARD else VARIANT_GAMES, (("variant", variant),),
                      SECONDS_PER_GAME * n * (WARS_GAMES if variant in WARS_VARIANTS else 1))
                for variant, name in self.variants.items()
                for n in self.player_counts(variant) if players in (None, n)]

    def seat_figures(self, setup: Setup, tally: Tally) -> list[tuple[str, tuple[Figure, ...]]]:
        """Each seat's final Faith (a team player's is their team's), beside its win rate in ``simulate``."""
        return [("final Faith", tuple(mean(tally, SEAT_FAITH, seat, floor=None) for seat in range(setup.players)))]

    def start(self, setup: Setup, rng: random.Random) -> Any:
        """The first state of one game of ``setup``, on a scenario's layout drawn with ``rng``."""
        scenario = rng.choice(self.model.scenarios)
        return starter(self.game, setup.players, setup.param("variant"), tuple(scenario.layout.values()))()

    def play(self, setup: Setup, games: int, seed: int) -> Tally:
        rng = random.Random(seed)
        policy = POLICIES[setup.policy]
        tally: Tally = {}
        for _ in range(games):
            start = self.start(setup, rng)
            throw: Optional[_Throw] = None
            turns = 0
            for state in play(start, policy, rng, max_actions=MAX_ACTIONS):
                action = state.last_action()
                if throw is not None and isinstance(action, Landing) and not throw.landed:
                    throw.locations, throw.landed = tuple(action.locations), True
                for event in state.events:
                    if event.kind in ("throw", "pass") or event.get("step") == "game-end":
                        together = throw is not None and event.kind == "throw" and not throw.landed
                        self._close(tally, throw, together=together)
                        throw = None
                        turns += int(event.kind == "pass")
                    if event.kind == "throw":
                        throw = _Throw(event.get("god"), _owners(state), event.get("card"), event.get("side"),
                                       together=together)
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
        if event.kind == "gain_faith" and throw.ours(event.get("god")):
            change = event.get("amount")
        elif event.kind == "take_faith":
            change = event.get("amount") * (throw.ours(event.get("god")) - throw.ours(event.get("from")))
        throw.net += change
        if step == self.step[MONSTER_POWERS]:
            throw.power += change
        if step == self.step[TRAPS]:
            throw.trap = True
            if event.kind in ("gain_faith", "take_faith") and not throw.ours(event.get("god")):
                throw.trap_gain += event.get("amount")

    def _close(self, tally: Tally, throw: Optional[_Throw], *, together: bool = False) -> None:
        if throw is None:
            return
        bump(tally, THROWS)
        bump(tally, TRAP, by=int(throw.trap))
        if throw.trap:
            observe(tally, TRAP_GAIN, value=throw.trap_gain)
        if together or throw.together:  # its Faith cannot be told from the other throw's
            bump(tally, TOGETHER)
            return
        design = self.design_of[throw.card].id
        observe(tally, FAITH, design, throw.side, value=throw.net)
        observe(tally, POWER, design, throw.side, value=throw.power)
        for location in throw.locations:
            observe(tally, LOCATION, location, value=throw.net)

    # ------------------------------------------------------------------ figures
    def sections(self, results: Results) -> list[Section]:
        return [self._variants(), self._seats(results), self._monsters(results), self._locations(results),
                self._traps(results), self._length(results)]

    def _variants(self) -> Section:
        rows = []
        for variant, name in self.variants.items():
            counts = self.player_counts(variant)
            rows.append((name, f"yes, {counts[0]} to {counts[-1]} players" if counts else "no player count allowed"))
        rows += [(v.name, "not yet: the engine does not play it") for v in self.model.variants if v.id not in self.variants]
        return Section("variants", "Variants", "The standard game and every variant the engine plays are simulated "
                       "at every player count the rules allow; the data's other variants appear here as soon as the "
                       "engine plays them.",
                       (Table("variants", "Variants in the data", ("variant", "simulated"), tuple(rows)),))

    def _seats(self, results: Results) -> Section:
        items: list[Item] = []
        flagged: tuple[Outlier, ...] = ()
        charts = {c.id: c for c in seat_charts(results, group=lambda s: s.param("variant"),
                                               series=lambda s: f"{s.players} players",
                                               group_label=lambda v: self.variants[str(v)])}
        for variant, members in grouped(results.setups, lambda s: s.param("variant")).items():
            name = self.variants[variant]
            table, seats_flagged = seat_table(results, setups=members, id=f"seats-{variant}",
                                              title=f"Games won by each seat: {name}")
            faith = per_seat_table(members, lambda s, seat: mean(results.tally(s), SEAT_FAITH, seat, floor=None),
                                   id=f"seat-faith-{variant}", title=f"Mean final Faith by seat: {name}",
                                   note="Final Faith after the penalty for Monsters left; teammates share their God "
                                        "Board's.")
            items += [table, charts[f"seat-wins-{variant}"], faith]
            flagged += seats_flagged
            for setup in members:
                flagged += outliers(f"final Faith by seat, {setup.label}",
                                    [(f"{seat_name(i)}, {setup.label}", mean(results.tally(setup), SEAT_FAITH, i, floor=None))
                                     for i in range(setup.players)])
        return Section("seats", "Seats and Faith", "Who wins, and the Faith each seat ends with, per variant and "
                       "player count. Each dashed line on a chart is the fair share (1 / players) at one player count, "
                       "named above the chart; longer dashes for larger tables.",
                       tuple(items), flagged)

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
                      "within a game are not independent, so these intervals are a little too narrow. Throws resolved "
                      "together (a team throwing at once) count here but not in the worth of a Monster or Location.")
        chart = Bars("traps-chart", "Throws springing a trap", tuple(r[0] for r in rows),
                     (Series("springing a trap", tuple(r[2] for r in rows)),), "share of throws", horizontal=True)
        return Section("traps", "Traps", "How often a throw hits a face-up Trap Monster that does something, and "
                       "what its god gains.", (table, chart))

    def _length(self, results: Results) -> Section:
        tables = tuple(length_table(results, self.length_unit, id=f"length-{variant}", title=f"Game length and "
                                    f"endings: {self.variants[str(variant)]}", setups=members)
                       for variant, members in grouped(results.setups, lambda s: s.param("variant")).items())
        return Section("length", "Game length", "Turns played (a pass ends a turn) and how the winner was decided, "
                       "per variant: only the endings a variant's games reached have a column.", tables)


def study(game: GameData[MonstrousModel]) -> MonstrousStudy:
    """Monstrous' balance study from its validated data."""
    return MonstrousStudy(game)
