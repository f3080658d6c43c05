"""The reference rules engine for Monotheism (shaped after OpenSpiel's Game/State).

A :class:`Game` holds the card definitions; a :class:`State` is one immutable
position. Every player decision is an action (a short string):

* ``submerge N``  choose how many cards to submerge;
* ``place P``     put the old top card P-th (1 = highest) in the submerged stack;
* ``pick L``      choose card L (a deity number such as ``07`` or a worshiper id)
                  for an act's "any ... from among the top K cards";
* ``accept`` / ``decline``  answer an act's "may".

Between decisions the engine resolves everything else on its own: unveiling
the top card, its act, every essence anywhere in the deck, re-entry when the
top card changes, curses and the end checks. The rulings of
``monotheism-facts.md`` are followed; the numbers in comments refer to them.

One reading worth naming: "This consumes the N cards nearest itself" is N
bites, each at whatever card is nearest at that moment. It is the only reading
that gives the rulebook's worked example (next to a god that answers every
attempt with "the bottom three cards are consumed by the void instead", four
bites remove twelve cards). Every other multi-card selector picks its targets
first (ruling 5).
"""
from __future__ import annotations

import copy
import functools
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, Final, Iterator, Mapping, NamedTuple, Optional, Sequence

from pipeline.engine import Decision, Event, IllegalAction, Outcome
from pipeline.engine import State as EngineState
from pipeline.engine.types import TERMINAL_DECISION
from pipeline.games.monotheism import GAME_ID, dsl
from pipeline.games.monotheism.cards import TRANSFORMED, UPRIGHT, Cards, Half
from pipeline.games.monotheism.dsl import CONDITION, OP, SELECTOR, handler, tag
from pipeline.games.monotheism.model import Scenario, ScenarioCard

# A card in the deck: (label, veiled, transformed, curses suffered). Gods use the
# first three fields, worshipers the first and last.
Card = tuple[str, bool, bool, int]
LABEL: Final = 0
VEILED: Final = 1
TURNED: Final = 2
STAGE: Final = 3
_label_of = itemgetter(LABEL)  # map(_label_of, deck): a deck's labels at C speed

SUBMERGE, PLACE, PICK = "submerge", "place", "pick"
ACCEPT, DECLINE = "accept", "decline"
PHASE_ACT, PHASE_SUBMERGE, PHASE_PLACE, PHASE_OVER = "act", "submerge", "place", "over"
MAX_NESTING = 40  # essences answering essences deeper than this can only be a loop
PLAYER = 0  # the one seat of this solitaire
GRANTEE = "grantee"  # the grant op's key for the god that receives the power

# How a game ends (the Outcome's termination); the first two are wins.
ONE_GOD, NO_GOD_PRETENDER = "one-god", "no-god-pretender"
NO_GOD, LAST_WORSHIPER, DECK_EMPTY = "no-god", "last-worshiper", "deck-empty"
SUBMERGE_TOO_DEEP, VOID_CONSUMES_ALL, STALEMATE = "no-submerge-fits", "void-consumes-all", "stalemate"


@functools.lru_cache(maxsize=256)
def _ending(termination: str, detail: str) -> Outcome:
    won = termination in (ONE_GOD, NO_GOD_PRETENDER)
    return Outcome(termination, (PLAYER,) if won else (), (1 if won else 0,), detail)


@functools.lru_cache(maxsize=None)
def _handler(category: str, name: str) -> Any:
    """The registered handler of a word, looked up once (the registry is complete once this module is imported)."""
    return dsl.REGISTRY.handler_of(category, name)


@functools.lru_cache(maxsize=None)
def _asks(name: str) -> bool:
    """Whether the selector ``name`` is a choice the player makes."""
    return dsl.REGISTRY.flagged(SELECTOR, name, dsl.CHOICE_FLAG)


class _Loop(Exception):
    """Raised when automatic resolution repeats itself: a stalemate (ruling 9)."""


# ===================================================================== the game
class Game:
    """The rules plus the card definitions; makes initial states."""

    def __init__(self, cards: Cards) -> None:
        self.cards = cards
        self.is_god = frozenset(cards.deities).__contains__  # hot path: a bound set lookup
        # Hot-path tables, read at C speed: 1 per god label, 0 per worshiper (sum(map(...)) counts gods), and
        # each card state's face (worked out once per distinct card tuple; the card definitions never change).
        self.god_flag = {**{label: 0 for label in cards.worshipers}, **{label: 1 for label in cards.deities}}
        self._faces: dict[Card, _Face] = {}
        self._submerge: dict[tuple[Card, Optional[Card]], tuple[int, ...]] = {}

    def state_for(self, deck: Sequence[ScenarioCard], *, track_history: bool = True) -> "State":
        """A fresh state with ``deck`` (TOP card first); the top card is unveiled at once."""
        unknown = [c.label() for c in deck if c.ref not in (self.cards.deities if c.is_deity else self.cards.worshipers)]
        if unknown:
            raise ValueError(f"unknown card(s): {', '.join(unknown)}")
        return self._start(tuple((c.ref, c.veiled, c.transformed, c.cursed) for c in deck), track_history)

    def state_from_setup(self, setup: Mapping[str, Any]) -> "State":
        """The first state of a serialised game: its deck (top first, cards as [label, veiled, transformed,
        curses]) and whether positions are remembered (a repeat is a stalemate)."""
        cards = tuple((str(c[LABEL]), bool(c[VEILED]), bool(c[TURNED]), int(c[STAGE])) for c in setup["deck"])
        unknown = [c[LABEL] for c in cards if c[LABEL] not in self.cards.deities and c[LABEL] not in self.cards.worshipers]
        if unknown or not cards:
            raise IllegalAction(f"a deck of known cards is needed (unknown: {', '.join(unknown) or 'none'})")
        return self._start(cards, bool(setup["track_history"]))

    def _start(self, cards: tuple[Card, ...], track_history: bool) -> "State":
        zero = any(self.cards.worshipers[c[LABEL]].zero_gods_victory for c in cards if not self.is_god(c[LABEL]))
        work = _Work(self, list(cards), zero_ok=zero, began=not cards[0][VEILED])
        work.settle()
        first = work.freeze(seen=frozenset() if track_history else None)
        setup = {"deck": [list(card) for card in cards], "track_history": track_history}
        return first._started(setup, first.events)

    def scenario_state(self, scenario: Scenario, *, track_history: bool = True) -> "State":
        """The starting state of a scenario (whose deck is listed BOTTOM first)."""
        return self.state_for(tuple(reversed(scenario.deck)), track_history=track_history)

    # ------------------------------------------------------------- card faces
    def face(self, card: Card) -> "_Face":
        """What ``card`` shows in its present state (kept per distinct card tuple: asked millions of times)."""
        face = self._faces.get(card)
        if face is None:
            face = self._faces[tuple(card)] = self._face(card)  # type: ignore[index]
        return face

    def _face(self, card: Card) -> "_Face":
        label = card[LABEL]
        if label in self.cards.deities and not card[VEILED]:
            half = self.cards.deities[label].halves[TRANSFORMED if card[TURNED] else UPRIGHT]
            essence = half.essence
            return _Face(half, half.numbers, half.act, essence["when"] if essence is not None else None,
                         half.act is not None and dsl.waits_when_first_unveiled(half.act))
        if label in self.cards.worshipers:
            state = self.cards.worshipers[label].states[card[STAGE]]
            return _Face(None, state.numbers, state.act, None,
                         state.act is not None and dsl.waits_when_first_unveiled(state.act))
        return _Face(None, (), None, None, False)

    def submerge_numbers(self, top: Card, second: Optional[Card]) -> tuple[int, ...]:
        """Ruling 3, sorted: both numbers of ``top``, and the left-most of ``second`` (kept per pair of cards)."""
        pair = (top, second)
        found = self._submerge.get(pair)
        if found is None:
            numbers = set(self.numbers(top))
            if second is not None:
                shown = self.numbers(second)
                if shown:
                    numbers.add(shown[0])
            found = self._submerge[pair] = tuple(sorted(numbers))
        return found

    def half(self, card: Card) -> Optional[Half]:
        """The active half of an unveiled god; None for a veiled god or a worshiper."""
        return self.face(card).half

    def numbers(self, card: Card) -> tuple[int, ...]:
        return self.face(card).numbers

    def act(self, card: Card) -> Optional[Mapping[str, Any]]:
        return self.face(card).act

    def essence(self, card: Card, trigger: str) -> Optional[Mapping[str, Any]]:
        face = self.face(card)
        return face.half.essence if face.when == trigger and face.half is not None else None

    def aspects(self, card: Card) -> frozenset[str]:
        half = self.face(card).half
        return half.aspects if half is not None else frozenset()


class _Face(NamedTuple):
    """A card's face in one state: its active half (an unveiled god), numbers, act, and essence trigger."""

    half: Optional[Half]
    numbers: tuple[int, ...]
    act: Optional[Mapping[str, Any]]
    when: Optional[str]  # the trigger of the half's essence (None: no essence)
    waits: bool  # the act's condition is "If this began unveiled" (``dsl.waits_when_first_unveiled``)


# ===================================================================== states
@dataclass(frozen=True)
class State(EngineState[str]):
    """One position. Immutable: ``apply_action`` returns a new state."""

    game_id = GAME_ID

    game: Game
    deck: tuple[Card, ...]
    phase: str
    began: bool
    zero_ok: bool
    pending: tuple[str, ...] = ()
    number: int = 0
    outcome_: Optional[Outcome] = None
    revealed: frozenset[str] = frozenset()
    seen: Optional[frozenset] = field(default=None, compare=False)  # keys of earlier positions (a repeat: stalemate)

    # ------------------------------------------------------------- interface
    @property
    def num_players(self) -> int:
        return 1

    def key(self) -> tuple:
        """Everything that matters for future play, hashable."""
        return (self.phase, self.deck, self.began, self.pending, self.number)

    def outcome(self) -> Optional[Outcome]:
        return self.outcome_

    def _copy(self) -> "State":
        return copy.copy(self)  # every field is immutable: a shallow copy is independent

    def _decide(self) -> Decision[str]:
        if self.phase == PHASE_SUBMERGE:
            return _choice(SUBMERGE, tuple(self.submerge_options()))
        if self.phase == PHASE_PLACE:
            return _choice(PLACE, tuple(range(1, self.number + 1)))
        if self.phase == PHASE_ACT:
            return Decision(PLAYER, tuple(_Work.from_state(self).plan() or ()))
        return TERMINAL_DECISION

    def _successor(self, action: str) -> "State":
        work = _Work.from_state(self)
        verb, _, arg = action.partition(" ")
        if self.phase == PHASE_SUBMERGE:
            work.choose_number(int(arg))
        elif self.phase == PHASE_PLACE:
            work.place(int(arg))
        else:
            work.pending = self.pending + (action,)
            work.resume_act()
        seen = None
        if self.seen is not None:
            seen = self.seen | {self.__dict__.get("mark") or _Mark(self.key())}
        new = work.freeze(seen=seen)
        if seen is not None and new.outcome_ is None:
            mark = _Mark(new.key())
            if mark in seen:
                work.lose(STALEMATE, "stalemate: this position was seen before")
                new = work.freeze(seen=seen)
            else:
                new.__dict__["mark"] = mark  # what its own successors add to their seen positions
        return new

    def why_illegal(self, action: str) -> Optional[str]:
        """Why ``action`` cannot be taken here, in words (None when it is legal). Reads the position
        only: the rules are those of ``legal_actions``, explained."""
        if self.is_terminal():
            return f"the game is already over ({self.outcome_.detail if self.outcome_ else 'ended'})"
        options = self.legal_actions()
        if action in options:
            return None
        verb, _, arg = action.partition(" ")
        top = self.deck[0][LABEL]
        wanted = {PHASE_SUBMERGE: "how many cards to submerge", PHASE_PLACE: "where the old top card goes",
                  PHASE_ACT: f"a choice for the act of {_called(self.game, top)}"}[self.phase]
        asked = f"the game asks {wanted} ({', '.join(options)})"
        if self.phase == PHASE_SUBMERGE and verb == SUBMERGE:
            first, second = self.game.numbers(self.deck[0]), self.game.numbers(self.deck[1]) if len(self.deck) > 1 else ()
            shown = " and ".join(str(n) for n in first) or "no numbers"
            also = f", the left-most of the second card is {second[0]}" if second else ", the second card shows no number"
            return f"{arg} is not a number to submerge: the top card {_called(self.game, top)} shows {shown}{also}"
        if self.phase == PHASE_PLACE and verb == PLACE:
            return f"place {arg} is out of range: {self.number} cards are being submerged ({asked})"
        if self.phase != PHASE_ACT and verb in (PICK, ACCEPT, DECLINE):
            return f"nothing is to be chosen now: {_called(self.game, top)} has no act waiting for a choice; {asked}"
        if self.phase == PHASE_ACT and verb == PICK:
            if all(card[LABEL] != arg for card in self.deck):
                return f"{_called(self.game, arg)} is not in the deck any more; {asked}"
            return f"{_called(self.game, arg)} is not one of the cards this act may pick; {asked}"
        return asked

    # ------------------------------------------------------------- views
    def submerge_options(self) -> list[int]:
        """Ruling 3: both numbers of the top card, and the left-most number of the second."""
        return submerge_options(self.game, self.deck)

    def gods(self) -> int:
        return sum(1 for c in self.deck if self.game.is_god(c[LABEL]))

    def worshipers(self) -> int:
        return sum(1 for c in self.deck if not self.game.is_god(c[LABEL]))


class _Mark:
    """A position's key in a state's ``seen`` set, its hash worked out once (each is hashed when it is
    looked for and again when it is added, and a key hashes a whole deck)."""

    __slots__ = ("key", "hash")

    def __init__(self, key: tuple) -> None:
        self.key = key
        self.hash = hash(key)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Mark) and self.key == other.key

    def __reduce__(self) -> tuple:
        return _Mark, (self.key,)  # hashed again where it is unpickled (string hashes differ between processes)


def moved_stack(stack: list[Card], position: int) -> list[Card]:
    """The submerged stack as it goes to the bottom: the old top card ``position``-th, the rest in order."""
    return stack[1:position] + [stack[0]] + stack[position:]


@functools.lru_cache(maxsize=None)
def _choice(verb: str, numbers: tuple[int, ...]) -> Decision[str]:
    """The player's choice of a number (``submerge 4``, ``place 2``): the same few, shared."""
    return Decision(PLAYER, tuple(f"{verb} {n}" for n in numbers))


def _called(game: Game, label: str) -> str:
    """A card as the engine's explanations name it: #07 and its name, or a worshiper's name."""
    if game.is_god(label) and label in game.cards.deities:
        return f"#{label} {game.cards.deities[label].name}"
    worshiper = game.cards.worshipers.get(label)
    return worshiper.name if worshiper is not None else label


def placements(game: Game, deck: Sequence[Card], n: int) -> int:
    """How many placements of the old top card the player chooses among when submerging ``n``."""
    return 1 if n == 1 or curses_kill_all(game, deck, n) else n


def curses_kill_all(game: Game, deck: Sequence[Card], n: int) -> bool:
    """Would submerging ``n`` cards of ``deck`` consume every worshiper (so the placement cannot matter)?"""
    worshipers, is_god = game.cards.worshipers, game.is_god
    if not all(map(is_god, map(_label_of, deck[n:]))):
        return False  # a worshiper below the submerged cards
    for card in deck[:n]:
        if not is_god(card[LABEL]) and worshipers[card[LABEL]].states[card[STAGE]].curse != "void":
            return False
    return True


def submerge_options(game: Game, deck: Sequence[Card]) -> list[int]:
    return list(game.submerge_numbers(deck[0], deck[1] if len(deck) > 1 else None))


# ===================================================================== resolution
class _Work:
    """A mutable working copy of a state while the engine resolves effects."""

    __slots__ = ("game", "is_god", "deck", "zero_ok", "began", "acted", "phase", "pending", "number", "outcome",
                 "revealed", "depth", "events", "recording", "decided")

    def __init__(self, game: Game, deck: list[Card], *, zero_ok: bool, began: bool, acted: bool = False,
                 revealed: frozenset[str] = frozenset(), recording: bool = True) -> None:
        self.game = game
        self.is_god = game.is_god
        self.deck = deck
        self.zero_ok = zero_ok
        self.began = began
        self.acted = acted
        self.phase = PHASE_ACT
        self.pending: tuple[str, ...] = ()
        self.number = 0
        self.outcome: Optional[Outcome] = None
        self.revealed = revealed  # replaced, never changed in place (see reveal): a state's own set is shared
        self.depth = 0
        self.events: list[Event] = []  # what this resolution caused, in order
        self.recording = recording
        self.decided: Optional[Decision[str]] = None  # the decision resolution stopped at, when it worked it out

    @classmethod
    def from_state(cls, state: State) -> "_Work":
        # made field by field (no __init__ call): this runs for every action applied and every move tried
        work = object.__new__(cls)
        work.game, work.is_god, work.deck = state.game, state.game.is_god, list(state.deck)
        work.zero_ok, work.began, work.acted, work.recording = state.zero_ok, state.began, False, state.recording
        work.phase, work.pending, work.number = state.phase, state.pending, state.number
        work.outcome, work.revealed, work.depth, work.events = None, state.revealed, 0, []
        work.decided = None
        return work

    def freeze(self, seen: Optional[frozenset]) -> State:
        phase = PHASE_OVER if self.outcome is not None else self.phase
        # State's fields set directly, as its (frozen dataclass) __init__ would, one object.__setattr__ each
        state = object.__new__(State)
        fields = state.__dict__
        fields.update(game=self.game, deck=tuple(self.deck), phase=phase, began=self.began, zero_ok=self.zero_ok,
                      pending=self.pending, number=self.number, outcome_=self.outcome, revealed=self.revealed,
                      seen=seen)
        if self.events:
            fields["events"] = tuple(self.events)
        if not self.recording:
            fields["recording"] = False
        if self.decided is not None and self.outcome is None:
            fields["_decided"] = self.decided  # what State._decide would work out again from the same position
        return state

    def reveal(self, label: str) -> None:
        if label not in self.revealed:
            self.revealed = self.revealed | {label}

    def emit(self, kind: str, subject: str, **details: Any) -> None:
        if self.recording:
            self.events.append(tuple.__new__(Event, (kind, subject, tuple(details.items()))))  # Event(...), made directly

    # ------------------------------------------------------------- lookups
    def pos(self, label: Optional[str]) -> int:
        """Index of ``label`` in the deck (0 = top), or -1 when it is gone."""
        i = 0  # (a counter, not enumerate: this is the engine's most frequent call)
        for card in self.deck:
            if card[LABEL] == label:
                return i
            i += 1
        return -1

    def card(self, label: str) -> Optional[Card]:
        i = self.pos(label)
        return self.deck[i] if i >= 0 else None

    def gods(self) -> int:
        return sum(map(self.game.god_flag.__getitem__, map(_label_of, self.deck)))

    def unveiled_gods(self) -> int:
        return sum(1 for c in self.deck if self.is_god(c[LABEL]) and not c[VEILED])

    def set_card(self, label: str, card: Card) -> None:
        self.deck[self.pos(label)] = card

    def lose(self, termination: str, reason: str) -> None:
        self.end(termination, reason)

    def end(self, termination: str, reason: str) -> None:
        """The game is over (the first ending found stands)."""
        if self.outcome is None:
            self.outcome = _ending(termination, reason)
            if self.recording:
                self.emit("game-over", termination, won=bool(self.outcome.winners), reason=reason)

    # ------------------------------------------------------------- the turn
    def settle(self) -> None:
        """Unveil and act until a decision is needed or the game ends (ruling 1)."""
        seen: list[tuple] = []  # a list: a settle rarely passes more than two or three marks (no hashing)
        try:
            self._settle(seen)
        except _Loop:
            self.lose(STALEMATE, "stalemate: the gods repeat the same acts for ever")

    def _settle(self, seen: list[tuple]) -> None:
        while self.outcome is None:
            if not self.deck:
                self.lose(DECK_EMPTY, "the deck is empty")
                return
            top = self.deck[0]
            if self.is_god(top[LABEL]) and top[VEILED]:
                self.unveil(top[LABEL], on_top=True)
                self.check_end()
                continue
            if not self.acted:
                mark = (tuple(self.deck), self.began)
                if mark in seen:
                    raise _Loop
                seen.append(mark)
                ops = self.act_ops(top)
                if ops:
                    self.phase = PHASE_ACT
                    planner = self.planner()
                    options = planner.walk(ops, top[LABEL])
                    if options is not None:
                        self.decided = Decision(PLAYER, tuple(options))
                        return  # the player must decide
                    self.run_act(top, ops, planner)
                    if self.outcome is not None:
                        return
                if self.after_act(top):
                    continue
            self.open_submerge()
            return

    def after_act(self, top: Card) -> bool:
        """Mark the act done; True when a different card, or the same in a new state, is now on top."""
        self.acted = True
        if not self.deck or self.deck[0] == top:
            return False
        if self.deck[0][LABEL] != top[LABEL]:
            self.began = not self.deck[0][VEILED]  # ruling 2: judged when a card reaches the top
        self.acted = False
        return True

    def act_ops(self, top: Card) -> Optional[Sequence[Any]]:
        """The ops the top card will carry out now, or None (ruling 2 for "began unveiled").

        A card whose condition is "If this began unveiled" does not act at all, not even its "Otherwise" box,
        on the turn it was unveiled at the top (rulebook, Acts: "This is the only condition that will prevent
        a god from acting when it is first unveiled")."""
        face = self.game.face(top)
        act = face.act
        if act is None:
            return None
        if not self.began and face.waits:
            return None
        if "if" not in act or self.holds(act["if"], top[LABEL]):
            return act["do"]
        return act.get("otherwise")

    def resume_act(self) -> None:
        top = self.deck[0]
        ops = self.act_ops(top) or ()
        planner = self.planner()
        options = planner.walk(ops, top[LABEL])
        if options is not None:
            self.decided = Decision(PLAYER, tuple(options))
            return
        self.run_act(top, ops, planner)
        if self.outcome is None:
            self.after_act(top)
            self.settle()

    def run_act(self, top: Card, ops: Sequence[Any], planner: "_Planner") -> None:
        """Carry out ``ops``, the act of ``top``, with the bindings of ``planner`` (which walked them all)."""
        self.pending = ()
        self.emit("act", top[LABEL], choices=tuple(planner.bindings))
        try:
            self.run_ops(ops, _Ctx(top[LABEL], acting=True), iter(planner.bindings))
        except _Loop:
            self.lose(STALEMATE, "stalemate: the gods answer each other for ever")
        self.check_end()  # ruling 8: after the completed act

    def check_end(self) -> None:
        """Ruling 8: one god (or none, for the Pretender) and a worshiper left wins."""
        if self.outcome is not None:
            return
        gods = self.gods()
        if gods == 1:
            self.end(ONE_GOD, "monotheism: one god remains")
        elif gods == 0 and self.zero_ok:
            self.end(NO_GOD_PRETENDER, "no god remains")
        elif gods == 0:
            self.lose(NO_GOD, "no god remains to be the one")

    def open_submerge(self) -> None:
        self.phase = PHASE_SUBMERGE
        options = submerge_options(self.game, self.deck)
        if not options or min(options) > len(self.deck):
            self.lose(SUBMERGE_TOO_DEEP, "every number to submerge is larger than the deck")
        self.decided = _choice(SUBMERGE, tuple(options))

    def choose_number(self, n: int) -> None:
        if self.recording:  # (the cards are worth listing only for a record)
            self.emit("submerge", self.deck[0][LABEL], count=n, cards=tuple(map(_label_of, self.deck[:n])))
        if n > len(self.deck):
            for card in self.deck:
                self.emit("voided", card[LABEL], reason="submerge")
            self.deck.clear()
            self.lose(VOID_CONSUMES_ALL, f"submerging {n} cards from a deck of fewer: the void consumes them all")
            return
        if self.placements(n) == 1:
            self.place(1, n)  # one card, or a loss whatever the placement: nothing left to choose
            return
        self.phase, self.number = PHASE_PLACE, n

    def placements(self, n: int) -> int:
        return placements(self.game, self.deck, n)

    def place(self, position: int, n: Optional[int] = None) -> None:
        """Move the top ``n`` cards to the bottom, the old top card ``position``-th among them."""
        self.submerge_stack(position, n)
        if self.outcome is None:
            self.settle()

    def submerge_stack(self, position: int, n: Optional[int] = None) -> None:
        """The submerge itself and its curses; the next turn starts from the deck it leaves."""
        n = n or self.number
        stack = self.deck[:n]
        if self.recording:
            self.emit("place", stack[0][LABEL], position=position, count=n)
        self.deck = self.deck[n:] + moved_stack(stack, position)
        self.number = 0
        for card in stack:  # ruling 4: top-most first, even when nothing moved
            if not self.is_god(card[LABEL]):
                self.curse(card[LABEL])
                if self.outcome is not None:
                    return
        self.began = not self.deck[0][VEILED]
        self.acted = False
        self.phase = PHASE_ACT

    # ------------------------------------------------------------- choices (ruling 5: chosen first)
    def plan(self) -> Optional[list[str]]:
        """The options of the next decision the top card's act needs, or None when all are made."""
        return self.planner().walk(self.act_ops(self.deck[0]) or (), self.deck[0][LABEL])

    def planner(self) -> "_Planner":
        return _Planner(self, iter(self.pending))

    # ------------------------------------------------------------- conditions
    def holds(self, condition: Mapping[str, Any], subject: str) -> bool:
        name, param = tag(condition)
        return bool(_handler(CONDITION, name)(self, subject, param))

    def neighbours(self, label: str) -> list[Card]:
        i = self.pos(label)
        return [self.deck[j] for j in (i - 1, i + 1) if 0 <= j < len(self.deck) and i >= 0]

    # ------------------------------------------------------------- ops
    def run_ops(self, ops: Sequence[Any], ctx: "_Ctx", bindings: Iterator[Any]) -> None:
        for op in ops:
            if self.stopped(ctx):
                return
            name, params = tag(op)
            _handler(OP, name)(self, ctx, params, bindings)

    def stopped(self, ctx: "_Ctx") -> bool:
        """The game is over, or the card whose act this is has been consumed: "If a card is itself
        consumed while attempting to act, its act will cease." (A power it granted is not its act:
        the grantee's meal goes on, ruling 7.)"""
        return self.outcome is not None or (ctx.acting and self.pos(ctx.this) < 0)

    def resolve(self, selector: Mapping[str, Any], ctx: "_Ctx") -> list[str]:
        """The labels a (non-choice) selector names."""
        name, param = tag(selector)
        return _handler(SELECTOR, name)(self, ctx, param)

    def ordered(self, labels: Sequence[str], subject: Optional[str]) -> list[str]:
        """Nearest to ``subject`` first, ties the upper card first (ruling 5)."""
        # Each card's index read once (not a scan of the deck per label and per comparison); built from the
        # bottom up so a label's first place wins, as ``pos`` reads it.
        deck = self.deck
        where = {deck[i][LABEL]: i for i in range(len(deck) - 1, -1, -1)}
        present = [label for label in labels if label in where]
        origin = where.get(subject, -1) if subject is not None else -1
        if origin < 0:
            return present
        return sorted(present, key=lambda label: (abs(where[label] - origin), where[label]))

    def nest(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise _Loop

    def unnest(self) -> None:
        self.depth -= 1

    # ------------------------------------------------------------- consumption (rulings 5-7)
    def meal(self, eater: str, targets: Sequence[str], *, bites: int = 0) -> int:
        """``eater`` consumes ``targets`` in order, or takes ``bites`` bites at its nearest card.

        Returns how many cards it consumed (what "If so:" after a consume asks)."""
        eaten = gods = 0
        queue = list(targets)
        for _ in range(bites or len(queue)):
            if self.outcome is not None or self.pos(eater) < 0:
                return eaten  # a consumer consumed mid-meal stops
            target = self.nearest_other(eater) if bites else queue.pop(0)
            if target is None or self.pos(target) < 0:
                continue
            was_god = self.is_god(target)
            if self.attempt(eater, target):
                eaten += 1
                gods += was_god
        if gods and self.outcome is None and self.pos(eater) >= 0:
            self.fire(eater, "consumes", _Ctx(eater))  # ruling 7: once, after the meal
        return eaten

    def nearest_other(self, label: str) -> Optional[str]:
        """The card nearest to ``label``, the upper one on a tie (ruling 5): the card just above it, else the
        one just below; the top card when ``label`` is not in the deck."""
        deck = self.deck
        origin = self.pos(label)
        if origin < 0:
            return deck[0][LABEL] if deck else None
        if origin > 0:
            return deck[origin - 1][LABEL]
        return next((card[LABEL] for card in deck[1:] if card[LABEL] != label), None)  # on top: the card below

    def attempt(self, eater: str, target: str) -> bool:
        """A god tries to consume ``target``; True if it was consumed."""
        if target == eater:
            return False  # gods cannot consume themselves
        card = self.card(target)
        essence = self.game.essence(card, "attempted") if card is not None else None
        if essence is not None and self.is_god(eater) and self.essence_applies(essence, target):
            self.emit("essence", target, trigger="attempted", attacker=eater)
            self.nest()
            self.run_ops(essence["do"], _Ctx(target, attacker=eater), iter(()))
            self.unnest()
            return False  # ruling 6: "instead"
        return self.remove(target, by=eater) or True

    def remove(self, target: str, *, by: Optional[str] = None, reason: str = "void") -> bool:
        """Take ``target`` out of the game (consumed ``by`` a god, or by the void); True if it was a god."""
        i = self.pos(target)
        if i < 0:
            return False
        card = self.deck.pop(i)
        if not self.recording:
            pass
        elif by is not None:
            self.emit("consumed", target, by=by)
        else:
            self.emit("voided", target, reason=reason)
        if not self.is_god(target):
            if all(map(self.is_god, map(_label_of, self.deck))):
                self.lose(LAST_WORSHIPER, f"the last worshiper ({target}) was consumed")
            return False
        essence = self.game.essence(card, "consumed")
        if essence is not None and self.essence_applies(essence, target):
            self.emit("essence", target, trigger="consumed")
            self.nest()
            self.run_ops(essence["do"], _Ctx(target, where=i), iter(()))
            self.unnest()
        return True

    def essence_applies(self, essence: Mapping[str, Any], subject: str) -> bool:
        return "if" not in essence or self.holds(essence["if"], subject)

    def fire(self, label: str, trigger: str, ctx: "_Ctx") -> None:
        card = self.card(label)
        essence = self.game.essence(card, trigger) if card is not None else None
        if essence is not None and self.essence_applies(essence, label):
            self.emit("essence", label, trigger=trigger)
            self.nest()
            self.run_ops(essence["do"], ctx, iter(()))
            self.unnest()

    # ------------------------------------------------------------- card states
    def unveil(self, label: str, *, on_top: bool = False) -> None:
        i = self.pos(label)
        if i < 0 or not self.deck[i][VEILED]:
            return
        card = self.deck[i] = (label, False, self.deck[i][TURNED], self.deck[i][STAGE])
        self.reveal(label)
        self.emit("unveil", label, on_top=on_top)
        if on_top:
            self.began = False
        if self.game.face(card).when == "unveiled":  # (fire would find no essence to run otherwise)
            self.fire(label, "unveiled", _Ctx(label))

    def curse(self, label: str) -> None:
        i = self.pos(label)
        if i < 0 or self.is_god(label):
            return
        stage = self.deck[i][STAGE]
        void = self.game.cards.worshipers[label].states[stage].curse == "void"
        if self.recording:
            self.emit("curse", label, stage=stage if void else stage + 1, consumed=void)
        if void:
            self.remove(label, reason="curse")
        else:
            self.deck[i] = (label, False, False, stage + 1)

    def bless(self, label: str) -> None:
        card = self.card(label)
        if card is None or self.is_god(label):
            return
        if self.game.cards.worshipers[label].states[card[STAGE]].bless is not None:
            self.set_card(label, (label, False, False, card[STAGE] - 1))
            self.emit("bless", label, stage=card[STAGE] - 1)


class _Ctx(NamedTuple):
    """Who an effect belongs to: its card, the god it answers, where it was when consumed (a named tuple:
    one is made for every act and essence)."""

    this: str
    attacker: Optional[str] = None
    where: int = -1
    acting: bool = False  # an act (it ceases when its card is consumed), not an essence


class _Planner:
    """Walks an act's ops like the executor does, turning the player's decisions into bindings.

    A binding is made for every op that asks the player: the tuple of picked
    labels for a choice (empty when declined or when nothing could be picked),
    or a bool for a plain "may". The executor takes them in the same order.
    """

    def __init__(self, work: _Work, decisions: Iterator[str]) -> None:
        self.work = work
        self.decisions = decisions
        self.bindings: list[Any] = []

    def walk(self, ops: Sequence[Any], subject: str) -> Optional[list[str]]:
        """Options of the first decision still open, or None when every decision is made."""
        for op in ops:
            _, params = tag(op)
            options = self.op(params, subject)
            if options is not None:
                return options
        return None

    def op(self, params: Mapping[str, Any], subject: str) -> Optional[list[str]]:
        choice = _choice_spec(params)
        optional = bool(params.get("optional"))
        accepted = True
        if choice is not None:
            key, spec = choice
            # "A god may grant this power to itself": a grant's chooser is among its grantees;
            # "Gods cannot consume themselves": every other choice leaves the chooser out.
            candidates = choice_candidates(self.work, spec, subject, chooser_too=key == GRANTEE)
            need = min(spec["count"], len(candidates))
            picked: list[str] = []
            while len(picked) < need:
                decision = next(self.decisions, None)
                if decision is None:
                    return self.pick_options(candidates, picked, need, optional)
                if decision == DECLINE:
                    break
                picked.append(decision.split(" ", 1)[1])
            accepted = need > 0 and len(picked) == need
            self.bindings.append(tuple(picked) if accepted else ())
        elif optional:
            decision = next(self.decisions, None)
            if decision is None:
                return [ACCEPT, DECLINE]
            accepted = decision == ACCEPT
            self.bindings.append(accepted)
        if accepted and params.get("if_so"):
            return self.walk(params["if_so"], subject)
        return None

    @staticmethod
    def pick_options(candidates: list[str], picked: list[str], need: int, optional: bool) -> list[str]:
        """Picks are made top-down, so each set of targets is offered once."""
        start = candidates.index(picked[-1]) + 1 if picked else 0
        still = need - len(picked)
        options = [f"{PICK} {label}" for label in candidates[start: len(candidates) - (still - 1)]]
        return ([DECLINE] if optional and not picked else []) + options


ChoiceSpec = Optional[tuple[str, Mapping[str, Any]]]
_CHOICE_SPECS: dict[int, tuple[Mapping[str, Any], ChoiceSpec]] = {}  # id(params) -> (params, its choice spec)
CHOICE_SPECS_KEPT = 4096  # more distinct ops than any card data holds: the memo starts over


def _choice_spec(params: Mapping[str, Any]) -> ChoiceSpec:
    """(its key, its parameters) of the op's "choose" selector, if it has one (kept per op: the card data's
    ops are never changed, and the memo holds each op it names, so an id is never reused under it)."""
    kept = _CHOICE_SPECS.get(id(params))
    if kept is not None and kept[0] is params:
        return kept[1]
    found: ChoiceSpec = None
    for key in dsl.SELECTOR_KEYS:
        selector = params.get(key)
        if isinstance(selector, dict):
            name, param = tag(selector)
            if _asks(name):
                found = key, param
                break
    if len(_CHOICE_SPECS) >= CHOICE_SPECS_KEPT:
        _CHOICE_SPECS.clear()
    _CHOICE_SPECS[id(params)] = (params, found)
    return found


def choice_candidates(work: _Work, spec: Mapping[str, Any], subject: str, *, chooser_too: bool = False) -> list[str]:
    """Cards a "choose" selector may name: among the top K, of the right kind; the chooser only when
    ``chooser_too`` (a grant: "A god may grant this power to itself")."""
    kind = spec["kind"]
    found = []
    for card in work.deck[: spec["among_top"]]:
        label = card[LABEL]
        if label == subject and not chooser_too:
            continue
        god = work.is_god(label)
        if (kind == "god" and god) or (kind == "worshiper" and not god) or kind == "card":
            found.append(label)
    return found


# ===================================================================== handlers: conditions
@handler(CONDITION, "began_unveiled")
def _began(work: _Work, subject: str, param: Any) -> bool:
    return work.began and work.pos(subject) == 0


@handler(CONDITION, "next_to_veiled")
def _next_veiled(work: _Work, subject: str, param: Any) -> bool:
    return any(work.is_god(c[LABEL]) and c[VEILED] for c in work.neighbours(subject))


@handler(CONDITION, "next_to_worshiper")
def _next_worshiper(work: _Work, subject: str, param: Any) -> bool:
    return any(not work.is_god(c[LABEL]) for c in work.neighbours(subject))


@handler(CONDITION, "next_to_aspect")
def _next_aspect(work: _Work, subject: str, param: str) -> bool:
    return any(param in work.game.aspects(c) for c in work.neighbours(subject))


@handler(CONDITION, "unveiled_at_least")
def _unveiled_at_least(work: _Work, subject: str, param: int) -> bool:
    card = work.card(subject)
    itself = 1 if card is not None and work.is_god(subject) and not card[VEILED] else 0
    return work.unveiled_gods() - itself >= param


@handler(CONDITION, "deck_at_most")
def _deck_at_most(work: _Work, subject: str, param: int) -> bool:
    return len(work.deck) <= param


# ===================================================================== handlers: selectors
@handler(SELECTOR, "this")
def _sel_this(work: _Work, ctx: _Ctx, param: Any) -> list[str]:
    return [ctx.this]


@handler(SELECTOR, "attacker")
def _sel_attacker(work: _Work, ctx: _Ctx, param: Any) -> list[str]:
    return [ctx.attacker] if ctx.attacker is not None else []


@handler(SELECTOR, "next")
def _sel_next(work: _Work, ctx: _Ctx, param: Any) -> list[str]:
    i = work.pos(ctx.this)
    return [work.deck[i + 1][LABEL]] if 0 <= i < len(work.deck) - 1 else []


@handler(SELECTOR, "neighbours")
def _sel_neighbours(work: _Work, ctx: _Ctx, param: Any) -> list[str]:
    return [c[LABEL] for c in work.neighbours(ctx.this)]


@handler(SELECTOR, "nearest")
def _sel_nearest(work: _Work, ctx: _Ctx, param: int) -> list[str]:
    others = [c[LABEL] for c in work.deck if c[LABEL] != ctx.this]
    return work.ordered(others, ctx.this)[:param]


@handler(SELECTOR, "bottom")
def _sel_bottom(work: _Work, ctx: _Ctx, param: int) -> list[str]:
    return [c[LABEL] for c in reversed(work.deck[-param:])]


@handler(SELECTOR, "above")
def _sel_above(work: _Work, ctx: _Ctx, param: Any) -> list[str]:
    i = ctx.where if ctx.where >= 0 else work.pos(ctx.this)
    return [c[LABEL] for c in reversed(work.deck[:max(i, 0)])]


@handler(SELECTOR, "highest_worshiper")
def _sel_highest(work: _Work, ctx: _Ctx, param: Any) -> list[str]:
    return next(([c[LABEL]] for c in work.deck if not work.is_god(c[LABEL])), [])


@handler(SELECTOR, "all_worshipers")
def _sel_all_worshipers(work: _Work, ctx: _Ctx, param: Any) -> list[str]:
    return [c[LABEL] for c in work.deck if not work.is_god(c[LABEL])]


@handler(SELECTOR, "choose")
def _sel_choose(work: _Work, ctx: _Ctx, param: Any) -> list[str]:
    raise AssertionError("a choice is bound from the player's decisions by _Planner, never resolved")


# ===================================================================== handlers: ops
def _gods_only(work: _Work, labels: Sequence[str]) -> list[str]:
    return [label for label in labels if work.is_god(label) and work.pos(label) >= 0]


def _decide(work: _Work, params: Mapping[str, Any], ctx: _Ctx, bindings: Iterator[Any],
            key: str = "target") -> Optional[list[str]]:
    """Targets of an op, or None when the player declined (or nothing could be chosen)."""
    selector = params[key]
    if _asks(tag(selector)[0]):
        return list(next(bindings)) or None
    if params.get("optional") and not next(bindings):
        return None
    return work.resolve(selector, ctx)


def _follow(work: _Work, params: Mapping[str, Any], ctx: _Ctx, bindings: Iterator[Any]) -> None:
    if params.get("if_so") and not work.stopped(ctx):
        work.run_ops(params["if_so"], ctx, bindings)


@handler(OP, "consume")
def _op_consume(work: _Work, ctx: _Ctx, params: Mapping[str, Any], bindings: Iterator[Any]) -> None:
    name, param = tag(params["target"])
    if name == "nearest":
        if params.get("optional") and not next(bindings):
            return
        eaten = work.meal(ctx.this, (), bites=param)
    else:
        targets = _decide(work, params, ctx, bindings)
        if targets is None:
            return
        eaten = work.meal(ctx.this, work.ordered(targets, ctx.this))
    # "If so:" (ruling 12): after "This may consume ..." the player's choice is the condition, so the card acts on
    # once a target is chosen, even when an "instead" essence turns the meal aside (Acts: "If the player chooses
    # to do so, the top card will then act"); after a consumption the card makes on its own, only if one was made.
    if eaten or params.get("optional"):
        _follow(work, params, ctx, bindings)


@handler(OP, "void")
def _op_void(work: _Work, ctx: _Ctx, params: Mapping[str, Any], bindings: Iterator[Any]) -> None:
    for label in work.resolve(params["target"], ctx):
        if work.stopped(ctx):
            return
        work.remove(label)


@handler(OP, "grant")
def _op_grant(work: _Work, ctx: _Ctx, params: Mapping[str, Any], bindings: Iterator[Any]) -> None:
    grantees = _decide(work, params, ctx, bindings, key="grantee")
    if grantees is None:
        return
    for grantee in _gods_only(work, grantees):
        work.emit("grant", grantee, by=ctx.this)
        power = params["consume"]
        name, param = tag(power)
        own = _Ctx(grantee)
        if name == "nearest":
            work.meal(grantee, (), bites=param)
        else:
            work.meal(grantee, work.ordered(work.resolve(power, own), grantee))
    _follow(work, params, ctx, bindings)


def _flag_op(field: int, value: Optional[bool], event: str, detail: str) -> Any:
    """Handler body for transform (toggle), veil (set) and unveil (clear) of gods: ``event`` tells
    (the flag's new value as ``detail``); an unveiling is the engine's own (:meth:`_Work.unveil`)."""

    def run(work: _Work, ctx: _Ctx, params: Mapping[str, Any], bindings: Iterator[Any]) -> None:
        targets = _decide(work, params, ctx, bindings)
        if targets is None:
            return
        for label in _gods_only(work, targets):
            if work.stopped(ctx):
                return
            if work.pos(label) < 0:  # an essence of a god unveiled just before took it away
                continue
            card = list(work.card(label))  # type: ignore[arg-type]
            if field == VEILED and value is False:
                work.unveil(label, on_top=work.pos(label) == 0)
                continue
            card[field] = (not card[field]) if value is None else value
            work.set_card(label, tuple(card))  # type: ignore[arg-type]
            work.emit(event, label, **{detail: card[field]})
        _follow(work, params, ctx, bindings)

    return run


handler(OP, "transform")(_flag_op(TURNED, None, "transform", "transformed"))
handler(OP, "veil")(_flag_op(VEILED, True, "veil", "veiled"))
handler(OP, "unveil")(_flag_op(VEILED, False, "unveil", "on_top"))


@handler(OP, "peek")
def _op_peek(work: _Work, ctx: _Ctx, params: Mapping[str, Any], bindings: Iterator[Any]) -> None:
    targets = _decide(work, params, ctx, bindings)
    if targets is None:
        return
    for label in _gods_only(work, targets):
        work.reveal(label)  # knowledge only: the rules state is unchanged
        work.emit("peek", label, by=ctx.this)
    _follow(work, params, ctx, bindings)


@handler(OP, "move")
def _op_move(work: _Work, ctx: _Ctx, params: Mapping[str, Any], bindings: Iterator[Any]) -> None:
    targets = _decide(work, params, ctx, bindings)
    if targets is None:
        return
    place = params["to"]
    for label in targets:
        i = work.pos(label)
        if i < 0:
            continue
        card = work.deck.pop(i)
        if place == "top":
            j = 0
        elif place == "bottom":
            j = len(work.deck)
        elif "down" in place:
            j = min(i + place["down"], len(work.deck))
        else:
            j = max(i - place["up"], 0)
        work.deck.insert(j, card)
        work.emit("move", label, by=ctx.this, moved_from=i, moved_to=j)
    _follow(work, params, ctx, bindings)


@handler(OP, "curse")
def _op_curse(work: _Work, ctx: _Ctx, params: Mapping[str, Any], bindings: Iterator[Any]) -> None:
    for label in work.resolve(params["target"], ctx):
        if work.stopped(ctx):
            return
        work.curse(label)


@handler(OP, "bless")
def _op_bless(work: _Work, ctx: _Ctx, params: Mapping[str, Any], bindings: Iterator[Any]) -> None:
    for label in work.resolve(params["target"], ctx):
        work.bless(label)


# Triggers are fired by the engine at the matching moment; their handler names that moment.
for _trigger, _moment in (("attempted", _Work.attempt), ("consumed", _Work.remove),
                          ("consumes", _Work.meal), ("unveiled", _Work.unveil)):
    handler(dsl.TRIGGER, _trigger)(_moment)


# ===================================================================== fast paths for the solver
# Additive: the same resolution code as apply_action, without building the positions in between.
def turn_ends(state: State) -> list[tuple[tuple[str, ...], Optional[tuple[Card, ...]]]]:
    """From a position waiting for a submerge number: every way to finish the turn, as (actions, deck).

    The deck is the one the next turn starts from (before its top card is unveiled or acts), or
    None when the submerge loses (a number larger than the deck, or the last worshiper cursed away).
    ``start_turn`` resolves it into the next position, as ``apply_action`` would have."""
    found: list[tuple[tuple[str, ...], Optional[tuple[Card, ...]]]] = []
    deck, is_god = state.deck, state.game.is_god
    unique = len(set(map(_label_of, deck))) == len(deck)  # (a card's curse finds it by its label)
    for n in submerge_options(state.game, deck):
        action = _action(SUBMERGE, n)
        if n > len(deck):
            found.append(((action,), None))
            continue
        choices = placements(state.game, deck, n)
        stack, rest = list(deck[:n]), deck[n:]
        gods_only = all(map(is_god, map(_label_of, stack)))  # no curse: nothing but the order changes
        cursed = None if gods_only or not unique else _cursed(state.game, stack, rest)
        for position in range(1, choices + 1):
            actions = (action,) if choices == 1 else (action, _action(PLACE, position))
            if gods_only:
                found.append((actions, rest + tuple(moved_stack(stack, position))))
            elif cursed is not None:
                found.append((actions, None if cursed is LOST_ALL else
                               rest + tuple(card for card in map(cursed.__getitem__, _moved_order(n, position))
                                            if card is not None)))
            else:
                work = _Work.from_state(state)
                work.submerge_stack(position, n)
                found.append((actions, None if work.outcome is not None else tuple(work.deck)))
    return found


# _cursed's answer when the curses consume the last worshiper (whatever the placement: the game is lost)
LOST_ALL: Final[list[Optional[Card]]] = []


def _cursed(game: Game, stack: Sequence[Card], rest: Sequence[Card]) -> list[Optional[Card]]:
    """The submerged stack after its curses (ruling 4), card by card (None: consumed), or LOST_ALL.

    What ``submerge_stack`` does, worked out once for every placement: a worshiper's curse depends on
    its own state only, and the last worshiper is lost exactly when no worshiper is left after them all."""
    worshipers = game.cards.worshipers
    after: list[Optional[Card]] = []
    kept = not all(map(game.is_god, map(_label_of, rest)))
    voided = False
    for card in stack:
        label = card[LABEL]
        if game.is_god(label):
            after.append(card)
        elif worshipers[label].states[card[STAGE]].curse == "void":
            after.append(None)
            voided = True
        else:
            after.append((label, False, False, card[STAGE] + 1))
            kept = True
    return LOST_ALL if voided and not kept else after


@functools.lru_cache(maxsize=None)
def _moved_order(n: int, position: int) -> tuple[int, ...]:
    """The indexes of a submerged stack of ``n`` in the order ``moved_stack`` leaves them."""
    return tuple(moved_stack(list(range(n)), position))  # type: ignore[arg-type]


@functools.lru_cache(maxsize=None)
def _action(verb: str, n: int) -> str:
    """``submerge 3``, ``place 2``: made once each."""
    return f"{verb} {n}"


def start_turn(game: Game, deck: Sequence[Card], *, zero_ok: bool) -> State:
    """The position a turn reaches from ``deck`` (a deck ``turn_ends`` gave): unveiled, acted, settled."""
    work = _Work(game, list(deck), zero_ok=zero_ok, began=not deck[0][VEILED], recording=False)
    work.settle()
    return work.freeze(seen=None)


def play_line(state: State, line: Sequence[str]) -> State:
    """Apply each action of ``line`` in turn (raises ValueError on an illegal one)."""
    for action in line:
        state = state.apply_action(action)
    return state
