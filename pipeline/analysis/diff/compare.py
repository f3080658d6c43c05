"""Two versions of a game, compared: the cards it prints, its rules, its other records, and the
engine figures its spec's ``consequences`` part measures.

Each side is loaded and validated the normal way (``pantheon validate``).
A game that does not validate on a side (a broken edit) is still compared,
record by record, from the data as it was read, and its problems are kept
with the diff; its cards, engine figures and balance are not, since they
assume valid data. A card is changed when what it prints changed (its faces, copies
or deck) or the record it prints changed (it needs a reprint only in the
first case); its field changes are those of its record, or of its faces'
values when the record itself did not change (a renamed card it refers to).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping, Optional, Sequence

from pipeline.analysis.diff.records import ADDED, CHANGED, REMOVED, FieldChange, RecordChange, field_changes, game_changes
from pipeline.analysis.diff.sources import Side
from pipeline.base.errors import UserError
from pipeline.cards.plan import PrintCard
from pipeline.checks.validate import validate
from pipeline.data.dataset import GameData, game_ids
from pipeline.data.gamespec import Question, Specs
from pipeline.data.kinds import RULES_KIND
from pipeline.data.problems import Problem


@dataclass(frozen=True)
class CardChange:
    """A printed card that was added, removed or changed."""

    id: str
    name: str
    status: str
    record: str  # the record it prints, kind/id
    fields: tuple[FieldChange, ...] = ()
    reprint: bool = True  # what it prints changed (False: only data no face shows, such as an engine field)


@dataclass(frozen=True)
class Consequence:
    """One engine figure of the game on both sides (None: the question does not exist on that side)."""

    question: str
    figure: str
    old: Any
    new: Any


@dataclass
class GameDiff:
    game: str
    cards: list[CardChange] = field(default_factory=list)
    rules: list[RecordChange] = field(default_factory=list)
    records: list[RecordChange] = field(default_factory=list)
    consequences: list[Consequence] = field(default_factory=list)
    old_cards: dict[str, PrintCard] = field(default_factory=dict)  # for the proof PDF
    new_cards: dict[str, PrintCard] = field(default_factory=dict)
    old_data: Optional[GameData] = None  # each side's validated data (None: absent), for `diff --balance`
    new_data: Optional[GameData] = None

    @property
    def changed(self) -> bool:
        return bool(self.cards or self.rules or self.records)


@dataclass
class Diff:
    old: Side
    new: Side
    games: list[GameDiff]
    problems: list[tuple[str, Problem]] = field(default_factory=list)  # (side label, problem) of data that fails

    @property
    def broken(self) -> bool:
        """Whether a side does not validate (the diff then compares records only)."""
        return bool(self.problems)


@dataclass
class LoadedSide:
    """The games of one side: each validated, or (``unchecked``) read as it is, with its problems."""

    games: dict[str, GameData]
    unchecked: set[str] = field(default_factory=set)
    problems: list[Problem] = field(default_factory=list)


def load_side(side: Side, specs: Specs, games: Sequence[str]) -> LoadedSide:
    """The games of one side that exist there, validated; a game that does not validate is read as it is
    (its records can still be compared) and its problems kept."""
    present = [game for game in games if game in game_ids(side.root)]
    if not present:
        return LoadedSide({})
    report = validate(side.root, specs, present)
    if report.ok:
        return LoadedSide({game: report.game(game) for game in present})
    failing = {problem.at.file for problem in report.problems}
    unchecked = {game for game in present if any(_in_game(file, side, game) for file in failing)}
    loaded = {game: report.games[game] for game in present}  # (read from the catalogue, checked or not)
    return LoadedSide(loaded, unchecked, list(report.problems))


def _in_game(file: str, side: Side, game: str) -> bool:
    """Whether a problem's file belongs to ``game`` of ``side`` (its data folder or its schemas)."""
    path = Path(file).resolve()
    return any(path.is_relative_to((side.root / folder).resolve()) for folder in (game, Path("schemas") / game))


def chosen_games(old: Side, new: Side, specs: Specs, games: Optional[Sequence[str]]) -> list[str]:
    """The games named (each must exist on one side at least), else every game of either side."""
    known = sorted(set(game_ids(old.root)) | set(game_ids(new.root)))
    chosen = list(dict.fromkeys(games)) if games else known
    unknown = [game for game in chosen if game not in known]
    if unknown:
        raise UserError(f"unknown game {', '.join(unknown)} (known: {', '.join(known)})")
    for game in chosen:
        specs.spec(game)  # a data folder with no spec is the usual one-line error
    return chosen


def compare(old: Side, new: Side, specs: Specs, games: Optional[Sequence[str]] = None, *, engines: bool = True,
            budget: Optional[int] = None) -> Diff:
    """What changed from ``old`` to ``new``, game by game (``engines``: also ask each changed game's
    consequences; ``budget``: their node limit per search, None for the game's own default)."""
    chosen = chosen_games(old, new, specs, games)
    loaded = load_side(old, specs, chosen), load_side(new, specs, chosen)
    before, after = (side.games for side in loaded)
    found = []
    for game in chosen:
        checked = not any(game in side.unchecked for side in loaded)
        diff = game_diff(game, before.get(game), after.get(game), cards=checked)
        if checked:  # figures and proofs assume valid data
            diff.old_data, diff.new_data = before.get(game), after.get(game)
        if engines and diff.changed and checked:
            diff.consequences = list(consequences(before.get(game), after.get(game), budget))
        found.append(diff)
    problems = [(label, problem) for label, side in zip((old.label, new.label), loaded) for problem in side.problems]
    return Diff(old, new, found, problems)


def _cards(data: Optional[GameData]) -> dict[str, PrintCard]:
    if data is None or data.spec.cards is None:
        return {}
    return {card.id: card for card in data.spec.cards(data)}


def _record_of(card: PrintCard, changes: Mapping[str, RecordChange], by_id: Mapping[str, RecordChange]) -> Optional[RecordChange]:
    if card.record:
        return changes.get(card.record)
    return by_id.get(card.id)


def game_diff(game: str, old: Optional[GameData], new: Optional[GameData], *, cards: bool = True) -> GameDiff:
    """Cards, rules sections and other records of ``game`` that differ (None: the game is absent on that side;
    ``cards`` False: data that did not validate, compared as records only)."""
    changes = game_changes(old, new)
    by_address = {change.address: change for change in changes}
    by_id: dict[str, RecordChange] = {}
    for change in changes:
        by_id.setdefault(change.id, change)
    old_cards, new_cards = (_cards(old), _cards(new)) if cards else ({}, {})
    diff = GameDiff(game, old_cards=old_cards, new_cards=new_cards)
    printed: set[str] = set()
    for card_id in list(old_cards) + [c for c in new_cards if c not in old_cards]:
        before, after = old_cards.get(card_id), new_cards.get(card_id)
        card = after if after is not None else before
        assert card is not None
        record = _record_of(card, by_address, by_id)
        if before == after and record is None:
            continue
        if record is not None:
            printed.add(record.address)
        status = ADDED if before is None else REMOVED if after is None else CHANGED
        fields: tuple[FieldChange, ...] = ()
        if status == CHANGED:
            assert before is not None and after is not None
            fields = record.fields if record is not None and record.fields else tuple(_face_changes(before, after))
        diff.cards.append(CardChange(card.id, card.name, status, record.address if record else card.record or card.id,
                                     fields, reprint=before != after))
    for change in changes:
        if change.address in printed:
            continue
        (diff.rules if change.kind == RULES_KIND else diff.records).append(change)
    return diff


def _face_changes(old: PrintCard, new: PrintCard) -> Iterator[FieldChange]:
    """What differs in what two versions of a card print (when its own record did not change)."""
    for name in ("name", "copies", "deck", "double_sided"):
        if getattr(old, name) != getattr(new, name):
            yield FieldChange(name, getattr(old, name), getattr(new, name))
    for side in ("front", "back"):
        face_old, face_new = getattr(old, side), getattr(new, side)
        if face_old == face_new:
            continue
        if face_old is None or face_new is None or face_old.template != face_new.template:
            yield FieldChange(f"{side}/template", face_old and face_old.template, face_new and face_new.template)
        else:
            yield from field_changes(dict(face_old.context), dict(face_new.context), side)


def consequences(old: Optional[GameData], new: Optional[GameData], budget: Optional[int]) -> Iterator[Consequence]:
    """The game's engine figures that differ between the sides. A question whose inputs are the same on
    both sides is not asked (its answer cannot have moved)."""
    present = new if new is not None else old
    ask = present.spec.consequences if present is not None else None
    if ask is None:
        return
    old_questions = {q.name: q for q in ask(old, budget=budget)} if old is not None else {}
    new_questions = {q.name: q for q in ask(new, budget=budget)} if new is not None else {}
    for name in list(old_questions) + [n for n in new_questions if n not in old_questions]:
        before, after = old_questions.get(name), new_questions.get(name)
        if before is not None and after is not None and before.inputs == after.inputs:
            continue
        old_figures = _answer(before)
        new_figures = _answer(after)
        for figure in list(old_figures) + [f for f in new_figures if f not in old_figures]:
            if old_figures.get(figure) != new_figures.get(figure):
                yield Consequence(name, figure, old_figures.get(figure), new_figures.get(figure))


def _answer(question: Optional[Question]) -> Mapping[str, Any]:
    return question.answer() if question is not None else {}
