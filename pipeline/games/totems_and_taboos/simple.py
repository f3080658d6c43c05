"""Totems + Taboos' simple player (the ``simple`` policy of its balance study; ``lookahead`` is the stronger one).

``simple_policy`` is a greedy god: it builds whenever it can (preferring a
passive religion's block in solo, which also draws a card and weakens that
religion), then plays the commandment worth most by ``effects.effect_value``
(aiming hostile cards at the richest rival), sacrifices guides at once
(also whenever a window to sacrifice one opens, and a cancelling guide first),
answers attacks with reactions, skips a turn only when nothing can be done,
and ends its turn drawing from its strongest colour. Games are played by the
balance study (:mod:`pipeline.games.totems_and_taboos.balance`) through the
one simulation path.
"""
from __future__ import annotations

import random
from collections import Counter

from pipeline.engine import playout
from pipeline.games.totems_and_taboos import effects as fx
from pipeline.games.totems_and_taboos.engine import (
    A_BUILD,
    A_COLOUR,
    A_DISCARD,
    A_DRAW_COLOUR,
    A_END,
    A_END_MAIN,
    A_GUIDE,
    A_PLAY,
    A_PLAY_TURN,
    A_REACT,
    A_SPLIT,
    A_STOP,
    A_TAKE_GUIDE,
    PILE,
    Action,
    State,
)
from pipeline.games.totems_and_taboos.model import REACTION

FRESH_HAND_MIN_DEAD = 2  # dead cards in hand that make a fresh hand better than one draw


def _card_value(state: State, seat: int, card_id: str) -> float:
    card = state.game.card(card_id)
    ops = list(card.ops)
    if card.bonus and state.religions[seat].blocks(card.bonus.colour):
        ops = list(card.bonus.ops) if card.bonus.mode == fx.REPLACE else ops + list(card.bonus.ops)
    return fx.effect_value(ops)


def _richest(state: State, seats: list[int]) -> int:
    return max(seats, key=lambda p: (state.religions[p].souls(), -p))


# Weights of the one-ply look-ahead score (in "souls"); the pile is the solo player's clock.
W_BLOCK = 30.0
W_SHRINE_NEEDED = 3.0
W_SHRINE = 1.0
# Pieces count for what they can still become. A servant the next level asks for is worth most, one a later
# level asks for (up to the top level's 5) less, one beyond that little; a cleric pays for cards (up to
# CLERIC_CAP) and, while the next level lacks shrines, may die into one. Linear weights made seated greedy gods
# turn every soul of the pile into one role (all servants: no cleric to die into a shrine; all clerics: no
# servant to build with) and stall, since only servants and shrines ever return to the pile.
W_SERVANT_NEXT = 2.2
W_SERVANT = 1.2
W_SURPLUS = 0.3
W_CLERIC = 1.4
CLERIC_CAP = 4
W_CLERIC_TO_SHRINE = 2.0
W_CARD = 0.5
W_PILE_SOLO = 1.5
W_WIN = 1000.0


def score(state: State, seat: int) -> float:
    """How good ``state`` looks for ``seat`` (the look-ahead's yardstick)."""
    outcome = state.outcome()
    if outcome is not None:
        return W_WIN if outcome.won_by(seat) else -W_WIN
    r = state.religions[seat]
    row = state.game.level_row(len(r.tower) + 1)
    needed = row.shrines if row else 0
    next_servants = row.servants if row else 0
    most_servants = max(next_servants, state.game.level_row(state.game.win_level).servants)
    servants, clerics = r.count(fx.SERVANT), r.count(fx.CLERIC)
    most_shrines = state.game.level_row(state.game.win_level).shrines
    value = (W_BLOCK * len(r.tower) + W_SHRINE_NEEDED * min(r.shrines, needed)
             + W_SHRINE * min(r.shrines, most_shrines) + W_SURPLUS * max(0, r.shrines - most_shrines)
             + W_SERVANT_NEXT * min(servants, next_servants)
             + W_SERVANT * (min(servants, most_servants) - min(servants, next_servants))
             + W_SURPLUS * max(0, servants - most_servants)
             + W_CLERIC * min(clerics, CLERIC_CAP) + W_SURPLUS * max(0, clerics - CLERIC_CAP)
             + W_CLERIC_TO_SHRINE * min(clerics, max(0, needed - r.shrines))
             + W_CARD * len(r.hand))
    return value + (W_PILE_SOLO * state.pile if state.game.solo else 0.0)


def _at_turn_choice(state: State) -> bool:
    """A phase decision of the god whose turn it is (what the look-ahead compares)."""
    if state.is_chance_node():
        return False
    kinds = {a.kind for a in state.legal_actions()}
    return bool(kinds & {A_END_MAIN, A_END, A_PLAY_TURN}) or state.current_player() != state.current


def _settle(state: State, rng: random.Random) -> State:
    """Resolve what an action set off (chance sampled, sub-choices by the greedy rules) up to the next turn decision."""
    return playout(state, greedy_choice, rng, until=_at_turn_choice)


def _turn_ending(state: State) -> bool:
    return any(a.kind == A_END for a in state.legal_actions())


def _lookahead(state: State, actions: list[Action], rng: random.Random) -> Action:
    seat = state.current
    best, best_value = actions[-1], float("-inf")
    for action in actions:
        value = score(_settle(state.apply_action(action), rng), seat)
        if value > best_value:
            best, best_value = action, value
    return best


def _main_choice(state: State, actions: list[Action]) -> Action:
    seat = state.current
    r = state.religions[seat]
    builds = [a for a in actions if a.kind == A_BUILD]
    if builds:
        hand_colours = Counter(state.game.card(c).colour for c in r.hand)
        return max(builds, key=lambda a: (a.args[1] != PILE, hand_colours[a.args[0]], r.blocks(a.args[0])))
    guides = [a for a in actions if a.kind == A_GUIDE]
    if guides:
        return _guide_choice(state, guides)
    plays = [a for a in actions if a.kind == A_PLAY]
    if plays:
        card_id = max({a.args[0] for a in plays}, key=lambda c: (_card_value(state, seat, c), c))
        options = [a for a in plays if a.args[0] == card_id]
        targets = [a.args[1] for a in options if a.args[1] is not None]
        if not targets:
            return options[0]
        best = _richest(state, targets)
        return next(a for a in options if a.args[1] == best)
    return next(a for a in actions if a.kind == A_END_MAIN)


def _guide_choice(state: State, guides: list[Action]) -> Action:
    """A guide that answers the commandment (cancels it) first; otherwise the first, at the richest rival."""
    answers = [a for a in guides if state.game.guide(a.args[0]).timing == REACTION]
    if answers:
        return answers[0]
    targets = [a.args[1] for a in guides if a.args[1] is not None]
    best = _richest(state, targets) if targets else None
    return next(a for a in guides if a.args[1] in (None, best))


def _start_choice(state: State, actions: list[Action], rng: random.Random) -> Action:
    """Play the turn or skip it, whichever leaves the better position at the end of the turn."""
    seat = state.current
    best, best_value = actions[0], float("-inf")
    for action in actions:
        value = score(playout(state.apply_action(action), simple_policy, rng, until=_turn_ending), seat)
        if value > best_value:
            best, best_value = action, value
    return best


def _end_choice(state: State, actions: list[Action]) -> Action:
    r = state.religions[state.current]
    by_id = {a.args[0]: a for a in actions}
    if not r.hand and "empty-hand" in by_id:
        return by_id["empty-hand"]
    dead = sum(1 for c in r.hand if r.blocks(state.game.card(c).colour) < (state.game.card(c).level or 0))
    if dead >= FRESH_HAND_MIN_DEAD and "fresh-hand" in by_id:
        return by_id["fresh-hand"]
    return by_id.get("draw-one", actions[0])


def simple_policy(state: State, rng: random.Random) -> Action:
    """The player described in the module docstring."""
    actions = state.legal_actions()
    if any(a.kind == A_END_MAIN for a in actions):
        return _lookahead(state, actions, rng)
    return greedy_choice(state, rng)


def greedy_choice(state: State, rng: random.Random) -> Action:
    actions = state.legal_actions()
    kinds = {a.kind for a in actions}
    seat = state.current_player()
    r = state.religions[seat] if seat >= 0 else None
    if A_COLOUR in kinds:
        return rng.choice(actions)
    if A_PLAY_TURN in kinds:
        return _start_choice(state, actions, rng)
    if A_END_MAIN in kinds:
        return _main_choice(state, actions)
    if A_END in kinds:
        return _end_choice(state, actions)
    if A_DRAW_COLOUR in kinds and r is not None:
        return max(actions, key=lambda a: (r.blocks(a.args[0]), a.args[0]))
    if A_SPLIT in kinds:
        own = seat == state.current
        return min(actions, key=lambda a: a.args[0]) if own else max(actions, key=lambda a: a.args[0])
    if A_REACT in kinds:
        return next(a for a in actions if a.kind == A_REACT)
    if A_GUIDE in kinds:  # answering a commandment, a steal, or after the end-of-turn draws: sacrifice at once
        return _guide_choice(state, [a for a in actions if a.kind == A_GUIDE])
    if A_STOP in kinds or A_DISCARD in kinds or A_TAKE_GUIDE in kinds or A_BUILD in kinds:
        return _other_choice(state, actions, r)
    return rng.choice(actions)


def _other_choice(state: State, actions: list[Action], r) -> Action:
    if actions[0].kind == A_BUILD:
        return _main_choice(state, actions + [Action(A_END_MAIN)])
    discards = [a for a in actions if a.kind == A_DISCARD]
    if r is not None and discards:
        dead = [a for a in discards if r.blocks(state.game.card(a.args[0]).colour) < (state.game.card(a.args[0]).level or 0)]
        stop = next((a for a in actions if a.kind == A_STOP), None)
        if dead:
            return dead[0]
        return stop or discards[0]
    return actions[0]
