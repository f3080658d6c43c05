"""A greedy Monotheism player: the whole turn that leaves the fewest gods and keeps the worshipers.

For each legal action the player looks at where it leads, through the rest
of the turn: a submerge number is judged by the best placement that can
follow it. A position is judged, best first, by: the game is won; it is not
lost; fewer gods left; more worshipers left; fewer curses on them. Ties are
broken at random (with the caller's seeded generator). It never looks past
the end of its own turn, so it walks into traps a solver would see.
"""
from __future__ import annotations

import random
from typing import Any

from pipeline.games.monotheism.engine import LABEL, PHASE_PLACE, STAGE, State

WON, PLAYING, LOST = 2, 1, 0


def judge(state: State) -> tuple[int, int, int, int]:
    """How good ``state`` is for the player (larger is better; see the module docstring)."""
    outcome = state.outcome()
    if outcome is not None:
        return (WON if outcome.winners else LOST, 0, 0, 0)
    is_god = state.game.is_god
    worshipers = [card for card in state.deck if not is_god(card[LABEL])]
    return (PLAYING, -state.gods(), len(worshipers), -sum(card[STAGE] for card in worshipers))


def _through_the_turn(state: State) -> tuple[int, int, int, int]:
    """``state`` judged by the best placement when it waits for one (a submerge is half a turn)."""
    if state.phase == PHASE_PLACE and not state.is_terminal():
        return max(judge(state.apply_action(place)) for place in state.legal_actions())
    return judge(state)


def greedy_policy(state: Any, rng: random.Random) -> str:
    """The action whose turn ends best (ties at random)."""
    quiet = state.with_events(False)  # looking ahead records nothing
    scored = [(_through_the_turn(quiet.apply_action(action)), action) for action in quiet.legal_actions()]
    best = max(score for score, _ in scored)
    return rng.choice([action for score, action in scored if score == best])
