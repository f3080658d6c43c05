"""Reference rules engine for Who's Your Heavenly Father?, shaped after OpenSpiel.

An immutable `Game` is built from the validated model: player counts, hand
size, starting tokens, replacement draws, the reclaim cost, the turn actions
with the states that allow or forbid them (turn-actions.yaml) and each
Philosopher kind's power (timing, target, ops) all come from there. A `State`
moves through explicit decisions and chance events:

- chance: the god shuffle (envelope, one god per player, the False God row),
  every card drawn from the draw pile (uniform over the cards left), every
  card lost at random from a hand, and each Virtue a Nihilist re-rolls;
- decisions: the turn action with its card and target, the dilemma offered
  on request, option / pray / Annoying Undergrad's third option, whether to
  invoke a Cult Leader (and the option it dictates) or a Nihilist, and whether
  to discard cards to take back a discarded Philosopher.

Rulings for what the rulebook leaves open are the inferred items of the
Clarifications section of data/heavenly-father/rules.yaml; comments name them.
`judge` and `apply_tokens` are pure functions usable on their own.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from enum import Enum
from itertools import combinations
from types import MappingProxyType
from typing import Any, Callable, Concatenate, Generic, Hashable, Mapping, Optional, ParamSpec, Sequence, TypeVar

from pipeline.engine import Decision, IllegalAction, InPlaceState, Outcome
from pipeline.engine.types import TERMINAL_DECISION
from pipeline.games.heavenly_father import GAME_ID
from pipeline.games.heavenly_father.effects import REGISTRY
from pipeline.games.heavenly_father.model import (
    Consequence,
    Dilemma,
    God,
    HeavenlyFatherModel,
    PhilosopherKind,
    Timing,
    frozen_map,
)

# Turn-action ids and the state flags of turn-actions.yaml.
RESOLVE_PRAYER = "resolve-prayer"
PLAY_DILEMMA = "play-dilemma"
REQUEST_DILEMMA = "request-dilemma"
PLAY_PHILOSOPHER = "play-philosopher"
DRAW_CARD = "draw-card"
CALL_JUDGMENT_DAY = "call-judgment-day"
PRAYING = "praying"
HOLDING_DILEMMA = "holding-dilemma"
HOLDING_PHILOSOPHER = "holding-philosopher"
DRAW_PILE_EMPTY = "draw-pile-empty"
JUDGMENT_DAY_PENDING = "judgment-day-pending"
BARRED = "barred-by-rationalist"

# Philosopher ops (philosopher-kinds.yaml) and their parameters.
OP_PEEK = "peek-false-god"
OP_REVEAL = "reveal-false-god"
OP_THIRD = "invent-third-option"
OP_CANCEL = "cancel-judgment-day"
OP_EXTRA = "extra-action"
OP_DICTATE = "dictate-choice"
OP_RANDOMIZE = "randomize-virtues"
KNOWN_OPS = frozenset({OP_PEEK, OP_REVEAL, OP_THIRD, OP_CANCEL, OP_EXTRA, OP_DICTATE, OP_RANDOMIZE})
REGISTRY.supported(KNOWN_OPS)  # the engine reads these ops at fixed points of its flow (effects.py)
REQUIRES_PLAYER_CALL = "judgment-day-called-by-player"
TARGET_SELF = "self"
TARGET_OTHER = "other-player"
TARGET_ANY = "any-player"

# Parameter ids (parameters.yaml).
P_MIN, P_MAX = "min-players", "max-players"
P_HAND, P_TOKENS = "hand-size", "starting-tokens-per-virtue"
P_DRAW, P_REPLACE = "draw-action-cards", "replacement-draw"
P_RECLAIM, P_ENVELOPE, P_GODS_EACH = "reclaim-discard-cost", "gods-in-envelope", "gods-per-player"
P_ACTIONS = "actions-per-turn"

THIRD_GAIN, THIRD_LOSE, THIRD_DRAW = "gain", "lose", "draw"


class Kind(str, Enum):
    """What an action does (the first four are chance outcomes)."""

    DEAL_GOD = "deal-god"  # chance: `card` is the next god of the shuffled god deck
    DRAW = "draw"  # chance: `card` comes off the draw pile
    LOSE_CARD = "lose-card"  # chance: `card` is lost at random from the hand
    RANDOM_VIRTUE = "random-virtue"  # chance: a Nihilist turns the next amount into `virtue`
    RESOLVE_PRAYER = RESOLVE_PRAYER  # settle prayed-on dilemma `card`
    PLAY_DILEMMA = PLAY_DILEMMA  # confront `player` with dilemma `card`
    REQUEST_DILEMMA = REQUEST_DILEMMA  # ask `player` to confront you
    PLAY_PHILOSOPHER = PLAY_PHILOSOPHER  # play `card` (on `player`, or at False God `slots`)
    DRAW_CARD = DRAW_CARD
    CALL_JUDGMENT_DAY = CALL_JUDGMENT_DAY
    OFFER = "offer"  # asked player confronts the asker with dilemma `card`
    CHOOSE = "choose"  # take option `option`
    PRAY = "pray"
    THIRD_OPTION = "third-option"  # invoke Undergrad `card`: `option` gain/lose/draw, `virtue`, `amount`
    DICTATE = "dictate"  # invoke Cult Leader `card`: its target takes `option`
    RANDOMIZE = "randomize"  # invoke Nihilist `card`
    DECLINE = "decline"  # do not invoke Philosopher `card` this time
    RECLAIM = "reclaim"  # discard `cards` to take Philosopher `card` from the discard pile
    PASS = "pass"  # let the discarded Philosopher `card` go


@functools.lru_cache(maxsize=None)
def _card_action(kind: "Kind", card: str) -> "Action":
    """The one (immutable) chance action drawing, dealing or losing ``card``: a draw lists the whole pile, and
    making ~80 new actions for every draw was most of a simulated game's time."""
    return Action(kind, card=card)


@dataclass(frozen=True)
class Action:
    """One move; only the fields its kind uses are set."""

    kind: Kind
    card: Optional[str] = None
    player: Optional[int] = None
    option: Optional[str] = None
    virtue: Optional[str] = None
    amount: int = 0
    slots: tuple[int, ...] = ()
    cards: tuple[str, ...] = ()

    # Each kind sets the fields it uses (legal_actions makes no other actions), so the
    # handlers read them through these, which turn "unset" into a clear error, not a None.

    def named_card(self) -> str:
        return _named(self, self.card, "card")

    def named_player(self) -> int:
        return _named(self, self.player, "player")

    def named_option(self) -> str:
        return _named(self, self.option, "option")

    def named_virtue(self) -> str:
        return _named(self, self.virtue, "virtue")

    def __str__(self) -> str:
        parts = [self.kind.value]
        parts += [str(v) for v in (self.card, self.option, self.virtue) if v is not None]
        if self.player is not None:
            parts.append(f"player {self.player}")
        if self.amount:
            parts.append(str(self.amount))
        if self.slots:
            parts.append("slots " + ",".join(map(str, self.slots)))
        if self.cards:
            parts.append("paying " + ",".join(self.cards))
        return " ".join(parts)


T = TypeVar("T")


def _named(action: Action, value: Optional[T], field: str) -> T:
    """``value``, the ``field`` of ``action``; an action of a kind that needs it but lacks it is refused."""
    if value is None:
        raise IllegalAction(f"{GAME_ID}: a {action.kind.value} action needs a {field} ({action} names none)")
    return value


# --------------------------------------------------------------------------- pure rules


@dataclass(frozen=True)
class Judgment:
    """Scores at Judgment Day (one per player, in order) and every player tied for the top."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


def judge(god: God, holdings: Sequence[Mapping[str, int]]) -> Judgment:
    """Score every player's tokens under ``god``; all players tied for the highest score win."""
    if not holdings:
        raise ValueError("Judgment Day needs at least one player")
    for tokens in holdings:
        negative = [v for v, n in tokens.items() if n < 0]
        if negative:
            raise ValueError(f"token counts cannot be negative ({', '.join(negative)})")
    scores = tuple(god.score(tokens) for tokens in holdings)
    best = max(scores)
    return Judgment(scores, tuple(i for i, s in enumerate(scores) if s == best))


def apply_tokens(holdings: Mapping[str, int], consequence: Consequence) -> dict[str, int]:
    """Tokens after ``consequence``: gains from the bank first, then losses, never below zero (no debt)."""
    after = dict(holdings)
    for virtue, amount in consequence.gain.items():
        after[virtue] = after.get(virtue, 0) + amount
    for virtue, amount in consequence.lose.items():
        after[virtue] = max(0, after.get(virtue, 0) - amount)
    return after


def reclaim_order(num_players: int, current: int, played_by: int) -> tuple[int, ...]:
    """Who may take back a discarded Philosopher, first claim first.

    Ruling (Clarifications): from the current player's right-hand neighbour
    round to the right, ending with the current player; the player who played
    the Philosopher always comes last.
    """
    rightward = [(current - step) % num_players for step in range(1, num_players + 1)]
    return tuple(p for p in rightward if p != played_by) + (played_by,)


# --------------------------------------------------------------------------- game


@dataclass(frozen=True)
class Game:
    """Every rule value of one set-up, taken from the model."""

    num_players: int
    virtues: tuple[str, ...]
    gods: Mapping[str, God]
    god_order: tuple[str, ...]
    dilemmas: Mapping[str, Dilemma]
    philosophers: Mapping[str, PhilosopherKind]  # card id -> its kind
    mortal_cards: tuple[str, ...]
    hand_size: int
    starting_tokens: int
    draw_action_cards: int
    replacement_draw: int
    reclaim_cost: int
    actions_per_turn: int
    gods_in_envelope: int
    gods_per_player: int
    turn_actions: tuple[tuple[str, frozenset[str], frozenset[str], Optional[str]], ...]

    @classmethod
    def from_model(cls, model: HeavenlyFatherModel, num_players: int) -> "Game":
        p = model.parameters
        if not p[P_MIN] <= num_players <= p[P_MAX]:
            raise ValueError(f"{num_players} players: the game is for {p[P_MIN]} to {p[P_MAX]}")
        if p[P_ENVELOPE] != 1:
            raise ValueError("the engine seals exactly one god in the envelope")
        kinds = {k.id: k for k in model.philosopher_kinds}
        unknown_ops = {op.name for k in kinds.values() for op in k.power.effects} - KNOWN_OPS
        if unknown_ops:
            raise ValueError(f"no engine support for Philosopher op(s): {', '.join(sorted(unknown_ops))}")
        actions = tuple((a.id, a.requires, a.forbidden_when, a.mandatory_when)
                        for a in sorted(model.turn_actions, key=lambda a: a.number))
        unknown = {a[0] for a in actions} - set(ENUMERATORS)
        flags = set().union(*(a[1] | a[2] for a in actions)) | {a[3] for a in actions if a[3]}
        if unknown or flags - set(FLAGS):
            raise ValueError(f"no engine support for turn action(s)/state(s): {', '.join(sorted(unknown | (flags - set(FLAGS))))}")
        cards = tuple(d.id for d in model.dilemmas) + tuple(c.id for c in model.philosophers)
        if len(set(cards)) != len(cards):
            raise ValueError("Moral Dilemma and Philosopher card ids must be distinct")
        # Read-only views of fresh dicts (the model's frozen_map is typed for token counts only).
        return cls(
            num_players=num_players,
            virtues=model.virtue_order,
            gods=MappingProxyType({g.id: g for g in model.gods}),
            god_order=tuple(g.id for g in model.gods),
            dilemmas=MappingProxyType({d.id: d for d in model.dilemmas}),
            philosophers=MappingProxyType({c.id: kinds[c.kind] for c in model.philosophers}),
            mortal_cards=cards,
            hand_size=p[P_HAND],
            starting_tokens=p[P_TOKENS],
            draw_action_cards=p[P_DRAW],
            replacement_draw=p[P_REPLACE],
            reclaim_cost=p[P_RECLAIM],
            actions_per_turn=p[P_ACTIONS],
            gods_in_envelope=p[P_ENVELOPE],
            gods_per_player=p[P_GODS_EACH],
            turn_actions=actions,
        )

    def new_initial_state(self) -> "State":
        """A fresh game: setup (god shuffle, then the deal) starts with chance nodes."""
        return State.initial(self)._started({"players": self.num_players})

    def state_from_setup(self, setup: Mapping[str, Any]) -> "State":
        """The first state of a serialised game (``{"players": N}``, N this game's player count)."""
        if setup.get("players") != self.num_players:
            raise IllegalAction(f"a {setup.get('players')}-player game cannot be restored in a "
                                f"{self.num_players}-player game")
        return self.new_initial_state()

    def option(self, card: str, option_id: str) -> Consequence:
        return next(o.consequence for o in self.dilemmas[card].options if o.id == option_id)

    def kind_of(self, card: str) -> PhilosopherKind:
        return self.philosophers[card]

    def op_param(self, card: str, op: str, name: str) -> int:
        """Parameter ``name`` of op ``op`` of ``card``'s power (0 when the op is absent)."""
        return next((e.params[name] for e in self.kind_of(card).power.effects if e.name == op), 0)

    def turn_steps(self, player: int) -> list["Step"]:
        """A player's turn: their turn action(s), then passing the Prayer Beads to the left."""
        steps: list[Step] = [TurnAction(player) for _ in range(self.actions_per_turn)]
        steps.append(EndTurn(player))
        return steps

    def has_op(self, card: str, op: str) -> bool:
        return any(e.name == op for e in self.kind_of(card).power.effects)


# --------------------------------------------------------------------------- steps


@dataclass(frozen=True)
class DealGod:
    """Setup chance: the next god of the shuffled god deck."""


@dataclass(frozen=True)
class Draw:
    player: int
    count: int
    setup: bool = False


@dataclass(frozen=True)
class LoseCards:
    player: int
    count: int


@dataclass(frozen=True)
class TurnAction:
    player: int


@dataclass(frozen=True)
class EndTurn:
    player: int


@dataclass(frozen=True)
class Offer:
    giver: int
    receiver: int


@dataclass(frozen=True)
class Reclaim:
    card: str
    played_by: int
    candidates: tuple[int, ...]


class Stage(str, Enum):
    CULT = "cult"  # Cult Leaders before the target answers
    CHOICE = "choice"  # option, pray or third option
    NIHILIST = "nihilist"  # Nihilists once an option is taken
    ROLL = "roll"  # chance: randomised Virtues
    APPLY = "apply"


@dataclass(frozen=True)
class Confront:
    """A Moral Dilemma being resolved by ``chooser``; ``reader`` played it (None for a prayer)."""

    card: str
    chooser: int
    reader: Optional[int]
    prayed: bool
    stage: Stage = Stage.CULT
    dictated: Optional[str] = None
    consequence: Optional[Consequence] = None
    asked: tuple[str, ...] = ()
    used: tuple["Placed", ...] = ()
    to_roll: tuple[tuple[str, int], ...] = ()  # (gain|lose, amount) still to be re-rolled
    rolled: tuple[tuple[str, str, int], ...] = ()  # (gain|lose, virtue, amount)


Step = DealGod | Draw | LoseCards | TurnAction | EndTurn | Offer | Reclaim | Confront


@dataclass(frozen=True)
class Placed:
    """A Philosopher out on the table in front of ``holder``; ``owner`` decides when to invoke it."""

    card: str
    owner: int
    holder: int


@dataclass(frozen=True)
class JudgmentCall:
    """A pending Judgment Day: it occurs when play comes back to ``caller``."""

    caller: int
    ending: "Ending"
    cancellable: bool  # False once the draw pile is empty: no Rationalist can cancel it


class Ending(str, Enum):
    """How Judgment Day came: the Outcome's termination."""

    CALLED = "called"
    DRAW_PILE = "draw-pile"


# --------------------------------------------------------------------------- state


@dataclass
class State(InPlaceState[Action]):
    """A position; ``apply_action`` returns the next one (this one never changes)."""

    game_id = GAME_ID

    game: Game
    god_deck: list[str]
    true_god: Optional[str]
    player_gods: list[str]
    row: list[str]  # False God slots, in layout order
    face_up: set[int]
    seen: list[set[str]]  # gods each player has looked at (own god, Prophet peeks)
    pile: set[str]
    discard: list[str]
    hands: list[list[str]]
    tokens: list[dict[str, int]]
    prayers: list[list[str]]
    table: list[Placed]
    turn: int
    judgment: Optional[JudgmentCall]
    barred: list[int]  # turns each player may not call Judgment Day
    queue: list[Step]
    outcome_: Optional[Outcome] = None
    turns_taken: int = 0

    @classmethod
    def initial(cls, game: Game) -> "State":
        n = game.num_players
        deal = [Draw(p, 1, setup=True) for _ in range(game.hand_size) for p in range(n)]
        return cls(
            game=game, god_deck=list(game.god_order), true_god=None, player_gods=[], row=[], face_up=set(),
            seen=[set() for _ in range(n)], pile=set(game.mortal_cards), discard=[], hands=[[] for _ in range(n)],
            tokens=[{v: game.starting_tokens for v in game.virtues} for _ in range(n)],
            prayers=[[] for _ in range(n)], table=[], turn=0, judgment=None, barred=[0] * n,
            queue=[DealGod() for _ in game.god_order] + deal + game.turn_steps(0),
        )

    # ------------------------------------------------------------------ queries

    @property
    def num_players(self) -> int:
        return self.game.num_players

    def outcome(self) -> Optional[Outcome]:
        return self.outcome_

    def _chance_step(self) -> bool:
        step = self.queue[0]
        return isinstance(step, (DealGod, Draw, LoseCards)) or (isinstance(step, Confront) and step.stage is Stage.ROLL)

    def _decider(self) -> int:
        """The player to decide at a decision step."""
        step = self.queue[0]
        if isinstance(step, TurnAction):
            return step.player
        if isinstance(step, Offer):
            return step.giver
        if isinstance(step, Reclaim):
            return step.candidates[0]
        assert isinstance(step, Confront)
        if step.stage is Stage.CHOICE:
            return step.chooser
        return self._next_placed(step).owner

    def flags(self, player: int) -> frozenset[str]:
        """The turn-action states (turn-actions.yaml) that hold for ``player`` now."""
        return frozenset(name for name, test in FLAGS.items() if test(self, player))

    def holdings(self, player: int) -> Mapping[str, int]:
        return frozen_map(self.tokens[player])

    def card_count(self) -> int:
        """Every Mortal card the state accounts for (constant: the deck never gains or loses cards)."""
        in_flight = sum(1 + len(s.used) for s in self.queue if isinstance(s, Confront))  # dilemma + invoked Philosophers
        return (len(self.pile) + len(self.discard) + sum(map(len, self.hands)) + sum(map(len, self.prayers))
                + len(self.table) + in_flight)

    def _chance_outcomes(self) -> list[Action]:
        """Every outcome of the chance node (all equally likely)."""
        step = self.queue[0]
        if isinstance(step, DealGod):
            return [_card_action(Kind.DEAL_GOD, g) for g in sorted(self.god_deck)]
        if isinstance(step, Draw):
            return [_card_action(Kind.DRAW, c) for c in sorted(self.pile)]
        if isinstance(step, LoseCards):
            return [_card_action(Kind.LOSE_CARD, c) for c in sorted(self.hands[step.player])]
        if isinstance(step, Confront) and step.stage is Stage.ROLL:
            return [Action(Kind.RANDOM_VIRTUE, virtue=v) for v in self.game.virtues]
        raise ValueError("not a chance node")

    def _decide(self) -> Decision[Action]:
        """Chance outcomes at chance nodes, else the deciding player's choices."""
        if self.outcome_ is not None:
            return TERMINAL_DECISION
        if self._chance_step():
            return Decision.weighted((action, 1) for action in self._chance_outcomes())
        return Decision(self._decider(), tuple(self._choices()))

    def _choices(self) -> list[Action]:
        step = self.queue[0]
        if isinstance(step, TurnAction):
            return self._turn_actions(step.player)
        if isinstance(step, Offer):
            return [Action(Kind.OFFER, card=c) for c in self._dilemmas_in_hand(step.giver)]
        if isinstance(step, Reclaim):
            hand = sorted(self.hands[step.candidates[0]])
            pay = [Action(Kind.RECLAIM, card=step.card, cards=pair) for pair in combinations(hand, self.game.reclaim_cost)]
            return [Action(Kind.PASS, card=step.card)] + pay
        assert isinstance(step, Confront)
        return self._confront_actions(step)

    def key(self) -> Hashable:
        """Everything that matters for future play (not the path that led here)."""
        return (
            tuple(sorted(self.god_deck)), self.true_god, tuple(self.player_gods), tuple(self.row),
            frozenset(self.face_up), tuple(frozenset(s) for s in self.seen), frozenset(self.pile),
            tuple(sorted(self.discard)), tuple(tuple(sorted(h)) for h in self.hands),
            tuple(tuple(t[v] for v in self.game.virtues) for t in self.tokens),
            tuple(tuple(sorted(p)) for p in self.prayers), tuple(self.table), self.turn, self.judgment,
            tuple(self.barred), tuple(map(_step_key, self.queue)), self.outcome_,
        )

    def _fork(self) -> "State":
        other = State.__new__(State)
        other.__dict__.update(self.__dict__)  # the immutable fields are shared; every container is copied
        other.god_deck, other.player_gods, other.row = list(self.god_deck), list(self.player_gods), list(self.row)
        other.face_up, other.seen, other.pile = set(self.face_up), [set(s) for s in self.seen], set(self.pile)
        other.discard, other.hands = list(self.discard), [list(h) for h in self.hands]
        other.tokens, other.prayers = [dict(t) for t in self.tokens], [list(p) for p in self.prayers]
        other.table, other.barred, other.queue = list(self.table), list(self.barred), list(self.queue)
        return other

    # ------------------------------------------------------------------ legal moves

    def _dilemmas_in_hand(self, player: int) -> list[str]:
        return sorted(c for c in self.hands[player] if c in self.game.dilemmas)

    def _others(self, player: int) -> list[int]:
        return [p for p in range(self.game.num_players) if p != player]

    def _turn_actions(self, player: int) -> list[Action]:
        flags = self.flags(player)
        open_ids = [a for a, requires, forbidden, _ in self.game.turn_actions if requires <= flags and not forbidden & flags]
        mandatory = [a for a, _, _, when in self.game.turn_actions if when is not None and when in flags]
        chosen = [a for a in open_ids if a in mandatory] if mandatory else open_ids
        return [action for action_id in chosen for action in ENUMERATORS[action_id](self, player)]

    def _philosopher_plays(self, player: int) -> list[Action]:
        plays = []
        for card in sorted(c for c in self.hands[player] if c in self.game.philosophers):
            plays += self._plays_of(player, card)
        return plays

    def _plays_of(self, player: int, card: str) -> list[Action]:
        power = self.game.kind_of(card).power
        if power.requires == REQUIRES_PLAYER_CALL and (self.judgment is None or not self.judgment.cancellable):
            return []
        for op in (OP_PEEK, OP_REVEAL):
            if self.game.has_op(card, op):
                face_down = [s for s in range(len(self.row)) if s not in self.face_up]
                count = min(self.game.op_param(card, op, "count"), len(face_down))
                return [Action(Kind.PLAY_PHILOSOPHER, card=card, slots=s) for s in combinations(face_down, count) if s]
        if power.timing is Timing.PLACED:
            targets = self._others(player) if power.target == TARGET_OTHER else range(self.game.num_players)
            return [Action(Kind.PLAY_PHILOSOPHER, card=card, player=t) for t in targets]
        return [Action(Kind.PLAY_PHILOSOPHER, card=card)]

    def _next_placed(self, step: Confront) -> Placed:
        """The first unasked Philosopher before the chooser that can act at this stage."""
        op = OP_DICTATE if step.stage is Stage.CULT else OP_RANDOMIZE
        return next(p for p in self._placed_for(step, op))

    def _placed_for(self, step: Confront, op: str) -> list[Placed]:
        return [p for p in self.table
                if p.holder == step.chooser and p.card not in step.asked and self.game.has_op(p.card, op)]

    def _confront_actions(self, step: Confront) -> list[Action]:
        if step.stage is Stage.CULT:
            placed = self._next_placed(step)
            options = [o.id for o in self.game.dilemmas[step.card].options]
            return [Action(Kind.DECLINE, card=placed.card)] + [Action(Kind.DICTATE, card=placed.card, option=o) for o in options]
        if step.stage is Stage.NIHILIST:
            card = self._next_placed(step).card
            return [Action(Kind.DECLINE, card=card), Action(Kind.RANDOMIZE, card=card)]
        actions = [Action(Kind.CHOOSE, option=o.id) for o in self.game.dilemmas[step.card].options]
        if not step.prayed:
            actions.append(Action(Kind.PRAY))
        for placed in self.table:
            if placed.owner == step.chooser and self.game.has_op(placed.card, OP_THIRD):
                actions += self._third_options(placed.card)
        return actions

    def _third_options(self, card: str) -> list[Action]:
        gain = self.game.op_param(card, OP_THIRD, "gain_virtue_max")
        lose = self.game.op_param(card, OP_THIRD, "lose_virtue_max")
        draw = self.game.op_param(card, OP_THIRD, "draw_cards")
        actions = [Action(Kind.THIRD_OPTION, card=card, option=mode, virtue=v, amount=n)
                   for mode, most in ((THIRD_GAIN, gain), (THIRD_LOSE, lose))
                   for v in self.game.virtues for n in range(1, most + 1)]
        if draw:
            actions.append(Action(Kind.THIRD_OPTION, card=card, option=THIRD_DRAW, amount=draw))
        return actions

    # ------------------------------------------------------------------ moves

    def _play(self, action: Action) -> None:
        step = self.queue[0]
        apply = APPLY.of(step)
        if apply is None:
            raise IllegalAction(f"{GAME_ID}: no action is played at a {type(step).__name__} step")
        apply(self, step, action)
        self._advance()

    def _advance(self) -> None:
        """Run automatic steps until a decision, a chance node or the end."""
        while self.outcome_ is None and self.queue:
            step = self.queue[0]
            handler = AUTOMATIC.of(step)
            if handler is None or not handler(self, step):
                return

    def _replace_front(self, step: Optional[Step], *after: Step) -> None:
        """Swap the front step for ``step`` (dropped when None), then queue ``after`` right behind it."""
        self.queue[0:1] = ([step] if step is not None else []) + list(after)

    # chance

    def _deal_god(self, step: DealGod, action: Action) -> None:
        god = action.named_card()
        self.god_deck.remove(god)
        if self.true_god is None:
            self.true_god = god
            self._emit("god-dealt", god, to="envelope")
        elif len(self.player_gods) < self.game.num_players * self.game.gods_per_player:
            player = len(self.player_gods) % self.game.num_players
            self.player_gods.append(god)
            self.seen[player].add(god)
            self._emit("god-dealt", god, to="player", player=player)
        else:
            self.row.append(god)
            self._emit("god-dealt", god, to="false-god-row")
        if not self.god_deck:
            self.row.extend(self.player_gods)  # players set their god face down with the other False Gods
        self._replace_front(None)

    def _draw(self, step: Draw, action: Action) -> None:
        card = action.named_card()
        self.pile.remove(card)
        self.hands[step.player].append(card)
        self._emit("draw", card, player=step.player)
        self._replace_front(replace(step, count=step.count - 1) if step.count > 1 else None)
        if not self.pile and not step.setup:
            self._pile_ran_out()

    def _pile_ran_out(self) -> None:
        """Empty draw pile: the player whose turn it is counts as the caller, and nothing can cancel it.

        Ruling (Clarifications): a Judgment Day already called by a player goes
        ahead as scheduled but can no longer be cancelled.
        """
        if self.judgment is None:
            self.judgment = JudgmentCall(self.turn, Ending.DRAW_PILE, cancellable=False)
        else:
            self.judgment = replace(self.judgment, cancellable=False)
        self._emit("draw-pile-empty", self.judgment.caller)

    def _lose_card(self, step: LoseCards, action: Action) -> None:
        card = action.named_card()
        self.hands[step.player].remove(card)
        self.discard.append(card)  # Ruling: lost cards open no reclaim window
        self._emit("card-lost", card, player=step.player)
        self._replace_front(replace(step, count=step.count - 1) if step.count > 1 else None)

    # decisions

    def _turn_action(self, step: TurnAction, action: Action) -> None:
        player = step.player
        self._replace_front(None)
        TURN_APPLY[action.kind](self, player, action)

    def _play_dilemma(self, player: int, action: Action) -> None:
        card, chooser = action.named_card(), action.named_player()
        self.hands[player].remove(card)
        self._emit("dilemma-played", card, reader=player, chooser=chooser)
        self.queue[0:0] = [Confront(card, chooser, player, prayed=False),
                           Draw(player, self.game.replacement_draw)]

    def _request(self, player: int, action: Action) -> None:
        # Ruling (Clarifications): a player holding no Moral Dilemma says so; the action is spent.
        asked = action.named_player()
        holding = bool(self._dilemmas_in_hand(asked))
        self._emit("dilemma-requested", player, asked=asked, refused=not holding)
        if holding:
            self.queue.insert(0, Offer(asked, player))

    def _resolve_prayer(self, player: int, action: Action) -> None:
        card = action.named_card()
        self.prayers[player].remove(card)
        self._emit("prayer-resolved", card, player=player)
        self.queue.insert(0, Confront(card, player, None, prayed=True))

    def _draw_card(self, player: int, action: Action) -> None:
        self._emit("draw-action", player, cards=self.game.draw_action_cards)
        self.queue.insert(0, Draw(player, self.game.draw_action_cards))

    def _call(self, player: int, action: Action) -> None:
        self._emit("judgment-called", player)
        self.judgment = JudgmentCall(player, Ending.CALLED, cancellable=True)

    def _play_philosopher(self, player: int, action: Action) -> None:
        card = action.named_card()
        self.hands[player].remove(card)
        power = self.game.kind_of(card).power
        self._emit("philosopher-played", card, player=player, target=action.player, slots=action.slots)
        after: list[Step] = [Draw(player, self.game.replacement_draw)]
        if power.timing is Timing.IMMEDIATE:
            for slot in action.slots:
                if self.game.has_op(card, OP_PEEK):
                    self.seen[player].add(self.row[slot])
                    self._emit("false-god-peeked", self.row[slot], player=player, slot=slot)
                if self.game.has_op(card, OP_REVEAL):
                    self.face_up.add(slot)
                    self._emit("false-god-revealed", self.row[slot], slot=slot)
            if self.game.has_op(card, OP_CANCEL):
                assert self.judgment is not None
                turns = self.game.op_param(card, OP_CANCEL, "bar_caller_turns")
                self.barred[self.judgment.caller] = turns
                self._emit("judgment-cancelled", self.judgment.caller, barred_turns=turns)
                self.judgment = None
            after += [TurnAction(player)] * self.game.op_param(card, OP_EXTRA, "count")
            self.queue[0:0] = self._discard_philosopher(card, player) + after
            return
        holder = player if power.target == TARGET_SELF else action.named_player()
        self.table.append(Placed(card, player, holder))
        self.queue[0:0] = after

    def _discard_philosopher(self, card: str, played_by: int) -> list[Step]:
        """Put a used Philosopher on the discard pile and open its reclaim window."""
        self.discard.append(card)
        self._emit("philosopher-discarded", card, player=played_by)
        return [Reclaim(card, played_by, reclaim_order(self.game.num_players, self.turn, played_by))]

    def _offer(self, step: Offer, action: Action) -> None:
        card = action.named_card()
        self.hands[step.giver].remove(card)
        self._emit("dilemma-offered", card, reader=step.giver, chooser=step.receiver)
        self._replace_front(Confront(card, step.receiver, step.giver, prayed=False),
                            Draw(step.giver, self.game.replacement_draw))

    def _reclaim(self, step: Reclaim, action: Action) -> None:
        if action.kind is Kind.PASS:
            self._emit("reclaim-passed", step.card, player=step.candidates[0])
            self._replace_front(replace(step, candidates=step.candidates[1:]))
            return
        claimer = step.candidates[0]
        for paid in action.cards:
            self.hands[claimer].remove(paid)
            self.discard.append(paid)  # Ruling: cards paid for a reclaim open no new window
        self.discard.remove(step.card)
        self.hands[claimer].append(step.card)
        self._emit("philosopher-reclaimed", step.card, player=claimer, paid=action.cards)
        self._replace_front(None)

    def _confront(self, step: Confront, action: Action) -> None:
        kind = action.kind
        if kind is Kind.DECLINE:
            card = action.named_card()
            self._emit("philosopher-not-invoked", card, dilemma=step.card)
            self._replace_front(replace(step, asked=step.asked + (card,)))
        elif kind is Kind.DICTATE:
            card, option = action.named_card(), action.named_option()
            chosen = self.game.option(step.card, option)
            self._emit("choice-dictated", card, dilemma=step.card, option=option, chooser=step.chooser)
            self._replace_front(replace(step, stage=Stage.NIHILIST, dictated=option, consequence=chosen,
                                        used=step.used + (self._use(card),)))
        elif kind is Kind.CHOOSE:
            option = action.named_option()
            self._emit("option-chosen", step.card, chooser=step.chooser, option=option)
            self._replace_front(replace(step, stage=Stage.NIHILIST, consequence=self.game.option(step.card, option)))
        elif kind is Kind.THIRD_OPTION:
            self._emit("third-option", action.card, dilemma=step.card, chooser=step.chooser, option=action.option,
                       virtue=action.virtue, amount=action.amount)
            self._replace_front(replace(step, stage=Stage.NIHILIST, consequence=_third(action),
                                        used=step.used + (self._use(action.named_card()),)))
        elif kind is Kind.PRAY:
            self.prayers[step.chooser].append(step.card)
            self._emit("prayed", step.card, player=step.chooser)
            self._replace_front(None)
        elif kind is Kind.RANDOMIZE:
            assert step.consequence is not None
            rolls = tuple((THIRD_GAIN, n) for n in step.consequence.gain.values()) + \
                tuple((THIRD_LOSE, n) for n in step.consequence.lose.values())
            self._emit("virtues-randomized", action.card, dilemma=step.card, chooser=step.chooser)
            self._replace_front(replace(step, stage=Stage.ROLL, to_roll=rolls,
                                        used=step.used + (self._use(action.named_card()),)))
        elif kind is Kind.RANDOM_VIRTUE:
            (mode, amount), rest = step.to_roll[0], step.to_roll[1:]
            virtue = action.named_virtue()
            self._emit("virtue-rolled", virtue, mode=mode, amount=amount)
            rolled = step.rolled + ((mode, virtue, amount),)
            self._replace_front(replace(step, to_roll=rest, rolled=rolled))

    def _use(self, card: str) -> Placed:
        """Take an invoked Philosopher off the table (it is discarded once the dilemma is settled)."""
        placed = next(p for p in self.table if p.card == card)
        self.table.remove(placed)
        return placed

    # automatic steps (return True when they advanced)

    def _auto_confront(self, step: Confront) -> bool:
        if step.stage is Stage.CULT and not self._placed_for(step, OP_DICTATE):
            self._replace_front(replace(step, stage=Stage.CHOICE, asked=()))
            return True
        if step.stage is Stage.NIHILIST and not self._placed_for(step, OP_RANDOMIZE):
            self._replace_front(replace(step, stage=Stage.APPLY))
            return True
        if step.stage is Stage.ROLL and not step.to_roll:
            assert step.consequence is not None
            self._replace_front(replace(step, stage=Stage.APPLY, consequence=_rerolled(step.consequence, step.rolled)))
            return True
        if step.stage is Stage.APPLY:
            self._settle(step)
            return True
        return False

    def _settle(self, step: Confront) -> None:
        """Carry out the chosen consequence, discard the dilemma and the Philosophers used on it."""
        consequence = step.consequence
        assert consequence is not None
        self.tokens[step.chooser] = apply_tokens(self.tokens[step.chooser], consequence)
        self.discard.append(step.card)
        self._emit("dilemma-scored", step.card, chooser=step.chooser, gain=tuple(sorted(consequence.gain.items())),
                   lose=tuple(sorted(consequence.lose.items())), draw_cards=consequence.draw_cards,
                   lose_cards=consequence.lose_cards)
        follow: list[Step] = []
        if consequence.draw_cards:
            follow.append(Draw(step.chooser, consequence.draw_cards))
        if consequence.lose_cards:
            follow.append(LoseCards(step.chooser, consequence.lose_cards))
        for placed in step.used:
            follow += self._discard_philosopher(placed.card, placed.owner)
        self._replace_front(None, *follow)

    def _auto_draw(self, step: Draw) -> bool:
        if self.pile:
            return False
        self._replace_front(None)  # an empty pile gives nothing
        return True

    def _auto_lose(self, step: LoseCards) -> bool:
        if self.hands[step.player]:
            return False
        self._replace_front(None)  # nothing left to lose: no debt
        return True

    def _auto_reclaim(self, step: Reclaim) -> bool:
        eligible = tuple(p for p in step.candidates if len(self.hands[p]) >= self.game.reclaim_cost)
        if eligible == step.candidates and eligible:
            return False
        self._replace_front(replace(step, candidates=eligible) if eligible else None)
        return True

    def _auto_end_turn(self, step: EndTurn) -> bool:
        player = step.player
        self.barred[player] = max(0, self.barred[player] - 1)
        self.turns_taken += 1
        self.turn = (player + 1) % self.game.num_players
        self._emit("turn-ended", player, next=self.turn)
        if self.judgment is not None and self.turn == self.judgment.caller:
            self._judgment_day()
            return True
        self._replace_front(None, *self.game.turn_steps(self.turn))
        return True

    def _judgment_day(self) -> None:
        """Reveal the One True God and score; unsettled prayers are discarded unresolved."""
        assert self.judgment is not None and self.true_god is not None
        for player, cards in enumerate(self.prayers):
            self.discard.extend(cards)
            self.prayers[player] = []
        result = judge(self.game.gods[self.true_god], self.tokens)
        god = self.game.gods[self.true_god]
        self.outcome_ = Outcome(self.judgment.ending.value, result.winners, result.scores,
                                f"Judgment Day ({self.judgment.ending.value}): the One True God is {god.name}")
        self._emit("judgment-day", self.true_god, ending=self.judgment.ending.value, scores=result.scores,
                   winners=result.winners)
        self.queue = []

    def __str__(self) -> str:
        lines = [f"turn: player {self.turn}; pile {len(self.pile)}; discard {len(self.discard)}"]
        for p in range(self.game.num_players):
            tokens = ",".join(str(self.tokens[p][v]) for v in self.game.virtues)
            lines.append(f"player {p}: tokens {tokens}; hand {len(self.hands[p])}; praying {len(self.prayers[p])}")
        return "\n".join(lines)


# --------------------------------------------------------------------------- tables


def _step_key(step: Step) -> Hashable:
    """A queued step as a hashable value (a chosen consequence holds mappings: they become sorted pairs)."""
    if isinstance(step, Confront) and step.consequence is not None:
        c = step.consequence
        return (replace(step, consequence=None), tuple(sorted(c.gain.items())), tuple(sorted(c.lose.items())),
                c.draw_cards, c.lose_cards)
    return step


def _third(action: Action) -> Consequence:
    """The Annoying Undergrad's invented option."""
    if action.option == THIRD_DRAW:
        return Consequence(frozen_map({}), frozen_map({}), draw_cards=action.amount)
    amounts = frozen_map({action.named_virtue(): action.amount})
    empty = frozen_map({})
    return Consequence(amounts, empty) if action.option == THIRD_GAIN else Consequence(empty, amounts)


def _rerolled(consequence: Consequence, rolled: Sequence[tuple[str, str, int]]) -> Consequence:
    """``consequence`` with each amount moved to its randomly drawn Virtue (cards unchanged)."""
    gain: dict[str, int] = {}
    lose: dict[str, int] = {}
    for mode, virtue, amount in rolled:
        target = gain if mode == THIRD_GAIN else lose
        target[virtue] = target.get(virtue, 0) + amount
    return consequence._replace(gain=frozen_map(gain), lose=frozen_map(lose))


FLAGS: Mapping[str, Callable[[State, int], bool]] = {
    PRAYING: lambda s, p: bool(s.prayers[p]),
    HOLDING_DILEMMA: lambda s, p: any(c in s.game.dilemmas for c in s.hands[p]),
    HOLDING_PHILOSOPHER: lambda s, p: any(c in s.game.philosophers for c in s.hands[p]),
    DRAW_PILE_EMPTY: lambda s, p: not s.pile,
    JUDGMENT_DAY_PENDING: lambda s, p: s.judgment is not None,
    BARRED: lambda s, p: s.barred[p] > 0,
}

ENUMERATORS: Mapping[str, Callable[[State, int], list[Action]]] = {
    RESOLVE_PRAYER: lambda s, p: [Action(Kind.RESOLVE_PRAYER, card=c) for c in sorted(set(s.prayers[p]))],
    PLAY_DILEMMA: lambda s, p: [Action(Kind.PLAY_DILEMMA, card=c, player=t) for c in s._dilemmas_in_hand(p) for t in s._others(p)],
    REQUEST_DILEMMA: lambda s, p: [Action(Kind.REQUEST_DILEMMA, player=t) for t in s._others(p)],
    PLAY_PHILOSOPHER: lambda s, p: s._philosopher_plays(p),
    DRAW_CARD: lambda s, p: [Action(Kind.DRAW_CARD)],
    CALL_JUDGMENT_DAY: lambda s, p: [Action(Kind.CALL_JUDGMENT_DAY)],
}

TURN_APPLY: Mapping[Kind, Callable[[State, int, Action], None]] = {
    Kind.RESOLVE_PRAYER: State._resolve_prayer,
    Kind.PLAY_DILEMMA: State._play_dilemma,
    Kind.REQUEST_DILEMMA: State._request,
    Kind.PLAY_PHILOSOPHER: State._play_philosopher,
    Kind.DRAW_CARD: State._draw_card,
    Kind.CALL_JUDGMENT_DAY: State._call,
}

StepT = TypeVar("StepT", bound=Step)
Extra = ParamSpec("Extra")  # what a table's handlers take after the state and the step
R = TypeVar("R")


class StepHandlers(Generic[Extra, R]):
    """State methods filed under the step class each one handles.

    ``on`` ties a handler's step parameter to the class it is filed under, so a
    table can never hand a Draw to the Confront handler; ``of`` finds the
    handler for a step by its class (None when the table has none).
    """

    def __init__(self) -> None:
        self._by_class: dict[type, Callable[..., R]] = {}

    def on(self, step_class: type[StepT], handler: Callable[Concatenate[State, StepT, Extra], R]) -> None:
        self._by_class[step_class] = handler

    def of(self, step: Step) -> Optional[Callable[Concatenate[State, Step, Extra], R]]:
        return self._by_class.get(type(step))


# The step at the front of the queue when an action is played: how the action changes the state.
APPLY: StepHandlers[[Action], None] = StepHandlers()
APPLY.on(DealGod, State._deal_god)
APPLY.on(Draw, State._draw)
APPLY.on(LoseCards, State._lose_card)
APPLY.on(TurnAction, State._turn_action)
APPLY.on(Offer, State._offer)
APPLY.on(Reclaim, State._reclaim)
APPLY.on(Confront, State._confront)

# Steps that may resolve without anyone deciding: each returns True when it advanced the queue.
AUTOMATIC: StepHandlers[[], bool] = StepHandlers()
AUTOMATIC.on(Draw, State._auto_draw)
AUTOMATIC.on(LoseCards, State._auto_lose)
AUTOMATIC.on(Reclaim, State._auto_reclaim)
AUTOMATIC.on(EndTurn, State._auto_end_turn)
AUTOMATIC.on(Confront, State._auto_confront)
