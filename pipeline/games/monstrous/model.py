"""Typed, immutable view of the Monstrous data, built after the schema check passed.

The 60 Monster cards are resolved here: each card joins its god, its Monster
design (unique side) and the shared common side, so later stages (engine,
renderer) never look up YAML themselves.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple, Optional

from pipeline.data.dataset import GameData


class Op(NamedTuple):
    """One structured effect: an op name, its scalar parameters, and sub-ops for choices."""

    name: str
    params: tuple[tuple[str, Any], ...]
    options: tuple["Op", ...] = ()

    def param(self, key: str, default: Any = None) -> Any:
        return dict(self.params).get(key, default)


class Power(NamedTuple):
    trigger: str
    text: str
    effects: tuple[Op, ...]
    condition: Optional[str] = None


class Side(NamedTuple):
    """One face of a Monster card."""

    kind: str  # "unique" or "common"
    plate: str
    powers: tuple[Power, ...]


class MonsterDesign(NamedTuple):
    id: str
    name: str
    trap: bool
    unique_side: Side


class CardFormat(NamedTuple):
    id: str
    name: str
    width_mm: float
    height_mm: float
    sides: int


class God(NamedTuple):
    id: str
    name: str
    colour: str
    pattern: str


class MonsterCard(NamedTuple):
    """A physical card: one design in one god's colour, with both sides resolved."""

    id: str
    god: God
    design: MonsterDesign
    common_side: Side
    card_format: CardFormat

    @property
    def name(self) -> str:
        return self.design.name

    @property
    def sides(self) -> tuple[Side, Side]:
        return (self.design.unique_side, self.common_side)


class Location(NamedTuple):
    id: str
    name: str
    faith: int
    power: Power
    card_format: CardFormat


class ThrowStep(NamedTuple):
    id: str
    number: int
    name: str
    checks: str
    resolves: tuple[tuple[str, str], ...]  # (card kind, trigger)


class Scenario(NamedTuple):
    id: str
    name: str
    difficulty: str
    layout: Mapping[str, str]  # position -> location id

    @property
    def centre(self) -> str:
        return self.layout["centre"]


class DeckRow(NamedTuple):
    players: int
    deck: int
    underworld: int


@dataclass(frozen=True)
class FaithToken:
    value: int
    count: int


class Ruling(NamedTuple):
    id: str
    question: str
    answer: str
    verdict_kind: str
    verdict_value: Any
    monsters: tuple[str, ...]
    locations: tuple[str, ...]
    steps: tuple[str, ...]


class Example(NamedTuple):
    """A worked turn; ``initial``/``throws``/``final`` keep the data's shape for engines to replay."""

    id: str
    title: str
    initial: Mapping[str, Any]
    throws: tuple[Mapping[str, Any], ...]
    end_turn: Mapping[str, Any]
    final: Mapping[str, Any]


class Variant(NamedTuple):
    id: str
    name: str
    text: str
    changes: Mapping[str, Any]
    combines: tuple[str, ...]
    excludes_rules: tuple[str, ...]
    rules: tuple[str, ...] = ()  # ids of the variant's numbered rules, in order


class TieBreaker(NamedTuple):
    id: str
    measure: str  # faith | monsters_hitting_locations | monsters_in_play | rematch


class Rules(NamedTuple):
    """The rule values an engine needs: player counts, hands, the end and the final score."""

    min_players: int
    max_players: int
    starting_hand: int
    first_game_locations: tuple[str, ...]
    final_turns: str  # each_other_god_once
    penalty_per_card: int
    penalty_zones: tuple[str, ...]  # hand, deck, underworld
    tie_breakers: tuple[TieBreaker, ...]


class EngineRuling(NamedTuple):
    """A ruling of ours where the rulebook leaves room (rulings.yaml)."""

    id: str
    question: str
    answer: str


class MonstrousModel(NamedTuple):
    gods: tuple[God, ...]
    designs: tuple[MonsterDesign, ...]
    common_side: Side
    cards: tuple[MonsterCard, ...]
    locations: tuple[Location, ...]
    card_formats: tuple[CardFormat, ...]
    throw_steps: tuple[ThrowStep, ...]
    scenarios: tuple[Scenario, ...]
    deck_table: tuple[DeckRow, ...]
    faith_tokens: tuple[FaithToken, ...]
    rulings: tuple[Ruling, ...]
    examples: tuple[Example, ...]
    variants: tuple[Variant, ...]
    component_counts: Mapping[str, int]
    rules: Rules
    engine_rulings: tuple[EngineRuling, ...]

    def deck_of(self, god_id: str) -> tuple[MonsterCard, ...]:
        return tuple(card for card in self.cards if card.god.id == god_id)

    def location(self, location_id: str) -> Location:
        return next(loc for loc in self.locations if loc.id == location_id)


def _frozen(data: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(data))


def build_op(raw: Mapping[str, Any]) -> Op:
    params = tuple((k, v) for k, v in raw.items() if k not in ("op", "options"))
    options = tuple(build_op(option) for option in raw.get("options", ()))
    return Op(name=raw["op"], params=params, options=options)


def build_power(raw: Mapping[str, Any]) -> Power:
    return Power(trigger=raw["trigger"], text=raw["text"], condition=raw.get("condition"),
                 effects=tuple(build_op(op) for op in raw["effects"]))


def build_side(kind: str, raw: Mapping[str, Any]) -> Side:
    return Side(kind=kind, plate=raw["plate"], powers=tuple(build_power(p) for p in raw["powers"]))


def build(game: GameData[MonstrousModel]) -> MonstrousModel:
    """The whole game as frozen dataclasses (data must have passed the schema check)."""
    formats = {f["id"]: CardFormat(f["id"], f["name"], f["width_mm"], f["height_mm"], f["sides"])
               for f in game.doc("card-formats").data["formats"]}
    gods = {g["id"]: God(g["id"], g["name"], g["colour"], g["pattern"]) for g in game.doc("gods").data["gods"]}
    monsters_doc = game.doc("monsters").data
    designs = {m["id"]: MonsterDesign(m["id"], m["name"], m["trap"], build_side("unique", m["unique_side"]))
               for m in monsters_doc["monsters"]}
    common = build_side("common", monsters_doc["common_side"])
    cards_doc = game.doc("monster-cards").data
    cards = tuple(MonsterCard(c["id"], gods[c["god"]], designs[c["monster"]], common, formats[cards_doc["card_format"]])
                  for c in cards_doc["cards"])
    locations_doc = game.doc("locations").data
    locations = tuple(Location(loc["id"], loc["name"], loc["faith"], build_power(loc["power"]),
                               formats[locations_doc["card_format"]]) for loc in locations_doc["locations"])
    return MonstrousModel(
        gods=tuple(gods.values()), designs=tuple(designs.values()), common_side=common, cards=cards,
        locations=locations, card_formats=tuple(formats.values()),
        throw_steps=_throw_steps(game), scenarios=_scenarios(game), deck_table=_deck_table(game),
        faith_tokens=tuple(FaithToken(t["value"], t["count"]) for t in game.doc("faith-tokens").data["tokens"]),
        rulings=_rulings(game), examples=_examples(game), variants=_variants(game),
        component_counts=_frozen({c["id"]: c["count"] for c in game.doc("components").data["components"]}),
        rules=_rules(game),
        engine_rulings=tuple(EngineRuling(r["id"], r["question"], r["answer"])
                             for r in game.doc("rulings").data["rulings"]),
    )


def _rules(game: GameData[MonstrousModel]) -> Rules:
    setup, scoring = game.doc("setup").data, game.doc("scoring").data
    return Rules(
        min_players=setup["players"]["min"], max_players=setup["players"]["max"],
        starting_hand=setup["play"]["starting_hand"], first_game_locations=tuple(setup["first_game"]["locations"]),
        final_turns=scoring["end"]["final_turns"], penalty_per_card=scoring["penalty"]["faith_per_card"],
        penalty_zones=tuple(scoring["penalty"]["zones"]),
        tie_breakers=tuple(TieBreaker(t["id"], t["measure"]) for t in scoring["tie_breakers"]),
    )


def _throw_steps(game: GameData[MonstrousModel]) -> tuple[ThrowStep, ...]:
    return tuple(ThrowStep(s["id"], s["number"], s["name"], s["checks"],
                           tuple((r["card"], r["trigger"]) for r in s["resolves"]))
                 for s in game.doc("throw-steps").data["steps"])


def _scenarios(game: GameData[MonstrousModel]) -> tuple[Scenario, ...]:
    return tuple(Scenario(s["id"], s["name"], s["difficulty"], _frozen(s["layout"]))
                 for s in game.doc("scenarios").data["scenarios"])


def _deck_table(game: GameData[MonstrousModel]) -> tuple[DeckRow, ...]:
    return tuple(DeckRow(r["players"], r["deck"], r["underworld"])
                 for r in game.doc("setup").data["deck_table"]["rows"])


def _rulings(game: GameData[MonstrousModel]) -> tuple[Ruling, ...]:
    rulings = []
    for r in game.doc("faq").data["rulings"]:
        refs = r.get("refs", {})
        rulings.append(Ruling(r["id"], r["question"], r["answer"], r["verdict"]["kind"], r["verdict"]["value"],
                              tuple(refs.get("monsters", ())), tuple(refs.get("locations", ())),
                              tuple(refs.get("steps", ()))))
    return tuple(rulings)


def _examples(game: GameData[MonstrousModel]) -> tuple[Example, ...]:
    return tuple(Example(e["id"], e["title"], _frozen(e["initial"]), tuple(_frozen(t) for t in e["throws"]),
                         _frozen(e["end_turn"]), _frozen(e["final"]))
                 for e in game.doc("examples").data["examples"])


def _variants(game: GameData[MonstrousModel]) -> tuple[Variant, ...]:
    return tuple(Variant(v["id"], v["name"], v["text"], _frozen(v.get("changes", {})),
                         tuple(v.get("combines", ())), tuple(v.get("excludes_rules", ())),
                         tuple(r["id"] for r in v.get("rules", ())))
                 for v in game.doc("variants").data["variants"])
