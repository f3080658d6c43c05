"""The card definitions the engine plays with: deities (two halves) and worshipers (chains of states).

Built from validated data (``deities.yaml``, ``worshipers.yaml``,
``worshiper-sets.yaml``, ``scenarios.yaml``); the engine never reads YAML itself.
Effects stay as the plain DSL trees of ``dsl.py`` (read-only mappings).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Optional

UPRIGHT, TRANSFORMED = 0, 1
HALF_KEYS = ("upright", "transformed")


@dataclass(frozen=True)
class Half:
    """One half of a god card: what is active while it reads upright."""

    numbers: tuple[int, int]
    aspects: frozenset[str]
    act: Optional[Mapping[str, Any]]
    essence: Optional[Mapping[str, Any]]


@dataclass(frozen=True)
class Deity:
    id: str
    name: str
    halves: tuple[Half, Half]  # (upright, transformed)


@dataclass(frozen=True)
class WorshiperState:
    """One link of a worshiper's chain: the side and orientation showing, and its symbols."""

    face: str
    orientation: str
    numbers: tuple[int, int]
    curse: str
    bless: Optional[str]
    act: Optional[Mapping[str, Any]]


@dataclass(frozen=True)
class Worshiper:
    id: str
    name: str
    worshiper_set: str
    states: tuple[WorshiperState, ...]
    zero_gods_victory: bool


@dataclass(frozen=True)
class Cards:
    """Every card definition the engine needs."""

    deities: Mapping[str, Deity]
    worshipers: Mapping[str, Worshiper]


def _half(data: Mapping[str, Any]) -> Half:
    return Half(numbers=tuple(data["numbers"]), aspects=frozenset(data.get("aspects", ())),
                act=data.get("act"), essence=data.get("essence"))


def deity_from(record: Mapping[str, Any]) -> Deity:
    halves = tuple(_half(record[key]) for key in HALF_KEYS)
    return Deity(id=record["id"], name=record["name"], halves=halves)  # type: ignore[arg-type]


def worshiper_from(record: Mapping[str, Any], name: str, set_id: str, zero_gods_victory: bool) -> Worshiper:
    states = tuple(
        WorshiperState(face=s["face"], orientation=s["orientation"], numbers=tuple(s["numbers"]),
                       curse=s["curse"], bless=s.get("bless"), act=s.get("act"))
        for s in record["states"]
    )
    return Worshiper(id=record["id"], name=name, worshiper_set=set_id, states=states,
                     zero_gods_victory=zero_gods_victory)


def cards_from(deities: Mapping[str, Any], worshipers: Mapping[str, Any], sets: Mapping[str, Any]) -> Cards:
    """Card definitions from the plain data of deities.yaml, worshipers.yaml and worshiper-sets.yaml.

    Names and set membership come from worshiper-sets.yaml; the faces from worshipers.yaml.
    """
    member: dict[str, tuple[str, str, bool]] = {}
    for worshiper_set in sets["worshiper_sets"]:
        for w in worshiper_set["worshipers"]:
            member[w["id"]] = (w["name"], worshiper_set["id"], bool(worshiper_set["zero_gods_victory"]))
    return Cards(
        deities={d["id"]: deity_from(d) for d in deities["deities"]},
        worshipers={w["id"]: worshiper_from(w, *member.get(w["id"], (w["id"], "", False)))
                    for w in worshipers["worshipers"]},
    )
