"""What play reads of the cards, as canonical JSON: the key of every cached search and seeded run.

The engine's card definitions (:class:`~pipeline.games.monotheism.cards.Cards`:
numbers, aspects, acts, essences, worshiper chains, which sets win with zero
gods) without the cards' names: the engine quotes a name in its explanations
but never decides by one, so renaming a card keeps every scenario proof, the
#21 tally and the report's scenario figures (a reworded flavour line is not
even in the model). Whatever quotes a name is worked out afresh, never cached.
"""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Set
from typing import Any

from pipeline.games.monotheism.cards import Cards, Deity, Worshiper

# Fields of the card definitions that only name a card (printed, quoted), never change what happens in play.
NAMES_ONLY: Mapping[type, frozenset[str]] = {Deity: frozenset({"name"}), Worshiper: frozenset({"name"})}


def cards_key(cards: Cards) -> str:
    """The play fields of every card, as canonical JSON (the same in every process)."""
    return json.dumps(canonical(cards), sort_keys=True)


def canonical(value: Any) -> Any:
    """``value`` as plain JSON data, the same in every process (sets sorted: their order follows the
    string hash seed), without the fields of :data:`NAMES_ONLY`; a type it does not know fails loudly
    rather than hash an incomplete key."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        skip = NAMES_ONLY.get(type(value), frozenset())
        return [type(value).__name__, {f.name: canonical(getattr(value, f.name))
                                       for f in dataclasses.fields(value) if f.name not in skip}]
    if isinstance(value, Mapping):
        return {str(k): canonical(v) for k, v in value.items()}
    if isinstance(value, Set):
        return sorted((canonical(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"no canonical form for {type(value).__name__}")
