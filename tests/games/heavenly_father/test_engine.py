"""The Who's Your Heavenly Father? engine: every rulebook rule, example and our rulings, one test each.

Positions are set up through the engine's own chance actions (a fixed god
shuffle and fixed hands), so every test plays real moves from a real setup.
"""
from __future__ import annotations

import random
from fractions import Fraction
from math import comb
from typing import Optional, Sequence

import pytest

from pipeline.data.dataset import default_data_root, load_game
from pipeline.engine import sample_chance
from pipeline.games.heavenly_father import GAME_ID
from pipeline.games.heavenly_father.engine import (
    Action,
    Ending,
    Game,
    Kind,
    State,
    apply_tokens,
    judge,
    reclaim_order,
)
from pipeline.games.heavenly_father.model import HeavenlyFatherModel, build

TRAFFIC = "traffic-light-trouble"  # a: +1 S -1 J; b: +1 J, lose 1 card
LASAGNA = "office-lasagna"  # a: +2 S -1 J; b: +1 J -1 S
WALLET = "wrong-change"
WIFI = "free-wifi"  # a: +1 S -1 J, draw 1
GROUP = "group-project"  # a: +2 J -1 B; b: +1 X +1 B -1 J
JURY = "jury-summons"  # a: +2 S -2 J; b: +2 J, lose 2 cards
GOAT = "goat-story"
CLIPBOARD = "clipboard-ahead"
HOME = "home-advantage"
SLICE = "last-slice"
PROPHET = "prophet-madame-zelda"
SKEPTIC = "skeptic-myth-buster"
UNDERGRAD = "annoying-undergrad-philosophy-101"
RATIONALIST = "rationalist-actuary"
CULT = "cult-leader-brother-sunshine"
NIHILIST = "nihilist-the-cat"
FILLER = [GOAT, CLIPBOARD, HOME, SLICE, "purple-door", "found-wallet", "spreadsheet-wizard", "family-shop",
          "mystery-casserole", "sick-day", "the-manuscript", "self-checkout", "parking-space", "night-barking",
          "the-tip", "chain-message", "the-will", "down-the-river", "picket-line", "busker"]
S, X, B, J = "selfishness", "xenophobia", "benevolence", "justice"


@pytest.fixture(scope="module")
def model() -> HeavenlyFatherModel:
    return build(load_game(default_data_root(), GAME_ID))


@pytest.fixture(scope="module")
def game2(model: HeavenlyFatherModel) -> Game:
    return Game.from_model(model, 2)


@pytest.fixture(scope="module")
def game3(model: HeavenlyFatherModel) -> Game:
    return Game.from_model(model, 3)


def setup(game: Game, hands: Sequence[Sequence[str]], gods: Optional[Sequence[str]] = None) -> State:
    """A state after setup: the god deck in ``gods`` order (envelope first), then the given hands dealt."""
    state = game.new_initial_state()
    for god in gods or game.god_order:
        state = state.apply_action(Action(Kind.DEAL_GOD, card=god))
    for k in range(game.hand_size):
        for player in range(game.num_players):
            state = state.apply_action(Action(Kind.DRAW, card=hands[player][k]))
    assert not state.is_chance_node()
    return state


def hand(*cards: str) -> list[str]:
    """Five cards: the given ones, topped up with filler dilemmas not already used."""
    return list(cards) + [c for c in FILLER if c not in cards][: 5 - len(cards)]


def deal(*specials: Sequence[str]) -> list[list[str]]:
    """One five-card hand per player: its special cards, topped up with distinct filler dilemmas."""
    named = {c for cards in specials for c in cards}
    spare = [c for c in FILLER if c not in named]
    hands = []
    for cards in specials:
        need = 5 - len(cards)
        hands.append(list(cards) + spare[:need])
        spare = spare[need:]
    return hands


def two_hands(first: Sequence[str], second: Sequence[str]) -> list[list[str]]:
    return deal(first, second)


def draw(state: State, card: Optional[str] = None) -> State:
    """Resolve the chance node by drawing ``card`` (default: the first outcome)."""
    assert state.is_chance_node()
    return state.apply_action(Action(Kind.DRAW, card=card) if card else state.chance_outcomes()[0][0])


def kinds(state: State) -> set[Kind]:
    return {a.kind for a in state.legal_actions()}


def play(state: State, *actions: Action) -> State:
    for action in actions:
        state = state.apply_action(action)
    return state


# --------------------------------------------------------------------------- setup


def test_setup_deals_gods_cards_and_tokens(game3: Game) -> None:
    hands = deal([TRAFFIC], [LASAGNA, WALLET, WIFI, GROUP, JURY], [PROPHET, SKEPTIC, CULT, NIHILIST, UNDERGRAD])
    state = setup(game3, hands)
    order = game3.god_order
    assert state.true_god == order[0]
    assert [state.seen[p] for p in range(3)] == [{order[1]}, {order[2]}, {order[3]}]
    assert state.row == list(order[4:]) + list(order[1:4])  # own gods join the False God row
    assert len(state.row) == len(order) - 1
    assert [sorted(h) for h in state.hands] == [sorted(h) for h in hands]
    assert len(state.pile) == 88 - 15
    assert all(t == {S: 3, X: 3, B: 3, J: 3} for t in state.tokens)
    assert state.current_player() == 0


def test_setup_chance_is_uniform(game2: Game) -> None:
    state = game2.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 10 and all(p == Fraction(1, 10) for _, p in outcomes)
    for action, _ in outcomes[:1]:
        state = state.apply_action(action)
    assert len(state.chance_outcomes()) == 9


def test_player_count_comes_from_data(model: HeavenlyFatherModel) -> None:
    with pytest.raises(ValueError, match="2 to 6"):
        Game.from_model(model, 7)


# --------------------------------------------------------------------------- dilemmas


def test_traffic_light_example(game2: Game) -> None:
    """Play: running the red light adds Selfishness and costs Justice; the reader draws a replacement."""
    state = setup(game2, two_hands([TRAFFIC], []))
    state = play(state, Action(Kind.PLAY_DILEMMA, card=TRAFFIC, player=1))
    assert state.current_player() == 1
    assert kinds(state) == {Kind.CHOOSE, Kind.PRAY}
    state = play(state, Action(Kind.CHOOSE, option="a"))
    assert state.tokens[1] == {S: 4, X: 3, B: 3, J: 2}
    assert TRAFFIC in state.discard
    state = draw(state)  # the player who played the card draws its replacement
    assert len(state.hands[0]) == 5
    assert state.current_player() == 1 and state.turn == 1


def test_cannot_play_a_dilemma_on_yourself(game2: Game) -> None:
    state = setup(game2, two_hands([TRAFFIC], []))
    assert all(a.player == 1 for a in state.legal_actions() if a.kind is Kind.PLAY_DILEMMA)


def test_pray_then_mandatory_resolution(game2: Game) -> None:
    """Praying: the card waits face down, the reader still draws at once, and resolving it is the next action."""
    state = setup(game2, two_hands([TRAFFIC], []))
    state = play(state, Action(Kind.PLAY_DILEMMA, card=TRAFFIC, player=1), Action(Kind.PRAY))
    assert state.prayers[1] == [TRAFFIC]
    assert state.is_chance_node()  # the replacement draw happens even though the card is prayed on
    state = draw(state)
    assert len(state.hands[0]) == 5
    assert state.legal_actions() == [Action(Kind.RESOLVE_PRAYER, card=TRAFFIC)]
    state = play(state, Action(Kind.RESOLVE_PRAYER, card=TRAFFIC))
    assert Action(Kind.PRAY) not in state.legal_actions()  # ruling: a prayed-on card is settled, not prayed again
    state = play(state, Action(Kind.CHOOSE, option="b"))
    assert state.tokens[1][J] == 4
    assert state.chance_outcomes()[0][1] == Fraction(1, 5)  # the card lost is picked at random
    state = state.apply_action(Action(Kind.LOSE_CARD, card=state.hands[1][0]))
    assert len(state.hands[1]) == 4 and state.prayers[1] == [] and state.turn == 0


def test_one_prayer_resolved_per_turn(game3: Game) -> None:
    """Praying on two cards takes two turns to settle them; nothing else can be done meanwhile."""
    state = setup(game3, deal([TRAFFIC], [LASAGNA], []))
    state = play(state, Action(Kind.PLAY_DILEMMA, card=TRAFFIC, player=2), Action(Kind.PRAY))
    state = draw(state)
    state = play(state, Action(Kind.PLAY_DILEMMA, card=LASAGNA, player=2), Action(Kind.PRAY))
    state = draw(state)
    assert sorted(state.prayers[2]) == sorted([TRAFFIC, LASAGNA]) and state.turn == 2
    assert {a.kind for a in state.legal_actions()} == {Kind.RESOLVE_PRAYER}
    assert len(state.legal_actions()) == 2  # ruling: the player picks which prayer to settle
    state = play(state, Action(Kind.RESOLVE_PRAYER, card=LASAGNA), Action(Kind.CHOOSE, option="b"))
    assert state.turn == 0  # one prayer per turn
    state = play(state, Action(Kind.DRAW_CARD))
    state = draw(state)
    state = play(state, Action(Kind.DRAW_CARD))
    state = draw(state)
    assert state.legal_actions() == [Action(Kind.RESOLVE_PRAYER, card=TRAFFIC)]
    state = play(state, Action(Kind.RESOLVE_PRAYER, card=TRAFFIC), Action(Kind.CHOOSE, option="a"))
    assert state.turn == 0 and state.prayers[2] == []


def test_request_a_dilemma(game2: Game) -> None:
    """Asking: the named player picks which dilemma from their hand confronts the asker, then refills."""
    state = setup(game2, two_hands([], [TRAFFIC, LASAGNA]))
    state = play(state, Action(Kind.REQUEST_DILEMMA, player=1))
    assert state.current_player() == 1
    offers = {a.card for a in state.legal_actions()}
    assert {TRAFFIC, LASAGNA} <= offers and all(c in game2.dilemmas for c in offers)
    state = play(state, Action(Kind.OFFER, card=LASAGNA))
    assert state.current_player() == 0
    state = play(state, Action(Kind.CHOOSE, option="a"))
    assert state.tokens[0] == {S: 5, X: 3, B: 3, J: 2}
    state = draw(state)
    assert len(state.hands[1]) == 5 and state.turn == 1


def test_request_from_a_player_without_dilemmas_spends_the_action(game2: Game) -> None:
    state = setup(game2, deal([], [PROPHET, SKEPTIC, CULT, NIHILIST, UNDERGRAD]))
    state = play(state, Action(Kind.REQUEST_DILEMMA, player=1))
    assert state.turn == 1 and state.tokens[0] == {S: 3, X: 3, B: 3, J: 3}


def test_tokens_never_go_into_debt(game2: Game) -> None:
    state = setup(game2, two_hands([JURY], [])).clone()  # a clone may be edited
    state.tokens[1][J] = 1
    state = play(state, Action(Kind.PLAY_DILEMMA, card=JURY, player=1), Action(Kind.CHOOSE, option="a"))
    assert state.tokens[1][J] == 0 and state.tokens[1][S] == 5


def test_card_loss_is_random_and_floored(game2: Game) -> None:
    state = setup(game2, two_hands([JURY], [])).clone()
    state.hands[1] = [GOAT]  # holds one card, must lose two
    state = play(state, Action(Kind.PLAY_DILEMMA, card=JURY, player=1), Action(Kind.CHOOSE, option="b"))
    assert state.chance_outcomes() == [(Action(Kind.LOSE_CARD, card=GOAT), Fraction(1))]
    state = state.apply_action(Action(Kind.LOSE_CARD, card=GOAT))
    assert state.hands[1] == [] and GOAT in state.discard
    state = draw(state)  # the replacement draw for player 0: the second loss found nothing to take
    assert state.turn == 1


def test_gained_cards_come_from_the_draw_pile(game2: Game) -> None:
    state = setup(game2, two_hands([WIFI], []))
    pile = len(state.pile)
    state = play(state, Action(Kind.PLAY_DILEMMA, card=WIFI, player=1), Action(Kind.CHOOSE, option="a"))
    state = draw(state)
    state = draw(state)
    assert len(state.hands[1]) == 6 and len(state.pile) == pile - 2


def test_apply_tokens_gains_then_losses() -> None:
    from pipeline.games.heavenly_father.model import Consequence

    both = Consequence({S: 2}, {S: 3})
    assert apply_tokens({S: 0}, both) == {S: 0}
    assert apply_tokens({S: 1}, both) == {S: 0}
    assert apply_tokens({S: 2, J: 1}, Consequence({}, {J: 5})) == {S: 2, J: 0}


def test_draw_action(game2: Game) -> None:
    state = setup(game2, two_hands([], []))
    state = play(state, Action(Kind.DRAW_CARD))
    state = draw(state, PROPHET)
    assert PROPHET in state.hands[0] and len(state.hands[0]) == 6 and state.turn == 1


# --------------------------------------------------------------------------- philosophers


def test_prophet_peeks_and_is_replaced(game2: Game) -> None:
    state = setup(game2, two_hands([PROPHET], []))
    plays = [a for a in state.legal_actions() if a.kind is Kind.PLAY_PHILOSOPHER]
    assert [a.slots for a in plays] == [(s,) for s in range(9)]
    state = play(state, Action(Kind.PLAY_PHILOSOPHER, card=PROPHET, slots=(0,)))
    assert state.row[0] in state.seen[0] and not state.face_up
    assert PROPHET in state.discard
    assert state.current_player() == 1  # player 1 may snatch it (at the cost of two cards)
    state = play(state, Action(Kind.PASS, card=PROPHET))
    assert state.current_player() == 0  # the player who played it claims last
    state = play(state, Action(Kind.PASS, card=PROPHET))
    state = draw(state)
    assert len(state.hands[0]) == 5 and state.turn == 1


def test_skeptic_reveals_for_good(game2: Game) -> None:
    state = setup(game2, two_hands([SKEPTIC], []))
    state = play(state, Action(Kind.PLAY_PHILOSOPHER, card=SKEPTIC, slots=(3,)))
    assert state.face_up == {3}


def test_no_peek_or_reveal_without_a_face_down_god(game2: Game) -> None:
    state = setup(game2, two_hands([PROPHET, SKEPTIC], [])).clone()
    state.face_up = set(range(len(state.row)))
    assert not [a for a in state.legal_actions() if a.kind is Kind.PLAY_PHILOSOPHER]


def test_reclaim_discards_two_cards(game2: Game) -> None:
    state = setup(game2, two_hands([PROPHET], [GROUP, JURY]))
    state = play(state, Action(Kind.PLAY_PHILOSOPHER, card=PROPHET, slots=(0,)))
    claims = [a for a in state.legal_actions() if a.kind is Kind.RECLAIM]
    assert len(claims) == comb(5, 2)
    state = play(state, Action(Kind.RECLAIM, card=PROPHET, cards=(GROUP, JURY)))
    assert PROPHET in state.hands[1] and {GROUP, JURY} <= set(state.discard) and len(state.hands[1]) == 4
    state = draw(state)
    assert state.turn == 1


def test_reclaim_priority_order() -> None:
    """Closest to the current player's right first; the player who played it last."""
    assert reclaim_order(4, current=0, played_by=0) == (3, 2, 1, 0)
    assert reclaim_order(4, current=2, played_by=2) == (1, 0, 3, 2)
    assert reclaim_order(4, current=2, played_by=0) == (1, 3, 2, 0)


def test_annoying_undergrad_third_option(game2: Game) -> None:
    state = setup(game2, two_hands([TRAFFIC], [UNDERGRAD]))
    state = play(state, Action(Kind.DRAW_CARD))
    state = draw(state)
    state = play(state, Action(Kind.PLAY_PHILOSOPHER, card=UNDERGRAD))
    assert state.table[0].owner == 1 and state.table[0].holder == 1
    state = draw(state)
    state = play(state, Action(Kind.PLAY_DILEMMA, card=TRAFFIC, player=1))
    thirds = [a for a in state.legal_actions() if a.kind is Kind.THIRD_OPTION]
    assert len(thirds) == 4 * 2 * 2 + 1  # gain or lose 1-2 of one Virtue, or draw 2
    state = play(state, Action(Kind.THIRD_OPTION, card=UNDERGRAD, option="gain", virtue=B, amount=2))
    assert state.tokens[1] == {S: 3, X: 3, B: 5, J: 3}
    assert not state.table and UNDERGRAD in state.discard


def test_undergrad_only_helps_its_owner(game2: Game) -> None:
    state = setup(game2, two_hands([UNDERGRAD, TRAFFIC], [LASAGNA]))
    state = play(state, Action(Kind.PLAY_PHILOSOPHER, card=UNDERGRAD))
    state = draw(state)
    state = play(state, Action(Kind.PLAY_DILEMMA, card=LASAGNA, player=0))
    assert any(a.kind is Kind.THIRD_OPTION for a in state.legal_actions())
    state = play(state, Action(Kind.CHOOSE, option="a"))
    state = draw(state)
    state = play(state, Action(Kind.PLAY_DILEMMA, card=TRAFFIC, player=1))
    assert not any(a.kind is Kind.THIRD_OPTION for a in state.legal_actions())


def test_cult_leader_dictates_the_choice(game2: Game) -> None:
    state = setup(game2, two_hands([CULT, TRAFFIC], []))
    assert {a.player for a in state.legal_actions() if a.card == CULT} == {1}  # another player only
    state = play(state, Action(Kind.PLAY_PHILOSOPHER, card=CULT, player=1))
    state = draw(state)
    state = play(state, Action(Kind.DRAW_CARD))
    state = draw(state)
    state = play(state, Action(Kind.PLAY_DILEMMA, card=TRAFFIC, player=1))
    assert state.current_player() == 0  # the Cult Leader's player decides first
    assert kinds(state) == {Kind.DECLINE, Kind.DICTATE}
    state = play(state, Action(Kind.DICTATE, card=CULT, option="a"))
    assert state.tokens[1] == {S: 4, X: 3, B: 3, J: 2}  # no chance to pray
    assert CULT in state.discard


def test_declined_cult_leader_stays(game2: Game) -> None:
    state = setup(game2, two_hands([CULT, TRAFFIC], []))
    state = play(state, Action(Kind.PLAY_PHILOSOPHER, card=CULT, player=1))
    state = draw(state)
    state = play(state, Action(Kind.DRAW_CARD))
    state = draw(state)
    state = play(state, Action(Kind.PLAY_DILEMMA, card=TRAFFIC, player=1), Action(Kind.DECLINE, card=CULT))
    assert state.current_player() == 1 and kinds(state) == {Kind.CHOOSE, Kind.PRAY}
    state = play(state, Action(Kind.PRAY))
    assert state.table and state.table[0].card == CULT


def test_nihilist_randomises_virtues_keeps_amounts(game2: Game) -> None:
    state = setup(game2, two_hands([NIHILIST, LASAGNA], []))
    state = play(state, Action(Kind.PLAY_PHILOSOPHER, card=NIHILIST, player=1))
    state = draw(state)
    state = play(state, Action(Kind.DRAW_CARD))
    state = draw(state)
    state = play(state, Action(Kind.PLAY_DILEMMA, card=LASAGNA, player=1), Action(Kind.CHOOSE, option="a"))
    assert state.current_player() == 0 and kinds(state) == {Kind.DECLINE, Kind.RANDOMIZE}
    state = play(state, Action(Kind.RANDOMIZE, card=NIHILIST))
    assert state.chance_outcomes() == [(Action(Kind.RANDOM_VIRTUE, virtue=v), Fraction(1, 4)) for v in (S, X, B, J)]
    state = play(state, Action(Kind.RANDOM_VIRTUE, virtue=X), Action(Kind.RANDOM_VIRTUE, virtue=B))
    assert state.tokens[1] == {S: 3, X: 5, B: 2, J: 3}  # +2 and -1 as printed, on random Virtues


def test_nihilist_on_yourself_allowed(game2: Game) -> None:
    state = setup(game2, two_hands([NIHILIST], []))
    assert {a.player for a in state.legal_actions() if a.card == NIHILIST} == {0, 1}


def _chance_distribution(state: State) -> dict[tuple[int, ...], Fraction]:
    """Exact distribution of player 1's tokens after every chance node from ``state`` resolves."""
    if not state.is_chance_node() or state.chance_outcomes()[0][0].kind is not Kind.RANDOM_VIRTUE:
        return {tuple(state.tokens[1].values()): Fraction(1)}
    result: dict[tuple[int, ...], Fraction] = {}
    for action, p in state.chance_outcomes():
        child = state.clone()
        child = child.apply_action(action)
        for tokens, q in _chance_distribution(child).items():
            result[tokens] = result.get(tokens, Fraction(0)) + p * q
    return result


def test_nihilist_distribution_by_hand(game2: Game) -> None:
    """Office fridge (a) under a Nihilist: +2 and -1 land on the same Virtue with chance 1/4, netting +1."""
    state = setup(game2, two_hands([NIHILIST, LASAGNA], []))
    state = play(state, Action(Kind.PLAY_PHILOSOPHER, card=NIHILIST, player=1))
    state = draw(state)
    state = play(state, Action(Kind.DRAW_CARD))
    state = draw(state)
    state = play(state, Action(Kind.PLAY_DILEMMA, card=LASAGNA, player=1), Action(Kind.CHOOSE, option="a"),
         Action(Kind.RANDOMIZE, card=NIHILIST))
    dist = _chance_distribution(state)
    assert sum(dist.values()) == 1 and len(dist) == 16
    same = sum(p for tokens, p in dist.items() if sorted(tokens) == [3, 3, 3, 4])
    assert same == Fraction(1, 4)


# --------------------------------------------------------------------------- Judgment Day


def test_call_judgment_day_gives_each_other_player_one_final_turn(game3: Game) -> None:
    state = setup(game3, deal([], [], []))
    state = play(state, Action(Kind.CALL_JUDGMENT_DAY))
    assert state.turn == 1 and Action(Kind.CALL_JUDGMENT_DAY) not in state.legal_actions()
    state = play(state, Action(Kind.DRAW_CARD))
    state = draw(state)
    assert state.turn == 2 and not state.is_terminal()
    state = play(state, Action(Kind.DRAW_CARD))
    state = draw(state)
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome.termination == Ending.CALLED and state.true_god == game3.god_order[0]
    assert outcome.scores == (0, 0, 0) or len(set(outcome.scores)) == 1  # everybody still holds 3 of each
    assert outcome.winners == (0, 1, 2)  # all tied: all win
    assert state.legal_actions() == []


def test_praying_player_cannot_call(game2: Game) -> None:
    state = setup(game2, two_hands([TRAFFIC], []))
    state = play(state, Action(Kind.PLAY_DILEMMA, card=TRAFFIC, player=1), Action(Kind.PRAY))
    state = draw(state)
    assert Action(Kind.CALL_JUDGMENT_DAY) not in state.legal_actions()


def test_unresolved_prayers_are_discarded_at_judgment_day(game2: Game) -> None:
    state = setup(game2, two_hands([TRAFFIC], [LASAGNA]))
    state = play(state, Action(Kind.REQUEST_DILEMMA, player=1), Action(Kind.OFFER, card=LASAGNA), Action(Kind.PRAY))
    state = draw(state)
    state = play(state, Action(Kind.CALL_JUDGMENT_DAY))
    assert state.turn == 0 and state.prayers[0] == [LASAGNA]
    assert state.legal_actions() == [Action(Kind.RESOLVE_PRAYER, card=LASAGNA)]  # final turn: prayer first
    state2 = state.clone()
    state = play(state, Action(Kind.RESOLVE_PRAYER, card=LASAGNA), Action(Kind.CHOOSE, option="a"))
    assert state.is_terminal() and LASAGNA in state.discard
    # With two prayers, the second is discarded unsettled.
    state2.prayers[0].append(TRAFFIC)
    state2.hands[0].remove(TRAFFIC)
    state2 = play(state2, Action(Kind.RESOLVE_PRAYER, card=LASAGNA), Action(Kind.CHOOSE, option="a"))
    assert state2.is_terminal() and TRAFFIC in state2.discard and state2.prayers[0] == []


def test_rationalist_postpones_and_bars_the_caller(game2: Game) -> None:
    state = setup(game2, two_hands([], [RATIONALIST]))
    assert not any(a.card == RATIONALIST for a in state.legal_actions())
    state = play(state, Action(Kind.CALL_JUDGMENT_DAY))
    assert Action(Kind.PLAY_PHILOSOPHER, card=RATIONALIST) in state.legal_actions()
    state = play(state, Action(Kind.PLAY_PHILOSOPHER, card=RATIONALIST))
    assert state.judgment is None
    state = play(state, Action(Kind.PASS, card=RATIONALIST), Action(Kind.PASS, card=RATIONALIST))
    state = draw(state)
    assert state.current_player() == 1 and state.turn == 1  # another turn action
    state = play(state, Action(Kind.DRAW_CARD))
    state = draw(state)
    assert state.turn == 0 and not state.is_terminal()
    assert Action(Kind.CALL_JUDGMENT_DAY) not in state.legal_actions()  # barred on their next turn
    state = play(state, Action(Kind.DRAW_CARD))
    state = draw(state)
    state = play(state, Action(Kind.DRAW_CARD))
    state = draw(state)
    assert Action(Kind.CALL_JUDGMENT_DAY) in state.legal_actions()  # ...and free again after


def test_empty_draw_pile_triggers_judgment_day(game3: Game) -> None:
    state = setup(game3, deal([], [], [RATIONALIST])).clone()  # a clone may be edited
    state.pile = {PROPHET}
    state = play(state, Action(Kind.DRAW_CARD))
    state = draw(state, PROPHET)
    assert state.judgment is not None and state.judgment.caller == 0 and not state.judgment.cancellable
    assert state.turn == 1 and Action(Kind.DRAW_CARD) not in state.legal_actions()
    state = play(state, Action(Kind.REQUEST_DILEMMA, player=0), Action(Kind.OFFER, card=GOAT), Action(Kind.CHOOSE, option="a"))
    assert state.turn == 2
    assert not any(a.card == RATIONALIST for a in state.legal_actions())  # cannot be cancelled
    state = play(state, Action(Kind.REQUEST_DILEMMA, player=0), Action(Kind.OFFER, card=CLIPBOARD), Action(Kind.CHOOSE, option="a"))
    assert state.is_terminal() and state.outcome().termination == Ending.DRAW_PILE


def test_empty_pile_locks_a_called_judgment_day(game3: Game) -> None:
    """Ruling: if the pile runs out while a called Judgment Day is pending, it goes ahead uncancellable."""
    state = setup(game3, deal([], [], [RATIONALIST])).clone()  # a clone may be edited
    state.pile = {PROPHET}
    state = play(state, Action(Kind.CALL_JUDGMENT_DAY), Action(Kind.DRAW_CARD))
    state = draw(state, PROPHET)
    assert state.judgment.caller == 0 and not state.judgment.cancellable
    assert not any(a.card == RATIONALIST for a in state.legal_actions())
    state = play(state, Action(Kind.REQUEST_DILEMMA, player=0), Action(Kind.OFFER, card=GOAT), Action(Kind.CHOOSE, option="a"))
    assert state.is_terminal() and state.outcome().termination == Ending.CALLED


def test_judge_ties_and_scores(model: HeavenlyFatherModel) -> None:
    """End game: Country Club God scores +1 S, +1 X, -1 B, 0 J; tied leaders all win."""
    god = model.god("country-club-god")
    result = judge(god, [{S: 4, X: 2, B: 5, J: 3}, {S: 3, X: 3, B: 3, J: 3}, {S: 3, X: 0, B: 0, J: 9}])
    assert result.scores == (1, 3, 3) and result.winners == (1, 2)
    with pytest.raises(ValueError, match="negative"):
        judge(god, [{S: -1, X: 0, B: 0, J: 0}])


def test_stored_examples_replay(model: HeavenlyFatherModel) -> None:
    """The examples validate replays, checked here against the engine directly."""
    for example in model.scoring_examples:
        result = judge(model.god(example.god), example.holdings)
        assert result.scores == example.scores
        assert tuple(example.names[i] for i in result.winners) == example.winners
    assert len(model.dilemma_examples) >= 3


# --------------------------------------------------------------------------- clone, key, figures


def test_opening_hand_figure_matches_hand_count(game2: Game) -> None:
    """Share of 5-card opening hands without a Philosopher: C(65,5)/C(88,5) = 0.2108 by hand."""
    rng = random.Random(7)
    hands = misses = 0
    for _ in range(600):
        state = game2.new_initial_state()
        while state.is_chance_node():
            state = state.apply_action(sample_chance(state, rng))
        for h in state.hands:
            hands += 1
            misses += not any(c in game2.philosophers for c in h)
    expected = comb(65, 5) / comb(88, 5)
    assert abs(misses / hands - expected) < 0.035
