"""Decks built by rule rather than by hand: random puzzle decks, full deals, a scenario with gods added.

The benchmarks, the generator and the tests draw decks here, so a figure such as
"10 random 13-card decks, seeds 1..10" names the same decks everywhere. Every
deck is listed TOP card first (as ``Game.state_for`` takes it). Nothing here
knows a particular card: the draws are made from whatever the card data holds.
"""
from __future__ import annotations

import random
from typing import Mapping, Optional, Sequence, Union

from pipeline.games.monotheism.cards import Cards
from pipeline.games.monotheism.model import CardKind, Scenario, ScenarioCard

TopFirst = tuple[ScenarioCard, ...]


def deck_rng(kind: str, size: int, seed: Union[int, str]) -> random.Random:
    """A generator seeded by (kind, size, seed): the same name gives the same deck on every machine."""
    return random.Random(f"{kind}:{size}:{seed}")


def random_puzzle_deck(cards: Cards, size: int, seed: Union[int, str], *,
                       worshipers: Optional[Sequence[str]] = None, transformed_share: float = 0.0,
                       max_curses: Optional[Mapping[str, int]] = None) -> TopFirst:
    """``size`` cards: one worshiper and ``size - 1`` distinct gods, the top god veiled, the rest unveiled.

    The worshiper is drawn from ``worshipers`` (default: every worshiper card) and lies anywhere below
    the top. ``transformed_share`` of the unveiled gods start transformed; the worshiper starts with
    between zero and ``max_curses[worshiper]`` curses (none when not given).
    """
    if size < 3:
        raise ValueError("a puzzle deck needs at least a worshiper and two gods")
    rng = deck_rng("puzzle", size, seed)
    pool = sorted(worshipers if worshipers is not None else cards.worshipers)
    worshiper = rng.choice(pool)
    most = (max_curses or {}).get(worshiper, 0)
    curses = rng.randint(0, most) if most else 0
    gods = rng.sample(sorted(cards.deities), size - 1)
    below: list[ScenarioCard] = [ScenarioCard(CardKind.DEITY, god, transformed=rng.random() < transformed_share)
                                 for god in gods[1:]]
    below.insert(rng.randrange(len(below) + 1), ScenarioCard(CardKind.WORSHIPER, worshiper, cursed=curses))
    return (ScenarioCard(CardKind.DEITY, gods[0], veiled=True), *below)


def full_deal(cards: Cards, worshipers: Sequence[str], seed: int) -> TopFirst:
    """Every god shuffled and veiled, with ``worshipers`` at the bottom (the game's set-up)."""
    gods = sorted(cards.deities)
    deck_rng("deal", len(gods), seed).shuffle(gods)
    return (*(ScenarioCard(CardKind.DEITY, god, veiled=True) for god in gods),
            *(ScenarioCard(CardKind.WORSHIPER, w) for w in worshipers))


def with_gods_below(scenario: Scenario, gods: Sequence[str]) -> TopFirst:
    """A scenario's deck (top first) with unveiled, upright ``gods`` added beneath its bottom card."""
    return (*reversed(scenario.deck), *(ScenarioCard(CardKind.DEITY, god) for god in gods))


def absent_gods(cards: Cards, deck: Sequence[ScenarioCard]) -> list[str]:
    """The gods of the card data that ``deck`` does not hold, in id order."""
    present = {card.ref for card in deck if card.is_deity}
    return [god for god in sorted(cards.deities) if god not in present]
