"""A document shown valid record by record: after a one-card edit only that card is validated again.

Most data files are a few top-level lists of records (``cards: [...]``) whose
schema is ``{type: array, items: <record>, minItems: n}``. Such a list is valid
exactly when its length is in range and each record is valid against
``<record>`` on its own: no keyword of that schema relates one record to
another. So a document is valid when

- the document, against its schema with those lists' ``items`` left out, is
  valid (this checks everything else, the lists' lengths among it), and
- every record is valid against its list's ``items``.

Records are remembered valid by the hash of their values, per list (one cache
entry holds the hashes of the list's records seen valid: the current ones and,
up to ``KEPT_EARLIER`` times as many, the most recent earlier ones, so that going
back and forth between two versions of a card, as an editor undoing an edit
does, validates neither again). Only a "valid"
answer is ever taken from this route: when anything fails, the caller
validates the whole document as before, so every problem is reported with the
same message and place.

The route is taken only for schemas it is sound for: top-level keywords that
do not look across properties (no ``unevaluatedProperties``, no
``dependentSchemas``, no conditionals) and lists whose schema holds only
``type``, ``items``, ``minItems``, ``maxItems`` and annotations (no
``uniqueItems``, ``contains`` or ``prefixItems``), with ``items`` a schema
without an ``$id`` of its own (it is resolved against the document's schema, as
jsonschema's own descent does) and no dynamic references anywhere.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from pipeline.base.shape import ShapeError
from pipeline.data import resultcache

NAMESPACE = "schema-valid-records"
CODE = Path(__file__)  # this route's code is part of every entry's key
ANNOTATIONS = frozenset({"title", "description", "$comment", "examples", "default"})
DOCUMENT_KEYWORDS = frozenset({"$schema", "$id", "$defs", "type", "properties", "required", "additionalProperties"}) | ANNOTATIONS
LIST_KEYWORDS = frozenset({"type", "items", "minItems", "maxItems"}) | ANNOTATIONS
KEPT_EARLIER = 1  # earlier records' hashes kept per list, as a multiple of its current length


def record_lists(schema: Any) -> list[str]:
    """The top-level properties of ``schema`` whose records may be validated one by one (none when the
    schema is not of the shape described above)."""
    if not isinstance(schema, dict) or not set(schema) <= DOCUMENT_KEYWORDS or _dynamic(schema):
        return []
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return []
    return [name for name, sub in properties.items()
            if isinstance(sub, dict) and set(sub) <= LIST_KEYWORDS and sub.get("type") == "array"
            and isinstance(sub.get("items"), dict) and not {"$id", "$schema"} & set(sub["items"])]


def _dynamic(node: Any) -> bool:
    if isinstance(node, dict):
        return "$dynamicRef" in node or "$dynamicAnchor" in node or any(_dynamic(value) for value in node.values())
    if isinstance(node, list):
        return any(_dynamic(value) for value in node)
    return False


def valid_by_records(validator: Any, data: Any, lists: Iterable[str], key: list[str]) -> bool:
    """Whether ``data`` is valid against ``validator``'s schema, shown as described above; False means
    "not shown" (the caller validates the whole document). ``lists``: from ``record_lists`` of that schema;
    ``key``: what identifies the schema set, the code and the document's kind (not its values)."""
    schema = validator.schema
    lists = [name for name in lists if isinstance(data, dict) and isinstance(data.get(name), list)]
    if not lists:
        return False
    properties = dict(schema["properties"])
    for name in lists:
        properties[name] = {k: v for k, v in properties[name].items() if k != "items"}
    # Without $schema: evolve would otherwise pick the stock validator for it instead of this one (ECMA patterns).
    outer = {k: v for k, v in schema.items() if k != "$schema"} | {"properties": properties}
    if not validator.evolve(schema=outer).is_valid(data):
        return False
    for name in lists:
        entry = [*key, resultcache.file_hash(CODE), name]
        stored = resultcache.read_json(NAMESPACE, entry, _digests) or []  # the newest first
        seen = set(stored)
        records = schema["properties"][name]["items"]
        check = validator.evolve(schema=records)
        digests = []
        for record in data[name]:
            digest = resultcache.value_digest(record)
            if digest is None:  # not plain data: this route does not vouch for it
                return False
            if digest not in seen and not check.is_valid(record):
                return False
            digests.append(digest)
        current = set(digests)
        if not current <= seen:
            earlier = [digest for digest in stored if digest not in current][: KEPT_EARLIER * len(current)]
            resultcache.store_json(NAMESPACE, entry, sorted(current) + earlier)
    return True


def _digests(value: Any) -> list[str]:
    if not (isinstance(value, list) and all(isinstance(item, str) for item in value)):
        raise ShapeError("expected a list of record hashes")
    return value
