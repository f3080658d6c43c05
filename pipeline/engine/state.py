"""The base of every engine's State: one apply_action semantics, legality, history, serialisation.

An engine subclasses :class:`State` and implements:

* ``num_players`` (seats, numbered from 0) and ``game_id``;
* ``_decide()``: the :class:`Decision` at this position (the kit asks once per state);
* ``outcome()``: the :class:`Outcome`, None until the game is over;
* ``key()``: a hashable value holding only what matters for future play;
* ``_copy()``: an independent copy of the same position (``clone``);
* ``_successor(action)``: the state after a legal ``action``, with the events
  it caused in ``events``; ``self`` stays as it was. Engines that resolve
  actions in place subclass :class:`InPlaceState` instead and implement
  ``_fork()`` and ``_play(action)``, recording events with ``_emit``.

A first state is made by the engine's game and marked with ``_started(setup)``:
``setup`` is plain data the game's ``state_from_setup`` makes it again from.

The kit does the rest the same way for every game: ``apply_action`` refuses
anything not in ``legal_actions()`` with :class:`IllegalAction`; every state
remembers its setup and the actions since (:meth:`State.history`), so
:meth:`State.to_data` / :func:`restore` turn a state into plain JSON-able
data and back by replaying them, as OpenSpiel serialises states.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Callable, ClassVar, Generic, Hashable, Iterator, Mapping, NamedTuple, Optional, Protocol, Sequence, TypeVar, cast

from pipeline.engine.types import CHANCE, TERMINAL, Decision, Event, IllegalAction, Outcome

A = TypeVar("A")
S = TypeVar("S", bound="State[Any]")
P = TypeVar("P", bound="InPlaceState[Any]")

CONDITION = "condition"  # key of a history entry that declares a chance outcome (see State.condition)


class Trail(NamedTuple):
    """How a state came about: the setup at the root, then one node per action (a linked list).

    Sharing the parent makes recording an action O(1) (a named tuple: cheap to
    make); states never keep each other alive through it.
    """

    parent: Optional["Trail"]
    action: Any = None
    setup: Optional[Mapping[str, Any]] = None
    conditioned: bool = False

    def nodes(self) -> list["Trail"]:
        """The action nodes from the first to this one (the root excluded)."""
        found = []
        node: Optional[Trail] = self
        while node is not None and node.parent is not None:
            found.append(node)
            node = node.parent
        return found[::-1]

    def root(self) -> "Trail":
        node = self
        while node.parent is not None:
            node = node.parent
        return node


class State(ABC, Generic[A]):
    """One position of a game. See the module docstring for what an engine implements."""

    game_id: ClassVar[str]  # the game's id (``theocracy``...), written into serialised states
    events: tuple[Event, ...] = ()  # what the action that made this state caused (the setup, for a first state)
    recording: bool = True  # False: successors carry no events (see with_events)
    trail: Trail = Trail(None, setup={})
    _decided: Optional[Decision[A]] = None
    _names: Optional["_Names[A]"] = None  # action_from_string's names of the decision's actions

    # ------------------------------------------------------------------ what an engine implements
    @property
    @abstractmethod
    def num_players(self) -> int:
        """Seats in the game (a solo game has one)."""

    @abstractmethod
    def _decide(self) -> Decision[A]:
        """Who acts here and with which actions (chance: with their probabilities)."""

    @abstractmethod
    def outcome(self) -> Optional[Outcome]:
        """How the game ended; None while it goes on."""

    @abstractmethod
    def key(self) -> Hashable:
        """Everything that matters for future play, hashable (no history, no events)."""

    @abstractmethod
    def _copy(self: S) -> S:
        """An independent copy of this position: changing one never changes the other."""

    @abstractmethod
    def _successor(self: S, action: A) -> S:
        """The state after the legal ``action`` (its ``events`` set, its decision not yet made);
        ``self`` stays as it was."""

    def _conditioned(self: S, outcome: A) -> S:
        """This chance node with ``outcome`` as its only outcome (see :meth:`condition`)."""
        raise IllegalAction(f"{self.game_id}: a chance outcome outside the engine's model cannot be declared")

    # ------------------------------------------------------------------ the interface
    def decision(self) -> Decision[A]:
        """Who acts now and what they may do (computed once per state)."""
        decided = self._decided
        if decided is None:
            decided = self._decide()
            object.__setattr__(self, "_decided", decided)
        return decided

    def current_player(self) -> int:
        """The seat to act, or :data:`CHANCE`, or :data:`TERMINAL`."""
        return self.decision().player

    def is_terminal(self) -> bool:
        return self.decision().player == TERMINAL

    def is_chance_node(self) -> bool:
        return self.decision().player == CHANCE

    def legal_actions(self) -> list[A]:
        """The only legal moves: the player's choices, or the chance outcomes; empty at the end."""
        return list(self.decision().actions)

    def chance_outcomes(self) -> list[tuple[A, Any]]:
        """(action, exact Fraction probability) pairs at a chance node; empty elsewhere."""
        return self.decision().outcomes()

    def returns(self) -> tuple[float, ...]:
        """Per seat: 1 split among the winners once the game is over; zeros until then."""
        outcome = self.outcome()
        if outcome is None:
            return (0.0,) * self.num_players
        return outcome.returns()

    def clone(self: S) -> S:
        """An independent copy (states never change under you, but a copy may be edited freely)."""
        copy = self._copy()
        object.__setattr__(copy, "_decided", None)  # an edited copy decides afresh
        return copy

    def apply_action(self: S, action: A) -> S:
        """The state after ``action``. Never changes ``self``; raises IllegalAction unless it is legal here."""
        decision = self._decided or self.decision()
        # the action is most often one of the decision's own objects (a policy or a draw picked it): found by
        # identity without calling an engine's dataclass __eq__ on every action before it
        for legal in decision.actions:  # (a plain loop: a generator per action cost more than the search)
            if legal is action:
                break
        else:
            if action not in decision.actions:
                raise IllegalAction(self._illegal_message(action, decision))
        after = self._successor(action)
        object.__setattr__(after, "trail", _step(self.trail, action))
        if not self.recording:
            _quiet(after)
        return after

    def with_events(self: S, on: bool) -> S:
        """A copy whose successors record events (``on``) or carry none (off: for tight search loops).

        Engines may skip making events when ``recording`` is off; the kit makes sure none are kept.
        """
        copy = self.clone()
        object.__setattr__(copy, "recording", on)
        return copy

    def condition(self: S, outcome: A) -> S:
        """This chance node with ``outcome`` as its only outcome, at probability 1.

        For outcomes observed in the real world that the engine's chance model
        may not list (a declared throw in Monstrous). Engines that allow it
        implement ``_conditioned``; the declaration is part of the history.
        """
        if not self.is_chance_node():
            raise IllegalAction(f"{self.game_id}: only a chance outcome can be declared, and this is no chance node")
        after = self._conditioned(outcome)
        object.__setattr__(after, "_decided", None)
        object.__setattr__(after, "trail", Trail(self.trail, outcome, conditioned=True))
        return after

    # ------------------------------------------------------------------ strings and data
    def action_to_string(self, action: A) -> str:
        """A short string naming ``action`` (unique among the legal actions of its state)."""
        return str(action)

    def action_from_string(self, text: str) -> A:
        """The legal action ``text`` names (as ``action_to_string`` writes it)."""
        decision = self.decision()
        if not isinstance(text, str):  # (bad data given to restore: no name at all, perhaps not even hashable)
            raise IllegalAction(self._illegal_message(text, decision))
        names = self._names
        if names is None or names.decision is not decision:  # a copy's or a successor's: not this decision's
            names = _Names(decision)
            object.__setattr__(self, "_names", names)
        action = names.find(text, self.action_to_string)
        if action is _NOWHERE:
            raise IllegalAction(self._illegal_message(text, decision))
        return action

    def last_action(self) -> Optional[A]:
        """The action that made this state (a declared chance outcome included); None for a first state.

        With ``events``, what a statistics loop over :func:`~pipeline.engine.play.play` reads of each step."""
        return self.trail.action if self.trail.parent is not None else None

    def history(self) -> list[A]:
        """The actions played since the setup, first to last (declared chance outcomes included)."""
        return [node.action for node in self.trail.nodes()]

    def to_data(self) -> dict[str, Any]:
        """Plain JSON-able data that :func:`restore` turns back into this state (same key)."""
        actions: list[Any] = []
        for node in self.trail.nodes():
            text = self.action_to_string(node.action)
            actions.append({CONDITION: text} if node.conditioned else text)
        return {"game": self.game_id, "setup": dict(self.trail.root().setup or {}), "actions": actions}

    def _started(self: S, setup: Mapping[str, Any], events: tuple[Event, ...] = ()) -> S:
        """Mark this as a first state, made from ``setup`` (plain data its game can make it again from)."""
        object.__setattr__(self, "trail", Trail(None, setup=setup))
        object.__setattr__(self, "events", events)
        object.__setattr__(self, "_decided", None)
        return self

    def _illegal_message(self, action: Any, decision: Decision[A]) -> str:
        if decision.player == TERMINAL:
            return f"{self.game_id}: {action} is not legal: the game is over"
        legal = [self.action_to_string(a) for a in decision.actions]
        shown = ", ".join(legal[:12]) + (f" ... ({len(legal)} in all)" if len(legal) > 12 else "")
        return f"{self.game_id}: {action} is not a legal action here (legal: {shown})"


class InPlaceState(State[A]):
    """The base of engines that resolve an action by changing a private copy in place.

    Such an engine implements ``_fork()`` (a copy the next action may be played
    on; it may share what ``_play`` never changes in place) and ``_play(action)``
    (play the legal ``action`` on ``self``, recording what it causes with
    ``_emit``), instead of ``_successor``. The kit's
    :func:`~pipeline.engine.play.playout` then advances a state only it
    holds in place, without a copy per action.
    """

    _log: Optional[list[Event]] = None  # the events of the action being played

    @abstractmethod
    def _fork(self: P) -> P:
        """A copy of this position that ``_play`` may change without changing ``self``."""

    @abstractmethod
    def _play(self, action: A) -> None:
        """Play the legal ``action`` on ``self`` (a fork nobody else holds)."""

    def _emit(self, kind: str, subject: Any = "", **details: Any) -> None:
        """Record what the action being played caused (nothing is kept while ``recording`` is off)."""
        if self.recording:
            if self._log is None:
                self._log = []
            self._log.append(Event(kind, subject, tuple(details.items())))

    def _emitted(self, events: Sequence[Event]) -> None:
        """Record events made elsewhere (by the engine's own helpers)."""
        if self.recording and events:
            if self._log is None:
                self._log = []
            self._log.extend(events)

    def _collect(self) -> tuple[Event, ...]:
        """The events recorded since the last collection (a first state's: those of its setup)."""
        events, self._log = tuple(self._log or ()), None
        return events

    def _copy(self: P) -> P:
        return self._fork()

    def _successor(self: P, action: A) -> P:
        after = self._fork()
        after._log = None
        after._play(action)
        after.events = after._collect()
        after._decided = None
        return after

    def _apply_in_place(self, action: A) -> None:
        """``apply_action`` on a state that nobody else holds: the same check and history, no copy."""
        decision = self._decided or self.decision()
        if action not in decision.actions:
            raise IllegalAction(self._illegal_message(action, decision))
        self._log = None
        self._play(action)
        self.events = self._collect()
        self._decided = None
        self.trail = _step(self.trail, action)
        if not self.recording:
            _quiet(self)


_NOWHERE: Any = object()  # what _Names.find returns for a name no legal action has


class _Names(Generic[A]):
    """The names of one decision's actions, each worked out at most once and only as far as a look-up needs.

    Looking up every legal action of a state by name (a replay, the conformance checks) then costs one
    ``action_to_string`` per action instead of one per pair. Kept on the state with the decision it names,
    so a copy or successor holding another decision never uses it.
    """

    __slots__ = ("decision", "found", "named")

    def __init__(self, decision: Decision[A]) -> None:
        self.decision = decision
        self.found: dict[str, A] = {}  # name -> the first action in order with that name
        self.named = 0  # how many of the decision's actions (from the first) are in ``found``

    def find(self, text: str, name: Callable[[A], str]) -> A:
        """The first action named ``text``, or _NOWHERE."""
        found = self.found
        if text in found:
            return found[text]
        actions = self.decision.actions
        while self.named < len(actions):
            action = actions[self.named]
            written = name(action)  # (counted once named: a name that raised is tried again next time)
            self.named += 1
            if written not in found:
                found[written] = action
                if written == text:
                    return action
        return cast(A, _NOWHERE)  # the sentinel stands in for "no action": the caller checks its identity


def _step(trail: Trail, action: Any) -> Trail:
    """``trail`` and then ``action`` (made directly: this runs once per action)."""
    return tuple.__new__(Trail, (trail, action, None, False))


def _quiet(state: State[Any]) -> None:
    """No events on ``state``, nor on what follows it."""
    if state.recording:
        object.__setattr__(state, "recording", False)
    if state.events:
        object.__setattr__(state, "events", ())


class Restorable(Protocol):
    """A game that can make a first state again from its setup data."""

    def state_from_setup(self, setup: Mapping[str, Any]) -> State[Any]:
        """The first state that ``setup`` (as a state's ``to_data()['setup']``) describes."""


def replay(game: Restorable, data: Mapping[str, Any]) -> Iterator[State[Any]]:
    """Every state of the game ``data`` (from :meth:`State.to_data`) describes, from the first, replayed on ``game``.

    Raises IllegalAction when an action is not legal where the data has it.
    """
    state = game.state_from_setup(data["setup"])
    if data.get("game") != state.game_id:
        raise IllegalAction(f"data for {data.get('game')!r} cannot be restored as a {state.game_id} state")
    yield state
    for entry in data["actions"]:
        if isinstance(entry, Mapping):
            state = state.condition(state.action_from_string(entry[CONDITION]))
        else:
            state = state.apply_action(state.action_from_string(entry))
        yield state


def restore(game: Restorable, data: Mapping[str, Any]) -> State[Any]:
    """The state ``data`` (from :meth:`State.to_data`) describes: the last of :func:`replay`."""
    for state in replay(game, data):
        pass
    return state
