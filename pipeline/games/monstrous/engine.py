"""Reference rules engine for Monstrous, shaped after OpenSpiel.

Monstrous is a dexterity game: where a thrown card lands is physics, not a
rule. The engine therefore treats every landing as a chance event whose
outcome is a `Landing` (which cards and Locations the thrown Monster hits at
each Throw Step check, whether it left the table, which side ended up). A
declared landing (a real throw, a rulebook example) is applied as that chance
action; simulations draw one from `LandingModel` (a crude physical model, not a
rule). Everything after the landing is rules, resolved exactly in the
rulebook's order: Trap Monster powers in turn order from the active god (each
god orders their own traps), the thrown Monster's powers, one Location power,
Faith from one Location, extra throws, draw and pass; then the final round,
GAME END powers, the penalty for Monsters left and the tie-breakers.

Variants (``variants.py`` holds their values, ``Table`` says which apply):
Young Gods start with Faith and may pay to throw again a Monster that hit
nothing or left the table; in Team Monstrous the gods of a team share one God
Board (one Faith total, one Underworld), each draws from a deck of their own,
the teammates throw together and resolve their throws in the order they
choose, share extra throws and drawn cards, and the first team to run out
ends the game at once; a Monstrous Wars game starts with the previous
winner's swaps of a Location and of Monsters (``campaign.py`` plays the
campaign). Seats are players: in a team game a seat is one teammate (a
"player" such as ``blue-1``) and Faith and Underworlds belong to the team's
God Board colour (its "god").

Every decision (which card and side to throw, the order of one's own traps,
a god, a card, a side, a Location, an option of a choice) is an action string;
chance events (landings, draws from the shuffled part of a deck, the setup
removals) are chance actions with probabilities. Rule values (Faith, powers,
hand size, penalty, tie-breakers) come from the model; where the rulebook
leaves room the engine follows data/monstrous/rulings.yaml (comments name the
ruling; `RULINGS` lists them all).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Callable, Mapping, Optional, Sequence, Union

from pipeline.engine import CHANCE, Decision, Event, IllegalAction, InPlaceState, Outcome
from pipeline.engine.types import TERMINAL_DECISION
from pipeline.games.monstrous import GAME_ID
from pipeline.games.monstrous.model import MonsterCard, MonstrousModel, Op, Power, Side
from pipeline.games.monstrous.powers import NEEDS_A_LOCATION, REGISTRY
from pipeline.games.monstrous.variants import (
    HIT_NOTHING,
    NO_FINAL_TURNS,
    OFF_TABLE_LANDING,
    Table,
    VariantRules,
    variant_rules,
)

UNIQUE, COMMON = "unique", "common"
SIDES = (UNIQUE, COMMON)
ON_TABLE, OFF_TABLE, LIGHTNING = "table", "off_table", "lightning"
LANDING_RESULTS = (ON_TABLE, OFF_TABLE, LIGHTNING)
END_TURN_ACTION = "end turn"
KEEP = "keep"  # decline a re-throw, a swap or sharing a drawn card
LANDING = "landing"  # the kind of decision a throw's landing is (a chance event, or declared)

# Throw Step numbers (the rulebook's fixed order); their ids come from data.
THROW, TRAPS, MONSTER_POWERS, LOCATION_POWER, GAIN_FAITH, EXTRA_THROW, END_TURN = range(1, 8)
SETUP_STEP, GAME_END_STEP = "setup", "game-end"

WHEN_HIT, HIT_MONSTERS, HIT_LOCATION, MISS_LOCATION, GAME_END = (
    "when_hit", "hit_monsters", "hit_location", "miss_location", "game_end")
NO_HIT_MONSTERS = "no_hit_monsters"
SELF, HITTER, HIT_MONSTER_TARGETS, ONE_AT_LOCATION = "self", "hitter", "hit_monsters", "one_other_monster_at_location"
MOVE_DESTINATIONS = {"owner_hand": "hand", "owner_deck_top": "deck_top", "owner_deck_bottom": "deck_bottom"}

MEASURE_FAITH, MEASURE_AT_LOCATIONS, MEASURE_IN_PLAY, MEASURE_REMATCH = (
    "faith", "monsters_hitting_locations", "monsters_in_play", "rematch")

RULINGS = (
    "power-throw-scores-only", "empty-hand-turn", "take-faith-floor", "take-faith-choice", "each-god-once",
    "undying-phoenix", "that-location", "location-power-choice", "removed-monster-stops", "count-includes-thrown",
    "end-check", "game-end-powers-first", "majority-by-owner", "setup-underworld-order", "held-cards-penalty",
    "gained-throws-active-only", "faith-pool-unlimited", "empty-deck-draw",
    "young-rethrow-timing", "young-faith-per-god", "team-throw-together", "team-decider", "team-step-seven",
    "team-shared-draws", "team-home-deck", "team-split", "wars-game-faith", "wars-tied-winner", "wars-swap-order",
)


class EngineError(IllegalAction):
    """A declared state or landing that cannot be (an illegal action of its own kind)."""


# --------------------------------------------------------------------------- value types

Locs = tuple[str, ...]


@dataclass(frozen=True)
class Landing:
    """Where a thrown card came to rest: the chance outcome of a throw.

    ``hits``/``locations`` are what it hits when everything has stopped (the
    Step 2 check). Later checks default to the same cards still on the table
    and the same Locations; ``step3_*``/``step4_locations``/``step5_locations``
    declare what a later look sees instead (a card removed in Step 2 can uncover
    others). ``knocked_off`` cards left the table (to their gods' Underworlds);
    ``shifted`` gives table cards shoved onto other Locations.
    """

    side: str
    result: str = ON_TABLE
    hits: tuple[str, ...] = ()
    locations: Locs = ()
    step3_hits: Optional[tuple[str, ...]] = None
    step3_locations: Optional[Locs] = None
    step4_locations: Optional[Locs] = None
    step5_locations: Optional[Locs] = None
    knocked_off: tuple[str, ...] = ()
    shifted: tuple[tuple[str, Locs], ...] = ()

    def __str__(self) -> str:
        """``land SIDE RESULT``, then ``KEY VALUE`` pairs for what is set (``-`` for an empty list)."""
        words = ["land", self.side, self.result]
        for key, value in self._fields():
            if value is not None and (value or key in _LOOKS):
                words += [key, _join(value)]
        if self.shifted:
            words += ["shifted", ",".join(f"{card}@{'+'.join(locs) or '-'}" for card, locs in self.shifted)]
        return " ".join(words)

    def _fields(self) -> list[tuple[str, Optional[tuple[str, ...]]]]:
        return [("on", self.locations), ("hits", self.hits), ("step3-hits", self.step3_hits),
                ("step3-on", self.step3_locations), ("step4-on", self.step4_locations),
                ("step5-on", self.step5_locations), ("knocked-off", self.knocked_off)]

    @classmethod
    def parse(cls, text: str) -> "Landing":
        """The landing ``str(landing)`` wrote (IllegalAction when ``text`` is not one)."""
        words = text.split()
        if len(words) < 3 or len(words) % 2 == 0 or words[0] != "land":
            raise IllegalAction(f"not a landing: {text!r} (land SIDE RESULT [KEY VALUE ...])")
        pairs = dict(zip(words[3::2], words[4::2]))
        unknown = set(pairs) - set(_LANDING_KEYS) - {"shifted"}
        if unknown:
            raise IllegalAction(f"not a landing: {text!r} (unknown {', '.join(sorted(unknown))})")
        shifted = tuple((card, _split(locs.replace("+", ",")))
                        for card, locs in (item.split("@", 1) for item in _split(pairs.get("shifted", "-"))))
        given = {_LANDING_KEYS[key]: _split(value) for key, value in pairs.items() if key in _LANDING_KEYS}
        return cls(words[1], words[2], shifted=shifted, **given)


_LANDING_KEYS = {"on": "locations", "hits": "hits", "step3-hits": "step3_hits", "step3-on": "step3_locations",
                 "step4-on": "step4_locations", "step5-on": "step5_locations", "knocked-off": "knocked_off"}
_LOOKS = ("step3-hits", "step3-on", "step4-on", "step5-on")  # declared even when empty (None: as before)


def _join(items: Sequence[str]) -> str:
    return ",".join(items) or "-"


def _split(text: str) -> tuple[str, ...]:
    return () if text == "-" else tuple(text.split(","))


@dataclass(frozen=True)
class LandingModel:
    """A crude physical model of a throw for simulations (not a rule of the game)."""

    off_table: Fraction = Fraction(1, 10)
    miss: Fraction = Fraction(3, 20)
    flip: Fraction = Fraction(1, 10)
    hit_none: Fraction = Fraction(2, 5)
    hit_all: Fraction = Fraction(3, 10)  # the rest: one Monster lying there, at random


@dataclass(frozen=True)
class Placed:
    side: str
    locations: Locs


@dataclass(frozen=True)
class Ctx:
    """Who uses a power and what it refers to."""

    user: str
    source: str  # card id or Location id
    source_kind: str  # "monster" or "location"
    hits: tuple[str, ...] = ()  # the Monsters the thrown card hit at the Step 3 check
    location: Optional[str] = None  # "that Location"
    hitter: Optional[str] = None  # the card just thrown


@dataclass(frozen=True)
class Task:
    name: str
    args: tuple = ()
    picks: tuple = ()

    def picked(self, choice: Any) -> "Task":
        return replace(self, picks=self.picks + (choice,))


@dataclass(frozen=True)
class Pending:
    """A decision (player = a god) or a chance event (player = CHANCE) waiting for an action."""

    player: Union[str, int]
    kind: str
    options: tuple  # actions; for chance: (action, probability) pairs
    task: Task


@dataclass
class Deck:
    """A Monster Deck: known cards on top (in order), a shuffled middle, known cards at the bottom."""

    top: list[str] = field(default_factory=list)
    middle: list[str] = field(default_factory=list)  # kept sorted: its order is unknown
    bottom: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.top) + len(self.middle) + len(self.bottom)

    def cards(self) -> list[str]:
        return self.top + self.middle + self.bottom

    def key(self) -> tuple:
        return tuple(self.top), tuple(self.middle), tuple(self.bottom)


@dataclass
class Throw:
    """The throw being resolved: the thrower controls the card until the end of Step 6."""

    thrower: str
    card: str
    landing: Optional[Landing] = None
    hits: tuple[str, ...] = ()

    def key(self) -> tuple:
        return self.thrower, self.card, self.landing, self.hits


NOBODY: Mapping[str, Any] = MappingProxyType({})


@dataclass
class Board:
    seats: tuple[str, ...]
    active: int
    faith: dict[str, int]
    hands: dict[str, list[str]]
    decks: dict[str, Deck]
    underworlds: dict[str, list[str]]  # top first
    table: dict[str, Placed]
    locations: tuple[str, ...]
    throws: int = 0  # throws gained this turn and not yet used
    tasks: list[Task] = field(default_factory=list)  # a stack: the last task runs next
    pending: Optional[Pending] = None
    throw: Optional[Throw] = None
    step: str = SETUP_STEP
    end_by: Optional[str] = None
    final_turns_left: int = 0
    over: bool = False
    log: list[Event] = field(default_factory=list)  # events of the action being applied
    variant: Table = Table()  # which variants' rules apply (never changed in play)
    # read-only mappings, replaced (never changed in place), so copies of a board share them
    team_of: Mapping[str, str] = field(default_factory=lambda: NOBODY)  # team games: player -> God Board colour
    home: Mapping[str, str] = field(default_factory=lambda: NOBODY)  # team games: card -> the teammate whose deck it was dealt to
    rethrows: Mapping[str, int] = field(default_factory=lambda: NOBODY)  # young gods: re-throws used this turn, per player
    landed: list[Throw] = field(default_factory=list)  # team games: Monsters thrown together, not yet resolved


Action = Union[str, Landing]


# --------------------------------------------------------------------------- the game

class Game:
    """The rules of Monstrous, from the validated model; makes initial states."""

    def __init__(self, model: MonstrousModel, *, landing_model: LandingModel = LandingModel()) -> None:
        self.model = model
        self.rules = model.rules
        self.cards: dict[str, MonsterCard] = {card.id: card for card in model.cards}
        self.locations = {loc.id: loc for loc in model.locations}
        self.step_ids = {step.number: step.id for step in model.throw_steps}
        self.gods = tuple(god.id for god in model.gods)
        self.designs = tuple(design.id for design in model.designs)
        self.landing_model = landing_model
        # landing_outcomes' probabilities by (side, cards on each Location): a cache, no part of any state
        self.landings: dict[tuple[str, tuple[int, ...]], tuple[tuple[int, Fraction], ...]] = {}

    @functools.cached_property
    def variants(self) -> VariantRules:
        """The variants' rule values (read when first needed: a standard game does not need them)."""
        return variant_rules(self.model)

    # ---- card facts
    def owner(self, card: str) -> str:
        return self.cards[card].god.id

    def side(self, card: str, side: str) -> Side:
        unique, common = self.cards[card].sides
        return unique if side == UNIQUE else common

    def is_trap_up(self, card: str, side: str) -> bool:
        return any(power.trigger == WHEN_HIT for power in self.side(card, side).powers)

    def is_undying(self, card: str, side: str) -> bool:
        """Ruling undying-phoenix: its face-up WHEN HIT power takes it off the table by itself."""
        return any(power.trigger == WHEN_HIT and any(op.name == "move_monster" and op.param("target") == SELF
                                                     for op in power.effects)
                   for power in self.side(card, side).powers)

    def card_of(self, god: str, design: str) -> str:
        return next(card.id for card in self.model.cards if card.god.id == god and card.design.id == design)

    # ---- initial states
    def new_initial_state(self, seats: Sequence[str], locations: Optional[Sequence[str]] = None, *,
                          underworld_cards: Optional[int] = None, table: Table = Table()) -> "State":
        """A fresh game: seats in turn order (first seat starts), Locations (default: the first game's).

        Setup removals and the deal are chance events. ``underworld_cards``
        overrides the setup removal count (0 plays the Epic variant). ``table``
        says which variants apply; a team game (``table.teams``) takes its seats
        from the teams (see :meth:`team_players`) and ``seats`` must be those.
        """
        seats = tuple(seats)
        if table.teams:
            self._check_teams(table.teams)
            if seats != self.team_players(table.teams):
                raise EngineError(f"a team game of {', '.join(table.teams)} seats {', '.join(self.team_players(table.teams))}")
        elif not self.rules.min_players <= len(seats) <= self.rules.max_players:
            raise EngineError(f"{len(seats)} gods: Monstrous is for {self.rules.min_players}-{self.rules.max_players}")
        else:
            self._check_gods(seats)
        unknown = sorted(set(table.young_gods) - set(seats))
        if unknown:
            raise EngineError(f"young god {unknown[0]} has no seat")
        chosen = tuple(locations) if locations is not None else self.rules.first_game_locations
        if not chosen:
            raise EngineError("the table needs at least 1 Location")
        for loc in chosen:
            if loc not in self.locations:
                raise EngineError(f"location '{loc}' does not exist")
        board = self._board(seats, chosen, table)
        removals = self._removals(board, underworld_cards)
        board.tasks = [Task("start_turn")] + list(reversed(self._deal(board)))
        if table.previous_winner is not None and table.swap_monsters and removals:
            winner = table.previous_winner
            start = board.seats.index(_players_of(board, winner)[0])
            board.tasks.append(Task("wars_monsters", (winner, tuple(_in_turn_order(board, _gods(board), start)))))
        board.tasks += [Task("split", (team,)) for team in reversed(table.teams)]
        board.tasks.append(Task("setup_remove", (removals,)))
        if table.previous_winner is not None:
            board.tasks.append(Task("wars_locations", (table.previous_winner,)))
        setup: dict[str, Any] = {"seats": list(seats), "locations": list(chosen), "underworld_cards": underworld_cards}
        if table != Table():
            setup["table"] = table.as_data()
        return State(self, board)._begin(setup)

    def new_team_state(self, teams: Sequence[str], locations: Optional[Sequence[str]] = None, *,
                       table: Table = Table()) -> "State":
        """A fresh Team Monstrous game: ``teams`` are God Board colours in turn order (the first team starts)."""
        table = replace(table, teams=tuple(teams))
        return self.new_initial_state(self.team_players(table.teams), locations, table=table)

    def team_players(self, teams: Sequence[str]) -> tuple[str, ...]:
        """The seats of a team game: each team's teammates (``blue-1``, ``blue-2``...), team after team."""
        return tuple(f"{team}-{n}" for team in teams for n in range(1, self.variants.teams.size + 1))

    def _check_teams(self, teams: Sequence[str]) -> None:
        rules = self.variants.teams
        if not rules.teams_min <= len(teams) <= rules.teams_max:
            raise EngineError(f"{len(teams)} teams: Team Monstrous is for {rules.teams_min}-{rules.teams_max} teams "
                              f"of {rules.size} gods")
        self._check_gods(teams)

    def _board(self, seats: tuple[str, ...], locations: Locs, table: Table) -> Board:
        """The table before the setup removals and the deal (a team's Monsters all in its first teammate's deck)."""
        team_of = {player: team for team in table.teams for player in self.team_players((team,))}
        gods = tuple(dict.fromkeys(team_of.get(p, p) for p in seats))
        start = self.variants.young_gods.starting_faith if table.young_gods else 0
        faith = {g: start * sum(1 for p in table.young_gods if team_of.get(p, p) == g) for g in gods}  # ruling young-faith-per-god
        decks = {p: Deck() for p in seats}
        for god in gods:
            first = next(p for p in seats if team_of.get(p, p) == god)
            decks[first] = Deck(middle=sorted(c.id for c in self.model.deck_of(god)))
        return Board(seats=seats, active=0, faith=faith, hands={p: [] for p in seats}, decks=decks,
                     underworlds={g: [] for g in gods}, table={}, locations=locations, variant=table,
                     team_of=MappingProxyType(team_of))

    def _removals(self, board: Board, underworld_cards: Optional[int]) -> int:
        """Monsters each god removes to the Underworld at setup: Table 1's row, the team rule, or ``underworld_cards``."""
        if underworld_cards is not None:
            return underworld_cards
        if board.team_of:
            return self.variants.teams.setup_underworld
        return next(r for r in self.model.deck_table if r.players == len(board.seats)).underworld

    def _deal(self, board: Board) -> list["Task"]:
        """The opening draws, a round at a time: Team Monstrous' first team draws fewer (its hand sizes)."""
        if not board.team_of:
            return [Task("draw", (god,)) for _ in range(self.rules.starting_hand) for god in board.seats]
        rules = self.variants.teams
        first = board.team_of[board.seats[0]]
        hands = {p: rules.first_team_hand if board.team_of[p] == first else rules.other_teams_hand for p in board.seats}
        return [Task("draw", (p,)) for n in range(max(hands.values())) for p in board.seats if n < hands[p]]

    def state_from(self, spec: Mapping[str, Any]) -> "State":
        """A declared situation (a state file or an example's ``initial``), at the active god's throw."""
        seats = tuple(spec["seats"])
        self._check_gods(seats)
        if not spec["locations"]:
            raise EngineError("the table needs at least 1 Location")
        if spec["active"] not in seats:
            raise EngineError(f"active god {spec['active']} has no seat")
        for loc in spec["locations"]:
            if loc not in self.locations:
                raise EngineError(f"location '{loc}' does not exist")
        board = Board(seats=seats, active=seats.index(spec["active"]),
                      faith={g: int(spec.get("faith", {}).get(g, 0)) for g in seats},
                      hands={g: list(spec.get("hands", {}).get(g, [])) for g in seats},
                      decks={g: Deck(top=list(spec.get("decks", {}).get(g, []))) for g in seats},
                      underworlds={g: list(spec.get("underworlds", {}).get(g, [])) for g in seats},
                      table={}, locations=tuple(spec["locations"]), throws=int(spec.get("extra_throws", 0)))
        for entry in spec.get("table", []):
            board.table[entry["card"]] = Placed(entry["side"], tuple(entry["on_locations"]))
        self._check_cards(board, spec)
        board.tasks = [Task("begin_turn")]
        return State(self, board)._begin({"declared": spec})

    def state_from_setup(self, setup: Mapping[str, Any]) -> "State":
        """The first state of a serialised game: a fresh deal, or a declared situation."""
        if "declared" in setup:
            return self.state_from(setup["declared"])
        return self.new_initial_state(setup["seats"], setup["locations"], underworld_cards=setup["underworld_cards"],
                                      table=Table.from_data(setup.get("table")))

    def _check_gods(self, seats: Sequence[str]) -> None:
        if len(set(seats)) != len(seats):
            raise EngineError("a god has two seats")
        for god in seats:
            if god not in self.gods:
                raise EngineError(f"god '{god}' does not exist")

    def _check_cards(self, board: Board, spec: Mapping[str, Any]) -> None:
        for god in spec.get("faith", {}):
            if god not in board.seats:
                raise EngineError(f"god {god} has Faith but no seat")
        seen: dict[str, str] = {}
        zones = [(f"{god}'s {name}", cards) for name, piles in (
            ("hand", board.hands), ("deck", {g: d.cards() for g, d in board.decks.items()}),
            ("Underworld", board.underworlds)) for god, cards in piles.items()]
        zones.append(("the table", list(board.table)))
        for where, cards in zones:
            for card in cards:
                if card not in self.cards:
                    raise EngineError(f"card '{card}' does not exist")
                if self.owner(card) not in board.seats:
                    raise EngineError(f"card {card} belongs to {self.owner(card)}, who has no seat")
                if card in seen:
                    raise EngineError(f"card {card} is both in {seen[card]} and in {where}")
                seen[card] = where
        for card, placed in board.table.items():
            for loc in placed.locations:
                if loc not in board.locations:
                    raise EngineError(f"table card {card} lies on {loc}, which is not on the table")


# --------------------------------------------------------------------------- the state

class State(InPlaceState[Action]):
    """A position; ``apply_action`` returns the next one (this one never changes).

    Seats are numbered in turn order (``board.seats[seat]`` is the god's id).
    """

    game_id = GAME_ID

    def __init__(self, game: Game, board: Board) -> None:
        self.game = game
        self.board = board

    @classmethod
    def from_board(cls, game: Game, board: Board) -> "State":
        """A position on a board set up by hand (tests, puzzles): its queued tasks run, their events kept."""
        state = cls(game, board)
        state._settle()
        state.events = state._collect()
        return state

    # ---- the kit's interface
    @property
    def num_players(self) -> int:
        return len(self.board.seats)

    def _decide(self) -> Decision[Action]:
        pending = self.board.pending
        if pending is None:
            return TERMINAL_DECISION
        if pending.player == CHANCE:
            return Decision.chance(pending.options)
        return Decision(self.board.seats.index(pending.player), pending.options)

    def pending_kind(self) -> Optional[str]:
        """What the pending action decides (throw, landing, draw, order, god, card, side, location, option)."""
        return None if self.board.pending is None else self.board.pending.kind

    def _fork(self) -> "State":
        other = State.__new__(State)
        other.__dict__.update(self.__dict__)  # the game and the kit's record (history, events) are shared
        other.board = _copy_board(self.board)
        return other

    def _play(self, action: Action) -> None:
        b = self.board
        pending = b.pending
        assert pending is not None
        b.pending = None
        b.tasks.append(pending.task.picked(action))
        self._settle()

    def _conditioned(self, outcome: Action) -> "State":
        """A throw's landing declared (a real throw): checked, then the only outcome of this chance node."""
        pending = self.board.pending
        if pending is None or pending.kind != LANDING or not isinstance(outcome, Landing):
            raise EngineError(f"only a throw's landing can be declared, not {outcome}")
        throw = self.board.throw if pending.task.name == "throw" else None
        _check_landing(self.board, outcome, thrown=throw.card if throw is not None else None)
        after = self._fork()
        after.board.pending = replace(pending, options=((outcome, Fraction(1)),))
        return after

    def action_from_string(self, text: str) -> Action:
        """At a landing, any landing (``Landing.parse``); elsewhere the legal action ``text`` names."""
        if self.pending_kind() == LANDING:
            return Landing.parse(text)
        return super().action_from_string(text)

    def key(self) -> tuple:
        """Everything that matters for future play (not the events, not hand order)."""
        b = self.board
        return (b.seats, b.active, tuple(sorted(b.faith.items())), tuple(tuple(sorted(b.hands[g])) for g in b.seats),
                tuple(b.decks[g].key() for g in b.seats), tuple(tuple(b.underworlds[g]) for g in _gods(b)),
                tuple(sorted(b.table.items())), b.locations, b.throws, tuple(b.tasks), b.pending,
                b.throw.key() if b.throw else None, b.end_by, b.final_turns_left, b.over, b.variant,
                tuple(sorted(b.team_of.items())), tuple(sorted(b.home.items())), tuple(sorted(b.rethrows.items())),
                tuple(t.key() for t in b.landed))

    def outcome(self) -> Optional[Outcome]:
        return score(self.game, self.board) if self.board.over else None

    # ---- conveniences
    @property
    def active(self) -> str:
        return self.board.seats[self.board.active]

    def seat_of(self, god: str) -> int:
        return self.board.seats.index(god)

    def card_count(self) -> int:
        b = self.board
        in_flight = 1 if b.throw and b.throw.landing is None else 0
        return (sum(len(h) for h in b.hands.values()) + sum(len(d) for d in b.decks.values())
                + sum(len(u) for u in b.underworlds.values()) + len(b.table) + in_flight + _held(b))

    # ---- internals
    def _begin(self, setup: Mapping[str, Any]) -> "State":
        self._settle()
        return self._started(setup, self._collect())

    def _settle(self) -> None:
        """Run queued tasks until a decision or chance event is needed (or the game ends); keep the events."""
        b = self.board
        while b.pending is None and b.tasks:
            task = b.tasks.pop()
            TASKS[task.name](self.game, b, task)
        self._emitted(b.log)
        b.log = []


def _copy_board(b: Board) -> Board:
    """A copy sharing only immutable parts (tasks and placements are never changed in place)."""
    return replace(b, faith=dict(b.faith), hands={g: list(h) for g, h in b.hands.items()},
                   decks={g: Deck(list(d.top), list(d.middle), list(d.bottom)) for g, d in b.decks.items()},
                   underworlds={g: list(u) for g, u in b.underworlds.items()}, table=dict(b.table),
                   tasks=list(b.tasks), throw=replace(b.throw) if b.throw else None, log=[],
                   landed=[replace(t) for t in b.landed])  # home and rethrows are replaced, never changed in place


def _held(board: Board) -> int:
    """Cards picked up by a power and not yet landed (a power throw waiting for its landing)."""
    pending = board.pending
    return 1 if pending is not None and pending.kind == LANDING and pending.task.name == "op" else 0


# --------------------------------------------------------------------------- helpers

def _emit(b: Board, event: str, **data: Any) -> None:
    """Record an event: about its card (or Monster design, or god), with the Throw Step and its data."""
    subject = data.get("card") or data.get("monster") or data.get("god") or ""
    b.log.append(Event(event, subject, (("step", b.step), *data.items())))


def _ask(b: Board, who: str, kind: str, options: Sequence[Any], task: Task) -> None:
    """Ask ``who`` (a player, or a god: in a team game its first teammate decides; ruling team-decider)."""
    player = who if who in b.team_of or not b.team_of else next(p for p in b.seats if b.team_of[p] == who)
    b.pending = Pending(player, kind, tuple(options), task)


def _chance(b: Board, kind: str, outcomes: Sequence[tuple[Any, Fraction]], task: Task) -> None:
    b.pending = Pending(CHANCE, kind, tuple(outcomes), task)


def _push(b: Board, *tasks: Task) -> None:
    """Queue tasks so that the first given runs first."""
    b.tasks.extend(reversed(tasks))


def _value(pick: str) -> str:
    return pick.split(" ", 1)[1]


def _set_step(game: Game, b: Board, number: int) -> None:
    b.step = game.step_ids[number]


def _in_turn_order(b: Board, gods: Sequence[str], start: Optional[int] = None) -> list[str]:
    """``gods`` in turn order from the active seat (or seat ``start``), each once."""
    first = b.active if start is None else start
    order = dict.fromkeys(_god_of(b, b.seats[(first + i) % len(b.seats)]) for i in range(len(b.seats)))
    return [g for g in order if g in set(gods)]


def _god_of(b: Board, player: str) -> str:
    """The god (God Board colour) a player plays: in a team game the team's, otherwise the player itself."""
    return b.team_of.get(player, player)


def _gods(b: Board) -> list[str]:
    """The gods at the table, in seat order (a team game: one per team)."""
    return list(dict.fromkeys(_god_of(b, p) for p in b.seats))


def _players_of(b: Board, god: str) -> list[str]:
    return [p for p in b.seats if _god_of(b, p) == god]


def _home(game: Game, b: Board, card: str) -> str:
    """The player whose hand and deck a Monster returns to (a team game: ruling team-home-deck; a card
    with no deck of its own recorded, in a position set up by hand, goes to its team's first teammate)."""
    return b.home.get(card) or _players_of(b, game.owner(card))[0]


def _active_god(b: Board) -> str:
    return _god_of(b, b.seats[b.active])


def _to_underworld(game: Game, b: Board, card: str) -> None:
    b.table.pop(card, None)
    b.underworlds[game.owner(card)].insert(0, card)


def _at_location(b: Board, location: Optional[str]) -> list[str]:
    return [card for card, placed in b.table.items() if location in placed.locations]


def _thrown_on_table(b: Board) -> bool:
    return b.throw is not None and b.throw.card in b.table


def _resolving(b: Board) -> Throw:
    """The throw being resolved (the throw's own tasks run only while there is one)."""
    if b.throw is None:
        raise EngineError(f"{b.step}: no throw is being resolved")
    return b.throw


def _landing(b: Board) -> Landing:
    """Where the throw being resolved came to rest (Steps 2 to 5 come after its landing)."""
    throw = _resolving(b)
    if throw.landing is None:
        raise EngineError(f"{b.step}: {throw.card} has not landed yet")
    return throw.landing


def _check_on_table(b: Board, cards: Sequence[str], what: str) -> None:
    for card in cards:
        if card not in b.table:
            raise EngineError(f"{b.step}: declared {what} {card} is not on the table")


def _check_locations(b: Board, locations: Sequence[str]) -> None:
    for loc in locations:
        if loc not in b.locations:
            raise EngineError(f"{b.step}: declared Location {loc} is not on the table")


def _look(b: Board, declared: Optional[Locs]) -> Locs:
    """The Locations the thrown card hits at this step's check (declared, or as before)."""
    card = _resolving(b).card
    placed = b.table[card]
    if declared is not None:
        _check_locations(b, declared)
        b.table[card] = replace(placed, locations=tuple(declared))
    return b.table[card].locations


# --------------------------------------------------------------------------- setup and turns

def _setup_remove(game: Game, b: Board, task: Task) -> None:
    """Setup step 5: remove the same random Monsters from every deck (ruling setup-underworld-order)."""
    (left,) = task.args
    if task.picks:
        design = _value(task.picks[0])
        for god in _gods(b):
            card = game.card_of(god, design)
            b.decks[_players_of(b, god)[0]].middle.remove(card)
            b.underworlds[god].insert(0, card)
        _emit(b, "setup_remove", monster=design)
        left -= 1
    if left <= 0:
        return
    removed = {game.cards[c].design.id for c in b.underworlds[_gods(b)[0]]}
    options = [d for d in game.designs if d not in removed]
    _chance(b, "remove", [(f"remove {d}", Fraction(1, len(options))) for d in options], Task("setup_remove", (left,)))


def _draw(game: Game, b: Board, task: Task) -> None:
    """Draw 1 card: known top cards first, then the shuffled middle (a chance event), then the bottom."""
    (god,) = task.args
    deck = b.decks[god]
    if task.picks:
        card = _value(task.picks[0])
        deck.middle.remove(card)
    elif deck.top:
        card = deck.top.pop(0)
    elif deck.middle:
        share = Fraction(1, len(deck.middle))
        _chance(b, "draw", [(f"deal {c}", share) for c in deck.middle], task)
        return
    elif deck.bottom:
        card = deck.bottom.pop(0)
    else:
        return  # ruling empty-deck-draw
    b.hands[god].append(card)
    _emit(b, "draw", god=god, card=card)
    teammates = [p for p in _players_of(b, _god_of(b, god)) if p != god]
    if teammates and b.step != SETUP_STEP:  # ruling team-shared-draws: a card drawn in play may go to a teammate
        _push(b, Task("share", (god, card, tuple(teammates))))


def _share(game: Game, b: Board, task: Task) -> None:
    """Team Monstrous: the teammate who drew a card keeps it or hands it to a teammate."""
    player, card, teammates = task.args
    if not task.picks:
        _ask(b, player, "share", [KEEP] + [f"give {p}" for p in teammates], task)
        return
    if task.picks[0] != KEEP and card in b.hands[player]:
        to = _value(task.picks[0])
        b.hands[player].remove(card)
        b.hands[to].append(card)
        _emit(b, "share_card", god=player, card=card, to=to)


def _split_team_deck(game: Game, b: Board, task: Task) -> None:
    """Team Monstrous setup: a team's shuffled Monsters split into one deck per teammate (ruling team-split).

    Every card is dealt at random from the first teammate's pile until each other teammate holds
    ``deck_split`` cards; what stays is the first teammate's deck. Each card's home is its deck's teammate."""
    (team,) = task.args
    players = _players_of(b, team)
    pile = b.decks[players[0]]
    if task.picks:
        card = _value(task.picks[0])
        pile.middle.remove(card)
        receiver = next(p for p in players[1:] if len(b.decks[p]) < game.variants.teams.deck_split)
        b.decks[receiver].middle = sorted(b.decks[receiver].middle + [card])
    waiting = [p for p in players[1:] if len(b.decks[p]) < game.variants.teams.deck_split]
    if waiting and pile.middle:
        share = Fraction(1, len(pile.middle))
        _chance(b, "split", [(f"deal {c}", share) for c in pile.middle], Task("split", (team,)))
        return
    b.home = MappingProxyType({**b.home, **{card: player for player in players for card in b.decks[player].cards()}})
    _emit(b, "split", god=team, decks=[len(b.decks[p]) for p in players])


def _start_turn(game: Game, b: Board, task: Task) -> None:
    b.throws = 0
    b.rethrows = NOBODY
    _begin_turn(game, b, task)


def _begin_turn(game: Game, b: Board, task: Task) -> None:
    god = b.seats[b.active]
    throwers = [p for p in _players_of(b, _active_god(b)) if b.hands[p]]
    if not throwers:  # ruling empty-hand-turn: nothing to throw, only Step 7 (a forced action)
        _ask(b, god, "end_turn", [END_TURN_ACTION], Task("step", (END_TURN,)))
        return
    if b.team_of:  # ruling team-throw-together: every teammate with a card throws one, then they are resolved
        _push(b, Task("team_throws", tuple(throwers)))
        return
    _ask_throw(game, b)


def _ask_throw(game: Game, b: Board, throwers: Optional[Sequence[str]] = None, *, together: bool = False) -> None:
    """Throw Step 1: a card from the hand of one of ``throwers`` (default: the active god), and its side."""
    _set_step(game, b, THROW)
    players = list(throwers) if throwers is not None else [b.seats[b.active]]
    options = [f"throw {card} {side}" for p in players for card in b.hands[p] for side in SIDES]
    decider = players[0] if len(players) == 1 else _active_god(b)
    _ask(b, decider, "throw", options, Task("throw", (together,) if together else ()))


def _team_throws(game: Game, b: Board, task: Task) -> None:
    """Team Monstrous: the teammates throw one Monster each, one after the other, before any is resolved."""
    if task.args:
        _push(b, Task("team_throws", task.args[1:]))
        _ask_throw(game, b, task.args[:1], together=True)
        return
    _push(b, Task("team_resolve"))


def _team_resolve(game: Game, b: Board, task: Task) -> None:
    """Team Monstrous: the team picks which Monster thrown together is resolved next (Steps 2-6 in full)."""
    if len(b.landed) > 1 and not task.picks:
        _ask(b, _active_god(b), "resolve", [f"resolve {t.card}" for t in b.landed], task)
        return
    chosen = _value(task.picks[0]) if task.picks else b.landed[0].card
    b.throw = next(t for t in b.landed if t.card == chosen)
    b.landed.remove(b.throw)
    _push(b, Task("step", (TRAPS,)))


def _throw(game: Game, b: Board, task: Task) -> None:
    """Throw Step 1: the card leaves the hand; where it lands is a chance event."""
    if len(task.picks) == 1:
        _, card, side = task.picks[0].split(" ")
        thrower = next(p for p in b.seats if card in b.hands[p])
        b.hands[thrower].remove(card)
        b.throw = Throw(thrower, card)
        _emit(b, "throw", god=thrower, card=card, side=side)
        _chance(b, LANDING, landing_outcomes(game, b, side), task)
        return
    _land(game, b, task.picks[1], together=bool(task.args))


def _rethrow(game: Game, b: Board, task: Task) -> None:
    """Young Gods: keep the throw, or pay Faith to pick the Monster up and throw it again (either side up)."""
    (together,) = task.args
    if len(task.picks) == 1:
        if task.picks[0] == KEEP:
            _after_landing(b, together)
            return
        side = _value(task.picks[0])
        throw = _resolving(b)
        thrower, card = throw.thrower, throw.card
        cost = game.variants.young_gods.rethrow_cost
        b.faith[_god_of(b, thrower)] -= cost
        b.rethrows = MappingProxyType({**b.rethrows, thrower: b.rethrows.get(thrower, 0) + 1})
        if b.table.pop(card, None) is None:
            b.underworlds[game.owner(card)].remove(card)
        throw.landing = None
        _emit(b, "rethrow", god=thrower, card=card, side=side, cost=cost)
        _chance(b, LANDING, landing_outcomes(game, b, side), task)
        return
    _land(game, b, task.picks[1], together=together)


def _may_rethrow(game: Game, b: Board, landing: Landing) -> bool:
    """Young Gods: the thrower is a young god with a re-throw left this turn and the Faith to pay, and the
    Monster hit nothing or landed off the table (lightning is a penalty, not a landing)."""
    thrower = _resolving(b).thrower
    if thrower not in b.variant.young_gods:
        return False
    rules = game.variants.young_gods
    if b.rethrows.get(thrower, 0) >= rules.rethrows_per_turn or b.faith[_god_of(b, thrower)] < rules.rethrow_cost:
        return False
    missed = landing.result == ON_TABLE and not landing.hits and not landing.locations
    return (missed and HIT_NOTHING in rules.rethrow_when) or (
        landing.result == OFF_TABLE and OFF_TABLE_LANDING in rules.rethrow_when)


def _after_landing(b: Board, together: bool) -> None:
    """A throw has landed for good: resolve it now, or (thrown together) once the team has thrown."""
    if together:
        b.landed.append(_resolving(b))
        b.throw = None
        return
    _push(b, Task("step", (TRAPS,)))


def _check_landing(b: Board, landing: Landing, *, thrown: Optional[str]) -> None:
    """Can ``landing`` be, on this table? ``thrown``: the card of a throw (None: a card thrown by a power,
    whose hits, knocks and shoves do not matter)."""
    if landing.side not in SIDES or landing.result not in LANDING_RESULTS:
        raise EngineError(f"a landing needs a side ({', '.join(SIDES)}) and a result ({', '.join(LANDING_RESULTS)})")
    if landing.result == ON_TABLE:
        _check_locations(b, landing.locations)
    if thrown is None:
        return
    _check_on_table(b, landing.knocked_off, "knocked-off card")
    for moved, locations in landing.shifted:
        _check_on_table(b, (moved,), "shifted card")
        _check_locations(b, locations)
    if landing.result == ON_TABLE:
        _check_on_table(b, [c for c in landing.hits if c not in landing.knocked_off], "hit")
        for card in landing.hits:
            if card in landing.knocked_off:
                raise EngineError(f"{b.step}: declared hit {card} is not on the table")
        if thrown in landing.hits:
            raise EngineError(f"{thrown} cannot hit itself")


def _land(game: Game, b: Board, landing: Landing, *, together: bool = False) -> None:
    throw = _resolving(b)
    card = throw.card
    _check_landing(b, landing, thrown=card)
    for moved, locations in landing.shifted:
        b.table[moved] = replace(b.table[moved], locations=tuple(locations))
    for knocked in landing.knocked_off:  # FAQ off-the-table
        _to_underworld(game, b, knocked)
        _emit(b, "underworld", card=knocked, reason=OFF_TABLE)
    throw.landing = landing
    if landing.result == ON_TABLE:
        b.table[card] = Placed(landing.side, tuple(landing.locations))
    else:  # off the table, or struck by lightning: straight to its god's Underworld
        _to_underworld(game, b, card)
        _emit(b, "underworld", card=card, reason=landing.result)
    if _may_rethrow(game, b, landing):  # ruling young-rethrow-timing: decided before Step 2
        _ask(b, throw.thrower, "rethrow", [KEEP] + [f"rethrow {side}" for side in SIDES], Task("rethrow", (together,)))
        return
    _after_landing(b, together)


# --------------------------------------------------------------------------- Throw Steps 2-7

def _step(game: Game, b: Board, task: Task) -> None:
    (number,) = task.args
    _set_step(game, b, number)
    STEPS[number](game, b, task)


def _step_traps(game: Game, b: Board, task: Task) -> None:
    """Step 2: Trap Monsters hit at this one look, by god in turn order from the active god."""
    _push(b, Task("step", (MONSTER_POWERS,)))
    if not _thrown_on_table(b):  # ruling removed-monster-stops
        return
    traps = [c for c in _landing(b).hits if c in b.table and game.is_trap_up(c, b.table[c].side)]
    groups = []
    for god in _in_turn_order(b, [game.owner(c) for c in traps]):
        mine = tuple(c for c in traps if game.owner(c) == god)
        groups.append(Task("trap", (mine[0],)) if len(mine) == 1 else Task("trap_group", (god, mine)))
    _push(b, *groups)


def _trap_group(game: Game, b: Board, task: Task) -> None:
    """A god with several hit Trap Monsters chooses their order."""
    god, cards = task.args
    if not task.picks:
        _ask(b, god, "order", [f"card {c}" for c in cards], task)
        return
    first = _value(task.picks[0])
    rest = tuple(c for c in cards if c != first)
    _push(b, Task("trap", (first,)), Task("trap_group", (god, rest)) if len(rest) > 1 else Task("trap", rest))


def _trap(game: Game, b: Board, task: Task) -> None:
    (card,) = task.args
    if card not in b.table:
        return
    ctx = Ctx(user=_home(game, b, card), source=card, source_kind="monster", hitter=_resolving(b).card)
    powers = [p for p in game.side(card, b.table[card].side).powers if p.trigger == WHEN_HIT]
    _push(b, *(Task("power", (p, ctx)) for p in powers))


def _step_monster_powers(game: Game, b: Board, task: Task) -> None:
    """Step 3: the thrown Monster's face-up powers whose condition holds at this look."""
    _push(b, Task("step", (LOCATION_POWER,)))
    if not _thrown_on_table(b):
        return
    throw, landing = _resolving(b), _landing(b)
    card = throw.card
    if landing.step3_hits is not None:
        _check_on_table(b, landing.step3_hits, "hit")
        hits = tuple(c for c in landing.step3_hits if c != card)
    else:
        hits = tuple(c for c in landing.hits if c in b.table)
    throw.hits = hits
    locations = _look(b, landing.step3_locations)
    ctx = Ctx(user=throw.thrower, source=card, source_kind="monster", hits=hits, hitter=card)
    fired = [p for p in game.side(card, b.table[card].side).powers if _fires(p, hits, locations)]
    _push(b, *(Task("power", (p, ctx)) for p in fired))


def _fires(power: Power, hits: Sequence[str], locations: Sequence[str]) -> bool:
    if power.condition == NO_HIT_MONSTERS and hits:
        return False
    return {HIT_MONSTERS: bool(hits), HIT_LOCATION: bool(locations), MISS_LOCATION: not locations}.get(power.trigger, False)


def _step_location_power(game: Game, b: Board, task: Task) -> None:
    """Step 4: the WHEN HIT power of one hit Location (ruling location-power-choice)."""
    if not task.picks:
        _push(b, Task("step", (GAIN_FAITH,)))
        if not _thrown_on_table(b):
            return
        locations = _look(b, _landing(b).step4_locations)
        usable = [loc for loc in locations if game.locations[loc].power.trigger == WHEN_HIT]
        if not usable:
            return
        if len(usable) > 1:
            _ask(b, _resolving(b).thrower, "location", [f"location {loc}" for loc in usable], task)
            return
        chosen = usable[0]
    else:
        chosen = _value(task.picks[0])
    throw = _resolving(b)
    ctx = Ctx(user=throw.thrower, source=chosen, source_kind="location", location=chosen, hitter=throw.card)
    _push(b, Task("power", (game.locations[chosen].power, ctx)))


def _step_gain_faith(game: Game, b: Board, task: Task) -> None:
    """Step 5: the Faith printed on one hit Location."""
    if not task.picks:
        _push(b, Task("step", (EXTRA_THROW,)))
        if not _thrown_on_table(b):
            return
        locations = _look(b, _landing(b).step5_locations)
        if not locations:
            return
        if len(locations) > 1:
            _ask(b, _resolving(b).thrower, "location", [f"location {loc}" for loc in locations], task)
            return
        chosen = locations[0]
    else:
        chosen = _value(task.picks[0])
    _gain(b, _resolving(b).thrower, game.locations[chosen].faith)  # ruling faith-pool-unlimited


def _step_extra_throw(game: Game, b: Board, task: Task) -> None:
    """Step 6: control of the thrown card reverts; a gained throw must be used if a card is left.

    A team first resolves the rest of what it threw together; its extra throws are shared: the team picks
    which teammate's card is thrown (ruling team-throw-together)."""
    b.throw = None
    if b.landed:
        _push(b, Task("team_resolve"))
        return
    god = b.seats[b.active]
    throwers = [p for p in _players_of(b, _active_god(b)) if b.hands[p]]
    if b.throws and throwers:
        b.throws -= 1
        _ask_throw(game, b, throwers if b.team_of else None)
        return
    if b.throws:
        _emit(b, "throws_lost", god=god, amount=b.throws)
        b.throws = 0
    _push(b, Task("step", (END_TURN,)))


def _step_end_turn(game: Game, b: Board, task: Task) -> None:
    """Step 7: draw 1 card and pass (a team: each teammate draws from their own deck; ruling team-step-seven)."""
    _push(b, *(Task("draw", (p,)) for p in _players_of(b, _active_god(b))), Task("pass"))


def _pass(game: Game, b: Board, task: Task) -> None:
    """Pass to the left; the end (ruling end-check), the final round, then GAME END powers and scores.

    A team game ends as soon as a team has no card in its teammates' hands and decks: no final turns."""
    god = b.seats[b.active]
    team = _active_god(b)
    if b.end_by is not None:
        b.final_turns_left -= 1
    elif all(not b.hands[p] and not len(b.decks[p]) for p in _players_of(b, team)):
        b.end_by = team
        b.final_turns_left = 0 if b.team_of and game.variants.teams.final_turns == NO_FINAL_TURNS \
            else len(_gods(b)) - 1
        _emit(b, "end_triggered", god=team)
    if b.end_by is not None and b.final_turns_left <= 0:
        _push(b, Task("game_end"))
        return
    following = _in_turn_order(b, _gods(b))[1]
    b.active = b.seats.index(_players_of(b, following)[0])
    _emit(b, "pass", god=god, to=b.seats[b.active])
    _push(b, Task("start_turn"))


def _wars_locations(game: Game, b: Board, task: Task) -> None:
    """Monstrous Wars rule 2: the last game's winner may swap 1 Location for one outside the scenario."""
    (winner,) = task.args
    if not task.picks:
        outside = [loc for loc in game.locations if loc not in b.locations]
        _ask(b, winner, "swap", [KEEP] + [f"swap {a} {c}" for a in b.locations for c in outside], task)
        return
    if task.picks[0] == KEEP:
        return
    _, out, into = task.picks[0].split(" ")
    b.locations = tuple(into if loc == out else loc for loc in b.locations)
    _emit(b, "swap_location", god=winner, out=out, into=into)


def _wars_monsters(game: Game, b: Board, task: Task) -> None:
    """Monstrous Wars rule 3: the winner may swap a Monster of each god's deck with one of its Underworld,
    their own first, then every other god's in turn order (ruling wars-swap-order)."""
    winner, gods = task.args
    if not gods:
        return
    god, rest = gods[0], gods[1:]
    if not task.picks:
        middle, underworld = b.decks[_players_of(b, god)[0]].middle, b.underworlds[god]
        options = [KEEP] + [f"swap {d} {u}" for d in middle for u in underworld]
        _ask(b, winner, "swap", options, task)
        return
    _push(b, Task("wars_monsters", (winner, rest)))
    if task.picks[0] == KEEP:
        return
    _, out, into = task.picks[0].split(" ")
    deck, underworld = b.decks[_players_of(b, god)[0]], b.underworlds[god]
    deck.middle = sorted([c for c in deck.middle if c != out] + [into])
    underworld[underworld.index(into)] = out
    _emit(b, "swap_monster", god=winner, card=out, into=into)


def _game_end(game: Game, b: Board, task: Task) -> None:
    """Ruling game-end-powers-first: GAME END powers of the Locations on the table, then the game is over."""
    b.step = GAME_END_STEP
    powers = [Task("power", (game.locations[loc].power, Ctx(user=b.seats[b.active], source=loc,
                                                             source_kind="location", location=loc)))
              for loc in b.locations if game.locations[loc].power.trigger == GAME_END]
    _push(b, *powers, Task("game_over"))


def _game_over(game: Game, b: Board, task: Task) -> None:
    b.over = True
    b.pending = None


# --------------------------------------------------------------------------- powers and ops

def _power(game: Game, b: Board, task: Task) -> None:
    """Use a power: pick 'that Location' if it needs one (ruling that-location), then run its ops in order."""
    power, ctx = task.args
    if ctx.location is None and _needs_location(power):
        choices = b.table[ctx.source].locations if ctx.source in b.table else ()
        if task.picks:
            ctx = replace(ctx, location=_value(task.picks[0]))
        elif len(choices) > 1:
            _ask(b, ctx.user, "location", [f"location {loc}" for loc in choices], task)
            return
        elif choices:
            ctx = replace(ctx, location=choices[0])
    _push(b, *(Task("op", (op, ctx)) for op in power.effects))


def _needs_location(power: Power) -> bool:
    return any((key, value) in NEEDS_A_LOCATION for op in power.effects for key, value in op.params)


def _op(game: Game, b: Board, task: Task) -> None:
    op, _ = task.args
    OP_HANDLERS[op.name](game, b, task)


def _gain(b: Board, who: str, amount: int) -> None:
    """``who`` (a player or a god) gains Faith: it goes to their god's God Board."""
    if amount > 0:
        b.faith[_god_of(b, who)] += amount
        _emit(b, "gain_faith", god=who, amount=amount)


def _take(b: Board, who: str, victim: str, amount: int) -> None:
    """``who`` takes Faith from the god ``victim``."""
    taken = min(amount, b.faith[victim])  # ruling take-faith-floor
    if taken > 0:
        b.faith[victim] -= taken
        b.faith[_god_of(b, who)] += taken
        _emit(b, "take_faith", god=who, **{"from": victim}, amount=taken)


def op_gain_faith(game: Game, b: Board, task: Task) -> None:
    op, ctx = task.args
    per = op.param("per")
    times = {None: 1, "hit_monster": len(ctx.hits),
             "monster_at_location": len(_at_location(b, ctx.location))}[per]  # ruling count-includes-thrown
    _gain(b, ctx.user, op.param("amount") * times)


def _victims(game: Game, b: Board, source: str, ctx: Ctx) -> list[str]:
    """Other gods named by a take_faith source (ruling take-faith-choice, each-god-once)."""
    cards: Sequence[str]
    if source in ("one_hit_monster_god", "each_hit_monster_god"):
        cards = ctx.hits
    else:
        cards = [c for c in _at_location(b, ctx.location) if c != ctx.hitter]
    return [g for g in _in_turn_order(b, [game.owner(c) for c in cards]) if g != _god_of(b, ctx.user)]


def op_take_faith(game: Game, b: Board, task: Task) -> None:
    op, ctx = task.args
    source, amount = op.param("from"), op.param("amount")
    victims = _victims(game, b, source, ctx)
    if source.startswith("each"):
        for victim in victims:
            _take(b, ctx.user, victim, amount)
    elif task.picks:
        _take(b, ctx.user, _value(task.picks[0]), amount)
    elif victims:
        _ask(b, ctx.user, "god", [f"god {g}" for g in victims], task)


def _targets(game: Game, b: Board, target: str, ctx: Ctx, task: Task) -> Optional[list[str]]:
    """The cards an op acts on; None while a choice is pending."""
    if target == SELF:
        return [ctx.source]
    if target == HITTER:
        return [ctx.hitter] if ctx.hitter else []
    if target == HIT_MONSTER_TARGETS:
        return list(ctx.hits)
    if task.picks:
        return [_value(task.picks[0])]
    candidates = [c for c in _at_location(b, ctx.location) if c != ctx.hitter]
    if candidates:
        _ask(b, ctx.user, "card", [f"card {c}" for c in candidates], task)
        return None
    return []


def _protected(game: Game, b: Board, card: str, target: str, ctx: Ctx) -> bool:
    """Ruling undying-phoenix: Monster powers do not discard a Phoenix already on the table."""
    return ctx.source_kind == "monster" and target != HITTER and game.is_undying(card, b.table[card].side)


def op_discard(game: Game, b: Board, task: Task) -> None:
    op, ctx = task.args
    target = op.param("target")
    cards = _targets(game, b, target, ctx, task)
    for card in cards or ():
        if card in b.table and not _protected(game, b, card, target, ctx):
            _to_underworld(game, b, card)
            _emit(b, "discard", card=card)


def op_move_monster(game: Game, b: Board, task: Task) -> None:
    op, ctx = task.args
    cards = _targets(game, b, op.param("target"), ctx, task)
    where = MOVE_DESTINATIONS[op.param("to")]
    for card in cards or ():
        if card not in b.table:
            continue
        del b.table[card]
        owner = _home(game, b, card)
        if where == "hand":
            b.hands[owner].append(card)
        elif where == "deck_top":
            b.decks[owner].top.insert(0, card)
        else:
            b.decks[owner].bottom.append(card)
        _emit(b, "move", card=card, to=where)


def op_gain_throw(game: Game, b: Board, task: Task) -> None:
    op, ctx = task.args
    _emit(b, "gain_throw", god=ctx.user, amount=op.param("amount"))
    if _god_of(b, ctx.user) == _active_god(b):  # ruling gained-throws-active-only
        b.throws += op.param("amount")


def op_draw_cards(game: Game, b: Board, task: Task) -> None:
    op, ctx = task.args
    _push(b, *(Task("draw", (ctx.user,)) for _ in range(op.param("amount"))))


def op_choose_one(game: Game, b: Board, task: Task) -> None:
    op, ctx = task.args
    names = [option.name for option in op.options]
    if not task.picks:
        _ask(b, ctx.user, "option", [f"option {n}" for n in names], task)
        return
    chosen = op.options[names.index(_value(task.picks[0]))]
    _push(b, Task("op", (chosen, ctx)))


def op_throw_hit_monster(game: Game, b: Board, task: Task) -> None:
    """Cyclops: pick a hit Monster still on the table, a side, throw it (ruling power-throw-scores-only)."""
    op, ctx = task.args
    picks = task.picks
    if not picks:
        candidates = [c for c in ctx.hits if c in b.table]
        if candidates:
            _ask(b, ctx.user, "card", [f"card {c}" for c in candidates], task)
        return
    card = _value(picks[0])
    if len(picks) == 1:
        if op.param("either_side"):
            _ask(b, ctx.user, "side", [f"side {s}" for s in SIDES], task)
        else:
            _push(b, task.picked(f"side {b.table[card].side}"))
        return
    if len(picks) == 2:
        del b.table[card]  # picked up
        _chance(b, LANDING, power_landing_outcomes(game, b, _value(picks[1])), task)
        return
    if len(picks) == 3:
        _power_throw_lands(game, b, card, picks[2])
        if not (op.param("gain_location_faith") and card in b.table and b.table[card].locations):
            return _more_power_throws(b, op, ctx)
        locations = b.table[card].locations
        if len(locations) > 1:
            _ask(b, ctx.user, "location", [f"location {loc}" for loc in locations], task)
            return
        picks = picks + (f"location {locations[0]}",)
    _gain(b, ctx.user, game.locations[_value(picks[3])].faith)
    _more_power_throws(b, op, ctx)


def _power_throw_lands(game: Game, b: Board, card: str, landing: Landing) -> None:
    _check_landing(b, landing, thrown=None)
    if landing.result == ON_TABLE:
        b.table[card] = Placed(landing.side, tuple(landing.locations))
        _emit(b, "throw_card", card=card, side=landing.side, locations_hit=list(landing.locations))
    else:  # FAQ cyclops-off-table: its own god's Underworld, whoever threw it
        b.underworlds[game.owner(card)].insert(0, card)
        _emit(b, "underworld", card=card, reason=landing.result)


def _more_power_throws(b: Board, op: Op, ctx: Ctx) -> None:
    count = op.param("count")
    if count > 1:
        params = tuple((k, count - 1 if k == "count" else v) for k, v in op.params)
        _push(b, Task("op", (op._replace(params=params), ctx)))


def op_retrieve_from_underworld(game: Game, b: Board, task: Task) -> None:
    """Delphi, the Underworld, Mt Olympus: a card from an Underworld pile to the user's hand or deck top."""
    op, ctx = task.args
    picks = list(task.picks)
    if op.param("whose") == "self":
        picks.insert(0, f"god {_god_of(b, ctx.user)}")
    elif not picks:
        others = [g for g in _in_turn_order(b, _gods(b)) if g != _god_of(b, ctx.user) and b.underworlds[g]]
        if others:
            _ask(b, ctx.user, "god", [f"god {g}" for g in others], task)
        return
    pile = b.underworlds[_value(picks[0])]
    if not pile:
        return
    if op.param("pick") == "top":
        card = pile[0]
    elif len(picks) > 1:
        card = _value(picks[1])
    else:
        _ask(b, ctx.user, "card", [f"card {c}" for c in pile], task)
        return
    pile.remove(card)
    if op.param("to") == "hand":
        b.hands[ctx.user].append(card)
    else:
        b.decks[ctx.user].top.insert(0, card)
    _emit(b, "retrieve", god=ctx.user, card=card, to=op.param("to"))


def op_majority_bonus(game: Game, b: Board, task: Task) -> None:
    """Troy: the god with the most Monsters on the Location gains the bonus (ruling majority-by-owner)."""
    op, ctx = task.args
    counts = {g: 0 for g in _gods(b)}
    for card in _at_location(b, ctx.location):
        counts[game.owner(card)] += 1
    best = max(counts.values())
    leaders = [g for g in counts if counts[g] == best]
    if best == 0 or (len(leaders) > 1 and op.param("ties") == "nobody"):
        return
    for god in leaders:
        _gain(b, god, op.param("amount"))


OP_HANDLERS: dict[str, Callable[[Game, Board, Task], None]] = {
    "gain_faith": op_gain_faith,
    "take_faith": op_take_faith,
    "discard": op_discard,
    "move_monster": op_move_monster,
    "gain_throw": op_gain_throw,
    "draw_cards": op_draw_cards,
    "choose_one": op_choose_one,
    "throw_hit_monster": op_throw_hit_monster,
    "retrieve_from_underworld": op_retrieve_from_underworld,
    "majority_bonus": op_majority_bonus,
}
REGISTRY.attach_all(OP_HANDLERS)  # the effect registry (powers.py) holds each op's handler with its schema and phrase

STEPS: dict[int, Callable[[Game, Board, Task], None]] = {
    TRAPS: _step_traps,
    MONSTER_POWERS: _step_monster_powers,
    LOCATION_POWER: _step_location_power,
    GAIN_FAITH: _step_gain_faith,
    EXTRA_THROW: _step_extra_throw,
    END_TURN: _step_end_turn,
}

TASKS: dict[str, Callable[[Game, Board, Task], None]] = {
    "setup_remove": _setup_remove, "draw": _draw, "start_turn": _start_turn, "begin_turn": _begin_turn,
    "throw": _throw, "step": _step, "trap_group": _trap_group, "trap": _trap, "power": _power, "op": _op,
    "pass": _pass, "game_end": _game_end, "game_over": _game_over,
    "rethrow": _rethrow, "split": _split_team_deck, "share": _share, "team_throws": _team_throws, "team_resolve": _team_resolve,
    "wars_locations": _wars_locations, "wars_monsters": _wars_monsters,
}


# --------------------------------------------------------------------------- chance: landings

def landing_outcomes(game: Game, b: Board, side: str) -> list[tuple[Landing, Fraction]]:
    """The simulation's distribution over landings of a thrown card (see LandingModel).

    Its probabilities, and which landings coincide, depend only on the side and how many cards lie on each
    Location: that shape's exact Fractions are worked out once (they were most of a game's time) and given
    to this throw's own landings (:func:`_landings`)."""
    theres = [(loc, tuple(c for c in b.table if loc in b.table[c].locations)) for loc in b.locations]
    key = (side, tuple(len(there) for _, there in theres))
    shape = game.landings.get(key)
    if shape is None:
        shape = game.landings[key] = _shape(game.landing_model, key)
    places = _landings(theres, side)
    return [(places[index], p) for index, p in shape]


def _shape(m: LandingModel, key: tuple[str, tuple[int, ...]]) -> tuple[tuple[int, Fraction], ...]:
    """For each distinct landing of a throw onto Locations holding ``counts`` cards: its place in
    :func:`_landings` and its probability (both sides up). The card lands flipped with ``m.flip``; off the
    table, missing every Location, or on one of them (equally likely); there, it hits none, all or one of
    the cards lying on it. Only a Location holding one card has two coinciding landings (hitting all its
    cards is hitting that one): their probabilities are added up."""
    _, counts = key
    found: list[tuple[int, Fraction]] = []
    index = 0
    for p_side in (1 - m.flip, m.flip):
        share = (1 - m.off_table - m.miss) / len(counts) * p_side
        found += [(index, m.off_table * p_side), (index + 1, m.miss * p_side)]
        index += 2
        per_count: dict[int, list[Fraction]] = {}  # a Location's landings' probabilities, by its number of cards
        for n in counts:
            if n not in per_count:
                one = share * (1 - m.hit_none - m.hit_all) / n if n else Fraction(0)
                per_count[n] = ([share] if not n else [share * m.hit_none, share * m.hit_all + one] if n == 1
                                else [share * m.hit_none, share * m.hit_all] + [one] * n)
            found += enumerate(per_count[n], index)
            index += 1 if not n else 2 + n
    return tuple((place, p) for place, p in found if p > 0)


def _landings(theres: Sequence[tuple[str, tuple[str, ...]]], side: str) -> list[Landing]:
    """Every landing of a throw, side up then flipped: off the table, missing, then per Location on it
    hitting nothing, all its cards, and each one."""
    other = COMMON if side == UNIQUE else UNIQUE
    found: list[Landing] = []
    for up in (side, other):
        found += [Landing(up, OFF_TABLE), Landing(up)]
        for loc, there in theres:
            found.append(Landing(up, locations=(loc,)))
            if there:
                found.append(Landing(up, hits=there, locations=(loc,)))
                found += [Landing(up, hits=(card,), locations=(loc,)) for card in there]
    return found


def power_landing_outcomes(game: Game, b: Board, side: str) -> list[tuple[Landing, Fraction]]:
    """A card thrown by a power: off the table, or onto one Location (its hits do not matter)."""
    m = game.landing_model
    share = (1 - m.off_table) / len(b.locations)
    return [(Landing(side, OFF_TABLE), m.off_table)] + [(Landing(side, locations=(loc,)), share) for loc in b.locations]


# --------------------------------------------------------------------------- scoring

def measure(game: Game, b: Board, god: str, what: str) -> int:
    """A god's figure for one tie-breaker measure."""
    mine = [c for c in b.table if game.owner(c) == god]  # ruling majority-by-owner
    if what == MEASURE_FAITH:
        return final_score(game, b, god)
    if what == MEASURE_AT_LOCATIONS:
        return sum(1 for c in mine if b.table[c].locations)
    if what == MEASURE_IN_PLAY:
        return len(mine)
    raise EngineError(f"unknown tie-breaker measure {what}")


def final_score(game: Game, b: Board, god: str) -> int:
    """Faith minus the penalty per Monster left in the god's zones (ruling held-cards-penalty; a team:
    both teammates' hands and decks and the shared Underworld)."""
    players = _players_of(b, god)
    zones = {"hand": sum(len(b.hands[p]) for p in players), "deck": sum(len(b.decks[p]) for p in players),
             "underworld": len(b.underworlds[god])}
    return b.faith[god] - game.rules.penalty_per_card * sum(zones[z] for z in game.rules.penalty_zones)


def score(game: Game, b: Board) -> Outcome:
    """The winner by the tie-breakers in data order; a rematch leaves every god still tied as winner.

    The Outcome's termination is the id of the tie-breaker that decided; scores and winners are by seat
    (in a team game every teammate has the team's score and wins with it)."""
    alive = _gods(b)
    decided_by = game.rules.tie_breakers[-1].id
    for breaker in game.rules.tie_breakers:
        if breaker.measure == MEASURE_REMATCH:
            decided_by = breaker.id
            break
        figures = {g: measure(game, b, g, breaker.measure) for g in alive}
        best = max(figures.values())
        alive = [g for g in alive if figures[g] == best]
        if len(alive) == 1:
            decided_by = breaker.id
            break
    scores = tuple(final_score(game, b, _god_of(b, p)) for p in b.seats)
    detail = f"{', '.join(alive)} {'wins' if len(alive) == 1 else 'win'} (decided by {decided_by})"
    return Outcome(decided_by, tuple(seat for seat, p in enumerate(b.seats) if _god_of(b, p) in alive), scores, detail)
