"""A diff as text lines or as JSON-ready data (the same content)."""
from __future__ import annotations

from typing import Any, Iterator, Optional, Sequence

from pipeline.analysis.diff.compare import CardChange, Consequence, Diff, GameDiff
from pipeline.analysis.diff.records import FieldChange, RecordChange, shown
from pipeline.analysis.diff.words import word_diff
from pipeline.base.words import count

MAX_SHOWN = 100  # characters of a value in the text report (JSON has it whole)


def _short(value: Any) -> str:
    text = shown(value)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."


def _field_lines(fields: Sequence[FieldChange]) -> Iterator[str]:
    """One line per field; a long text changed in place, one line per change word by word (its prefix may be
    all that a cut would show, and that may not have changed)."""
    for change in fields:
        hunks = _word_hunks(change.old, change.new)
        if hunks:
            yield f"    {change.field}: {hunks[0]}"
            yield from (f"    {' ' * len(change.field)}  {hunk}" for hunk in hunks[1:])
        else:
            yield f"    {change.field}: {_short(change.old)} -> {_short(change.new)}"


PARAGRAPH = "\u00b6"  # between the texts of a list of paragraphs, in a word diff


def _prose(value: Any) -> Optional[str]:
    """A text, or a list of texts (paragraphs) as one text with a pilcrow between them; else None."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(item, str) for item in value):
        return f" {PARAGRAPH} ".join(value)
    return None


def _word_hunks(old: Any, new: Any) -> list[str]:
    """The word-level changes between two texts (or lists of paragraphs) when either is too long to show
    whole, else none."""
    before, after = _prose(old), _prose(new)
    if before is None or after is None or max(len(shown(old)), len(shown(new))) <= MAX_SHOWN:
        return []
    return word_diff(before, after)


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


def problem_lines(diff: Diff) -> Iterator[str]:
    """The problems of a side that does not validate, after the diff (its cards and figures were not compared)."""
    by_side: dict[str, list[str]] = {}
    for label, problem in diff.problems:
        by_side.setdefault(label, []).append(str(problem))
    for label, problems in by_side.items():
        yield f"{label} does not validate ({count(len(problems), 'problem')}; records compared, not cards or figures):"
        yield from (f"  {problem}" for problem in problems)


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
        "problems": [{"side": label, "problem": str(problem)} for label, problem in diff.problems],
    }


def _record(record: RecordChange) -> dict[str, Any]:
    return {"address": record.address, "name": record.name, "status": record.status, "fields": _fields(record.fields)}
