"""Rules of Theocracy as played by the reference engine: one test per rule or rulebook example."""
from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from pipeline.engine import CHANCE, TERMINAL, IllegalAction
from pipeline.games.theocracy.engine import (
    ASIDE,
    Action,
    ActionKind,
    Prophecy,
    Stage,
    State,
    Termination,
)

from .conftest import bid, pass_, play, prophesy, quiet_turn, roll

BELIEVERS = 4  # per player, as the data says


def test_roles_by_player_count(make_game) -> None:
    assert [make_game(2).new_initial_state().role_of(s) for s in range(2)] == ["first", "last"]
    assert [make_game(3).new_initial_state().role_of(s) for s in range(3)] == ["first", "lukewarm", "last"]
    assert [make_game(4).new_initial_state().role_of(s) for s in range(4)] == ["first", "lukewarm", "lost", "last"]


def test_unsupported_player_count(theocracy_model) -> None:
    from pipeline.games.theocracy.engine import Game

    with pytest.raises(ValueError):
        Game.from_model(theocracy_model, 5)


def finish_round_quietly(state: State) -> State:
    """Four turns (dice 1-4) where every player bids their lowest card: all draws, nobody scores."""
    for die in (1, 2, 3, 4):
        state = quiet_turn(state, die, tuple(min(state.hands[s]) for s in state.role_order()))
    assert state.stage is Stage.FATE
    return state


@pytest.mark.parametrize("players, firsts", [(2, [0, 1, 0]), (3, [0, 2, 1, 0]), (4, [0, 3, 2, 1, 0])])
def test_last_becomes_first_each_round(make_game, players: int, firsts: list[int]) -> None:
    state = make_game(players).new_initial_state()
    seen = []
    for _ in firsts:
        seen.append(state.first_seat)
        last = state.role_order()[-1]
        state = finish_round_quietly(state)
        state = play(state, Action(ActionKind.FATE, 7))
        assert state.first_seat == last
    assert seen == firsts


def test_last_rolls_and_prophesies_last(make_game) -> None:
    state = make_game(3).new_initial_state()
    assert state.current_player() == CHANCE
    state = play(state, roll(2))
    order = []
    for value in (1, 2, 3):
        order.append(state.current_player())
        state = play(state, bid(value))
    assert order == [0, 1, 2]
    assert state.stage is Stage.OMEN and state.current_player() == 0


def test_tribulation_values_distinct_within_round(make_game) -> None:
    state = make_game(2).new_initial_state()
    assert state.chance_outcomes() == [(roll(v), Fraction(1, 6)) for v in range(1, 7)]
    state = quiet_turn(state, 3, (1, 1))
    outcomes = dict(state.chance_outcomes())
    assert roll(3) not in outcomes and len(outcomes) == 5
    assert set(outcomes.values()) == {Fraction(1, 5)}
    with pytest.raises(IllegalAction):
        state.apply_action(roll(3))


def test_end_of_round_probability_is_exactly_4_in_36(make_game) -> None:
    state = make_game(2).new_initial_state()
    state = finish_round_quietly(state)
    assert state.stage is Stage.FATE and state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == 1
    ends = sum(p for a, p in outcomes if a.value == state.game.fate_target)
    assert ends == Fraction(4, 36)


def test_fate_nine_ends_other_sums_continue(make_game) -> None:
    state = make_game(2).new_initial_state()
    state = finish_round_quietly(state)
    other = state.clone()
    state = play(state, Action(ActionKind.FATE, 9))
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.outcome().termination == Termination.FATE
    other = play(other, Action(ActionKind.FATE, 8))
    assert other.stage is Stage.ROLL and other.rounds_played == 2


# Rulebook, TURN 2) Omen: "The prophecies can't be repeated, i.e., if First said "I see a dark future"
# the others players can't say the same prophecy." A prophecy is its kind and the player it names,
# whatever the words; two different prophecies may be fulfilled by the same bid result.


def _omen_after(make_game, players: int, *made: Action) -> set[Action]:
    """The prophecies (and pass) open to the next prophet once ``made`` were spoken this turn."""
    state = play(make_game(players).new_initial_state(), roll(4), *(bid(v) for v in range(1, players + 1)))
    state = play(state, *made)
    assert state.stage is Stage.OMEN
    return set(state.legal_actions())


def test_omen_no_repeated_prophecy(make_game) -> None:
    legal = _omen_after(make_game, 2, prophesy("lose", 0))
    assert prophesy("lose", 0) not in legal
    assert {prophesy("lose", 1), prophesy("win", 0), prophesy("win", 1), prophesy("draw"), pass_()} <= legal


@pytest.mark.parametrize("spoken, other", [
    (prophesy("win", 0), prophesy("lose", 1)),  # First foresees "First wins", Last may foresee "Last loses"
    (prophesy("lose", 0), prophesy("win", 1)),
    (prophesy("win", 1), prophesy("lose", 0)),
    (prophesy("lose", 1), prophesy("win", 0)),
])
def test_two_players_the_same_result_in_different_prophecies_is_no_repeat(make_game, spoken: Action,
                                                                          other: Action) -> None:
    """With two players "First wins" and "Last loses" are different prophecies: only the one spoken closes."""
    legal = _omen_after(make_game, 2, spoken)
    assert spoken not in legal and other in legal
    assert legal == {prophesy(k, s) for k in ("win", "lose") for s in (0, 1)} - {spoken} | {prophesy("draw"), pass_()}


def test_both_players_fulfil_and_the_believer_just_acquired_cannot_be_taken_back(make_game) -> None:
    """Rulebook, 4) Grace a), two players: "You can't acquire a believer that was acquired by the opponent
    in this turn." It applies when both players fulfil a prophecy: First foresees "First wins", Last "Last
    loses", and First wins the bid."""
    state = play(make_game(2).new_initial_state(), roll(4), bid(3), bid(2), prophesy("win", 0), prophesy("lose", 1))
    assert state.result.winner == 0
    assert state.stage is Stage.GIVE and state.current_player() == 1  # Last hands First a believer of its choice
    taken = state.legal_actions()[0]
    state = play(state, taken)
    assert state.holder[taken.value] == 0 and taken.value in state.acquired
    assert state.stage is Stage.GIVE and state.current_player() == 0  # First hands Last one of its believers
    offered = {a.value for a in state.legal_actions()}
    assert offered == set(state.believers_held(0)) - {taken.value}  # never the one First just acquired


@pytest.mark.parametrize("players", [3, 4])
def test_more_players_lose_and_win_foretell_different_outcomes(make_game, players: int) -> None:
    """With three or four players "seat 0 loses" is fulfilled by several winners, "seat X wins" by one:
    no other prophecy foretells the same bid results, so only the words spoken are closed."""
    every = {a for a in _omen_after(make_game, players) if a.kind is ActionKind.PROPHESY}
    assert len(every) == 2 * players + 1
    for spoken in every:
        assert _omen_after(make_game, players, spoken) == (every - {spoken}) | {pass_()}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_prophecies_are_told_apart_by_the_results_that_fulfil_them(make_game, players: int) -> None:
    """Each prophecy's outcome is the set of bid results (winning seat, or a draw) that fulfil it."""
    game = make_game(players)
    seats = set(range(players))
    for prophecy in game.all_prophecies():
        expected = {"win": {prophecy.subject}, "lose": seats - {prophecy.subject}, "draw": {None}}[prophecy.kind]
        assert game.foretells(prophecy) == expected
    outcomes = [game.foretells(p) for p in game.all_prophecies()]
    assert len(set(outcomes)) == (2 * players + 1 if players > 2 else 3)


def test_only_one_draw_prophecy(make_game) -> None:
    state = play(make_game(3).new_initial_state(), roll(4), bid(3), bid(2), bid(1), prophesy("draw"))
    assert prophesy("draw") not in state.legal_actions()


def test_revelation_one_beats_five(make_game) -> None:
    state = play(make_game(2).new_initial_state(), roll(6), bid(1), bid(5), pass_(), pass_())
    assert state.result.winner == 0 and state.stage is Stage.PLACE and state.current_player() == 0


def test_ruin_in_play(make_game) -> None:
    state = play(make_game(3).new_initial_state(), roll(6), bid(4), bid(4), bid(2), pass_(), pass_(), pass_())
    assert state.result.winner == 2 and state.current_player() == 2


def test_ouroboros_in_play_sets_die_aside(make_game) -> None:
    state = play(make_game(3).new_initial_state(), roll(6), bid(1), bid(5), bid(3), pass_(), pass_(), pass_())
    assert state.dice_aside == {0} and state.stage is Stage.ROLL  # draw: the die went aside
    assert all(d is None for d in state.die_on)


def test_grace_order_a_then_b_then_d(make_game) -> None:
    """First foresees its own win (true), Last foresees a draw (false): a) give, b) lose, d) place."""
    state = play(make_game(2).new_initial_state(), roll(5), bid(4), bid(2), prophesy("win", 0), prophesy("draw"))
    stages = []
    while state.stage is not Stage.ROLL:
        stages.append((state.stage, state.current_player()))
        state = state.apply_action(state.legal_actions()[0])
    assert stages == [(Stage.GIVE, 1), (Stage.LOSE, 1), (Stage.PLACE, 0)]


def test_true_prophecy_takes_a_believer_chosen_by_the_giver(make_game) -> None:
    state = play(make_game(2).new_initial_state(), roll(5), bid(4), bid(2), prophesy("win", 0), pass_())
    assert state.stage is Stage.GIVE and state.current_player() == 1
    assert [a.value for a in state.legal_actions()] == [4, 5, 6, 7]
    state = play(state, Action(ActionKind.GIVE, 6))
    assert state.holder[6] == 0 and len(state.believers_held(0)) == BELIEVERS + 1


def test_lose_prophecy_fails_on_a_draw(make_game) -> None:
    """Ruling lose-needs-a-winner."""
    state = play(make_game(2).new_initial_state(), roll(5), bid(3), bid(3), prophesy("lose", 1), pass_())
    assert state.result.winner is None
    assert state.stage is Stage.LOSE and state.current_player() == 0


def test_lose_prophecy_about_another_player(make_game) -> None:
    state = play(make_game(2).new_initial_state(), roll(5), bid(2), bid(3), prophesy("lose", 0), pass_())
    assert state.fulfilled(Prophecy("lose", 0)) and state.stage is Stage.GIVE and state.current_player() == 1


def test_acquired_this_turn_cannot_be_taken_back(make_game) -> None:
    """Rulebook, Grace a): "You can't acquire a believer that was acquired by the opponent in this turn."

    Three players: First foresees its win, Lukewarm its own loss; both come true. First takes
    believer 5 from Lukewarm; Lukewarm, choosing First as giver, cannot take it back."""
    state = play(make_game(3).new_initial_state(), roll(5), bid(4), bid(2), bid(1),
                 prophesy("win", 0), prophesy("lose", 1), pass_())
    state = play(state, Action(ActionKind.CHOOSE_GIVER, 1), Action(ActionKind.GIVE, 5))
    state = play(state, Action(ActionKind.CHOOSE_GIVER, 0))
    assert state.stage is Stage.GIVE and state.current_player() == 0  # now First hands one to Lukewarm
    offered = [a.value for a in state.legal_actions()]
    assert 5 not in offered and offered == [0, 1, 2, 3]


def test_protection_ends_with_the_turn(make_game) -> None:
    state = play(make_game(2).new_initial_state(), roll(5), bid(4), bid(2), prophesy("win", 0), pass_())
    state = play(state, Action(ActionKind.GIVE, 5), Action(ActionKind.PLACE, 0))
    assert not state.acquired
    state = play(state, roll(6), bid(1), bid(3), pass_(), prophesy("win", 1))
    assert 5 in [a.value for a in state.legal_actions()]


def test_dice_travel_with_believers(make_game) -> None:
    state = play(make_game(2).new_initial_state(), roll(6), bid(5), bid(2), pass_(), pass_(), Action(ActionKind.PLACE, 2))
    assert state.die_on[2] == 0 and state.round_score(0) == 6
    state = play(state, roll(1), bid(1), bid(3), pass_(), prophesy("win", 1))
    state = play(state, Action(ActionKind.GIVE, 2))  # First must hand over; gives the believer carrying the 6
    assert state.holder[2] == 1 and state.die_on[2] == 0
    assert state.round_score(1) == 6 and state.round_score(0) == 0


def test_failed_prophet_loses_believer_and_its_die(make_game) -> None:
    state = play(make_game(2).new_initial_state(), roll(6), bid(5), bid(2), pass_(), pass_(), Action(ActionKind.PLACE, 1))
    state = play(state, roll(2), bid(4), bid(3), prophesy("draw"), pass_())
    assert state.stage is Stage.LOSE and state.current_player() == 0
    state = play(state, Action(ActionKind.LOSE, 1))
    assert state.holder[1] == ASIDE and state.die_on[1] is None and 0 in state.dice_aside
    assert state.round_score(0) == 0


def test_bid_cards_set_aside_for_the_round(make_game) -> None:
    state = quiet_turn(make_game(2).new_initial_state(), 3, (5, 2))
    assert 5 not in state.hands[0] and 2 not in state.hands[1]
    state = play(state, roll(4))
    assert bid(5) not in state.legal_actions()


def test_draw_sets_the_die_aside(make_game) -> None:
    state = quiet_turn(make_game(2).new_initial_state(), 3, (2, 2))
    assert state.dice_aside == {0} and all(d is None for d in state.die_on)


def test_no_free_believer_sets_the_die_aside(make_game) -> None:
    """First keeps prophesying a draw that fails, losing believers, while winning every bid."""
    state = make_game(2).new_initial_state()
    place, lose = Action(ActionKind.PLACE, 0), Action(ActionKind.LOSE, 0)
    state = play(state, roll(6), bid(5), bid(2), prophesy("draw"), pass_(), dataclasses.replace(lose, value=3), place)
    state = play(state, roll(5), bid(4), bid(1), prophesy("draw"), pass_(), dataclasses.replace(lose, value=2),
         dataclasses.replace(place, value=1))
    assert state.free_believers(0) == []
    state = play(state, roll(4), bid(1), bid(5), prophesy("draw"), pass_(), dataclasses.replace(lose, value=1))
    # b) took believer 1 and its 5 aside; d) finds no free believer, so the 4 goes aside too.
    assert state.believers_held(0) == [0] and state.stage is Stage.ROLL
    assert state.dice_aside == {1, 2}
    assert state.round_score(0) == 6


def test_the_chosen_picks_the_giver(make_game) -> None:
    state = play(make_game(3).new_initial_state(), roll(5), bid(5), bid(3), bid(2), prophesy("win", 0), pass_(), pass_())
    assert state.stage is Stage.CHOOSE_GIVER and state.current_player() == 0
    assert [a.value for a in state.legal_actions()] == [1, 2]
    state = play(state, Action(ActionKind.CHOOSE_GIVER, 2))
    assert state.stage is Stage.GIVE and state.current_player() == 2
    assert [a.value for a in state.legal_actions()] == [8, 9, 10, 11]


def play_scored_round(state: State) -> State:
    """Dice 6, 5, 4, 3: First wins 6, 5 and 4 (5>2, 4>1, 1 beats 5); Last wins the 3 (4>2)."""
    for die, bids in zip((6, 5, 4, 3), ((5, 2), (4, 1), (1, 5), (2, 4))):
        state = quiet_turn(state, die, bids)
    return state


def test_round_scoring_adds_dice_on_believers(make_game) -> None:
    state = make_game(2).new_initial_state()
    state = play_scored_round(state)
    assert state.scores == [15, 3] and state.stage is Stage.FATE


def test_new_round_resets_the_table(make_game) -> None:
    state = make_game(2).new_initial_state()
    state = play_scored_round(state)
    state = play(state, Action(ActionKind.FATE, 7))
    assert state.scores == [15, 3]
    assert state.hands == [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]]
    assert state.holder == [0, 0, 0, 0, 1, 1, 1, 1] and all(d is None for d in state.die_on)
    assert state.die_values == [None] * 4 and not state.dice_aside


def test_transcendence_at_threshold_ends_before_fate(make_game) -> None:
    game = make_game(2)
    state = game.new_initial_state()
    state.scores = [game.transcendence - 15, 0]
    state = play_scored_round(state)
    assert state.scores[0] == game.transcendence  # exactly 54 is enough
    assert state.is_terminal()
    assert state.outcome().termination == Termination.TRANSCENDENCE and state.outcome().winners == (0,)


def test_below_threshold_goes_to_fate(make_game) -> None:
    game = make_game(2)
    state = game.new_initial_state()
    state.scores = [game.transcendence - 16, 0]
    state = play_scored_round(state)
    assert state.scores[0] == game.transcendence - 1 and state.stage is Stage.FATE


def test_tied_scores_share_the_victory(make_game) -> None:
    state = make_game(3).new_initial_state()
    state = finish_round_quietly(state).clone()  # a clone may be edited
    state.scores = [7, 2, 7]
    state = play(state, Action(ActionKind.FATE, 9))
    assert state.outcome().winners == (0, 2) and state.returns() == (0.5, 0.0, 0.5)


def test_rule_values_come_from_the_model(make_game) -> None:
    game = dataclasses.replace(make_game(2), fate_target=7)
    state = game.new_initial_state()
    state = finish_round_quietly(state)
    assert sum(p for a, p in state.chance_outcomes() if a.value == 7) == Fraction(6, 36)
    state = play(state, Action(ActionKind.FATE, 7))
    assert state.is_terminal()


