"""Printed wording rendered from structured data, by phrase tables.

``power_text`` renders a Philosopher kind's power (each op by its phrase in
the effect registry, ``effects.py``); the wording printed on the
card (``text`` in philosopher-kinds.yaml) must equal it, which a cross-check
enforces. ``consequence_text`` renders a dilemma option's consequences (the
line printed under each option), so cards carry no second copy of the numbers.
"""
from __future__ import annotations

from typing import Mapping

from pipeline.data.effects import OP
from pipeline.data.wording import counted
from pipeline.games.heavenly_father.effects import REGISTRY
from pipeline.games.heavenly_father.model import Consequence, Power, Timing

PLACEMENT_PHRASES: Mapping[tuple[Timing, str], str] = {
    (Timing.KEPT, "self"): "Keep this in front of you.",
    (Timing.PLACED, "other-player"): "Place this in front of another player.",
    (Timing.PLACED, "any-player"): "Place this in front of any player, yourself included.",
}

INVOKE_PHRASES: Mapping[str, str] = {
    "owner-resolves-dilemma": "Invoke it while you resolve a Moral Dilemma:",
    "target-confronts-dilemma": "Invoke it when they confront a Moral Dilemma:",
    "target-resolves-dilemma": "Invoke it when they resolve a Moral Dilemma:",
}

NO_BREAK = "\u00a0"  # a space a line never breaks at: an amount stays with its Virtue ("+1 Justice")

REQUIREMENT_PHRASES: Mapping[str, str] = {
    "judgment-day-called-by-player": "Play only while a Judgment Day called by a player is pending.",
}


def _lower_first(sentence: str) -> str:
    return sentence[:1].lower() + sentence[1:]


def power_text(power: Power) -> str:
    """The printed wording of ``power``; KeyError names a phrase the tables lack."""
    parts: list[str] = []
    if power.requires is not None:
        parts.append(REQUIREMENT_PHRASES[power.requires])
    if power.timing is not Timing.IMMEDIATE:
        parts.append(PLACEMENT_PHRASES[(power.timing, power.target)])
    effects = [REGISTRY.phrase_of(OP, op.name)(op) for op in power.effects]
    if power.invoke is not None:
        effects[0] = f"{INVOKE_PHRASES[power.invoke]} {_lower_first(effects[0])}"
    return " ".join(parts + effects)


def _amounts(amounts: Mapping[str, int], sign: str, names: Mapping[str, str]) -> list[str]:
    return [f"{sign}{count} {names.get(virtue, virtue)}" for virtue, count in amounts.items()]


def _cards(count: int, verb: str) -> list[str]:
    return [f"{verb} {counted(count, 'card')}"] if count else []


def consequence_text(consequence: Consequence, names: Mapping[str, str], *, keep_together: bool = False) -> str:
    """E.g. ``+2 Selfishness, -1 Justice, draw 1 card``; ``names`` maps virtue ids to names.
    ``keep_together``: each part's spaces are no-break spaces, so a line breaks only after a comma,
    never between an amount and its Virtue or cards (how a card prints it)."""
    parts = (_amounts(consequence.gain, "+", names) + _amounts(consequence.lose, "-", names)
             + _cards(consequence.draw_cards, "draw") + _cards(consequence.lose_cards, "lose"))
    if keep_together:
        parts = [part.replace(" ", NO_BREAK) for part in parts]
    return ", ".join(parts)
