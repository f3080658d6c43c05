"""Reference rules engine for Theocracy, shaped after OpenSpiel.

An immutable `Game` is built from the validated model (every rule value:
player counts, roles, card values, dice, Grace order, 54, 9 ... comes from
there). A `State` moves through explicit decisions and chance events:

- chance: the Tribulation die (uniform over the values not yet rolled this
  round, which is what re-rolling until the value is new amounts to) and the
  end-of-round fate roll (the sum of two dice, with exact probabilities);
- decisions: each bid, each prophecy or pass, the chosen giver (3-4 players),
  the believer handed over, the believer given up, the believer that
  receives the die.

Rulings for what the rulebook leaves open are in data/theocracy/rulings.yaml;
the engine follows them (comments name the ruling). `resolve_bid` is a pure
function usable on its own.
"""
from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from itertools import product
from typing import Any, Callable, Hashable, Mapping, Optional, Sequence

from pipeline.engine import Decision, IllegalAction, InPlaceState, Outcome
from pipeline.engine.types import TERMINAL_DECISION
from pipeline.games.theocracy import GAME_ID
from pipeline.games.theocracy.model import CHOSEN_OP, TheocracyModel, Upset

ASIDE = -1  # holder of a believer that was given up (set aside for the round)

RULE_HIGHER = "higher-card"
RULE_UPSET = "one-beats-five"
RULE_TIE = "tie"
RULE_RUIN = "ruin"
RULE_RUIN_VOID = "ruin-void"
RULE_OUROBOROS = "ouroboros"
BID_RULE_IDS = (RULE_HIGHER, RULE_UPSET, RULE_TIE, RULE_RUIN, RULE_RUIN_VOID, RULE_OUROBOROS)
MIN_BIDS = 2
RULEBOOK_UPSET = Upset(weak=1, strong=5)

OP_ACQUIRE = "acquire-believer"
OP_LOSE = "lose-believer"
OP_SET_ASIDE_BID = "set-aside-bid"
OP_PLACE_DIE = "place-die"
OP_LOCKED = "set-aside-locked"
GRACE_OPS = frozenset({OP_ACQUIRE, OP_LOSE, OP_SET_ASIDE_BID, OP_PLACE_DIE, OP_LOCKED})

SUBJECT_WINS = "subject-wins"
ANOTHER_WINS = "another-player-wins"
NO_WINNER = "no-winner"


# --------------------------------------------------------------------------- bids


@dataclass(frozen=True)
class BidResult:
    """Who won a bid (seat = position in the bid list) or None for a draw, and the deciding rule."""

    winner: Optional[int]
    rule: str
    ruined: tuple[int, ...] = ()


def beats(a: int, b: int, upset: Upset = RULEBOOK_UPSET) -> bool:
    """True when card ``a`` beats card ``b``: higher wins, except the weak card beats the strong one."""
    if (a, b) == (upset.weak, upset.strong):
        return True
    if (a, b) == (upset.strong, upset.weak):
        return False
    return a > b


def resolve_bid(values: Sequence[int], upset: Upset = RULEBOOK_UPSET) -> BidResult:
    """Resolve a bid of 2-4 cards (one per seat, in seat order).

    Ruin first removes every card whose value was bid more than once (with two
    players an equal pair is a plain tie). Then the single card left wins
    (Ruin); else a card that beats every other card left wins (higher card,
    or one-beats-five when it is the weak card); else the wins form a circle
    and the bid is an Ouroboros draw. Nothing left is a draw (ruin-void).
    """
    if len(values) < MIN_BIDS:
        raise ValueError(f"a bid needs at least {MIN_BIDS} cards, got {len(values)}")
    counts = Counter(values)
    left = [seat for seat, value in enumerate(values) if counts[value] == 1]
    ruined = tuple(seat for seat, value in enumerate(values) if counts[value] > 1)
    if not left:
        if len(values) == MIN_BIDS:
            return BidResult(None, RULE_TIE)
        return BidResult(None, RULE_RUIN_VOID, ruined)
    if len(left) == 1:
        return BidResult(left[0], RULE_RUIN, ruined)
    unbeaten = [s for s in left if all(beats(values[s], values[o], upset) for o in left if o != s)]
    if not unbeaten:
        return BidResult(None, RULE_OUROBOROS, ruined)
    winner = unbeaten[0]
    return BidResult(winner, RULE_UPSET if values[winner] == upset.weak else RULE_HIGHER, ruined)


# --------------------------------------------------------------------------- actions


class ActionKind(str, Enum):
    ROLL = "roll"  # chance: the turn's die shows `value`
    BID = "bid"  # play the power card of `value`
    PASS = "pass"  # make no prophecy
    PROPHESY = "prophesy"  # prophecy `prophecy` about seat `value` (None for a draw)
    CHOOSE_GIVER = "choose-giver"  # the chosen: seat `value` must hand over a believer
    GIVE = "give"  # hand over believer `value`
    LOSE = "lose"  # give up believer `value`
    PLACE = "place"  # rest the die on believer `value`
    FATE = "fate"  # chance: the two fate dice total `value`


@dataclass(frozen=True)
class Action:
    kind: ActionKind
    value: Optional[int] = None
    prophecy: Optional[str] = None

    def __str__(self) -> str:
        if self.kind is ActionKind.PROPHESY:
            about = "" if self.value is None else f" seat {self.value}"
            return f"prophesy {self.prophecy}{about}"
        return self.kind.value if self.value is None else f"{self.kind.value} {self.value}"


@dataclass(frozen=True)
class Prophecy:
    """A prophecy: its kind and the seat it names (None when the kind names nobody)."""

    kind: str
    subject: Optional[int]


class Stage(str, Enum):
    ROLL = "roll"
    BID = "bid"
    OMEN = "omen"
    CHOOSE_GIVER = "choose-giver"
    GIVE = "give"
    LOSE = "lose"
    PLACE = "place"
    FATE = "fate"
    TERMINAL = "terminal"


class Termination(str, Enum):
    TRANSCENDENCE = "transcendence"
    FATE = "fate"


# --------------------------------------------------------------------------- game


@functools.lru_cache(maxsize=None)
def _action(kind: ActionKind, value: Optional[int] = None, prophecy: Optional[str] = None) -> Action:
    """The one (immutable) action of these fields: the legal actions are listed at every decision, and making
    them afresh each time was a large share of a simulated game's time."""
    return Action(kind, value, prophecy)


@dataclass(frozen=True)
class Game:
    """Every rule value of one Theocracy set-up, taken from the model."""

    num_players: int
    roles: tuple[str, ...]  # role ids in acting order for this player count
    new_first_index: int  # index in `roles` of the role whose seat is First next round
    first_round_first_seat: int
    power_values: tuple[int, ...]
    believers_per_player: int
    num_dice: int
    die_faces: tuple[int, ...]
    turns_per_round: int
    distinct_dice_per_round: bool
    prophecy_kinds: tuple[tuple[str, bool, str], ...]  # (id, needs_subject, fulfilled_when)
    grace_ops: tuple[str, ...]
    upset: Upset
    chosen: bool  # the chosen rule applies at this player count
    transcendence: int
    fate_dice: int
    fate_target: int

    @classmethod
    def from_model(cls, model: TheocracyModel, num_players: int) -> "Game":
        line_up = model.line_up(num_players)
        colours = sorted(model.players, key=lambda p: p.order)[:num_players]
        per_player = {len(model.believers_of(p.id)) for p in colours}
        values = {model.power_values(p.id) for p in colours}
        if len(per_player) != 1 or len(values) != 1:
            raise ValueError("every player needs the same believers and power card values")
        ops = tuple(step.op for step in sorted(model.grace_steps, key=lambda s: s.order))
        unknown = set(ops) - GRACE_OPS
        if unknown:
            raise ValueError(f"unknown Grace step op(s): {', '.join(sorted(unknown))}")
        faces = model.dice[0].faces
        if model.turns_per_round > len(model.dice) or (
            model.distinct_dice_per_round and model.turns_per_round > len(faces)
        ):
            raise ValueError("not enough dice or die faces for one distinct die per turn")
        return cls(
            num_players=num_players,
            roles=line_up.roles,
            new_first_index=line_up.roles.index(model.rotation.new_first),
            first_round_first_seat=model.rotation.first_round_first_seat,
            power_values=values.pop(),
            believers_per_player=per_player.pop(),
            num_dice=len(model.dice),
            die_faces=tuple(sorted(faces)),
            turns_per_round=model.turns_per_round,
            distinct_dice_per_round=model.distinct_dice_per_round,
            prophecy_kinds=tuple((p.id, p.needs_subject, p.fulfilled_when) for p in model.prophecies),
            grace_ops=ops,
            upset=model.upset,
            chosen=num_players in model.added_rule_players(CHOSEN_OP),
            transcendence=model.transcendence_threshold,
            fate_dice=model.fate.dice,
            fate_target=model.fate.target,
        )

    def all_prophecies(self) -> tuple[Prophecy, ...]:
        """Every prophecy a player could make: each kind about each seat (or about nobody)."""
        return _all_prophecies(self.prophecy_kinds, self.num_players)

    def foretells(self, prophecy: Prophecy) -> frozenset[Optional[int]]:
        """The bid results that fulfil ``prophecy``: winning seats, and None for a draw.

        Two different prophecies may be fulfilled by the same results (with two players "Last wins" and
        "First loses"); they are still different prophecies (ruling no-repeated-prophecy).
        """
        return self._fulfilling[prophecy]

    @functools.cached_property
    def _fulfilling(self) -> dict[Prophecy, frozenset[Optional[int]]]:
        """:func:`_foretold` of this game, looked up once (``foretells`` is asked for every open prophecy)."""
        return _foretold(self.prophecy_kinds, self.num_players)

    @property
    def num_believers(self) -> int:
        return self.num_players * self.believers_per_player

    def owner(self, believer: int) -> int:
        return believer // self.believers_per_player

    def new_initial_state(self) -> "State":
        return State(self)._started({"players": self.num_players})

    def state_from_setup(self, setup: Mapping[str, Any]) -> "State":
        """The first state of a serialised game (``{"players": N}``, N this game's player count)."""
        if setup.get("players") != self.num_players:
            raise IllegalAction(f"a {setup.get('players')}-player game cannot be restored in a "
                                f"{self.num_players}-player game")
        return self.new_initial_state()


ProphecyKinds = tuple[tuple[str, bool, str], ...]


@functools.lru_cache(maxsize=None)
def _all_prophecies(kinds: ProphecyKinds, num_players: int) -> tuple[Prophecy, ...]:
    seats: list[Optional[int]] = list(range(num_players))
    return tuple(Prophecy(kind, s) for kind, needs_subject, _ in kinds for s in (seats if needs_subject else [None]))


@functools.lru_cache(maxsize=None)
def _foretold(kinds: ProphecyKinds, num_players: int) -> dict[Prophecy, frozenset[Optional[int]]]:
    """Each prophecy with the bid results (winning seat, None for a draw) that fulfil it."""
    results: list[Optional[int]] = [*range(num_players), None]
    condition = {kind: when for kind, _, when in kinds}
    return {p: frozenset(r for r in results if _comes_true(condition[p.kind], p.subject, r))
            for p in _all_prophecies(kinds, num_players)}


def _comes_true(condition: str, subject: Optional[int], winner: Optional[int]) -> bool:
    """Whether a prophecy of ``condition`` about ``subject`` holds when ``winner`` won (None: a draw)."""
    if condition == SUBJECT_WINS:
        return winner is not None and winner == subject
    if condition == ANOTHER_WINS:
        return winner is not None and winner != subject
    return winner is None


@functools.lru_cache(maxsize=None)
def _fate_ways(faces: tuple[int, ...], dice: int) -> tuple[tuple[int, int], ...]:
    """Each total of the fate dice with the number of rolls that make it."""
    totals = Counter(sum(roll) for roll in product(faces, repeat=dice))
    return tuple(sorted(totals.items()))


@functools.lru_cache(maxsize=None)
def _chance_decision(kind: ActionKind, ways: tuple[tuple[int, int], ...]) -> Decision["Action"]:
    """One shared Decision per distinct chance node: each value as likely as its number of ways."""
    return Decision.weighted((Action(kind, value), n) for value, n in ways)


# --------------------------------------------------------------------------- state


@dataclass(frozen=True)
class _Task:
    """A pending Grace task: op and the seat it concerns (None for table-wide ops)."""

    op: str
    seat: Optional[int] = None

    def key(self) -> tuple[str, Optional[int]]:
        return (self.op, self.seat)


@dataclass
class State(InPlaceState[Action]):
    """A Theocracy position; ``apply_action`` returns the next one (this one never changes)."""

    game_id = GAME_ID

    game: Game
    stage: Stage = Stage.ROLL
    round: int = 0
    turn: int = 0
    first_seat: int = 0
    scores: list[int] = field(default_factory=list)
    hands: list[list[int]] = field(default_factory=list)
    bids: list[Optional[int]] = field(default_factory=list)
    holder: list[int] = field(default_factory=list)  # per believer: seat, or ASIDE
    die_on: list[Optional[int]] = field(default_factory=list)  # per believer: die index resting on it
    acquired: set[int] = field(default_factory=set)  # believers that changed hands this turn
    die_values: list[Optional[int]] = field(default_factory=list)  # per die: value rolled this round
    dice_aside: set[int] = field(default_factory=set)
    cursor: int = 0  # position in role order of the next bidder / prophet
    prophecies: list[tuple[int, Prophecy]] = field(default_factory=list)
    result: Optional[BidResult] = None
    tasks: list[_Task] = field(default_factory=list)
    actor: Optional[int] = None  # seat deciding in a Grace stage
    giver: Optional[int] = None  # seat handing over a believer (Stage.GIVE)
    fate_roll: Optional[int] = None
    termination: Optional[Termination] = None

    def __post_init__(self) -> None:
        if not self.scores:
            self.scores = [0] * self.game.num_players
            self.first_seat = self.game.first_round_first_seat % self.game.num_players
            self._setup_round()

    # ----------------------------------------------------------- queries

    @property
    def num_players(self) -> int:
        return self.game.num_players

    def role_order(self) -> list[int]:
        """Seats in acting order this round: First, (Lukewarm, Lost,) Last."""
        n = self.game.num_players
        return [(self.first_seat + i) % n for i in range(n)]

    def role_of(self, seat: int) -> str:
        return self.game.roles[(seat - self.first_seat) % self.game.num_players]

    def _actor(self) -> int:
        """The seat deciding at a player stage."""
        if self.stage in (Stage.BID, Stage.OMEN):
            return self.role_order()[self.cursor]
        seat = self.giver if self.stage is Stage.GIVE else self.actor
        assert seat is not None
        return seat

    def believers_held(self, seat: int) -> list[int]:
        return [b for b, h in enumerate(self.holder) if h == seat]

    def eligible_to_give(self, seat: int) -> list[int]:
        """Believers ``seat`` could hand over: not taken earlier this turn (ruling protected-this-turn)."""
        return [b for b in self.believers_held(seat) if b not in self.acquired]

    def free_believers(self, seat: int) -> list[int]:
        return [b for b in self.believers_held(seat) if self.die_on[b] is None]

    def round_score(self, seat: int) -> int:
        """Eternal memory the dice on ``seat``'s believers are worth right now."""
        return sum(self._die_value(d) for b, d in enumerate(self.die_on) if d is not None and self.holder[b] == seat)

    def _decide(self) -> Decision[Action]:
        stage = self.stage
        if stage is Stage.TERMINAL:
            return TERMINAL_DECISION
        if stage is Stage.ROLL:
            used = {v for v in self.die_values if v is not None} if self.game.distinct_dice_per_round else set()
            values = [v for v in self.game.die_faces if v not in used]
            return _chance_decision(ActionKind.ROLL, tuple((v, 1) for v in values))
        if stage is Stage.FATE:
            return _chance_decision(ActionKind.FATE, _fate_ways(self.game.die_faces, self.game.fate_dice))
        seat = self._actor()
        if stage is Stage.BID:
            actions = [_action(ActionKind.BID, v) for v in sorted(self.hands[seat])]
        elif stage is Stage.OMEN:
            actions = [_action(ActionKind.PASS)] + [
                _action(ActionKind.PROPHESY, p.subject, p.kind) for p in self._open_prophecies()
            ]
        elif stage is Stage.CHOOSE_GIVER:
            actions = [_action(ActionKind.CHOOSE_GIVER, s) for s in self._givers_for(seat)]
        elif stage is Stage.GIVE:
            actions = [_action(ActionKind.GIVE, b) for b in self.eligible_to_give(seat)]
        elif stage is Stage.LOSE:
            actions = [_action(ActionKind.LOSE, b) for b in self.believers_held(seat)]
        else:
            actions = [_action(ActionKind.PLACE, b) for b in self.free_believers(seat)]
        return Decision(seat, tuple(actions))

    def outcome(self) -> Optional[Outcome]:
        """The result once terminal (ruling shared-victory: every seat on the top score wins)."""
        if self.termination is None:
            return None
        best = max(self.scores)
        winners = tuple(s for s, score in enumerate(self.scores) if score == best)
        seats = ", ".join(f"seat {s}" for s in winners)
        return Outcome(self.termination.value, winners, tuple(self.scores),
                       f"{self.termination.value}: {seats} with {best} eternal memory")

    def key(self) -> Hashable:
        """Everything that matters for future play (no history, no round counter)."""
        return (
            self.stage,
            self.turn,
            self.first_seat,
            tuple(self.scores),
            tuple(tuple(sorted(h)) for h in self.hands),
            tuple(self.bids),
            tuple(self.holder),
            tuple(self.die_on),
            tuple(sorted(self.acquired)),
            tuple(self.die_values),
            tuple(sorted(self.dice_aside)),
            self.cursor,
            tuple(self.prophecies),
            self.result,
            tuple(t.key() for t in self.tasks),
            self.actor,
            self.giver,
            self.termination,
        )

    def _fork(self) -> "State":
        other = State.__new__(State)
        other.__dict__.update(self.__dict__)  # the immutable fields are shared; every container is copied
        other.scores = list(self.scores)
        other.hands = [list(h) for h in self.hands]
        other.bids = list(self.bids)
        other.holder = list(self.holder)
        other.die_on = list(self.die_on)
        other.acquired = set(self.acquired)
        other.die_values = list(self.die_values)
        other.dice_aside = set(self.dice_aside)
        other.prophecies = list(self.prophecies)
        other.tasks = list(self.tasks)
        return other

    # ----------------------------------------------------------- moves

    def _play(self, action: Action) -> None:
        _APPLY[action.kind](self, action)

    def _apply_roll(self, action: Action) -> None:
        self.die_values[self.turn] = action.value
        self._emit("roll", action.value, round=self.round, turn=self.turn)
        self.stage, self.cursor = Stage.BID, 0

    def _apply_bid(self, action: Action) -> None:
        seat = self._actor()
        assert action.value is not None
        self.hands[seat].remove(action.value)
        self.bids[seat] = action.value
        self._emit("bid", seat, value=action.value)
        self._next_in_order(self._start_omen)

    def _start_omen(self) -> None:
        self.stage, self.cursor = Stage.OMEN, 0

    def _apply_omen(self, action: Action) -> None:
        seat = self._actor()
        if action.kind is ActionKind.PROPHESY:
            assert action.prophecy is not None
            self.prophecies.append((seat, Prophecy(action.prophecy, action.value)))
            self._emit("prophecy", seat, prophecy=action.prophecy, about=action.value)
        else:
            self._emit("pass", seat)
        self._next_in_order(self._reveal)

    def _next_in_order(self, when_done: Callable[[], None]) -> None:
        """Move to the next seat in role order; call ``when_done`` after the last one."""
        self.cursor += 1
        if self.cursor == self.game.num_players:
            when_done()

    def _apply_choose_giver(self, action: Action) -> None:
        self.giver = action.value
        self._emit("giver-chosen", self.actor, giver=action.value)
        self.stage = Stage.GIVE

    def _apply_give(self, action: Action) -> None:
        believer = action.value
        assert believer is not None and self.actor is not None
        self._emit("believer-moved", believer, giver=self.giver, taker=self.actor, die=self.die_on[believer])
        self.holder[believer] = self.actor  # any die on it travels with it
        self.acquired.add(believer)
        self.giver = None
        self._run_tasks()

    def _apply_lose(self, action: Action) -> None:
        believer = action.value
        assert believer is not None
        self._emit("believer-set-aside", believer, seat=self.actor)
        self.holder[believer] = ASIDE  # ruling lost-believer: aside for the round, with its die
        die = self.die_on[believer]
        if die is not None:
            self.dice_aside.add(die)
            self.die_on[believer] = None
            self._emit("die-set-aside", die, value=self.die_values[die], reason="believer set aside")
        self._run_tasks()

    def _apply_place(self, action: Action) -> None:
        assert action.value is not None
        self.die_on[action.value] = self.turn
        self._emit("die-placed", action.value, seat=self.actor, die=self.turn, value=self.die_values[self.turn])
        self._run_tasks()

    def _apply_fate(self, action: Action) -> None:
        self.fate_roll = action.value
        ends = action.value == self.game.fate_target
        self._emit("fate", action.value, ends=ends)
        if ends:
            self._finish(Termination.FATE)
        else:
            self._new_round()

    # ----------------------------------------------------------- phases

    def _setup_round(self) -> None:
        """Round setup (ruling new-round): own believers back, full hands, no dice out."""
        g = self.game
        self.hands = [list(g.power_values) for _ in range(g.num_players)]
        self.bids = [None] * g.num_players
        self.holder = [g.owner(b) for b in range(g.num_believers)]
        self.die_on = [None] * g.num_believers
        self.die_values = [None] * g.num_dice
        self.dice_aside = set()
        self.turn = 0
        self._clear_turn()
        self.stage = Stage.ROLL

    def _clear_turn(self) -> None:
        self.bids = [None] * self.game.num_players
        self.acquired = set()
        self.prophecies = []
        self.result = None
        self.tasks = []
        self.actor = self.giver = None
        self.cursor = 0

    def _open_prophecies(self) -> list[Prophecy]:
        """Prophecies nobody has spoken yet this turn: the same kind about the same player (ruling
        no-repeated-prophecy). "First wins" and "Last loses" differ, so with two players both may be made
        and both fulfilled, which is when Grace a)'s "You can't acquire a believer that was acquired by the
        opponent in this turn" applies."""
        spoken = {p for _, p in self.prophecies}
        return [p for p in self.game.all_prophecies() if p not in spoken]

    def fulfilled(self, prophecy: Prophecy) -> bool:
        """Whether ``prophecy`` came true for the revealed bid (ruling lose-needs-a-winner)."""
        assert self.result is not None
        return self.result.winner in self.game.foretells(prophecy)

    def _reveal(self) -> None:
        """Revelation, then queue Grace in the model's step order (ruling grace-role-order)."""
        bids = [b for b in self.bids if b is not None]
        self.result = resolve_bid(bids, self.game.upset)
        self._emit("bid-won" if self.result.winner is not None else "bid-drawn", self.result.winner,
                   rule=self.result.rule, bids=tuple(bids), ruined=self.result.ruined)
        by_seat = dict(self.prophecies)
        prophets = [s for s in self.role_order() if s in by_seat]
        for seat in prophets:
            prophecy = by_seat[seat]
            self._emit("prophecy-fulfilled" if self.fulfilled(prophecy) else "prophecy-failed", seat,
                       prophecy=prophecy.kind, about=prophecy.subject)
        self.tasks = []
        for op in self.game.grace_ops:
            if op == OP_ACQUIRE:
                self.tasks += [_Task(op, s) for s in prophets if self.fulfilled(by_seat[s])]
            elif op == OP_LOSE:
                self.tasks += [_Task(op, s) for s in prophets if not self.fulfilled(by_seat[s])]
            elif op != OP_LOCKED:  # set-aside-locked is a standing constraint, not a step
                self.tasks.append(_Task(op))
        self._run_tasks()

    def _givers_for(self, prophet: int) -> list[int]:
        """Opponents who hold a believer that can be taken (ruling eligible-giver)."""
        return [s for s in self.role_order() if s != prophet and self.eligible_to_give(s)]

    def _run_tasks(self) -> None:
        """Settle Grace tasks until one needs a decision, then end the turn."""
        while self.tasks:
            task = self.tasks.pop(0)
            if self._start_task(task):
                return
        self._end_turn()

    def _start_task(self, task: _Task) -> bool:
        """Start ``task``; True when it waits for a player's decision."""
        if task.op == OP_ACQUIRE:
            assert task.seat is not None
            givers = self._givers_for(task.seat)
            if not givers:
                return False
            self.actor = task.seat
            if self.game.chosen:
                self.stage = Stage.CHOOSE_GIVER
            else:
                self.giver, self.stage = givers[0], Stage.GIVE
            return True
        if task.op == OP_LOSE:
            assert task.seat is not None
            if not self.believers_held(task.seat):
                return False
            self.actor, self.stage = task.seat, Stage.LOSE
            return True
        assert self.result is not None
        if task.op == OP_SET_ASIDE_BID:
            if self.result.winner is None:
                self._set_die_aside("bid drawn")
            return False
        # place-die
        winner = self.result.winner
        if winner is None:
            return False
        if not self.free_believers(winner):
            self._set_die_aside("no free believer")
            return False
        self.actor, self.stage = winner, Stage.PLACE
        return True

    def _set_die_aside(self, reason: str) -> None:
        self.dice_aside.add(self.turn)
        self._emit("die-set-aside", self.turn, value=self.die_values[self.turn], reason=reason)

    def _end_turn(self) -> None:
        self.turn += 1
        self._clear_turn()
        if self.turn < self.game.turns_per_round:
            self.stage = Stage.ROLL
            return
        gained = tuple(self.round_score(seat) for seat in range(self.game.num_players))
        for seat in range(self.game.num_players):
            self.scores[seat] += gained[seat]
        self._emit("round-scored", self.round, gained=gained, scores=tuple(self.scores))
        if max(self.scores) >= self.game.transcendence:
            self._finish(Termination.TRANSCENDENCE)
        else:
            self.stage = Stage.FATE

    def _new_round(self) -> None:
        """Roles rotate: the seat holding the `new_first` role (Last) becomes First."""
        self.first_seat = self.role_order()[self.game.new_first_index]
        self.round += 1
        self._setup_round()
        self._emit("new-round", self.round, first=self.first_seat)

    def _finish(self, termination: Termination) -> None:
        self.termination = termination
        self.stage = Stage.TERMINAL
        self._emit("game-over", termination.value, scores=tuple(self.scores))

    def _die_value(self, die: int) -> int:
        value = self.die_values[die]
        assert value is not None
        return value

    @property
    def rounds_played(self) -> int:
        """Rounds begun so far (the current one included)."""
        return self.round + 1

    def __str__(self) -> str:
        return (
            f"round {self.rounds_played} turn {self.turn + 1} stage {self.stage.value} "
            f"first seat {self.first_seat} scores {self.scores}"
        )


_APPLY: dict[ActionKind, Callable[[State, Action], None]] = {
    ActionKind.ROLL: State._apply_roll,
    ActionKind.BID: State._apply_bid,
    ActionKind.PASS: State._apply_omen,
    ActionKind.PROPHESY: State._apply_omen,
    ActionKind.CHOOSE_GIVER: State._apply_choose_giver,
    ActionKind.GIVE: State._apply_give,
    ActionKind.LOSE: State._apply_lose,
    ActionKind.PLACE: State._apply_place,
    ActionKind.FATE: State._apply_fate,
}
