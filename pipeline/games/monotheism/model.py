"""Typed, immutable view of Monotheism's validated data.

``build(game)`` turns the schema-checked documents into dataclasses. Scenario
decks are kept in the data's order, BOTTOM card first and TOP card last, so a
card's index in ``Scenario.deck`` is also its index in the YAML list.
``scenario_from_record`` builds one scenario on its own, for callers that read
a single scenario record (e.g. a file handed to a solver).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Mapping, NamedTuple, Optional

from pipeline.data.dataset import GameData
from pipeline.data.kinds import COMPONENTS_KIND
from pipeline.games.monotheism.cards import Cards, cards_from

WORSHIPER_SETS = "worshiper-sets"
SCENARIOS = "scenarios"
DEITIES = "deities"
WORSHIPERS = "worshipers"


class CardKind(enum.Enum):
    """What a scenario card is: a god or a worshiper."""

    DEITY = "deity"
    WORSHIPER = "worshiper"


class ScenarioCard(NamedTuple):
    """One card of a scenario deck in its starting state."""

    kind: CardKind
    ref: str  # deity id ("01".."29") or worshiper id
    veiled: bool = False
    transformed: bool = False
    cursed: int = 0

    @property
    def is_deity(self) -> bool:
        return self.kind is CardKind.DEITY

    @property
    def is_worshiper(self) -> bool:
        return self.kind is CardKind.WORSHIPER

    def label(self) -> str:
        """How messages name the card: ``#07`` for a god, the id for a worshiper."""
        return f"#{self.ref}" if self.is_deity else self.ref


class ScenarioRating(NamedTuple):
    """A scenario's difficulty as the solver measured it (``pantheon monotheism rate``; see rating.py)."""

    difficulty: str
    nodes: int
    first_moves: int
    winning_first_moves: int
    losing_first_moves: int
    losing_share: float
    solution_turns: int
    no_win_within: int  # no line of this many turns or fewer wins (solution_turns - 1: the shortest is proved)
    branching: float
    most_choices: int


RATING_FIELDS = ScenarioRating._fields


class Scenario(NamedTuple):
    """A puzzle: a fixed deck, ``deck[0]`` at the bottom and ``deck[-1]`` on top."""

    id: str
    title: str
    card_count: int
    deck: tuple[ScenarioCard, ...]
    number: Optional[int] = None
    notes: tuple[str, ...] = ()
    winning_line: tuple[str, ...] = ()
    losing_first_move: tuple[str, ...] = ()
    rating: Optional[ScenarioRating] = None
    source: Optional[str] = None  # its provenance: rulebook, inferred or authored

    @property
    def top(self) -> ScenarioCard:
        return self.deck[-1]

    @property
    def deities(self) -> tuple[ScenarioCard, ...]:
        return tuple(card for card in self.deck if card.is_deity)

    @property
    def worshipers(self) -> tuple[ScenarioCard, ...]:
        return tuple(card for card in self.deck if card.is_worshiper)


class Worshiper(NamedTuple):
    """One double-sided worshiper card."""

    id: str
    name: str
    set_id: str


class Difficulty(NamedTuple):
    level: str  # "easier" | "standard"
    note: str


class WorshiperSet(NamedTuple):
    """A predefined group of worshipers that enters the deck together."""

    id: str
    name: str
    worshipers: tuple[Worshiper, ...]
    difficulty: Difficulty
    zero_gods_victory: bool
    inspiration: Optional[str] = None
    victory_note: Optional[str] = None


@dataclass(frozen=True)
class Component:
    id: str
    name: str
    count: int


class MonotheismModel(NamedTuple):
    """Everything the later stages (engine, solver, renderer) read."""

    components: tuple[Component, ...]
    worshiper_sets: tuple[WorshiperSet, ...]
    scenarios: tuple[Scenario, ...]
    scenario_introduction: tuple[str, ...]
    cards: Optional[Cards] = None  # the deity and worshiper card faces the engine plays with

    @property
    def worshipers(self) -> tuple[Worshiper, ...]:
        return tuple(w for s in self.worshiper_sets for w in s.worshipers)

    def worshiper(self, worshiper_id: str) -> Worshiper:
        return _by_id(self.worshipers, worshiper_id, "worshiper")

    def worshiper_set(self, set_id: str) -> WorshiperSet:
        return _by_id(self.worshiper_sets, set_id, "worshiper set")

    def component(self, component_id: str) -> Component:
        return _by_id(self.components, component_id, "component")

    def scenario(self, number: int) -> Scenario:
        for scenario in self.scenarios:
            if scenario.number == number:
                return scenario
        raise KeyError(f"no scenario number {number}")


def _by_id(records: tuple[Any, ...], record_id: str, what: str) -> Any:
    for record in records:
        if record.id == record_id:
            return record
    raise KeyError(f"no {what} '{record_id}'")


def card_from_record(record: Mapping[str, Any]) -> ScenarioCard:
    """A deck entry (``{deity: "07", veiled: true}`` or ``{worshiper: mizaru, cursed: 1}``)."""
    if "deity" in record:
        return ScenarioCard(
            kind=CardKind.DEITY,
            ref=record["deity"],
            veiled=record.get("veiled", False),
            transformed=record.get("transformed", False),
        )
    return ScenarioCard(kind=CardKind.WORSHIPER, ref=record["worshiper"], cursed=record.get("cursed", 0))


def scenario_from_record(record: Mapping[str, Any]) -> Scenario:
    """One scenario record, valid against ``scenarios.schema.json#/$defs/scenario``."""
    return Scenario(
        id=str(record["id"]),
        title=record["title"],
        card_count=record["card_count"],
        deck=tuple(card_from_record(card) for card in record["deck"]),
        number=record.get("number"),
        notes=tuple(record.get("notes", ())),
        winning_line=tuple(record.get("winning_line", ())),
        losing_first_move=tuple(record.get("losing_first_move", ())),
        rating=ScenarioRating(**{key: record["rating"][key] for key in RATING_FIELDS}) if "rating" in record else None,
        source=record.get("provenance", {}).get("source"),
    )


def worshiper_set_from_record(record: Mapping[str, Any]) -> WorshiperSet:
    set_id = record["id"]
    return WorshiperSet(
        id=set_id,
        name=record["name"],
        worshipers=tuple(Worshiper(id=w["id"], name=w["name"], set_id=set_id) for w in record["worshipers"]),
        difficulty=Difficulty(level=record["difficulty"]["level"], note=record["difficulty"]["note"]),
        zero_gods_victory=record["zero_gods_victory"],
        inspiration=record.get("inspiration"),
        victory_note=record.get("victory_note"),
    )


def build(game: GameData[MonotheismModel]) -> MonotheismModel:
    """The model of a game whose documents passed their schemas."""
    scenarios = game.doc(SCENARIOS).data
    return MonotheismModel(
        components=tuple(
            Component(id=c["id"], name=c["name"], count=c["count"]) for c in game.doc(COMPONENTS_KIND).data["components"]
        ),
        worshiper_sets=tuple(worshiper_set_from_record(r) for r in game.doc(WORSHIPER_SETS).data["worshiper_sets"]),
        scenarios=tuple(scenario_from_record(r) for r in scenarios["scenarios"]),
        scenario_introduction=tuple(scenarios["introduction"]),
        cards=_cards(game),
    )


def _cards(game: GameData[MonotheismModel]) -> Optional[Cards]:
    """The card faces, once deities.yaml and worshipers.yaml are both present."""
    if not (game.has(DEITIES) and game.has(WORSHIPERS)):
        return None
    return cards_from(game.doc(DEITIES).data, game.doc(WORSHIPERS).data, game.doc(WORSHIPER_SETS).data)
