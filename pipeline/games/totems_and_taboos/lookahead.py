"""A stronger solo player for Totems + Taboos: one-ply look-ahead on a solo-aware score.

``lookahead_policy`` tries every legal action of the solo god on a clone of the
state, resolves what the action sets off (chance sampled with the caller's
seeded RNG, follow-up choices such as a block or a colour by the simple
player's rules) and keeps the action whose resulting position scores best.
Chance-heavy actions (drawing, rolling) are sampled a few times and averaged.

The score (``solo_value``) knows what wins and loses a solo game:

- progress: tower levels, shrines up to the last level's threshold, servants
  up to the last level's need, clerics (they pay for cards and die into
  shrines), a bonus when the next level could be built, and the hand's
  playable cards;
- the clock: every soul left in the pile is another die roll survived, and
  the whole position is discounted by the chance that the next roll of the
  solo die finds the pile too short (which ends the game).

Playing a turn is compared with each way of skipping it by playing the turn
out with the same look-ahead. The starting colour is the one whose opening
(starting pieces and hand, sampled) scores best.
"""
from __future__ import annotations

import random
from dataclasses import replace
from functools import lru_cache
from typing import Optional

from pipeline.engine import Policy, playout
from pipeline.games.totems_and_taboos import effects as fx
from pipeline.games.totems_and_taboos.engine import (
    A_COLOUR,
    A_END,
    A_END_MAIN,
    A_GUIDE,
    A_PLAY_TURN,
    Action,
    State,
)
from pipeline.games.totems_and_taboos.model import Card
from pipeline.games.totems_and_taboos.simple import greedy_choice, simple_policy

SOLO_SEAT = 0

# Score weights (in rough "souls"). The last tower level's needs cap what counts.
W_WIN = 10_000.0
W_LEVEL = 9.0
# A shrine is worth more than the cleric it comes from, and a cleric more than a servant, so the look-ahead
# pushes souls along servant -> cleric -> shrine (shrines were the bottleneck at the old 3/2.2/2 weights).
W_SHRINE = 6.0
W_SERVANT = 1.8
W_CLERIC = 3.5
W_SURPLUS = 0.4  # each piece beyond what the last level needs (clerics: beyond CLERIC_CAP)
CLERIC_CAP = 4
W_READY = 3.0  # the next level could be built next turn
W_PILE = 1.1  # a soul in the pile: time left on the clock
W_CARD_PLAYABLE = 0.6  # per "soul" of a card's estimated effect, if you can pay for it
W_CARD_DEAD = 0.15  # a card you cannot play yet (too few blocks or pieces)
W_DECK = 12.0  # per "soul" of a colour's mean card: you draw from your tower's colours all game
MIN_GAIN = 1e-6  # an action must beat ending the phase by more than this
SURVIVAL_ROLLS = 3  # the die rolls ahead whose threat to the pile discounts a position

SAMPLES_CHANCE = 2  # samples of an action that sets off chance (draws, rolls)
SAMPLES_OPENING = 4  # samples of each starting colour's opening


@lru_cache(maxsize=None)
def solo_op_worth(op: fx.Op) -> float:
    """What one op of a card is worth to the solo god: passive religions have no hand and never act.

    Ops on yourself count as the balance estimate has them; of the ops aimed at
    passive religions only those that move souls help you: stealing pieces,
    and killing servants or desecrating shrines (their souls refill the pile).
    An op on each player is both: what it does to you, and to all six passive
    religions ('8.2 Your turn').
    """
    if op.who in (fx.SELF, fx.OWNERS):
        return fx.op_value(replace(op, who=fx.SELF))
    if op.who == fx.EACH:
        return fx.op_value(replace(op, who=fx.SELF)) + solo_op_worth(replace(op, who=fx.OTHERS))
    if op.op == fx.STEAL:
        return fx.op_value(op)
    if op.op == fx.DESECRATE or (op.op == fx.KILL and (op.role or fx.SERVANT) == fx.SERVANT):
        return W_PILE * op.count * (PASSIVE_RELIGIONS if op.who == fx.OTHERS else 1)
    return 0.0


PASSIVE_RELIGIONS = 6  # an op on every other player reaches all six passive religions (their shrines stand in)


def _card_worth(state: State, seat: int, card: Card) -> float:
    r = state.religions[seat]
    if card.is_miracle:
        return 0.0
    worth = _ops_worth(card, bool(card.bonus and r.blocks(card.bonus.colour)))
    cost = card.cost
    payable = cost is None or (r.count(fx.CLERIC) >= cost.clerics and r.count(fx.SERVANT) >= cost.servants)
    if r.blocks(card.colour) >= (card.level or 0) and payable:
        return W_CARD_PLAYABLE * worth
    return W_CARD_DEAD * worth


# Card worths by (id(card), bonus), with the card kept so its id is never reused: hashing a whole Card costs more
# than the sum it saves, and the score asks for every card in hand at every look.
_WORTHS: dict[tuple[int, bool], tuple[Card, float]] = {}


def _ops_worth(card: Card, bonus: bool) -> float:
    """Solo worth of a card's effect, with its bonus (``bonus``) or without (never below 0)."""
    known = _WORTHS.get((id(card), bonus))
    if known is not None and known[0] is card:
        return known[1]
    ops = list(card.ops)
    if bonus and card.bonus:
        ops = list(card.bonus.ops) if card.bonus.mode == fx.REPLACE else ops + list(card.bonus.ops)
    worth = max(0.0, sum(solo_op_worth(op) for op in ops))
    _WORTHS[(id(card), bonus)] = (card, worth)
    return worth


def loss_chance(state: State) -> float:
    """Chance that the next roll of the solo die finds the pile too short for the rolled religion.

    The same test the die makes (``SoloDie``): a religion with no blocks left gains nothing, and the pile must
    hold the rolled colour's whole starting resources ('8.4 Winning solo game').
    """
    return 1.0 - survival(state, 1)


def survival(state: State, rolls: int = SURVIVAL_ROLLS) -> float:
    """Chance that the next ``rolls`` rolls of the solo die all find the pile deep enough, if nothing refills it
    in between: each roll takes the rolled colour's starting resources out of the pile."""
    needs = tuple(0 if not state.religions[state.passive_seat(c)].tower else state.package(c).souls
                  for c in state.game.solo_die_faces)
    return _survival(needs, state.pile, rolls)


@lru_cache(maxsize=4096)
def _survival(needs: tuple[int, ...], pile: int, rolls: int) -> float:
    if rolls == 0:
        return 1.0
    return sum(_survival(needs, pile - need, rolls - 1) for need in needs if need <= pile) / len(needs)


def solo_value(state: State, seat: int = SOLO_SEAT) -> float:
    """How good ``state`` looks for the solo god (see the module docstring)."""
    outcome = state.outcome()
    if outcome is not None:
        return W_WIN if outcome.won_by(seat) else -W_WIN
    r = state.religions[seat]
    top = state.game.level_row(state.game.win_level)
    shrines, servants, clerics = r.shrines, r.count(fx.SERVANT), r.count(fx.CLERIC)
    value = (
        W_LEVEL * len(r.tower)
        + W_SHRINE * min(shrines, top.shrines)
        + W_SERVANT * min(servants, top.servants)
        + W_CLERIC * min(clerics, CLERIC_CAP)
        + W_SURPLUS * (max(0, shrines - top.shrines) + max(0, servants - top.servants) + max(0, clerics - CLERIC_CAP))
        + sum(_card_worth(state, seat, state.game.card(c)) for c in r.hand)
    )
    following = state.game.level_row(len(r.tower) + 1)
    if following is not None and shrines >= following.shrines and servants >= following.servants:
        value += W_READY
    value += W_PILE * state.pile
    return survival(state) * value


def _at_turn_decision(state: State, turn: int) -> bool:
    """Stop resolving: the game or the turn is over, or the god faces a phase decision."""
    if state.is_terminal() or state.turns != turn:
        return True
    if state.is_chance_node():
        return False
    kinds = {a.kind for a in state.legal_actions()}
    return bool(kinds & {A_END_MAIN, A_END, A_PLAY_TURN})


def settle(state: State, rng: random.Random) -> tuple[State, bool]:
    """Resolve what the last action set off, up to the next phase decision or the end of the turn.

    Returns the state reached and whether chance was involved (then one sample is not the whole story).
    """
    turn, chance = state.turns, False

    def stop(now: State) -> bool:
        nonlocal chance
        if _at_turn_decision(now, turn):
            return True
        chance = chance or now.is_chance_node()
        return False

    return playout(state, greedy_choice, rng, until=stop), chance


def action_value(state: State, action: Action, rng: random.Random) -> float:
    """Mean score after ``action`` and what it sets off (sampled again only if chance was involved)."""
    total, n = 0.0, 0
    while n < SAMPLES_CHANCE:
        trial, chance = settle(state.apply_action(action), rng)
        total += solo_value(trial)
        n += 1
        if not chance:
            break
    return total / n


def best_action(state: State, actions: list[Action], rng: random.Random, baseline: Optional[Action] = None) -> Action:
    """The action scoring best; ``baseline`` (ending the phase) wins ties and near-ties."""
    best = baseline if baseline is not None else actions[0]
    best_value = action_value(state, best, rng)
    for action in actions:
        if action == best:
            continue
        value = action_value(state, action, rng)
        if value > best_value + MIN_GAIN:
            best, best_value = action, value
    return best


def play_main_phase(state: State, rng: random.Random) -> State:
    """Play ``state``'s main phase out with the look-ahead, up to the end-of-turn choice."""
    turn = state.turns

    def over(now: State) -> bool:
        return now.turns != turn or (not now.is_chance_node() and any(a.kind == A_END for a in now.legal_actions()))

    return playout(state, lookahead_policy, rng, until=over)


def _start_choice(state: State, actions: list[Action], rng: random.Random) -> Action:
    """Play the turn or skip it: whichever leaves the better position when the main phase is over.

    A guide is weighed where the look-ahead compares it with everything else (the main phase, after the
    end-of-turn draws), not here: that keeps this choice as cheap as before."""
    best, best_value = actions[0], float("-inf")
    for action in (a for a in actions if a.kind != A_GUIDE):
        trial = state.apply_action(action)
        if action.kind == A_PLAY_TURN:
            trial = play_main_phase(trial, rng)
        else:
            trial, _ = settle(trial, rng)
        value = solo_value(trial)
        if value > best_value:
            best, best_value = action, value
    return best


def deck_worth(state: State, colour: str) -> float:
    """Mean solo worth of the commandments left in a colour's deck: what drawing from that colour brings."""
    deck = state.decks[colour]
    cards = [(state.game.card(c), n) for c, n in deck.items() if not state.game.card(c).is_miracle]
    total = sum(n for _, n in cards)
    worth = sum(n * max(0.0, sum(solo_op_worth(op) for op in card.ops)) for card, n in cards)
    return worth / total if total else 0.0


def _opening_choice(state: State, actions: list[Action], rng: random.Random) -> Action:
    """The starting colour whose opening (sampled deals) plus its deck's worth for the game scores best."""
    def opening(action: Action) -> float:
        total = 0.0
        for _ in range(SAMPLES_OPENING):
            trial, _ = settle(state.apply_action(action), rng)
            total += solo_value(trial)
        return total / SAMPLES_OPENING + W_DECK * deck_worth(state, action.args[0])

    return max(actions, key=opening)


def lookahead_policy(state: State, rng: random.Random) -> Action:
    """The player described in the module docstring (solo games; in multiplayer games every seat plays as the
    simple player)."""
    actions = state.legal_actions()
    if len(actions) == 1:
        return actions[0]
    if not state.game.solo:
        # Seated gods play as the simple player, whole: its main phase looks one ply ahead. Its greedy rules alone
        # turned every soul into clerics and shrines until nobody had a servant to build with and the pile was
        # empty (12% of 4-player games cut off at 200 turns).
        return simple_policy(state, rng)
    if state.current_player() != SOLO_SEAT:
        return greedy_choice(state, rng)
    kinds = {a.kind for a in actions}
    if A_COLOUR in kinds:
        return _opening_choice(state, actions, rng)
    if A_PLAY_TURN in kinds:
        return _start_choice(state, actions, rng)
    baseline = next((a for a in actions if a.kind == A_END_MAIN), None)
    return best_action(state, actions, rng, baseline)


POLICIES: dict[str, Policy] = {"simple": simple_policy, "lookahead": lookahead_policy}
