"""The structured power language of Monstrous: its ops, their wording, their contexts.

A power is ``{trigger, condition?, text, effects: [op, ...]}``; an op is a
mapping ``{op: <name>, <param>: <value>, ...}``. This module is the one place
that knows the vocabulary:

* ``REGISTRY`` - every op, with its schema fragment, its phrase and (attached by
  ``engine.py``) its engine handler (:mod:`pipeline.data.effects`); validate checks
  the op definitions of monsters.schema.json against it (``LANGUAGE``).
* ``OP_PARAMS`` - the parameters of each op and their allowed values, read off
  the registry, so code can check powers built anywhere else (e.g. by an engine).
* ``render_power`` - the printed wording of a power, built from its structure
  by the registry's phrases. The data's ``text`` must equal it, so the two cannot drift.
* ``context_problems`` - whether each op makes sense where it is printed (a
  HIT MONSTERS op needs hit Monsters; a Location cannot say "this Monster").
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Optional, Sequence

from pipeline.data.effects import OP, EffectLanguage, EffectRegistry, dispatcher, keyed_defs, keyed_op_schema
from pipeline.data.wording import counted
from pipeline.games.monstrous import GAME_ID

ANY_AMOUNT = None  # marker: the parameter takes a positive integer
MAX_AMOUNT = 10  # the largest amount a power may name
MAX_THROWN = 3  # the most hit Monsters a power may throw
CHOOSE_ONE = "choose_one"  # the op that offers other ops (never nested)

TRIGGER_LABELS: dict[str, str] = {
    "when_hit": "WHEN HIT",
    "hit_monsters": "HIT MONSTERS",
    "hit_location": "HIT LOCATION",
    "miss_location": "MISS LOCATION",
    "game_end": "GAME END",
}
MONSTER_TRIGGERS = frozenset({"when_hit", "hit_monsters", "hit_location", "miss_location"})
LOCATION_TRIGGERS = frozenset({"when_hit", "game_end"})
CONDITION_TRIGGERS = {"no_hit_monsters": frozenset({"hit_location", "miss_location"})}

# Parameter values (or whole ops) that only make sense under some triggers or owners.
NEEDS_HIT_MONSTERS = frozenset({("target", "hit_monsters"), ("from", "one_hit_monster_god"),
                                ("from", "each_hit_monster_god"), ("per", "hit_monster")})
NEEDS_A_LOCATION = frozenset({("target", "one_other_monster_at_location"), ("from", "one_god_at_location"),
                              ("from", "each_other_god_at_location"), ("per", "monster_at_location")})
NEEDS_A_MONSTER = frozenset({("target", "self"), ("target", "hitter")})
NEEDS_BEING_HIT = frozenset({("target", "hitter")})
OP_TRIGGERS = {"throw_hit_monster": frozenset({"hit_monsters"}), "majority_bonus": frozenset({"game_end"})}

THAT_LOCATION = "that Location"


@dataclass(frozen=True)
class Owner:
    """Who prints the power: a Monster (by name) or a Location (by name)."""

    kind: str  # "monster" or "location"
    name: str

    def location_words(self) -> str:
        """How the power names 'the Location in question'."""
        return self.name if self.kind == "location" else THAT_LOCATION

    def this(self) -> str:
        return f"this {self.name}"


# ---------------------------------------------------------------- wording

def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def _target_words(target: str, owner: Owner) -> str:
    return {
        "self": owner.this(),
        "hitter": f"the Monster that hit {owner.this()}",
        "hit_monsters": "hit Monsters",
        "one_other_monster_at_location": f"1 other Monster hitting {owner.location_words()}",
    }[target]


def _from_words(source: str, owner: Owner) -> str:
    return {
        "one_hit_monster_god": "one hit Monster's god",
        "each_hit_monster_god": "each hit Monster's god",
        "one_god_at_location": f"a god with another Monster hitting {owner.location_words()}",
        "each_other_god_at_location": f"each other god with a Monster hitting {owner.location_words()}",
    }[source]


def _gain_faith(op: Mapping[str, Any], owner: Owner) -> str:
    per = {None: "", "hit_monster": " for each hit Monster",
           "monster_at_location": f" for each Monster hitting {owner.location_words()}"}[op.get("per")]
    return f"Gain {op['amount']} Faith{per}."


def _take_faith(op: Mapping[str, Any], owner: Owner) -> str:
    return f"Take {op['amount']} Faith from {_from_words(op['from'], owner)}."


def _discard(op: Mapping[str, Any], owner: Owner) -> str:
    return f"Discard {_target_words(op['target'], owner)}."


def _move_monster(op: Mapping[str, Any], owner: Owner) -> str:
    target = _target_words(op["target"], owner)
    many = op["target"] == "hit_monsters"
    whose = "their gods'" if many else "its god's"
    return {
        "owner_hand": f"Return {target} to {whose} {'hands' if many else 'hand'}.",
        "owner_deck_top": f"Return {target} to the top of {whose} Monster {'Decks' if many else 'Deck'}.",
        "owner_deck_bottom": f"Put {target} on the bottom of {whose} Monster {'Decks' if many else 'Deck'}.",
    }[op["to"]]


def _gain_throw(op: Mapping[str, Any], owner: Owner) -> str:
    return f"Gain {counted(op['amount'], 'throw')}."


def _draw_cards(op: Mapping[str, Any], owner: Owner) -> str:
    return f"Draw {counted(op['amount'], 'card')}."


def _choose_one(op: Mapping[str, Any], owner: Owner) -> str:
    options = [render_op(option, owner).rstrip(".") for option in op["options"]]
    return _upper_first(" or ".join(_lower_first(option) for option in options)) + "."


def _throw_hit_monster(op: Mapping[str, Any], owner: Owner) -> str:
    noun = "hit Monster" if op["count"] == 1 else "hit Monsters"
    text = f"Throw {op['count']} {noun}"
    text += ", either side up." if op["either_side"] else "."
    if op["gain_location_faith"]:
        text += " Gain Faith from 1 Location it hits."
    return text


def _retrieve(op: Mapping[str, Any], owner: Owner) -> str:
    which = {"any": "1", "top": "the top"}[op["pick"]]
    whose = {"self": "your", "other_god": "another god's"}[op["whose"]]
    if op["to"] == "hand":
        return f"Take {which} Monster from {whose} Underworld into your hand."
    return f"Put {which} Monster from {whose} Underworld on top of your Monster Deck."


def _majority_bonus(op: Mapping[str, Any], owner: Owner) -> str:
    ties = {"each_tied_god": f"; tied gods each gain {op['amount']}.", "nobody": "; if tied, nobody does."}[op["ties"]]
    return f"The god with the most Monsters hitting {owner.location_words()} gains {op['amount']} Faith{ties}"


# ---------------------------------------------------------------- the registry: schema, phrase, handler per op
REGISTRY = EffectRegistry(GAME_ID, engine="pipeline.games.monstrous.engine")  # engine.py attaches the handlers
_AMOUNT = {"type": "integer", "minimum": 1, "maximum": MAX_AMOUNT}
_BOOL = {"type": "boolean"}


def _enum(*values: str) -> dict[str, Any]:
    return {"enum": list(values)}


def _op(name: str, phrase: Any, required: Sequence[str], params: Mapping[str, Any]) -> None:
    REGISTRY.op(name, keyed_op_schema(name, params, required), phrase)


_op("gain_faith", _gain_faith, ["amount"], {"amount": _AMOUNT, "per": _enum("hit_monster", "monster_at_location")})
_op("take_faith", _take_faith, ["amount", "from"],
    {"amount": _AMOUNT, "from": _enum("one_hit_monster_god", "each_hit_monster_god", "one_god_at_location",
                                      "each_other_god_at_location")})
_op("discard", _discard, ["target"], {"target": _enum("hitter", "hit_monsters", "one_other_monster_at_location")})
_op("move_monster", _move_monster, ["target", "to"],
    {"target": _enum("self", "hit_monsters", "one_other_monster_at_location"),
     "to": _enum("owner_hand", "owner_deck_top", "owner_deck_bottom")})
_op("gain_throw", _gain_throw, ["amount"], {"amount": _AMOUNT})
_op("draw_cards", _draw_cards, ["amount"], {"amount": _AMOUNT})
_op(CHOOSE_ONE, _choose_one, ["options"],
    {"options": {"type": "array", "items": {"$ref": "#/$defs/simple_op"}, "minItems": 2, "maxItems": 3}})
_op("throw_hit_monster", _throw_hit_monster, ["count", "either_side", "gain_location_faith"],
    {"count": {"type": "integer", "minimum": 1, "maximum": MAX_THROWN}, "either_side": _BOOL,
     "gain_location_faith": _BOOL})
_op("retrieve_from_underworld", _retrieve, ["whose", "pick", "to"],
    {"whose": _enum("self", "other_god"), "pick": _enum("any", "top"), "to": _enum("hand", "deck_top")})
_op("majority_bonus", _majority_bonus, ["amount", "ties"], {"amount": _AMOUNT, "ties": _enum("each_tied_god", "nobody")})


def effect_defs() -> dict[str, Any]:
    """The op definitions of monsters.schema.json the registry generates: ``op_<name>`` per op, ``op``
    dispatching to them, and ``simple_op`` (every op but choose_one: what a choice may offer)."""
    ops = REGISTRY.effects()
    return {**keyed_defs(REGISTRY), "op": dispatcher(ops),
            "simple_op": dispatcher([e for e in ops if e.name != CHOOSE_ONE], params_of=ops)}


# The spec's ``effects``: validate checks the registry and the op definitions of monsters.schema.json.
LANGUAGE = EffectLanguage(REGISTRY, "monsters", effect_defs, prefix="op_")


def _allowed(schema: Mapping[str, Any]) -> Any:
    """What ``op_problems`` accepts for a parameter of this schema."""
    kind = schema.get("type")
    if kind == "integer":
        return ANY_AMOUNT
    if kind == "boolean":
        return bool
    if kind == "array":
        return list
    return tuple(schema["enum"])


# op name -> parameter -> allowed values (ANY_AMOUNT: positive int; bool: True/False), read off the registry
# so code can check powers built anywhere else (e.g. by an engine) against the same vocabulary.
OP_PARAMS: dict[str, dict[str, Any]] = {
    e.name: {param: _allowed(schema) for param, schema in e.schema["properties"].items() if param != "op"}
    for e in REGISTRY.effects()}
OPTIONAL_PARAMS: dict[str, frozenset[str]] = {
    e.name: frozenset(e.schema["properties"]) - set(e.schema["required"]) for e in REGISTRY.effects()
    if set(e.schema["properties"]) - set(e.schema["required"])}


def render_op(op: Mapping[str, Any], owner: Owner) -> str:
    """The printed sentence for one op (ops are assumed valid: see ``op_problems``)."""
    return REGISTRY.phrase_of(OP, op["op"])(op, owner)


def render_power(power: Mapping[str, Any], owner: Owner) -> str:
    """The printed wording of a whole power: ``LABEL: sentence sentence``."""
    body = " ".join(render_op(op, owner) for op in power["effects"])
    if power.get("condition") == "no_hit_monsters":
        body = f"If {owner.this()} hits no Monsters, {_lower_first(body)}"
    return f"{TRIGGER_LABELS[power['trigger']]}: {body}"


# ---------------------------------------------------------------- validity

def op_problems(op: Mapping[str, Any], *, nested: bool = False) -> Iterator[str]:
    """Why ``op`` is not a well-formed op of the vocabulary (nothing if it is)."""
    name = op.get("op")
    if name not in OP_PARAMS:
        yield f"unknown op {name!r} (known: {', '.join(OP_PARAMS)})"
        return
    spec = OP_PARAMS[name]
    given = set(op) - {"op"}
    for param in sorted(given - set(spec)):
        yield f"op {name} has no parameter {param!r}"
    for param in sorted(set(spec) - given - OPTIONAL_PARAMS.get(name, frozenset())):
        yield f"op {name} needs parameter {param!r}"
    for param in sorted(given & set(spec)):
        yield from _param_problems(name, param, op[param], spec[param], nested=nested)


def _param_problems(name: str, param: str, value: Any, allowed: Any, *, nested: bool) -> Iterator[str]:
    if allowed is ANY_AMOUNT:
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            yield f"op {name}: {param} must be a positive whole number, not {value!r}"
    elif allowed is bool:
        if not isinstance(value, bool):
            yield f"op {name}: {param} must be true or false, not {value!r}"
    elif allowed is list:
        if nested:
            yield f"op {name} cannot be nested inside another choice"
        elif not isinstance(value, list) or len(value) < 2:
            yield f"op {name}: {param} must list at least 2 ops"
        else:
            for option in value:
                yield from op_problems(option, nested=True)
    elif value not in allowed:
        yield f"op {name}: {param} {value!r} is not one of {', '.join(allowed)}"


def _flat_ops(ops: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    for op in ops:
        yield op
        yield from _flat_ops(op.get("options", []))


def context_problems(power: Mapping[str, Any], owner: Owner) -> Iterator[str]:
    """Why ``power`` cannot be used where it is printed (nothing if it can)."""
    trigger = power["trigger"]
    allowed = MONSTER_TRIGGERS if owner.kind == "monster" else LOCATION_TRIGGERS
    if trigger not in allowed:
        yield f"a {owner.kind} power cannot use the {TRIGGER_LABELS[trigger]} trigger"
    condition = power.get("condition")
    if condition is not None and (owner.kind != "monster" or trigger not in CONDITION_TRIGGERS[condition]):
        yield f"condition {condition} needs a Monster's HIT LOCATION or MISS LOCATION power"
    for op in _flat_ops(power["effects"]):
        yield from _op_context_problems(op, trigger, owner)


def _op_context_problems(op: Mapping[str, Any], trigger: str, owner: Owner) -> Iterator[str]:
    name = op["op"]
    needed = OP_TRIGGERS.get(name)
    if needed is not None and trigger not in needed:
        yield f"op {name} only works with {' or '.join(TRIGGER_LABELS[t] for t in sorted(needed))}"
    for pair in ((k, v) for k, v in op.items() if isinstance(v, str)):
        yield from _value_context_problems(name, pair, trigger, owner)


def _value_context_problems(name: str, pair: tuple[str, str], trigger: str, owner: Owner) -> Iterator[str]:
    param, value = pair
    where = f"op {name}: {param} {value}"
    if pair in NEEDS_HIT_MONSTERS and trigger != "hit_monsters":
        yield f"{where} needs the HIT MONSTERS trigger"
    if pair in NEEDS_A_LOCATION and not (owner.kind == "location" or trigger == "hit_location"):
        yield f"{where} needs a Location: a Location's power or a HIT LOCATION power"
    if pair in NEEDS_A_MONSTER and owner.kind != "monster":
        yield f"{where} only makes sense on a Monster"
    if pair in NEEDS_BEING_HIT and trigger != "when_hit":
        yield f"{where} needs the WHEN HIT trigger"


def power_word_count(powers: Sequence[Mapping[str, Any]]) -> int:
    """Words of effect text on one card face (trigger labels included)."""
    return sum(len(str(power["text"]).split()) for power in powers)


def face_text(powers: Sequence[Mapping[str, Any]]) -> Optional[str]:
    """All printed power texts of a face, in order, one per line."""
    return "\n".join(str(power["text"]) for power in powers) or None
