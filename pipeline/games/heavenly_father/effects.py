"""The ops of Philosopher powers: one core effect registry entry each (schema fragment and phrase).

A Philosopher kind's power (philosopher-kinds.yaml) lists ops. The rules engine
does not call a handler per op: it reads the ops at fixed points of its turn
flow (``Game.has_op``: which plays a card offers, what playing it does, which
stage a placed card acts in), so the registry is :data:`READS_OPS` and
``engine.py`` names the ops it implements (``REGISTRY.supported``). Validate
reports an op the engine does not implement, one without a phrase, and any
drift of ``$defs/op`` in philosopher-kinds.schema.json from this registry.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from pipeline.data.effects import READS_OPS, EffectLanguage, EffectRegistry, alternatives, keyed_op_schema
from pipeline.data.wording import number_word
from pipeline.games.heavenly_father import GAME_ID
from pipeline.games.heavenly_father.model import Op

REGISTRY = EffectRegistry(GAME_ID, engine="pipeline.games.heavenly_father.engine", usage=READS_OPS)
FALSE_GODS_SEEN = 9  # the False Gods not in the envelope (10 God cards, Contents): the most a power may name
TURN_ACTIONS = 6  # the actions of Play: at most one extra of each
RULEBOOK_PINNED = "The Annoying Undergrad's limit, which the rulebook states (2); pinned by rulebook-facts.yaml."


# ---------------------------------------------------------------- phrases
def _peek(op: Op) -> str:
    count = op.params["count"]
    if count == 1:
        return "Secretly look at one False God of your choice, then put it back face down where it was."
    return f"Secretly look at {number_word(count)} False Gods of your choice, then put them back face down where they were."


def _reveal(op: Op) -> str:
    count = op.params["count"]
    if count == 1:
        return "Turn one False God of your choice face up for all to see. It stays face up: that god is disproved."
    return (f"Turn {number_word(count)} False Gods of your choice face up for all to see. "
            "They stay face up: those gods are disproved.")


def _third_option(op: Op) -> str:
    p = op.params
    return (f"Add a third option that gains up to {p['gain_virtue_max']} of one Virtue, "
            f"loses up to {p['lose_virtue_max']} of one Virtue, or draws {p['draw_cards']} cards.")


def _cancel(op: Op) -> str:
    turns = op.params["bar_caller_turns"]
    span = "their next turn" if turns == 1 else f"their next {number_word(turns)} turns"
    return f"Turn the envelope back: the caller may not call Judgment Day on {span}."


def _extra(op: Op) -> str:
    count = op.params["count"]
    return "Then take another action." if count == 1 else f"Then take {number_word(count)} more actions."


# ---------------------------------------------------------------- the registry
def _count(maximum: int, description: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": 1, "maximum": maximum, "description": description}


def _pinned(description: str = RULEBOOK_PINNED) -> dict[str, Any]:
    return {"type": "integer", "minimum": 1, "description": description}


def _op(name: str, phrase: Callable[[Op], str], params: Mapping[str, Any], required: Sequence[str] = ()) -> None:
    REGISTRY.op(name, keyed_op_schema(name, params, required or list(params)), phrase)


_op("peek-false-god", _peek, {"count": _count(FALSE_GODS_SEEN, "False Gods a Prophet looks at: at most the 9 not in "
                                                               "the envelope (10 God cards, Contents).")})
_op("reveal-false-god", _reveal, {"count": _count(FALSE_GODS_SEEN, "False Gods a Skeptic reveals: at most the 9 not "
                                                                   "in the envelope (10 God cards, Contents).")})
_op("invent-third-option", _third_option,
    {"gain_virtue_max": _pinned(), "lose_virtue_max": _pinned(), "draw_cards": _pinned()})
_op("cancel-judgment-day", _cancel, {"bar_caller_turns": _pinned(
    "Turns the Rationalist bars the caller for, which the rulebook states (1); pinned by rulebook-facts.yaml.")})
_op("extra-action", _extra, {"count": _count(TURN_ACTIONS, "Extra turn actions: at most one of each of the 6 "
                                                           "actions of Play.")})
_op("dictate-choice", lambda op: "You tell them which option to choose.", {})
_op("randomize-virtues",
    lambda op: "The Virtues they gain and lose are picked at random; the amounts stay as printed.", {})


def effect_defs() -> dict[str, Any]:
    """``$defs/op`` of philosopher-kinds.schema.json: one of the registered ops' object schemas."""
    return {"op": alternatives(REGISTRY.effects())}


LANGUAGE = EffectLanguage(REGISTRY, "philosopher-kinds", effect_defs)
