"""Card effect registries: one entry per word of a game's effect language, for every game with card effects.

A game whose cards carry effects as data (ops) keeps one :class:`EffectRegistry`.
Each :class:`Effect` holds everything about one op, in one place:

* ``schema``: the JSON Schema fragment of the op (its parameters);
* ``phrase``: how the op is printed (the game decides what a phrase is given:
  the op's parameters and whatever the sentence needs, such as who owns the card);
* ``handler``: what the rules engine does with it, attached by the engine
  module (:meth:`EffectRegistry.handler` or :meth:`EffectRegistry.attach`), so the
  effects table never imports the engine.

From the registry come the op definitions of the game's schema file (one of
the three layouts below) and two checks that validate runs for every game
through its spec (``GameSpec.effects``): :meth:`EffectRegistry.problems` (an op
that cannot both run and print) and :func:`schema_drift` (the schema file does
not say what the registry generates), each message naming the op.

Schema layouts (how a game's data writes one op)::

    tagged      {consume: {target: ...}}           one key, the op's name; its value fits the op's schema
    keyed       {op: gain_faith, amount: 2}        an ``op`` key; one ``$defs/op_<name>`` per op, and a
                                                   dispatching ``$defs/op`` (if op is X then op_X)
    alternatives  the same data as keyed, written as ``oneOf`` the ops' whole object schemas
"""
from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Optional, Sequence

from pipeline.data.dataset import display_path
from pipeline.data.problems import Location, Problem

if TYPE_CHECKING:
    from pipeline.data.dataset import GameData
    from pipeline.data.problems import Problem

OP = "op"
Phrase = Callable[..., str]
Handler = Callable[..., Any]
Schema = dict[str, Any]

# How an engine uses the ops: each op has a handler the engine calls, or the engine reads the ops
# at fixed points of its turn flow (asking whether a card has an op) and names the ops it supports.
CALLS_HANDLERS = "calls handlers"
READS_OPS = "reads ops"


@dataclass
class Effect:
    """One word of a game's effect language (by default an op; Monotheism also has selectors, conditions
    and triggers). ``flags`` are the game's own marks on the word (Monotheism: ``choice``)."""

    name: str
    schema: Schema
    phrase: Optional[Phrase] = None
    handler: Optional[Handler] = None
    category: str = OP
    flags: frozenset[str] = frozenset()


@dataclass
class EffectRegistry:
    """Every word of one game's effect language, by category (in registration order) and name.

    ``engine`` names the module that attaches the handlers (imported before the handlers are checked, so
    the check never depends on who imported what); ``usage`` is :data:`CALLS_HANDLERS` or
    :data:`READS_OPS` (the engine lists the ops it supports with :meth:`supported` instead of handlers).
    """

    game: str
    categories: tuple[str, ...] = (OP,)
    engine: str = ""
    usage: str = CALLS_HANDLERS
    entries: dict[str, dict[str, Effect]] = field(default_factory=dict)
    engine_supports: Optional[frozenset[str]] = None

    def __post_init__(self) -> None:
        for category in self.categories:
            self.entries.setdefault(category, {})

    # ---------------------------------------------------------------- building
    def add(self, effect: Effect) -> Effect:
        table = self._table(effect.category)
        if effect.name in table:
            raise ValueError(f"{self.game}: {effect.category} '{effect.name}' registered twice")
        table[effect.name] = effect
        return effect

    def op(self, name: str, schema: Schema, phrase: Optional[Phrase] = None, **more: Any) -> Effect:
        """Register the op ``name`` (shorthand for ``add(Effect(name, schema, phrase, ...))``)."""
        return self.add(Effect(name, schema, phrase, **more))

    def handler(self, name: str, category: str = OP) -> Callable[[Handler], Handler]:
        """Decorator: attach the engine's handler of a registered word (exactly one per word)."""

        def attach(fn: Handler) -> Handler:
            self.attach(name, fn, category)
            return fn

        return attach

    def attach(self, name: str, fn: Handler, category: str = OP) -> None:
        entry = self.get(category, name)
        if entry.handler is not None:
            raise ValueError(f"{self.game}: {category} '{name}' has two handlers")
        entry.handler = fn

    def attach_all(self, handlers: Mapping[str, Handler], category: str = OP) -> None:
        """Attach an engine's handler table; an op the registry lacks is an error (a handler for nothing)."""
        unknown = sorted(set(handlers) - set(self._table(category)))
        if unknown:
            raise ValueError(f"{self.game}: handlers for unregistered {category}s {', '.join(unknown)}")
        for name, fn in handlers.items():
            self.attach(name, fn, category)

    def supported(self, names: Iterable[str]) -> None:
        """For an engine that reads its ops (:data:`READS_OPS`): the ops it implements."""
        self.engine_supports = frozenset(names)

    # ---------------------------------------------------------------- reading
    def get(self, category: str, name: str) -> Effect:
        return self._table(category)[name]

    def flagged(self, category: str, name: str, flag: str) -> bool:
        """Whether the word carries the game's mark ``flag``."""
        return flag in self.get(category, name).flags

    def names(self, category: str = OP) -> list[str]:
        return list(self._table(category))

    def effects(self, category: str = OP) -> list[Effect]:
        return list(self._table(category).values())

    def handler_of(self, category: str, name: str) -> Handler:
        """The engine's handler of a word (``problems`` reports a word without one)."""
        found = self.get(category, name).handler
        if found is None:
            raise LookupError(f"{self.game}: {category} '{name}' has no engine handler")
        return found

    def phrase_of(self, category: str, name: str) -> Phrase:
        found = self.get(category, name).phrase
        if found is None:
            raise LookupError(f"{self.game}: {category} '{name}' has no phrase")
        return found

    def _table(self, category: str) -> dict[str, Effect]:
        if category not in self.entries:
            raise KeyError(f"{self.game}: the effect registry has no category {category!r}")
        return self.entries[category]

    # ---------------------------------------------------------------- checking
    def problems(self) -> Iterator[str]:
        """Every word that cannot both run and print (the engine module is imported first)."""
        if self.engine:
            importlib.import_module(self.engine)
        for category in self.categories:
            for entry in self.entries[category].values():
                if self.usage == CALLS_HANDLERS and entry.handler is None:
                    yield f"{category} '{entry.name}' has no engine handler"
                if entry.phrase is None:
                    yield f"{category} '{entry.name}' has no phrase for printed text"
        if self.usage == READS_OPS:
            supports = self.engine_supports or frozenset()
            for name in self.names():
                if name not in supports:
                    yield f"op '{name}' is not supported by the rules engine"
            for name in sorted(supports - set(self.names())):
                yield f"the rules engine supports op '{name}', which is not registered"


# ==================================================================== schema layouts
def obj(properties: Mapping[str, Any], required: Sequence[str]) -> Schema:
    """A closed object schema (every object schema of the project is ``additionalProperties: false``)."""
    return {"type": "object", "additionalProperties": False, "required": list(required),
            "properties": dict(properties)}


def tagged_defs(registry: EffectRegistry, category: str = OP) -> Schema:
    """``oneOf`` single-key mappings ``{name: parameters}``, one per registered word (Monotheism's layout)."""
    return {"oneOf": [obj({e.name: e.schema}, [e.name]) for e in registry.effects(category)]}


def keyed_op_schema(name: str, properties: Mapping[str, Any], required: Sequence[str], key: str = "op") -> Schema:
    """The whole object schema of one keyed op: ``{op: name, ...parameters}``."""
    return {"type": "object", "additionalProperties": False, "required": [key, *required],
            "properties": {key: {"const": name}, **properties}}


def dispatcher(effects: Sequence[Effect], *, key: str = "op", required: Sequence[str] = ("op",),
               prefix: str = "op_", params_of: Optional[Sequence[Effect]] = None, **extra: Any) -> Schema:
    """The ``$defs/op`` of the keyed layout: the op's name from ``effects`` and every parameter any of
    them (or of ``params_of``) takes, then ``if op is X: $defs/op_X`` for each (so an error names the
    op's own schema)."""
    params: dict[str, Any] = {key: {"enum": [e.name for e in effects]}}
    for effect in effects if params_of is None else params_of:
        for param in effect.schema.get("properties", {}):
            params.setdefault(param, True)
    return {**extra, "type": "object", "additionalProperties": False, "required": list(required),
            "properties": params,
            "allOf": [{"if": {"properties": {key: {"const": e.name}}, "required": [key]},
                       "then": {"$ref": f"#/$defs/{prefix}{e.name}"}} for e in effects]}


def keyed_defs(registry: EffectRegistry, *, prefix: str = "op_") -> Schema:
    """One ``$defs`` entry per op (``op_<name>``), the op's whole object schema (the keyed layout)."""
    return {f"{prefix}{e.name}": e.schema for e in registry.effects()}


def alternatives(effects: Sequence[Effect]) -> Schema:
    """``oneOf`` the ops' whole object schemas (the alternatives layout)."""
    return {"oneOf": [e.schema for e in effects]}


# ==================================================================== drift
def schema_drift(generated: Mapping[str, Any], found: Mapping[str, Any], *, prefix: str = "op_",
                 words: Mapping[str, str] = MappingProxyType({})) -> Iterator[tuple[str, str]]:
    """How the ``$defs`` of a schema file (``found``) differ from what the registry generates, as
    (definition, message), naming the op where one is to blame (a changed, missing or unregistered op),
    else the definition. ``words``: what a definition's alternatives are called (``selector``; else op)."""
    for def_name, want in generated.items():
        have = found.get(def_name)
        if have == want:
            continue
        if prefix and def_name.startswith(prefix):
            op = def_name[len(prefix):]
            yield def_name, (f"op '{op}' is registered but the schema has no $defs/{def_name}" if have is None
                             else f"op '{op}' differs from the effects registry ($defs/{def_name})")
            continue
        word = words.get(def_name, OP)
        named = list(_named_differences(word, want, have)) if isinstance(have, dict) else []
        for message in named or [f"$defs/{def_name} differs from the effects registry"]:
            yield def_name, message
    if prefix:
        for def_name in sorted(set(found) - set(generated)):
            if def_name.startswith(prefix):
                yield def_name, f"op '{def_name[len(prefix):]}' is in the schema ($defs/{def_name}) but not registered"


def _named_differences(word: str, want: Mapping[str, Any], have: Mapping[str, Any]) -> Iterator[str]:
    """Per-word differences of two unions (``oneOf`` alternatives, or an ``enum`` of names)."""
    if "oneOf" in want and isinstance(have.get("oneOf"), list):
        wanted = {_alternative_name(alt): alt for alt in want["oneOf"]}
        had = {_alternative_name(alt): alt for alt in have["oneOf"] if isinstance(alt, dict)}
        yield from _compare(word, wanted, had)
    elif "enum" in want and isinstance(have.get("enum"), list):
        yield from _compare(word, {n: n for n in want["enum"]}, _names(have["enum"]))
    elif "properties" in want and isinstance(have.get("properties"), dict):
        names = want["properties"].get("op", {}).get("enum")
        found = have["properties"].get("op", {})
        if isinstance(names, list) and isinstance(found, dict) and isinstance(found.get("enum"), list):
            yield from _compare(word, {n: n for n in names}, _names(found["enum"]))


def _names(values: list[Any]) -> dict[str, str]:
    return {value: value for value in values if isinstance(value, str)}


def _compare(word: str, wanted: Mapping[Any, Any], had: Mapping[Any, Any]) -> Iterator[str]:
    for name, alt in wanted.items():
        if name not in had:
            yield f"{word} '{name}' is registered but missing from the schema"
        elif had[name] != alt:
            yield f"{word} '{name}' differs from the effects registry"
    for name in had:
        if name not in wanted:
            yield f"{word} '{name}' is in the schema but not registered"


def _alternative_name(alt: Mapping[str, Any]) -> Any:
    """The word an alternative stands for: its ``op`` constant (alternatives) or its one key (tagged)."""
    properties = alt.get("properties")
    properties = properties if isinstance(properties, dict) else {}
    op = properties.get("op")
    if isinstance(op, dict) and "const" in op:
        return op["const"]
    required = alt.get("required")
    if isinstance(required, list) and len(required) == 1 and isinstance(required[0], str):
        return required[0]
    return repr(sorted(map(str, properties)))


# ==================================================================== the game's effect language, checked
@dataclass(frozen=True)
class EffectLanguage:
    """What a game's spec names as ``effects``: its registry, the schema file whose ``$defs`` hold the ops
    (``kind``: ``data/schemas/<game>/<kind>.schema.json``) and the ``$defs`` the registry generates for it.
    ``prefix``: the keyed layout's per-op definitions (``op_``; "" for none); ``regenerate``: the command
    that rewrites the file from the registry, when the game has one (else the file is edited by hand and
    checked)."""

    registry: EffectRegistry
    kind: str
    defs: Callable[[], Mapping[str, Any]]
    prefix: str = ""
    regenerate: str = ""


def language_problems(game: "GameData[Any]", language: EffectLanguage) -> Iterator["Problem"]:
    """Every op that cannot both run and print, and every drift of the schema file from the registry:
    one line each, naming the op and pointing at its definition in the schema file."""

    path = game.root.parent / "schemas" / game.game / f"{language.kind}.schema.json"
    shown = display_path(path)
    for message in language.registry.problems():
        yield Problem(Location(shown, 1, 1), f"effects language: {message}")
    try:
        text = path.read_text(encoding="utf-8")
        schema = json.loads(text)
    except (OSError, ValueError):
        return  # the core reports a missing or unreadable schema
    found = schema.get("$defs") if isinstance(schema, dict) else None
    found = found if isinstance(found, dict) else {}
    fix = f" (regenerate: {language.regenerate})" if language.regenerate else ""
    words = {c: c for c in language.registry.categories}
    for def_name, message in schema_drift(language.defs(), found, prefix=language.prefix, words=words):
        yield Problem(Location(shown, _line_of(text, def_name), 1), f"effects language: {message}{fix}")


def _line_of(text: str, def_name: str) -> int:
    """The line of ``$defs/<def_name>`` in a JSON schema's text: the key one level inside ``"$defs": {``
    (1 when it is not there)."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith('"$defs":')), None)
    if start is None or start + 1 >= len(lines):
        return 1
    inner = lines[start + 1]
    indent = inner[:len(inner) - len(inner.lstrip())]
    key = indent + json.dumps(def_name) + ":"
    for number in range(start + 1, len(lines)):
        if lines[number].startswith(key):
            return number + 1
    return 1
