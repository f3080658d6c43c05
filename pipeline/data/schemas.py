"""JSON Schema checks of loaded documents, with messages a data editor can act on.

Patterns are ECMA-262 regular expressions, as JSON Schema says, and are
matched as such (with ``regress``, the engine ``check-jsonschema`` uses), not
with Python's ``re``: there ``$`` also matches before a final newline, so an
id ``"07\\n"`` would pass ``^[0-9]{2}$``. ``SchemaValidator`` is the 2020-12
validator with ``pattern``, ``patternProperties`` and ``additionalProperties``
(which consults patternProperties) matched the ECMA way; every schema check of
the project uses it.
"""
from __future__ import annotations

import difflib
import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping, Optional
from urllib.parse import unquote, urldefrag, urljoin

import regress
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import SchemaError, UnknownType, ValidationError, best_match
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource, Unresolvable
from referencing.jsonschema import DRAFT202012

from pipeline.base.errors import UserError
from pipeline.base.safefile import FileRefused, read_regular_file
from pipeline.base.words import did_you_mean
from pipeline.data.dataset import SCHEMA_DIR, SCHEMA_SUFFIX, Document, display_path
from pipeline.data.problems import Location, Problem
from pipeline.data.yamlmarks import PathKey, YamlLoadError, load_marked

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError
    from referencing import Registry

MAX_SCHEMA_BYTES = 1024 * 1024  # the largest schema is under 30 kB
NEAR_KEY = 0.75  # how alike an unknown key and a known one must be to suggest it (difflib ratio: flavor/flavour 0.92)
ECMA_FLAGS = "u"  # JSON Schema patterns are Unicode-aware ECMA-262 regular expressions
CONDITION_KEYS = frozenset(("properties", "required"))  # what a condition :func:`key_equals_text` decides may hold


@lru_cache(maxsize=None)
def ecma_regex(pattern: str) -> regress.Regex:
    """``pattern`` compiled as an ECMA-262 regular expression; SchemaError when it is not one."""
    try:
        return regress.Regex(pattern, flags=ECMA_FLAGS)
    except regress.RegressError as exc:
        raise SchemaError(f"pattern {pattern!r} is not an ECMA-262 regular expression: {exc}") from None


def ecma_search(pattern: str, text: str) -> bool:
    """Whether ``pattern`` matches anywhere in ``text``, with ECMA semantics (``$`` is the very end)."""
    return ecma_regex(pattern).find(text) is not None


def _pattern(validator: Any, pattern: str, instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not ecma_search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator: Any, patterns: dict[str, Any], instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if ecma_search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional_properties(validator: Any, additional: Any, instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    """jsonschema's own keyword, told which keys patternProperties already covers (matched the ECMA way)."""
    patterns = schema.get("patternProperties") if isinstance(schema, dict) else None
    if patterns and validator.is_type(instance, "object"):
        instance = {k: v for k, v in instance.items() if not any(ecma_search(p, k) for p in patterns)}
        schema = {k: v for k, v in schema.items() if k != "patternProperties"}
    yield from Draft202012Validator.VALIDATORS["additionalProperties"](validator, additional, instance, schema)


def _ref(validator: Any, ref: Any, instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    """``$ref``: a schema linked when the schemas were loaded (:func:`_linked`) is applied as it stands; a
    reference left as text (one the schema files cannot resolve, or one a command wrote) is looked up by jsonschema."""
    if not isinstance(ref, str):
        yield from validator.descend(instance, ref)
    else:
        yield from Draft202012Validator.VALIDATORS["$ref"](validator, ref, instance, schema)


def _if(validator: Any, condition: Any, instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    """jsonschema's own ``if``, the condition decided directly where it is one key equal to a text (what the
    schema files write to pick an effect's fields by its ``op``: :func:`key_equals_text`); any other
    condition is decided by jsonschema, as before. An ``if`` gives no error of its own, so the errors (of its
    ``then`` or ``else``) are the same, in the same order."""
    holds = key_equals_text(condition, instance, validator.is_type(instance, "object"))
    if holds is None:
        holds = validator.evolve(schema=condition).is_valid(instance)
    if holds and "then" in schema:
        yield from validator.descend(instance, schema["then"], schema_path="then")
    elif not holds and "else" in schema:
        yield from validator.descend(instance, schema["else"], schema_path="else")


def key_equals_text(condition: Any, instance: Any, is_object: bool) -> Optional[bool]:
    """Whether ``instance`` meets ``condition`` when that is ``{"properties": {KEY: {"const": TEXT}}}`` with
    ``"required": [KEY]`` or not (None: a condition of another form). As JSON Schema reads it: anything but
    an object meets it; an object must hold each required key, and a value equal to each TEXT it holds a key
    for (a value that is no text equals no text). One pass over the condition, which is read to its end
    (its form decides None) while the instance is compared (asked for each value of every schema's unions)."""
    if not isinstance(condition, dict) or not condition.keys() <= CONDITION_KEYS:
        return None
    properties, required = condition.get("properties", {}), condition.get("required", [])
    if not isinstance(properties, dict) or not isinstance(required, list):
        return None
    holds = True
    for key in required:
        if not isinstance(key, str):
            return None
        holds = holds and (not is_object or key in instance)
    for key, rule in properties.items():
        if not isinstance(rule, dict) or len(rule) != 1 or not isinstance(text := rule.get("const"), str):
            return None
        if holds and is_object and key in instance:
            value = instance[key]
            holds = isinstance(value, str) and value == text
    return holds


def _all_of(validator: Any, parts: Any, instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    """jsonschema's own ``allOf``, but a part that is only ``if`` (one key equal to a text, :func:`key_equals_text`)
    and ``then``, whose condition does not hold, is passed over: applied, it gives no error (no ``else``), and the
    schema files chain many (one per op: an effect's fields picked by its ``op``). The other parts are applied as
    jsonschema applies them, in order, so the errors are the same, in the same order."""
    if not isinstance(parts, list):
        yield from Draft202012Validator.VALIDATORS["allOf"](validator, parts, instance, schema)
        return
    is_object = validator.is_type(instance, "object")
    for index, part in enumerate(parts):
        if isinstance(part, dict) and part.keys() == {"if", "then"} and key_equals_text(part["if"], instance, is_object) is False:
            continue
        yield from validator.descend(instance, part, schema_path=index)


def _one_of(validator: Any, alternatives: Any, instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    """jsonschema's own ``oneOf``, answered directly where the schema files write a union told apart by its keys
    (an effect's op, a selector, a condition: each alternative requires a key the others lack). jsonschema
    validates every alternative (the ones before the first that holds in full, with all their errors, then
    every one after it again); here, when an object lacks a required key of all alternatives but one and that
    one holds, exactly one holds, and oneOf gives no error, as jsonschema does. Any other case (that one does
    not hold, none or several remain) is jsonschema's, so the errors are its own."""
    if isinstance(alternatives, list) and validator.is_type(instance, "object"):
        possible = [index for index, alternative in enumerate(alternatives) if not _lacks_required(alternative, instance)]
        if len(possible) == 1:
            index = possible[0]
            if next(iter(validator.descend(instance, alternatives[index], schema_path=index)), None) is None:
                return
    yield from Draft202012Validator.VALIDATORS["oneOf"](validator, alternatives, instance, schema)


def _lacks_required(alternative: Any, instance: dict[str, Any]) -> bool:
    """Whether ``instance`` (an object) lacks a key ``alternative`` requires, so that it cannot hold (False when
    that cannot be told from the alternative's own ``required``, or a linked ``$ref`` standing alone)."""
    while isinstance(alternative, dict) and alternative.keys() == {"$ref"} and isinstance(alternative["$ref"], dict):
        alternative = alternative["$ref"]  # (linked when loaded: see _linked)
    if not isinstance(alternative, dict):
        return False
    required = alternative.get("required")
    return isinstance(required, list) and any(isinstance(key, str) and key not in instance for key in required)


def _properties(validator: Any, properties: Any, instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    """jsonschema's own ``properties``, applied to the values that do not plainly meet their schema
    (:func:`plainly_valid`: most values of the data are texts and numbers against a leaf of a few keywords);
    the others give no error, so the errors are the same, in the same order, without a descent for each."""
    if isinstance(properties, dict) and validator.is_type(instance, "object"):
        properties = {name: rule for name, rule in properties.items()
                      if name in instance and not plainly_valid(rule, instance[name])}
    yield from Draft202012Validator.VALIDATORS["properties"](validator, properties, instance, schema)


def _items(validator: Any, items: Any, instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    """jsonschema's own ``items``, passed over for a list whose every item plainly meets it (a list of texts
    or numbers: :func:`plainly_valid`), which gives no error."""
    if "prefixItems" in schema or not isinstance(instance, list) or not all(plainly_valid(items, item) for item in instance):
        yield from Draft202012Validator.VALIDATORS["items"](validator, items, instance, schema)


ANNOTATIONS = frozenset(("description", "title", "$comment"))  # keywords that never make a value invalid
PLAIN_TYPES = {"string": str, "integer": int, "number": int, "boolean": bool}  # (an int is a number; no bool is an int here)
BOUNDS = {"minimum": int.__ge__, "maximum": int.__le__, "exclusiveMinimum": int.__gt__, "exclusiveMaximum": int.__lt__}


def plainly_valid(schema: Any, value: Any) -> bool:
    """Whether ``value``, a text, a whole number or a boolean, meets ``schema`` when that is ``true`` or a leaf
    of the keywords the schema files give such values (type, length, pattern, enum, const, bounds), decided as
    jsonschema decides them. False means not plainly: another value or keyword (a float, an enum of numbers,
    a list of types, a bound that is no number...) is left to jsonschema, which then finds it valid or reports it."""
    if schema is True:
        return True
    kind = type(value)
    if not isinstance(schema, dict) or (kind is not str and kind is not int and kind is not bool):
        return False
    for keyword, rule in schema.items():
        if keyword == "type":
            if (PLAIN_TYPES.get(rule) if isinstance(rule, str) else None) is not kind:
                return False
        elif keyword == "enum" or keyword == "const":
            if kind is not str or not (value in rule if keyword == "enum" and isinstance(rule, list) else value == rule):
                return False  # (a text equals only an equal text; a number's equality is jsonschema's: 1 is not true)
        elif keyword in BOUNDS:
            if type(rule) is not int or (kind is int and not BOUNDS[keyword](value, rule)):
                return False
        elif keyword == "minLength" or keyword == "maxLength":
            if type(rule) is not int or (kind is str and (len(value) < rule if keyword == "minLength" else len(value) > rule)):
                return False
        elif keyword == "pattern":
            if not isinstance(rule, str) or (kind is str and not ecma_search(rule, value)):
                return False
        elif keyword not in ANNOTATIONS:
            return False
    return True


SchemaValidator: Any = validators.extend(  # type: ignore[no-untyped-call]  # (untyped in types-jsonschema)
    Draft202012Validator,
    {"pattern": _pattern, "patternProperties": _pattern_properties, "additionalProperties": _additional_properties,
     "$ref": _ref, "if": _if, "allOf": _all_of, "oneOf": _one_of, "properties": _properties, "items": _items},
)


@dataclass
class SchemaSet:
    """Every schema under ``<data root>/schemas``, linked by their file URIs.

    The schema files carry no ``$id`` and refer to each other by relative file
    references (``../common.schema.json#/$defs/text``), so editors and
    ``check-jsonschema`` resolve them as files. Each is registered under its
    file URI and under its legacy name, ``urn:pantheon:<game>:<kind>``
    (``urn:pantheon:common``), which code may keep using in its own ``$ref``s.
    """

    root: Path
    registry: Registry
    by_path: dict[Path, dict[str, Any]]
    linked: dict[Path, dict[str, Any]]  # each schema with its references linked to their targets (see _linked)

    def schema_path(self, game: str, kind: str) -> Path:
        return self.root / game / f"{kind}{SCHEMA_SUFFIX}"

    def kinds(self, game: str) -> list[str]:
        folder = self.root / game
        return sorted(p.name[: -len(SCHEMA_SUFFIX)] for p in folder.glob(f"*{SCHEMA_SUFFIX}"))

    def validator(self, game: str, kind: str) -> Optional[Any]:
        schema = self.linked.get(self.schema_path(game, kind))
        if schema is None:
            return None
        return SchemaValidator(schema, registry=self.registry)

    def problems(self, game: str, kind: str, doc: Document) -> Optional[list[Problem]]:
        """The schema problems of ``doc`` (None when its kind has no schema)."""
        validator = self.validator(game, kind)
        if validator is None:
            return None
        return list(schema_problems(doc, validator))


def load_schemas(data_root: Path) -> SchemaSet:
    """Read and check every schema file; a broken schema is the developer's error, reported plainly."""

    root = data_root / SCHEMA_DIR
    if not root.is_dir():
        raise UserError(f"{display_path(root)}: schema folder not found")
    by_path: dict[Path, dict[str, Any]] = {}
    resources = []
    legacy: dict[str, tuple[dict[str, Any], str]] = {}  # legacy name -> (schema, its file URI)
    for path in sorted(root.rglob(f"*{SCHEMA_SUFFIX}")):
        try:
            raw = read_regular_file(path, MAX_SCHEMA_BYTES)
            schema = json.loads(raw.decode("utf-8"))
        except (FileRefused, ValueError, RecursionError) as exc:
            raise UserError(f"{display_path(path)}: cannot read schema: {exc}") from None
        if not isinstance(schema, dict):
            raise UserError(f"{display_path(path)}: a schema must be a JSON object")
        # Checking each schema against the meta-schema costs more than validating
        # all the data, so the test suite does it (tests/core/test_schemas.py).
        uri = path.resolve().as_uri()
        if "$id" in schema:  # a schema that names itself resolves its references against that name
            uri = str(schema["$id"])
        else:
            schema = {**schema, "$id": uri}  # the base its relative references resolve against
            legacy[legacy_id(path.relative_to(root))] = (schema, uri)
        by_path[path] = schema
        resources.append((uri, Resource.from_contents(schema, default_specification=DRAFT202012)))

    # A schema is looked up by its legacy name only by code that asks for it so (a few $refs): its copy
    # for that name (see _absolute_refs) is made on the first look-up, not for every schema on every load.
    retrieved: dict[str, Any] = {}

    def by_legacy_name(uri: str) -> Any:
        if uri not in legacy:
            raise NoSuchResource(ref=uri)  # type: ignore[call-arg]  # (an attrs class the stubs do not see)
        if uri not in retrieved:
            schema, file_uri = legacy[uri]
            retrieved[uri] = Resource.from_contents(_absolute_refs(schema, file_uri), default_specification=DRAFT202012)
        return retrieved[uri]

    registry = Registry(retrieve=by_legacy_name).with_resources(resources)  # type: ignore[call-arg]  # (attrs)
    return SchemaSet(root, registry, by_path, _linked(by_path, {name: schema for name, (schema, _) in legacy.items()}))


LEGACY_PREFIX = "urn:pantheon:"


def legacy_id(relative: Path) -> str:
    """The name a schema file had as its ``$id`` before the files were linked by path: ``urn:pantheon:monotheism:deities``."""
    return LEGACY_PREFIX + ":".join((*relative.parent.parts, relative.name[: -len(SCHEMA_SUFFIX)]))


def _absolute_refs(node: Any, base: str) -> Any:
    """``node`` with every relative ``$ref`` made absolute against ``base``.

    A lookup by legacy name resolves nested references against that name (a
    URN, against which no relative path resolves), so that copy names its
    targets by full file URI.
    """
    if isinstance(node, dict):
        return {key: (urljoin(base, value) if key == "$ref" and isinstance(value, str) and not value.startswith("#")
                      else _absolute_refs(value, base)) for key, value in node.items()}
    if isinstance(node, list):
        return [_absolute_refs(item, base) for item in node]
    return node


def _linked(by_path: dict[Path, dict[str, Any]], legacy: Mapping[str, dict[str, Any]]) -> dict[Path, dict[str, Any]]:
    """A copy of each schema whose ``$ref`` values are the subschemas they name, made once per load.

    jsonschema looks a reference up (base URI, registry, JSON pointer) each time it applies one: thousands
    of times per run for the same few hundred references. Linked, the data is validated against the same
    subschemas, so its errors are the same, in the same order. A reference is resolved as jsonschema resolves
    it: against the ``$id`` in force (a file's URI, or the name a schema gives itself), by file URI or legacy
    name (``legacy``: those names' schemas). The copies may be cyclic (a recursive ``$defs`` entry refers to
    itself); they are never written out. Should any reference not resolve (a broken schema), nothing is
    linked: jsonschema looks every reference up, and reports the broken one, as before.
    """
    referring: list[tuple[dict[str, Any], str]] = []
    by_uri: dict[str, Any] = {}
    copies = {path: _copy(schema, str(schema["$id"]), referring) for path, schema in by_path.items()}
    for path, schema in by_path.items():
        by_uri[str(schema["$id"])] = copies[path]
    for name, schema in legacy.items():
        by_uri[name] = by_uri[str(schema["$id"])]
    for copy, base in referring:
        ref = copy["$ref"]
        if not isinstance(ref, str):
            return dict(by_path)
        uri, fragment = (base, ref[1:]) if ref.startswith("#") else urldefrag(urljoin(base, ref))
        target = _pointed(by_uri, uri, fragment)
        if target is None:
            return dict(by_path)
        copy["$ref"] = target
    _skip_pure_refs(copies.values())
    return copies


def _skip_pure_refs(schemas: Iterable[Any]) -> None:
    """Put each linked subschema where a schema holds nothing but a reference to it (``{"$ref": ...}``, most
    references: ``items``, a property, a ``$defs`` alias).

    Applying such a schema applies its target and nothing else, so the data is checked against the same
    keywords in the same order and gives the same errors (their ``schema_path`` no longer names the
    ``$ref``, which no message shows); jsonschema no longer descends once for the reference and once more
    for its target (a descent makes a validator and a resolver: thousands per run)."""
    seen: set[int] = set()
    stack = list(schemas)
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, dict):
            for key, value in node.items():
                if key != "$ref":  # (a reference's own target is a schema like any other, reached below)
                    node[key] = _past_pure_refs(value)
            stack.extend(node.values())
        elif isinstance(node, list):
            node[:] = [_past_pure_refs(item) for item in node]
            stack.extend(node)


def _past_pure_refs(node: Any) -> Any:
    """``node``, or the schema its chain of pure linked references ends at (a chain that loops is left as it is)."""
    chain: set[int] = set()
    while _is_pure_ref(node) and id(node) not in chain:
        chain.add(id(node))
        node = node["$ref"]
    return node


def _is_pure_ref(node: Any) -> bool:
    return isinstance(node, dict) and len(node) == 1 and isinstance(node.get("$ref"), (dict, bool))


def _copy(node: Any, base: str, referring: list[tuple[dict[str, Any], str]]) -> Any:
    """``node`` copied (its dicts and lists new); each dict holding a ``$ref`` noted in ``referring`` with the
    base URI its reference resolves against (``base``, or the dict's own ``$id``)."""
    if isinstance(node, dict):
        if isinstance(node.get("$id"), str):
            base = urljoin(base, node["$id"]) if not node["$id"].startswith("#") else base
        copy = {key: _copy(value, base, referring) for key, value in node.items()}
        if "$ref" in copy:
            referring.append((copy, base))
        return copy
    if isinstance(node, list):
        return [_copy(item, base, referring) for item in node]
    return node


def _pointed(by_uri: dict[str, Any], uri: str, fragment: str) -> Optional[Any]:
    """The node of schema ``uri`` that JSON pointer ``fragment`` names (None: no such schema or node)."""
    node = by_uri.get(uri)
    if fragment and not fragment.startswith("/"):  # an anchor: the schema files name none
        return None
    for step in fragment.split("/")[1:] if fragment else ():
        step = unquote(step).replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict):
            node = node.get(step)
        elif isinstance(node, list) and step.isdigit() and int(step) < len(node):
            node = node[int(step)]
        else:
            return None
    return node if isinstance(node, (dict, bool)) else None


def check_schema_file(path: Path, schema: dict[str, Any]) -> None:
    """Raise UserError if ``schema`` is not valid JSON Schema 2020-12."""
    try:
        SchemaValidator.check_schema(schema)
    except SchemaError as exc:
        raise UserError(f"{display_path(path)}: invalid schema: {exc.message}") from None


def schema_problems(doc: Document, validator: Any) -> Iterator[Problem]:
    """Every schema violation in ``doc``, most specific first, pinned to its node; and every number that is
    not finite (YAML's ``.nan`` and ``.inf``: NaN passes every ``minimum`` and ``maximum``, so no schema
    keyword can refuse it)."""
    for node, value in _non_finite(doc.data, ()):
        label, where = describe_path(doc.data, node)
        yield Problem(doc.at(*node), f"{label}{f'{where}: ' if where else ''}{value} is not a finite number")

    try:
        errors = list(validator.iter_errors(doc.data))
    except (SchemaError, Unresolvable, UnknownType) as exc:
        raise UserError(f"schema for {doc.file} is broken: {exc}") from None
    errors = [_most_specific(error) for error in errors]
    misspelt = _misspellings(errors)
    for error in errors:
        path: PathKey = tuple(error.absolute_path)
        if error.validator == "required" and (path, _required_key(error)) in misspelt.values():
            continue  # said once, at the misspelt key: its cause
        label, where = describe_path(doc.data, path)
        if error.validator == "additionalProperties":
            for key in _extra_keys(error):  # each unknown key is a mistake of its own, at its own line
                at, text = _describe(doc, path, where, error, key)
                yield Problem(at, f"{label}{text}{_did_you_mean(error, key, misspelt.get((path, key)))}")
            continue
        at, text = _describe(doc, path, where, error)
        yield Problem(at, f"{label}{text}")


def _non_finite(value: Any, path: PathKey) -> Iterator[tuple[PathKey, float]]:
    """Each number of loaded data (dicts, lists, scalars) that is not finite, with its path, in document order;
    a path is made only for a number or a collection, not for every text."""
    if isinstance(value, float):
        if not math.isfinite(value):
            yield path, value
    elif isinstance(value, (dict, list)):
        for key, item in value.items() if isinstance(value, dict) else enumerate(value):
            if isinstance(item, (float, dict, list)):
                yield from _non_finite(item, path + (key,))


def _extra_keys(error: ValidationError) -> list[str]:
    properties = error.schema.get("properties", {}) if isinstance(error.schema, Mapping) else {}
    extra = [str(key) for key in error.instance if key not in properties] if isinstance(error.instance, Mapping) else []
    return extra or ["?"]


def _required_key(error: ValidationError) -> str:
    """The key a ``required`` error names (jsonschema's message quotes it: "'flavour' is a required property")."""
    return error.message.split("'")[1] if error.message.count("'") >= 2 else ""


def _misspellings(errors: list[ValidationError]) -> dict[tuple[PathKey, str], tuple[PathKey, str]]:
    """Unknown keys that are a required key misspelt (``flavor`` for a missing ``flavour``), as
    (record path, unknown key) -> (record path, the missing key): one mistake, said once, at the key typed."""
    missing: dict[PathKey, list[str]] = {}
    for error in errors:
        if error.validator == "required":
            missing.setdefault(tuple(error.absolute_path), []).append(_required_key(error))
    found = {}
    for error in errors:
        path = tuple(error.absolute_path)
        if error.validator == "additionalProperties" and path in missing:
            for key in _extra_keys(error):
                near = difflib.get_close_matches(key, missing[path], n=1, cutoff=NEAR_KEY)
                if near:
                    found[(path, key)] = (path, near[0])
    return found


def _did_you_mean(error: ValidationError, key: str, misspelt: Optional[tuple[PathKey, str]]) -> str:
    """The hint after an unknown key: the required key it misspells, else the nearest allowed key."""
    if misspelt is not None:
        return f"; did you mean '{misspelt[1]}'? (it is required and missing)"
    properties = error.schema.get("properties", {}) if isinstance(error.schema, Mapping) else {}
    return did_you_mean(key, [str(known) for known in properties], NEAR_KEY)


def _most_specific(error: ValidationError) -> ValidationError:
    """For anyOf/oneOf failures, the branch error that explains the most."""
    while error.context:
        error = best_match(error.context)
    return error


def _describe(doc: Document, path: PathKey, where: str, error: ValidationError,
              unknown: Optional[str] = None) -> tuple[Location, str]:
    prefix = f"{where}: " if where else ""
    validator = error.validator
    if validator == "additionalProperties":
        if not isinstance(error.schema, Mapping) or not isinstance(error.instance, Mapping):
            raise _unfilled(error, "the object and its schema")
        properties = error.schema.get("properties", {})
        extra = sorted(set(error.instance) - set(properties))
        key = unknown if unknown is not None else (extra[0] if extra else "?")
        allowed = ", ".join(sorted(properties)) or "none"
        return doc.key_at(*path, key), f"{prefix}unknown key '{key}' (allowed: {allowed})"
    if validator == "required":
        return doc.at(*path), f"{prefix}{error.message.replace('is a required property', 'is required but missing')}"
    if validator == "enum":
        if not isinstance(error.validator_value, Iterable):
            raise _unfilled(error, "the list of allowed values")
        options = ", ".join(str(option) for option in error.validator_value)
        return doc.at(*path), f"{prefix}{error.instance!r} is not one of {options}"
    if error.schema is False:  # a `false` schema (its error names no validator)
        return doc.key_at(*path), f"{prefix}key is not allowed here"
    return doc.at(*path), f"{prefix}{error.message}"


def _unfilled(error: ValidationError, missing: str) -> TypeError:
    """jsonschema fills in every part of the errors it reports (its types also allow "unset"): one that did not is a fault."""
    return TypeError(f"jsonschema reported a '{error.validator}' error without {missing}")


def describe_path(data: Any, path: PathKey) -> tuple[str, str]:
    """Split ``path`` into the innermost record with an id and the field inside it.

    ``("deities", 12, "aspects", 1)`` -> ``("deity 13: ", "aspects[1]")`` when
    ``deities[12]`` has id 13; ``("", full field path)`` when no record has an id.
    """
    node = data
    label, field_start = "", 0
    for depth, step in enumerate(path):
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(step, int) and isinstance(node, dict) and "id" in node:
            owner = path[depth - 1] if depth else ""
            label, field_start = f"{singular(str(owner))} {node['id']}: ", depth + 1
    text = ""
    for step in path[field_start:]:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else str(step))
    return label, text


def singular(word: str) -> str:
    """Naive English singular for list keys: deities -> deity, monsters -> monster."""
    word = word.replace("_", " ").replace("-", " ")
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def read_settings(path: Path, schema_path: Path) -> tuple[Document, Any]:
    """A project or user settings file and its schema, read but not yet checked against it.

    Raises UserError naming ``file:line:column`` of a YAML problem, or the schema that cannot be read.
    """
    try:
        marked = load_marked(path, strict_text=False)
        raw_schema = read_regular_file(schema_path, MAX_SCHEMA_BYTES)
        schema = json.loads(raw_schema.decode("utf-8"))
    except YamlLoadError as exc:
        raise UserError(f"{display_path(path)}:{exc.line}:{exc.column}: {exc.message}") from None
    except (FileRefused, ValueError, RecursionError) as exc:
        raise UserError(f"{display_path(schema_path)}: cannot read schema: {exc}") from None
    return Document(kind=path.stem, path=path, marked=marked), schema


def load_checked_yaml(path: Path, schema_path: Path) -> Any:
    """A project settings file (sheets, layouts) loaded and checked against its schema.

    Raises UserError naming ``file:line:column`` of the first problem, like data errors.
    """
    doc, schema = read_settings(path, schema_path)
    problems = sorted(schema_problems(doc, SchemaValidator(schema)))
    if problems:
        raise UserError(str(problems[0]))
    return doc.data
