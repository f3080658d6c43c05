"""A diff as text lines or as JSON-ready data (the same content)."""
from __future__ import annotations

from typing import Any, Iterator, Sequence

from pipeline.analysis.diff.compare import CardChange, Consequence, Diff, GameDiff
from pipeline.analysis.diff.records import FieldChange, RecordChange, shown
from pipeline.base.words import count

MAX_SHOWN = 100  # characters of a value in the text report (JSON has it whole)


def _short(value: Any) -> str:
    text = shown(value)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."


def _field_lines(fields: Sequence[FieldChange]) -> Iterator[str]:
    for change in fields:
        yield f"    {change.field}: {_short(change.old)} -> {_short(change.new)}"


def _card_lines(card: CardChange) -> Iterator[str]:
    note = "" if card.reprint or card.status != "changed" else ", faces unchanged"
    yield f"  card {card.id} '{card.name}' {card.status} ({card.record}{note})"
    yield from _field_lines(card.fields)


def _record_lines(what: str, record: RecordChange) -> Iterator[str]:
    yield f"  {what} {record.address} '{record.name}' {record.status}"
    yield from _field_lines(record.fields)


def _consequence_line(found: Consequence) -> str:
    return f"  engine: {found.question}: {found.figure}: {_short(found.old)} -> {_short(found.new)}"


def game_lines(diff: GameDiff) -> Iterator[str]:
    if not diff.changed:
        yield f"{diff.game}: no changes"
        return
    yield (f"{diff.game}: {count(len(diff.cards), 'card')}, {count(len(diff.rules), 'rules section')}, "
           f"{count(len(diff.records), 'other record')} changed")
    for card in diff.cards:
        yield from _card_lines(card)
    for record in diff.rules:
        yield from _record_lines("rules section", record)
    for record in diff.records:
        yield from _record_lines("record", record)
    for found in diff.consequences:
        yield _consequence_line(found)


def lines(diff: Diff) -> Iterator[str]:
    yield f"diff {diff.old.label} -> {diff.new.label}"
    for game in diff.games:
        yield from game_lines(game)


def _fields(fields: Sequence[FieldChange]) -> list[dict[str, Any]]:
    return [{"field": f.field, "old": f.old, "new": f.new} for f in fields]


def as_data(diff: Diff) -> dict[str, Any]:
    """The diff as plain JSON data."""
    return {
        "old": diff.old.label,
        "new": diff.new.label,
        "games": {
            game.game: {
                "cards": [{"id": c.id, "name": c.name, "status": c.status, "record": c.record,
                           "reprint": c.reprint, "fields": _fields(c.fields)}
                          for c in game.cards],
                "rules": [_record(r) for r in game.rules],
                "records": [_record(r) for r in game.records],
                "consequences": [{"question": c.question, "figure": c.figure, "old": c.old, "new": c.new}
                                 for c in game.consequences],
            }
            for game in diff.games
        },
    }


def _record(record: RecordChange) -> dict[str, Any]:
    return {"address": record.address, "name": record.name, "status": record.status, "fields": _fields(record.fields)}
