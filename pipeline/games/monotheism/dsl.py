"""The Monotheism effects language: one registry entry per word of the card language.

A card's act or essence is data: a tree of *ops* (what happens), *selectors*
(which cards), *conditions* ("If ...") and *triggers* ("When ..."). Each word
has exactly one registry entry holding its JSON Schema fragment, its phrase
(the printed wording, used by ``text.py``) and its engine handler (attached by
``engine.py`` with :func:`handler`), kept in the core's effect registry
(:mod:`pipeline.data.effects`). The schema of ``deities.yaml`` is generated
from this registry (:func:`effect_defs`), the printed text is rendered from it,
and validate (through the spec's ``effects``, :data:`LANGUAGE`) reports any word
that lacks a handler or a phrase and any drift of the schema file, so the three
can never drift apart.

Card data shapes (YAML)::

    act:      {if: CONDITION, do: [OP...], otherwise: [OP...]}   # "if"/"otherwise" optional
    essence:  {when: TRIGGER, if: CONDITION, do: [OP...]}         # "if" optional
    OP:       {<op name>: {...parameters...}}                     # exactly one key
    SELECTOR: {<selector name>: <parameter>}                      # exactly one key
    CONDITION:{<condition name>: <parameter>}                     # exactly one key
"""
from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping, Optional

from pipeline.data.effects import Effect, EffectLanguage, EffectRegistry, obj, tagged_defs
from pipeline.data.wording import number_word, plural
from pipeline.games.monotheism import GAME_ID

OP = "op"
SELECTOR = "selector"
CONDITION = "condition"
TRIGGER = "trigger"
CATEGORIES = (OP, SELECTOR, CONDITION, TRIGGER)

ASPECTS = ("sun", "moon", "death")
CARD_KINDS = ("god", "card", "worshiper")
MOVE_PLACES = ("top", "bottom")
MAX_COUNT = 12  # the largest count a card may name (the largest deck in a scenario is 11 cards)
MAX_DISTANCE = 29 + 3  # the farthest a card may move: through a full deal (29 gods, at most 3 worshipers)

# A word's parameter is what its schema fragment allows: a mapping, a count, an enum value or true.
Phrase = Callable[[Any, "PhraseContext"], str]


class PhraseContext:
    """What a phrase may ask for while rendering: the wording of nested parts."""

    def __init__(self, render_selector: Callable[[Any], str], render_ops: Callable[[Any], str],
                 render_condition: Callable[[Any], str]) -> None:
        self.selector = render_selector
        self.ops = render_ops
        self.condition = render_condition


REGISTRY = EffectRegistry(GAME_ID, CATEGORIES, engine="pipeline.games.monotheism.engine")
CHOICE_FLAG = "choice"  # a selector that asks the player
CHOICE_FLAGS = frozenset({CHOICE_FLAG})


def handler(category: str, name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: attach the engine's handler for a registered word (exactly one per word)."""
    return REGISTRY.handler(name, category)


def tag(node: Mapping[str, Any]) -> tuple[str, Any]:
    """The single (name, parameter) pair of an op, selector or condition."""
    (name, value), = node.items()
    return name, value


# ---------------------------------------------------------------- wording helpers
def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


# ---------------------------------------------------------------- schema helpers
def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def _count(maximum: int = MAX_COUNT) -> dict[str, Any]:
    return {"type": "integer", "minimum": 1, "maximum": maximum}


TRUE = {"const": True}


_object = obj


# ---------------------------------------------------------------- selectors
def _selector(name: str, schema: dict[str, Any], phrase: Phrase, *, choice: bool = False) -> None:
    REGISTRY.add(Effect(name, schema, phrase, category=SELECTOR, flags=CHOICE_FLAGS if choice else frozenset()))


_selector("this", TRUE, lambda p, c: "this")
_selector("attacker", TRUE, lambda p, c: "that god")
_selector("next", TRUE, lambda p, c: "the card beneath this")
_selector("neighbours", TRUE, lambda p, c: "everything next to itself")
_selector("nearest", _count(), lambda p, c: f"the {number_word(p)} {plural(p, 'card')} nearest itself"
          if p > 1 else "the card nearest itself")
_selector("bottom", _count(), lambda p, c: f"the bottom {number_word(p)} {plural(p, 'card')}"
          if p > 1 else "the bottom card")
_selector("above", TRUE, lambda p, c: "every card above this")
_selector("highest_worshiper", TRUE, lambda p, c: "your highest worshiper")
_selector("all_worshipers", TRUE, lambda p, c: "every worshiper")


def _choose_phrase(p: Mapping[str, Any], c: PhraseContext) -> str:
    count, among, kind = p["count"], p["among_top"], p["kind"]
    noun = plural(count, kind)
    amount = "any" if count == 1 else f"any {number_word(count)}"
    return f"{amount} {noun} from among the top {number_word(among)} cards"


_selector("choose", _object({"count": _count(), "among_top": _count(), "kind": {"enum": list(CARD_KINDS)}},
                            ["count", "among_top", "kind"]), _choose_phrase, choice=True)


# ---------------------------------------------------------------- conditions
def _condition(name: str, schema: dict[str, Any], phrase: Phrase) -> None:
    REGISTRY.add(Effect(name, schema, phrase, category=CONDITION))


_condition("began_unveiled", TRUE, lambda p, c: "this began unveiled")
_condition("next_to_veiled", TRUE, lambda p, c: "this is next to a veiled god")
_condition("next_to_worshiper", TRUE, lambda p, c: "this is next to a worshiper")
_condition("next_to_aspect", {"enum": list(ASPECTS)},
           lambda p, c: f"this is next to a god with a {p} aspect")
_condition("unveiled_at_least", _count(),
           lambda p, c: f"{number_word(p)} or more other gods are unveiled")
_condition("deck_at_most", _count(),
           lambda p, c: f"the deck holds {number_word(p)} or fewer cards")


# ---------------------------------------------------------------- triggers
def _trigger(name: str, phrase: Phrase) -> None:
    REGISTRY.add(Effect(name, {"const": name}, phrase, category=TRIGGER))


_trigger("attempted", lambda p, c: "When a god attempts to consume this: instead,")
_trigger("consumed", lambda p, c: "When this is consumed:")
_trigger("consumes", lambda p, c: "When this consumes one or more gods:")
_trigger("unveiled", lambda p, c: "When this is unveiled:")


# ---------------------------------------------------------------- ops
def _follow_up(p: Mapping[str, Any], c: PhraseContext) -> str:
    return f" If so: {c.ops(p['if_so'])}" if p.get("if_so") else ""


def _targeted(verb: str, verb_s: str, *, subject: str = "") -> Phrase:
    """Phrase for ``<subject> <verb> <target>.``, with "may" and "If so:" handled alike."""

    def phrase(p: Mapping[str, Any], c: PhraseContext) -> str:
        target = c.selector(p["target"])
        who = subject or "you"
        if p.get("optional"):
            text = f"{who} may {verb} {target}."
        elif subject:
            text = f"{subject} {verb_s} {target}."
        else:
            text = f"{verb} {target}."
        return _sentence(text) + _follow_up(p, c)

    return phrase


def _op(name: str, properties: dict[str, Any], required: list[str], phrase: Phrase) -> None:
    REGISTRY.add(Effect(name, _object(properties, required), phrase))


TARGET = {"target": _ref("selector"), "optional": {"type": "boolean"}, "if_so": _ref("ops")}

_op("consume", TARGET, ["target"], _targeted("consume", "consumes", subject="this"))
_op("void", {"target": _ref("selector")}, ["target"],
    lambda p, c: f"The void consumes {c.selector(p['target'])}.")
_op("transform", TARGET, ["target"], _targeted("transform", "transform"))
_op("veil", TARGET, ["target"], _targeted("veil", "veil"))
_op("unveil", TARGET, ["target"], _targeted("unveil", "unveil"))
_op("peek", TARGET, ["target"], _targeted("peek at", "peek at"))
_op("curse", {"target": _ref("selector")}, ["target"], lambda p, c: f"Curse {c.selector(p['target'])}.")
_op("bless", {"target": _ref("selector")}, ["target"], lambda p, c: f"Bless {c.selector(p['target'])}.")


def _grant_phrase(p: Mapping[str, Any], c: PhraseContext) -> str:
    to, power = c.selector(p["grantee"]), c.selector(p["consume"])
    if to == "this":
        to = "itself"
    verb = "may grant" if p.get("optional") else "grants"
    return f"This {verb} {to} the power to consume {power}." + _follow_up(p, c)


_op("grant", {"grantee": _ref("selector"), "consume": _ref("selector"), "optional": {"type": "boolean"},
              "if_so": _ref("ops")}, ["grantee", "consume"], _grant_phrase)


def _move_phrase(p: Mapping[str, Any], c: PhraseContext) -> str:
    place = p["to"]
    if isinstance(place, str):
        where = f"to the {place} of the deck"
    elif "down" in place:
        where = f"down {number_word(place['down'])} {plural(place['down'], 'card')}"
    else:
        where = f"up {number_word(place['up'])} {plural(place['up'], 'card')}"
    target = c.selector(p["target"])
    text = f"you may move {target} {where}." if p.get("optional") else f"move {target} {where}."
    return _sentence(text) + _follow_up(p, c)


_op("move", {**TARGET, "to": {"oneOf": [{"enum": list(MOVE_PLACES)},
                                         _object({"down": _count(MAX_DISTANCE)}, ["down"]),
                                         _object({"up": _count(MAX_DISTANCE)}, ["up"])]}},
    ["target", "to"], _move_phrase)


# ---------------------------------------------------------------- the three types of act
# Rulebook, "The top card might act": "There are three types of cards": one acts "if the condition described
# in the pink box is met"; one "will perform an act every time it reaches the top of the deck" ("If ..." then,
# when the condition is not met, "the act described in the bottom box"); and, under Acts, "a condition that
# asks the player to make a choice" ("This may ...": declined, "the top card will not act").
CONDITIONAL, ALWAYS, CHOICE = "conditional", "always acting", "choice"
ACT_TYPES = (CONDITIONAL, ALWAYS, CHOICE)
# The words that frame an act's boxes (the phrase table of the act's own structure, not of a word inside it).
ACT_FRAMES: dict[str, Callable[[str], str]] = {
    "if": lambda condition: f"If {condition}:",
    "otherwise": lambda body: f"Otherwise: {body}",
}


def act_type(act: Mapping[str, Any]) -> Optional[str]:
    """The rulebook type of an act, or None when it is none of the three.

    A choice is a single "may" op (a choice of targets offered with "may" included): declining it leaves the
    card without an act, which is what makes the choice the act's condition. An "If this began unveiled"
    act with an "Otherwise" box is conditional, not always acting: it does not act on the turn it is first
    unveiled (``waits_when_first_unveiled``), so it does not "perform an act every time it reaches the top"."""
    if "if" in act:
        return ALWAYS if act.get("otherwise") and not waits_when_first_unveiled(act) else CONDITIONAL
    if "otherwise" in act or len(act["do"]) != 1:
        return None
    _, params = tag(act["do"][0])
    return CHOICE if params.get("optional") else None


def waits_when_first_unveiled(act: Mapping[str, Any]) -> bool:
    """Whether the act's condition is "If this began unveiled", which stops the whole act, its "Otherwise"
    box included, on the turn the card is unveiled.

    Rulebook, Acts: "A god with this condition will not act if it was veiled at the top of the deck this turn.
    ... This is the only condition that will prevent a god from acting when it is first unveiled"."""
    return _names_condition(act.get("if"), "began_unveiled")


def _names_condition(condition: Any, name: str) -> bool:
    if isinstance(condition, Mapping):
        return name in condition or any(_names_condition(v, name) for v in condition.values())
    if isinstance(condition, (list, tuple)):
        return any(_names_condition(v, name) for v in condition)
    return False


# ---------------------------------------------------------------- the generated schema
def _one_of_tagged(category: str) -> dict[str, Any]:
    """A mapping with exactly one key, naming a registered word, whose value fits that word."""
    return tagged_defs(REGISTRY, category)


def effect_defs() -> dict[str, Any]:
    """The JSON Schema ``$defs`` of the effects language, generated from the registry."""
    return {
        "selector": _one_of_tagged(SELECTOR),
        "condition": _one_of_tagged(CONDITION),
        "op": _one_of_tagged(OP),
        "ops": {"type": "array", "minItems": 1, "items": _ref("op")},
        "trigger": {"enum": REGISTRY.names(TRIGGER)},
        "act": _object({"if": _ref("condition"), "do": _ref("ops"), "otherwise": _ref("ops")}, ["do"]),
        "essence": _object({"when": _ref("trigger"), "if": _ref("condition"), "do": _ref("ops")},
                           ["when", "do"]),
    }


def walk_ops(ops: Any) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every op in a list of ops, nested follow-ups included, as (name, parameters)."""
    for op in ops or ():
        name, params = tag(op)
        yield name, params
        yield from walk_ops(params.get("if_so"))


SELECTOR_KEYS = ("target", "grantee", "consume")


def selectors_of(params: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    """The selectors an op's parameters name, as (name, parameter)."""
    for key in SELECTOR_KEYS:
        value = params.get(key)
        if isinstance(value, dict):
            yield tag(value)


# ---------------------------------------------------------------- schema file
COMMON_DEFS = "../common.schema.json#/$defs/"  # relative file references, so editors and check-jsonschema resolve them
# Card rules a half may break on purpose when the data says so, with its reason ("exceptions" of a half).
CONSUMES_ESSENCE_ON_AN_EATER = "consumes-essence-on-an-eater"
EXCEPTION_RULES = (CONSUMES_ESSENCE_ON_AN_EATER,)
ASPECT_DEF = {"enum": list(ASPECTS)}


def deities_schema() -> dict[str, Any]:
    """The whole of ``deities.schema.json``: the card record plus the generated effects language."""
    half = _object({"numbers": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": MAX_COUNT},
                                "minItems": 2, "maxItems": 2},
                    "aspects": {"type": "array", "items": ASPECT_DEF, "uniqueItems": True},
                    "act": _ref("act"), "essence": _ref("essence"),
                    "exceptions": {"type": "array", "minItems": 1, "items": _ref("exception"),
                                   "description": "Rules of validate this half breaks on purpose, each with its "
                                                  "reason."}}, ["numbers", "aspects"])
    exception = _object({"rule": {"enum": list(EXCEPTION_RULES)}, "reason": {"$ref": COMMON_DEFS + "text"}},
                        ["rule", "reason"])
    deity = _object({"id": {"type": "string", "pattern": "^[0-9]{2}$"},
                     "name": {"$ref": COMMON_DEFS + "text"},
                     "flavour": {"$ref": COMMON_DEFS + "text"},
                     "upright": _ref("half"), "transformed": _ref("half"),
                     "provenance": {"$ref": COMMON_DEFS + "provenance"}},
                    ["id", "name", "flavour", "upright", "transformed", "provenance"])
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Monotheism deity cards",
        "description": "GENERATED from pipeline/games/monotheism/dsl.py (python -m pipeline.games.monotheism.dsl); "
                       "do not edit by hand. Each deity has two halves; effects are tagged ops.",
        "type": "object",
        "additionalProperties": False,
        "required": ["deities"],
        "properties": {"deities": {"type": "array", "minItems": 1, "items": _ref("deity")}},
        "$defs": {"deity": deity, "half": half, "exception": exception, **effect_defs()},
    }


REGENERATE = "python -m pipeline.games.monotheism.dsl"
# The spec's ``effects``: the registry and the generated $defs of deities.schema.json (checked by validate).
LANGUAGE = EffectLanguage(REGISTRY, "deities", effect_defs, regenerate=REGENERATE)


if __name__ == "__main__":  # regenerate the schema file from the registry
    import json
    from pathlib import Path

    target = Path(__file__).resolve().parents[3] / "data" / "schemas" / "monotheism" / "deities.schema.json"
    target.write_text(json.dumps(deities_schema(), indent=2) + "\n", encoding="utf-8")
    print(f"wrote {target}")
