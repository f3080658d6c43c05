"""The card faces each scenario was last proved good with, to name what changed when it no longer is.

When validate finds a scenario sound (its stored line wins, the solver proves
it winnable, its trap loses), it keeps a small record in the store (beside
the solver's results): for each
card of the scenario's deck, a hash of each field that decides play (numbers,
aspects, acts, essences, worshiper states; not names, flavour or provenance).
When the scenario later fails, the cards whose fields differ from that record
are named, with the field and the line where it is written now: the designer
sees which edit broke the puzzle. With no record (never proved on this
machine) nothing is added.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any, Mapping, Optional

from pipeline import store
from pipeline.base.shape import ShapeError
from pipeline.data.dataset import GameData
from pipeline.games.monotheism import SOLVER_NAMESPACE
from pipeline.games.monotheism.model import MonotheismModel, Scenario

NOT_PLAY = frozenset({"id", "name", "flavour", "provenance", "notes", "title"})
DEPTH = 2  # fields are compared this deep ("upright.act", "states.0"); deeper values are hashed whole
KINDS = (("deities", "deities"), ("worshipers", "worshipers"))  # (document kind, list key)

Faces = dict[str, dict[str, str]]  # card id -> field path -> hash


def _flatten(value: Any, prefix: str, depth: int, out: dict[str, str]) -> None:
    if depth < DEPTH and isinstance(value, (dict, list)) and value:
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, child in items:
            if depth == 0 and key in NOT_PLAY:
                continue
            _flatten(child, f"{prefix}.{key}" if prefix else str(key), depth + 1, out)
        return
    raw = json.dumps(value, sort_keys=True, default=str).encode()
    out[prefix] = hashlib.blake2b(raw, digest_size=8).hexdigest()


def _records(game: GameData[MonotheismModel]) -> dict[str, tuple[str, int, Mapping[str, Any]]]:
    """Each card's (document kind, index, record) by id."""
    found: dict[str, tuple[str, int, Mapping[str, Any]]] = {}
    for kind, key in KINDS:
        if not game.has(kind):
            continue
        for index, record in enumerate(game.doc(kind).data.get(key) or ()):
            if isinstance(record, dict) and "id" in record:
                found.setdefault(str(record["id"]), (kind, index, record))
    return found


def faces(game: GameData[MonotheismModel], scenario: Scenario) -> Faces:
    """The play fields of every card in the scenario's deck, hashed."""
    records = _records(game)
    out: Faces = {}
    for card in scenario.deck:
        if card.ref in records:
            fields: dict[str, str] = {}
            _flatten(records[card.ref][2], "", 0, fields)
            out[card.ref] = fields
    return out


def _inputs(scenario: Scenario) -> list[str]:
    return ["last good proof", scenario.id, *(card.ref for card in scenario.deck)]


def remember(game: GameData[MonotheismModel], scenario: Scenario, under: store.Scope) -> None:
    """Keep the scenario's card faces as the last good proof (written only when they changed), under the
    command's store scope ``under``."""
    now = faces(game, scenario)
    if _read(scenario, under) != now:
        store.keep(SOLVER_NAMESPACE, _inputs(scenario), now, under=under)


def _read(scenario: Scenario, under: store.Scope) -> Optional[Faces]:
    return store.recall(SOLVER_NAMESPACE, _inputs(scenario), _decode, under=under)


def _decode(value: Any) -> Faces:
    if not isinstance(value, dict):
        raise ShapeError("expected cards")
    for fields in value.values():
        if not isinstance(fields, dict) or not all(isinstance(v, str) for v in fields.values()):
            raise ShapeError("expected fields by path")
    return value


def changes(game: GameData[MonotheismModel], scenario: Scenario, under: store.Scope) -> list[str]:
    """The deck's cards whose play fields differ from the last good proof kept under ``under`` (the command's
    store scope), each with what changed and where it is written now (empty without a record)."""
    before = _read(scenario, under)
    if before is None:
        return []
    now, records = faces(game, scenario), _records(game)
    said = []
    for card, fields in now.items():
        old = before.get(card)
        if old is None or old == fields:
            continue
        kind, index, record = records[card]
        paths = [path for path in sorted(set(old) | set(fields)) if old.get(path) != fields.get(path)]
        changed = [f"{path} {_how(path, old, fields)}" for path in paths]
        where = game.doc(kind).key_at(*_path(kind, index, paths[0]))
        label = f"#{card} {record.get('name', '')}".strip() if kind == "deities" else str(record.get("id"))
        said.append(f"{label} ({where}: {', '.join(changed)})")
    return said


def _how(path: str, old: Mapping[str, str], new: Mapping[str, str]) -> str:
    if path not in new:
        return "removed"
    if path not in old:
        return "added"
    return "changed"


def _path(kind: str, index: int, field: str) -> tuple[Any, ...]:
    steps: list[Any] = [int(step) if step.isdigit() else step for step in field.split(".") if step]
    return (kind, index, *steps)
