"""The solver's view of Monotheism: whole turns as moves, compact position keys, card classes.

A *move* is one whole turn as the player plays it: the choices the top card's
act asks for (and those of any card that comes to the top during the turn),
then the submerge number and the placement of the old top card. The engine
resolves everything in between; positions half-way through a turn (a number
chosen but not yet placed, one of two picks made) are never stored.

A move leads to a *child*: ``True`` or ``False`` when the game ended during
the turn (won or lost), else the deck the next turn starts from, *before* its
top card is unveiled or acts. That deck already decides everything that
follows, so it is a key of its own: a child already searched is recognised
without resolving its turn, which is most of the cost of a position.
``Space.resolve`` turns a child into the engine's position.

A *key* is a position in a few bytes: a header, then one byte per card (its
class, and for a god whether it is veiled and transformed, for a worshiper how
often it was cursed). Cards whose definitions are identical share a class
(symmetry: swapping them changes nothing that can happen), and a god whose two
halves are identical loses its "transformed" bit. Both come from the card data
alone; nothing here names a particular card.

``result`` is the single place that reads how a game ended, so a change of the
engine's ``Outcome`` touches one line.
"""
from __future__ import annotations

import json
from array import array
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Callable, Optional, Sequence, Union

from pipeline.games.monotheism import dsl
from pipeline.games.monotheism.cards import Cards
from pipeline.games.monotheism.engine import (
    LABEL,
    PHASE_ACT,
    PHASE_PLACE,
    PHASE_SUBMERGE,
    PLACE,
    STAGE,
    SUBMERGE,
    TURNED,
    VEILED,
    Card,
    Game,
    State,
    start_turn,
    turn_ends,
)

Move = tuple[str, ...]                     # the engine actions of one move, in order
Child = Union[bool, tuple[Card, ...], State]  # ended (won?), a next turn's starting deck, or a position
PHASE_CODES = {PHASE_ACT: 0, PHASE_SUBMERGE: 1, PHASE_PLACE: 2}
TURN_START = 4          # header of a next turn's starting deck
TURN_START_HEAD = bytes((TURN_START,))
GOD_FLAGS = 4           # a god's code: class * 4 + veiled * 2 + transformed
REMOVING_OPS = frozenset({"consume", "void", "grant"})  # the ops that can take a card out of the game
ATTEMPTED = "attempted"  # the essence trigger "When a god attempts to consume this"
BYTE_CODES = 256
_LABEL_OF = itemgetter(LABEL)


def result(state: State) -> Optional[bool]:
    """True when ``state`` is won, False when lost, None while the game goes on."""
    outcome = state.outcome()
    return None if outcome is None else bool(outcome.winners)


def ends_turn(action: str, child: State) -> bool:
    """Whether ``action`` completed the turn's submerge (the next turn starts at ``child``)."""
    return action.startswith(PLACE) or (action.startswith(SUBMERGE) and child.phase != PHASE_PLACE)


@dataclass(frozen=True)
class Features:
    """Which of the solver's reductions the space applies (each can be turned off to measure it)."""

    whole_turns: bool = True   # a move is a whole turn; off: every engine action is a move
    symmetry: bool = True      # identical cards share a key class


def _definition(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=sorted)


def card_classes(cards: Cards) -> dict[str, str]:
    """Each card's class representative: the smallest label among cards with identical definitions."""
    groups: dict[str, list[str]] = {}
    for label, deity in cards.deities.items():
        halves = [[h.numbers, h.aspects, h.act, h.essence] for h in deity.halves]
        groups.setdefault(_definition(["god", halves]), []).append(label)
    for label, worshiper in cards.worshipers.items():
        states = [[s.numbers, s.curse, s.bless, s.act] for s in worshiper.states]
        groups.setdefault(_definition(["worshiper", states, worshiper.zero_gods_victory]), []).append(label)
    return {label: min(labels) for labels in groups.values() for label in labels}


def symmetric_halves(cards: Cards) -> frozenset[str]:
    """Gods whose two halves are identical: being transformed changes nothing."""
    return frozenset(label for label, deity in cards.deities.items() if deity.halves[0] == deity.halves[1])


def removers(cards: Cards) -> frozenset[str]:
    """Cards with any op that can take a card out of the game (in an act or essence, on any half or side)."""
    found = set()
    for label, deity in cards.deities.items():
        if _removes([box for half in deity.halves for box in (half.act, half.essence)]):
            found.add(label)
    for label, worshiper in cards.worshipers.items():
        if _removes([state.act for state in worshiper.states]):
            found.add(label)
    return frozenset(found)


def _removes(boxes: Sequence[Any]) -> bool:
    for box in boxes:
        if not box:
            continue
        for branch in ("do", "otherwise"):
            if any(name in REMOVING_OPS for name, _ in dsl.walk_ops(box.get(branch))):
                return True
    return False


class Space:
    """Moves and keys of the positions of one :class:`Game`."""

    def __init__(self, game: Game, features: Features = Features()) -> None:
        self.game = game
        self.features = features
        cards = game.cards
        labels = (*cards.deities, *cards.worshipers)
        classes = card_classes(cards) if features.symmetry else {label: label for label in labels}
        self.flip_free = symmetric_halves(cards) if features.symmetry else frozenset()
        representatives = sorted(set(classes.values()))
        self.index = {label: representatives.index(classes[label]) for label in labels}
        self.stride = max([GOD_FLAGS, *(len(w.states) for w in cards.worshipers.values())])
        self.wide = len(representatives) * self.stride > BYTE_CODES
        self.removers = removers(cards)
        # Per-card facts, each worked out once per card state and then read at C speed (map over a deck).
        self.codes = _Memo(self._code)
        self.god = _Memo(lambda card: int(self.game.is_god(card[LABEL])))
        self.life = _Memo(self._life)
        self.removing = _Memo(lambda card: card[LABEL] in self.removers)
        self.cursed = _Memo(lambda card: 0 if self.game.is_god(card[LABEL]) else card[STAGE])  # curses taken
        # 1 for an unveiled god that a god cannot simply consume ("When a god attempts to consume this:
        # instead, ..."): only the void, a veil or a transformation takes it out.
        self.guarded = _Memo(lambda card: int(self.game.essence(card, ATTEMPTED) is not None))
        self.resolutions = 0  # engine resolutions (turns resolved, actions applied): the cost of the moves

    # ------------------------------------------------------------------ keys
    def _code(self, card: Card) -> int:
        label = card[LABEL]
        base = self.index[label] * self.stride
        if self.game.is_god(label):
            turned = card[TURNED] and label not in self.flip_free
            return base + 2 * bool(card[VEILED]) + bool(turned)
        return base + card[STAGE]

    def _life(self, card: Card) -> int:
        """How many more curses a worshiper survives (0 for a god)."""
        if self.game.is_god(card[LABEL]):
            return 0
        return len(self.game.cards.worshipers[card[LABEL]].states) - 1 - card[STAGE]

    def _cards(self, deck: Sequence[Card]) -> bytes:
        values = map(self.codes.__getitem__, deck)
        return array("H", values).tobytes() if self.wide else bytes(values)

    def key(self, state: State) -> bytes:
        """A position in a few bytes: equal keys, equal futures."""
        head = bytes((PHASE_CODES.get(state.phase, 3), state.began, min(state.number, BYTE_CODES - 1)))
        body = self._cards(state.deck)
        return head + body + b"|" + " ".join(state.pending).encode() if state.pending else head + body

    def child_key(self, child: Child) -> bytes:
        if isinstance(child, State):
            return self.key(child)
        return TURN_START_HEAD + self._cards(child)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ moves
    def moves(self, state: State) -> list[tuple[Move, Child]]:
        """Every move from ``state`` (not ended) with its child."""
        if self.features.whole_turns:
            return self.turns(state)
        found: list[tuple[Move, Child]] = []
        for action in state.legal_actions():
            child = state.apply_action(action)
            self.resolutions += 1
            outcome = result(child)
            found.append(((action,), child if outcome is None else outcome))
        return found

    def turns(self, state: State) -> list[tuple[Move, Child]]:
        """Every whole turn from ``state`` with its child, whatever the features (the player's choices)."""
        found: list[tuple[Move, Child]] = []
        self._extend(state, (), found)
        return found

    def _extend(self, state: State, prefix: Move, found: list[tuple[Move, Child]]) -> None:
        if state.phase == PHASE_SUBMERGE:
            for actions, deck in turn_ends(state):
                found.append((prefix + actions, False if deck is None else deck))
            return
        for action in state.legal_actions():  # the act's choices (or a placement still to make)
            child = state.apply_action(action)
            self.resolutions += 1
            outcome = result(child)
            if outcome is not None:
                found.append((prefix + (action,), outcome))
            elif ends_turn(action, child):
                found.append((prefix + (action,), child))
            else:
                self._extend(child, prefix + (action,), found)

    def resolve(self, child: Child, *, zero_ok: bool) -> State:
        """The engine's position for a (not ended) child."""
        if isinstance(child, State):
            return child
        self.resolutions += 1
        return start_turn(self.game, child, zero_ok=zero_ok)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ judgements
    @staticmethod
    def deck_of(child: Child) -> Sequence[Card]:
        return child.deck if isinstance(child, State) else child  # type: ignore[return-value]

    def dead(self, deck: Sequence[Card]) -> bool:
        """No card left can take a card out of the game, yet two or more gods remain: it can never be won."""
        return not any(map(self.removing.__getitem__, deck)) and self.gods(deck) >= 2

    def curses(self, deck: Sequence[Card]) -> int:
        return sum(map(self.cursed.__getitem__, deck))

    def plan(self, deck: Sequence[Card]) -> tuple[frozenset[str], int]:
        """What a deck holds, whatever its order: the cards left and the curses spent."""
        return frozenset(map(_LABEL_OF, deck)), self.curses(deck)

    def gods(self, deck: Sequence[Card]) -> int:
        return sum(map(self.god.__getitem__, deck))


class _Memo(dict):
    """A dict that works out a missing entry with ``compute`` and keeps it."""

    def __init__(self, compute: Callable[[Any], Any]) -> None:
        super().__init__()
        self.compute = compute

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self.compute(key)
        return value
