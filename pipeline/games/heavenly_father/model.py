"""Typed, immutable view of Who's Your Heavenly Father?'s validated data.

``build(game)`` turns the schema-checked documents into frozen dataclasses.
Records keep the order of their YAML lists, so a record's index in a tuple is
its index in the file. Virtue-keyed numbers are exposed in scoring order
(S, X, B, J), which ``virtues.yaml`` fixes through each virtue's ``position``.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple, Optional, Sequence

from pipeline.data.dataset import GameData
from pipeline.data.kinds import COMPONENTS_KIND

# Document kinds (file names without .yaml).
VIRTUES = "virtues"
GODS = "gods"
DILEMMAS = "dilemmas"
PHILOSOPHER_KINDS = "philosopher-kinds"
PHILOSOPHERS = "philosophers"
TOKENS = "tokens"
ENVELOPE = "envelope"
CHEAT_SHEETS = "cheat-sheets"
PARAMETERS = "parameters"
TURN_ACTIONS = "turn-actions"
BALANCE = "balance"
EXAMPLES = "examples"


def frozen_map(values: Mapping[str, int]) -> Mapping[str, int]:
    """A read-only copy of ``values``."""
    return MappingProxyType(dict(values))


class Virtue(NamedTuple):
    """One of the four Virtues; ``position`` is its place in S, X, B, J order (1-based)."""

    id: str
    name: str
    abbreviation: str
    position: int
    colour: str
    meaning: str


class God(NamedTuple):
    """A God card: points per token of each Virtue at Judgment Day."""

    id: str
    name: str
    flavour: str
    points: Mapping[str, int]

    def score(self, holdings: Mapping[str, int]) -> int:
        """The Judgment Day score of a player holding ``holdings`` tokens per virtue id."""
        return sum(self.points.get(virtue, 0) * count for virtue, count in holdings.items())

    @property
    def favoured(self) -> frozenset[str]:
        """Virtues this god scores above zero (measure ``favoured-by``)."""
        return frozenset(v for v, p in self.points.items() if p > 0)

    @property
    def preferred(self) -> frozenset[str]:
        """Virtues tied for this god's highest score, if that score is above zero (measure ``preferred-by``)."""
        best = max(self.points.values(), default=0)
        return frozenset(v for v, p in self.points.items() if p == best and p > 0)

    @property
    def opposed(self) -> frozenset[str]:
        """Virtues this god scores below zero."""
        return frozenset(v for v, p in self.points.items() if p < 0)


class Consequence(NamedTuple):
    """What choosing one dilemma option does to the player who chooses it."""

    gain: Mapping[str, int]
    lose: Mapping[str, int]
    draw_cards: int = 0
    lose_cards: int = 0

    @property
    def is_empty(self) -> bool:
        """True when the option changes nothing at all."""
        return not (self.gain or self.lose or self.draw_cards or self.lose_cards)

    def key(self) -> tuple[Any, ...]:
        """A hashable summary, equal for options with the same consequences."""
        return (tuple(sorted(self.gain.items())), tuple(sorted(self.lose.items())), self.draw_cards, self.lose_cards)


class Option(NamedTuple):
    """One of a dilemma's two options."""

    id: str
    label: str
    consequence: Consequence


class Dilemma(NamedTuple):
    """A Moral Dilemma card."""

    id: str
    title: str
    situation: str
    options: tuple[Option, ...]


class Timing(enum.Enum):
    """When a Philosopher acts: at once, kept by its player, or placed before a target."""

    IMMEDIATE = "immediate"
    KEPT = "kept"
    PLACED = "placed"


class Op(NamedTuple):
    """One effect of a Philosopher: an op name and its integer parameters."""

    name: str
    params: Mapping[str, int]


class Power(NamedTuple):
    """A Philosopher kind's power, structured for an engine."""

    timing: Timing
    target: str
    invoke: Optional[str]
    requires: Optional[str]
    effects: tuple[Op, ...]


@dataclass(frozen=True)
class PhilosopherKind:
    """One of the six kinds of Philosopher, with how many cards of it the deck holds."""

    id: str
    name: str
    count: int
    power: Power
    text: str

    @property
    def lingers(self) -> bool:
        """True when the card can stay on the table before it is invoked."""
        return self.power.timing is not Timing.IMMEDIATE


class Philosopher(NamedTuple):
    """A Philosopher card: a character of one kind."""

    id: str
    kind: str
    name: str
    quote: str


@dataclass(frozen=True)
class Token:
    """A kind of token in the box; ``virtue`` is None for the Prayer Beads."""

    id: str
    name: str
    count: int
    virtue: Optional[str]


class TurnAction(NamedTuple):
    """One of the six turn actions and the states that allow or forbid it."""

    id: str
    number: int
    name: str
    requires: frozenset[str]
    forbidden_when: frozenset[str]
    mandatory_when: Optional[str]


class BalanceClaim(NamedTuple):
    """A balance statement: by ``measure``, the ``higher`` virtues beat the ``lower`` ones."""

    id: str
    measure: str
    comparison: str
    higher: tuple[str, ...]
    lower: tuple[str, ...]


class ScoringExample(NamedTuple):
    """A stored Judgment Day: players' tokens under ``god`` and the stated scores and winners."""

    id: str
    god: str
    names: tuple[str, ...]
    holdings: tuple[Mapping[str, int], ...]
    scores: tuple[int, ...]
    winners: tuple[str, ...]


class DilemmaExample(NamedTuple):
    """A stored dilemma choice: tokens ``before`` and ``after`` taking ``option`` of ``dilemma``."""

    id: str
    dilemma: str
    option: str
    before: Mapping[str, int]
    after: Mapping[str, int]


class HeavenlyFatherModel(NamedTuple):
    """Every record of the game, in data order (virtues in S, X, B, J order)."""

    virtues: tuple[Virtue, ...]
    gods: tuple[God, ...]
    dilemmas: tuple[Dilemma, ...]
    philosopher_kinds: tuple[PhilosopherKind, ...]
    philosophers: tuple[Philosopher, ...]
    tokens: tuple[Token, ...]
    turn_actions: tuple[TurnAction, ...]
    claims: tuple[BalanceClaim, ...]
    parameters: Mapping[str, int]
    components: Mapping[str, int]
    scoring_examples: tuple[ScoringExample, ...] = ()
    dilemma_examples: tuple[DilemmaExample, ...] = ()

    @property
    def virtue_order(self) -> tuple[str, ...]:
        """Virtue ids in scoring order, e.g. for parsing ``NAME=S,X,B,J``."""
        return tuple(v.id for v in self.virtues)

    def god(self, god_id: str) -> God:
        """The god with ``god_id``; KeyError if there is none."""
        for god in self.gods:
            if god.id == god_id:
                return god
        raise KeyError(god_id)

    def holdings(self, counts: Sequence[int]) -> Mapping[str, int]:
        """Token counts given in virtue order, keyed by virtue id."""
        if len(counts) != len(self.virtues):
            raise ValueError(f"expected {len(self.virtues)} counts (one per virtue), got {len(counts)}")
        return frozen_map(dict(zip(self.virtue_order, counts)))


def _records(game: GameData[HeavenlyFatherModel], kind: str, key: str) -> list[dict[str, Any]]:
    return list(game.doc(kind).data[key])


def _consequence(option: Mapping[str, Any]) -> Consequence:
    return Consequence(
        gain=frozen_map(option.get("gain", {})),
        lose=frozen_map(option.get("lose", {})),
        draw_cards=option.get("draw_cards", 0),
        lose_cards=option.get("lose_cards", 0),
    )


def _dilemma(record: Mapping[str, Any]) -> Dilemma:
    options = tuple(Option(o["id"], o["label"], _consequence(o)) for o in record["options"])
    return Dilemma(record["id"], record["title"], record["situation"], options)


def op_from_record(record: Mapping[str, Any]) -> Op:
    """An effect op from its YAML mapping (``op`` plus integer parameters)."""
    return Op(record["op"], frozen_map({k: v for k, v in record.items() if k != "op"}))


def power_from_record(record: Mapping[str, Any]) -> Power:
    """A Philosopher power from its YAML mapping."""
    return Power(
        timing=Timing(record["timing"]),
        target=record["target"],
        invoke=record.get("invoke"),
        requires=record.get("requires"),
        effects=tuple(op_from_record(e) for e in record["effects"]),
    )


def _kind(record: Mapping[str, Any]) -> PhilosopherKind:
    return PhilosopherKind(record["id"], record["name"], record["copies"]["count"],
                           power_from_record(record["power"]), record["text"])


def _turn_action(record: Mapping[str, Any]) -> TurnAction:
    return TurnAction(record["id"], record["number"], record["name"], frozenset(record.get("requires", ())),
                      frozenset(record.get("forbidden_when", ())), record.get("mandatory_when"))


def _scoring_example(record: Mapping[str, Any]) -> ScoringExample:
    players = record["players"]
    return ScoringExample(record["id"], record["god"], tuple(p["name"] for p in players),
                          tuple(frozen_map(p["tokens"]) for p in players),
                          tuple(record["expect"]["scores"]), tuple(record["expect"]["winners"]))


def _dilemma_example(record: Mapping[str, Any]) -> DilemmaExample:
    return DilemmaExample(record["id"], record["dilemma"], record["option"],
                          frozen_map(record["before"]), frozen_map(record["after"]))


def build(game: GameData[HeavenlyFatherModel]) -> HeavenlyFatherModel:
    """The typed model of ``game``'s documents; call only after the schema check passed."""
    virtues = sorted(
        (Virtue(r["id"], r["name"], r["abbreviation"], r["position"], r["colour"], r["meaning"])
         for r in _records(game, VIRTUES, "virtues")),
        key=lambda v: v.position,
    )
    return HeavenlyFatherModel(
        virtues=tuple(virtues),
        gods=tuple(God(r["id"], r["name"], r["flavour"], frozen_map(r["points"])) for r in _records(game, GODS, "gods")),
        dilemmas=tuple(_dilemma(r) for r in _records(game, DILEMMAS, "dilemmas")),
        philosopher_kinds=tuple(_kind(r) for r in _records(game, PHILOSOPHER_KINDS, "philosopher_kinds")),
        philosophers=tuple(Philosopher(r["id"], r["kind"], r["name"], r["quote"]) for r in _records(game, PHILOSOPHERS, "philosophers")),
        tokens=tuple(Token(r["id"], r["name"], r["count"], r.get("virtue")) for r in _records(game, TOKENS, "tokens")),
        turn_actions=tuple(_turn_action(r) for r in _records(game, TURN_ACTIONS, "turn_actions")),
        claims=tuple(BalanceClaim(r["id"], r["measure"], r["comparison"], tuple(r["higher"]), tuple(r["lower"]))
                     for r in _records(game, BALANCE, "claims")),
        parameters=frozen_map({r["id"]: r["value"] for r in _records(game, PARAMETERS, "parameters")}),
        components=frozen_map({r["id"]: r["count"] for r in _records(game, COMPONENTS_KIND, "components")}),
        scoring_examples=tuple(_scoring_example(r) for r in _records(game, EXAMPLES, "scoring_examples")),
        dilemma_examples=tuple(_dilemma_example(r) for r in _records(game, EXAMPLES, "dilemma_examples")),
    )
