"""Small synthetic decks for engine tests: cards built from DSL snippets, no YAML."""
from __future__ import annotations

from typing import Any, Optional, Sequence

from pipeline.games.monotheism.cards import Cards, Deity, Half, Worshiper, WorshiperState
from pipeline.games.monotheism.engine import Game, State
from pipeline.games.monotheism.model import CardKind, ScenarioCard

PLAIN = (3, 4)


def half(numbers: Sequence[int] = PLAIN, aspects: Sequence[str] = (), act: Optional[dict] = None,
         essence: Optional[dict] = None) -> Half:
    return Half(tuple(numbers), frozenset(aspects), act, essence)  # type: ignore[arg-type]


def deity(label: str, upright: Optional[Half] = None, transformed: Optional[Half] = None) -> Deity:
    return Deity(label, f"God {label}", (upright or half(), transformed or half()))


def worshiper(label: str, stages: int = 4, numbers: Sequence[int] = (2, 3), act: Optional[dict] = None,
              zero_gods_victory: bool = False) -> Worshiper:
    faces = [("front", "upright"), ("front", "rotated"), ("back", "rotated"), ("back", "upright")]
    curses = ["rotate", "flip", "rotate"]
    states = []
    for i in range(stages):
        last = i == stages - 1
        states.append(WorshiperState(faces[i][0], faces[i][1], tuple(numbers), "void" if last else curses[i],  # type: ignore[arg-type]
                                     curses[i - 1] if i else None, act))
    return Worshiper(label, f"Worshiper {label}", "test-set", tuple(states), zero_gods_victory)


def game(deities: Sequence[Deity], worshipers: Sequence[Worshiper]) -> Game:
    return Game(Cards({d.id: d for d in deities}, {w.id: w for w in worshipers}))


def start(g: Game, top_first: Sequence[Any], *, track_history: bool = True) -> State:
    """A state from labels (top first); '07v' is veiled, '07t' transformed, 'w:2' a worshiper cursed twice."""
    deck = []
    for item in top_first:
        label, _, cursed = item.partition(":")
        if label in g.cards.worshipers:
            deck.append(ScenarioCard(CardKind.WORSHIPER, label, cursed=int(cursed or 0)))
            continue
        flags = label[2:]
        deck.append(ScenarioCard(CardKind.DEITY, label[:2], veiled="v" in flags, transformed="t" in flags))
    return g.state_for(deck, track_history=track_history)


def labels(state: State) -> list[str]:
    return [card[0] for card in state.deck]


NEXT = {"next": True}
THIS = {"this": True}
