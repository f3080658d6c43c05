"""The Totems + Taboos rules engine: every rule of the rulebook, its examples and the engine rulings."""
from __future__ import annotations

import random
from fractions import Fraction
from functools import lru_cache
from typing import Optional

import pytest

from pipeline.data.dataset import default_data_root, load_game
from pipeline.engine import play as en_play
from pipeline.engine import random_policy
from pipeline.games.registry import spec as spec_of
from pipeline.games.totems_and_taboos import GAME_ID
from pipeline.games.totems_and_taboos import effects as fx
from pipeline.games.totems_and_taboos import engine as en
from pipeline.games.totems_and_taboos.engine import Action, Game, State
from pipeline.games.totems_and_taboos.model import TotemsModel, build


@lru_cache(maxsize=1)
def the_model() -> TotemsModel:
    return build(load_game(default_data_root(), spec_of(GAME_ID)))


@pytest.fixture(scope="module")
def model() -> TotemsModel:
    return the_model()


def main_state(players: int = 2, **seat0) -> State:
    """A multiplayer state in seat 0's main phase; ``seat0`` sets fields of seat 0's religion."""
    s = Game.multiplayer(the_model(), players).new_initial_state().clone()
    s.start_colours = ["yellow"] * players
    for r in s.religions:
        r.tower = ["yellow"]
    for key, value in seat0.items():
        setattr(s.religions[0], key, value)
    s.current, s.phase, s.steps = 0, en.MAIN, []
    return s.resettled()


def solo_state(difficulty: str = "normal", *, model=None, **seat0) -> State:
    s = Game.solo_game(model or the_model(), difficulty).new_initial_state()
    s = s.apply_action(Action(en.A_COLOUR, ("green",)))
    while s.phase != en.START:
        s = s.apply_action(s.chance_outcomes()[0][0])
    s = s.clone()
    for key, value in seat0.items():
        setattr(s.religions[0], key, value)
    return s.apply_action(Action(en.A_PLAY_TURN))


def play(s: State, card_id: str, target: Optional[int] = None) -> State:
    return s.apply_action(Action(en.A_PLAY, (card_id, target)))


def play_keeping_hand(s: State, card_id: str) -> State:
    """Play a card whose effect ends by offering a discard (Call to the Light) and keep the rest of the hand."""
    s = play(s, card_id)
    return s.apply_action(Action(en.A_STOP)) if Action(en.A_STOP) in s.legal_actions() else s


def first_outcome(s: State) -> State:
    return s.apply_action(s.chance_outcomes()[0][0])


def force_card(s: State, card_id: str) -> State:
    return s.apply_action(Action(en.A_CARD, (card_id,)))


# --------------------------------------------------------------------------- ops


def test_every_op_has_exactly_one_handler() -> None:
    assert set(en.HANDLERS) == set(fx.OPS)
    assert len(set(en.HANDLERS.values())) == len(fx.OPS)


# --------------------------------------------------------------------------- tower


@pytest.mark.parametrize("block, ok", [("blue", True), ("purple", True), ("green", True),
                                       ("yellow", False), ("red", False), ("orange", False)])
def test_rulebook_example_on_blue(model: TotemsModel, block: str, ok: bool) -> None:
    assert en.can_build(model, ["blue"], 2, 1, block).can_build is ok


def test_level_table(model: TotemsModel) -> None:
    tower = ["red"]
    for level, shrines, servants in [(2, 2, 1), (3, 4, 2), (4, 6, 3), (5, 8, 4), (6, 10, 5)]:
        assert en.can_build(model, tower, shrines, servants, "red").can_build
        assert "shrines" in en.can_build(model, tower, shrines - 1, servants, "red").reason
        assert "servants" in en.can_build(model, tower, shrines, servants - 1, "red").reason
        tower = tower + ["red"]
    assert en.can_build(model, tower, 60, 60, "red").reason == "the tower already has 6 levels"


def test_empty_tower_takes_any_colour(model: TotemsModel) -> None:
    assert all(en.can_build(model, [], 0, 0, c).can_build for c in model.colour_ids)


def test_building_uses_servants_and_keeps_shrines() -> None:
    s = main_state(shrines=2, servants=1)
    s = s.apply_action(Action(en.A_BUILD, ("orange", en.PILE)))
    r = s.religions[0]
    assert r.tower == ["yellow", "orange"] and r.shrines == 2 and (r.servants, r.servants_used) == (0, 1)
    assert s.supply["orange"] == 5


def test_a_colour_that_ran_out_cannot_be_built(model: TotemsModel) -> None:
    s = main_state(shrines=2, servants=1)
    s.supply["green"] = 0
    s = s.resettled()
    builds = {a.args[0] for a in s.legal_actions() if a.kind == en.A_BUILD}
    assert builds == {"yellow", "orange"}
    assert en.can_build(model, ["yellow"], 2, 1, "green", supply=0).reason == "no green blocks are left"


def test_sixth_level_wins_at_once() -> None:
    s = main_state(tower=["red"] * 5, shrines=10, servants=5)
    s = s.apply_action(Action(en.A_BUILD, ("red", en.PILE)))
    outcome = s.outcome()
    assert s.is_terminal() and (outcome.termination, outcome.winners) == (en.TOWER_COMPLETE, (0,))
    assert outcome.scores == (6, 1)  # levels of each tower


# --------------------------------------------------------------------------- cards


def test_card_example_needs_two_blue_blocks_and_three_clerics() -> None:
    s = main_state(tower=["blue", "blue"], clerics=3, hand=["blue-paradigm-shift"])
    card = s.game.card("blue-paradigm-shift")
    assert s.unplayable_reason(0, card) is None
    s.religions[0].clerics = 2
    assert s.unplayable_reason(0, card) == "costs 3 available clerics, you have 2"
    s.religions[0].clerics, s.religions[0].tower = 3, ["blue"]
    assert s.unplayable_reason(0, card) == "level 2 needs 2 blue blocks in your tower, you have 1"


def test_playing_uses_the_cost_and_discards_the_card() -> None:
    s = main_state(clerics=1, hand=["yellow-call-to-the-light"])
    s = play(s, "yellow-call-to-the-light")
    r = s.religions[0]
    assert (r.clerics, r.clerics_used, r.servants) == (0, 1, 1)
    assert s.discards["yellow"]["yellow-call-to-the-light"] == 1 and not r.hand


def test_bonus_colour_adds_its_effect() -> None:
    s = main_state(tower=["yellow", "green"], clerics=1, hand=["yellow-call-to-the-light"])
    s = play(s, "yellow-call-to-the-light")
    assert s.religions[0].servants == 2  # Call to the Light's 1 and green's bonus 1


def test_bonus_instead_replaces_the_effect() -> None:
    s = main_state(tower=["green", "green", "green", "red"], clerics=2, servants=1, shrines=0,
                   hand=["green-monument-of-dread"])
    s = play(s, "green-monument-of-dread")
    # level V normally needs 8 shrines and 4 servants; red's bonus waives 6 and 4, Monument's own 4 and 3 do not apply
    assert s.religions[0].tower == ["green", "green", "green", "red"]
    s2 = main_state(tower=["green", "green", "green", "red"], clerics=2, servants=1, shrines=2,
                    hand=["green-monument-of-dread"])
    s2 = play(s2, "green-monument-of-dread")
    s2 = s2.apply_action(next(a for a in s2.legal_actions() if a.args[0] == "red"))
    assert len(s2.religions[0].tower) == 5


def test_miracles_cannot_be_played_from_hand() -> None:
    s = main_state(clerics=3, hand=["yellow-bountiful-harvest"])
    assert not any(a.kind == en.A_PLAY for a in s.legal_actions())


def test_newly_gained_pieces_can_be_used_at_once() -> None:
    s = main_state(tower=["yellow"], clerics=1, hand=["yellow-blessed-birth", "yellow-call-to-the-light"])
    s = play(s, "yellow-blessed-birth")
    s = first_outcome(s)  # the card drawn
    assert any(a.args[0] == "yellow-call-to-the-light" for a in s.legal_actions() if a.kind == en.A_PLAY)


def test_transforming_keeps_used_state() -> None:
    s = main_state(tower=["blue"], servants=2, servants_used=2, hand=["blue-change-of-heart"])
    s = play(s, "blue-change-of-heart")  # pays 1 servant: 1 available + 3 used servants left
    s = s.apply_action(Action(en.A_SPLIT, (1,)))  # of the 3 turned: 1 available, 2 used
    r = s.religions[0]
    assert (r.clerics, r.clerics_used, r.servants, r.servants_used) == (2, 1, 0, 1)  # then 1 used cleric readied


# --------------------------------------------------------------------------- guides


def test_three_cards_of_a_colour_summon_its_guide() -> None:
    s = main_state(clerics=3, hand=["yellow-call-to-the-light"] * 3)
    for n in range(3):
        assert s.guides["yellow"] is en.SIDE
        s = play_keeping_hand(s, "yellow-call-to-the-light")
    assert s.guides["yellow"] == 0


def test_a_summon_steals_the_guide_from_another_god() -> None:
    s = main_state(clerics=3, hand=["yellow-call-to-the-light"] * 3)
    s.guides["yellow"] = 1
    for _ in range(3):
        s = play_keeping_hand(s, "yellow-call-to-the-light")
    assert s.current_player() == 1  # the holder may first sacrifice it (see below); it keeps it to the end
    s = s.apply_action(Action(en.A_PASS))
    assert s.guides["yellow"] == 0 and (s.religions[1].clerics, s.religions[1].servants) == (0, 0)


def test_a_guide_about_to_be_stolen_can_be_sacrificed_first() -> None:
    """Rulebook 6: "they can steal away the guide. Luckily, you can sacrifice them at any time"."""
    s = main_state(clerics=3, hand=["yellow-call-to-the-light"] * 3)
    s.guides["yellow"] = 1
    for _ in range(3):
        s = play_keeping_hand(s, "yellow-call-to-the-light")
    assert s.current_player() == 1
    assert set(s.legal_actions()) == {Action(en.A_PASS), Action(en.A_GUIDE, ("yellow", None))}
    s = s.apply_action(Action(en.A_GUIDE, ("yellow", None)))
    # the victim got the ability (2 clerics, 1 servant); the thief took the guide from the side of the table
    assert (s.religions[1].clerics, s.religions[1].servants) == (2, 1)
    assert s.guides["yellow"] == 0 and s.current_player() == 0 and s.phase == en.MAIN


def test_a_steal_by_a_commandment_can_be_answered_with_a_sacrifice() -> None:
    s = main_state(tower=["red"] * 3, clerics=3, hand=["red-unbreakable-bond"])
    s.guides["orange"] = 1
    s = s.resettled()
    s = play(s, "red-unbreakable-bond")
    while s.current_player() == 0 and not s.is_chance_node() and en.A_TAKE_GUIDE not in {a.kind for a in s.legal_actions()}:
        s = s.apply_action(s.legal_actions()[0])  # which cleric dies for the extra cost
    s = s.apply_action(Action(en.A_TAKE_GUIDE, ("orange",)))
    assert s.current_player() == 1 and Action(en.A_GUIDE, ("orange", None)) in s.legal_actions()
    s = s.apply_action(Action(en.A_GUIDE, ("orange", None)))
    assert s.is_chance_node()  # the victim rolls its 3 soul cubes before the thief takes the guide
    for _ in range(3):
        s = first_outcome(s)
    assert s.religions[1].souls() == 3 and s.guides["orange"] == 0


def test_sacrificing_a_guide_returns_it_to_the_side() -> None:
    s = main_state()
    s.guides["yellow"] = 0
    s = s.resettled()
    s = s.apply_action(Action(en.A_GUIDE, ("yellow", None)))
    assert s.guides["yellow"] is en.SIDE and (s.religions[0].clerics, s.religions[0].servants) == (2, 1)


# --------------------------------------------------------------------------- reactions


def _attack_with_reaction_ready() -> State:
    s = main_state(tower=["green"], clerics=1, hand=["green-shackles"])
    defender = s.religions[1]
    defender.tower, defender.clerics, defender.servants = ["red", "red"], 1, 2
    defender.hand = ["red-unrequited"]
    s = s.resettled()
    return s


def test_a_reaction_cancels_but_the_card_stays_paid_and_discarded() -> None:
    s = _attack_with_reaction_ready()
    s = play(s, "green-shackles", 1)
    assert s.current_player() == 1
    assert Action(en.A_REACT, ("red-unrequited", None)) in s.legal_actions()
    s = s.apply_action(Action(en.A_REACT, ("red-unrequited", None)))
    # the extra cost kills one of the defender's servants (all are available: no choice to make)
    attacker, defender = s.religions
    assert attacker.servants == 0 and attacker.clerics_used == 1
    assert defender.servants == 1 and defender.clerics_used == 1  # one servant died, none stolen
    assert s.discards["green"]["green-shackles"] == 1 and s.discards["red"]["red-unrequited"] == 1
    assert s.current_player() == 0 and s.phase == en.MAIN


def test_passing_lets_the_effect_happen() -> None:
    s = _attack_with_reaction_ready()
    s = play(s, "green-shackles", 1)
    s = s.apply_action(Action(en.A_PASS))
    if s.current_player() == 1:
        s = s.apply_action(Action(en.A_SPLIT, (2,)))
    assert s.religions[0].servants == 1 and s.religions[1].servants == 1


def test_red_guide_cancels_as_a_reaction() -> None:
    s = _attack_with_reaction_ready()
    s.religions[1].hand = []
    s.guides["red"] = 1
    s = play(s, "green-shackles", 1)
    assert Action(en.A_GUIDE, ("red", 0)) in s.legal_actions()
    s = s.apply_action(Action(en.A_GUIDE, ("red", 0)))
    assert s.religions[0].servants == 0 and s.guides["red"] is en.SIDE


def test_any_guide_answers_a_commandment_without_cancelling_it() -> None:
    """Rulebook 6: "you can sacrifice them at any time", so also during another god's turn."""
    s = _attack_with_reaction_ready()
    s.religions[1].hand = []
    s.guides["yellow"] = 1
    s = s.resettled()
    s = play(s, "green-shackles", 1)
    assert s.current_player() == 1
    assert set(s.legal_actions()) == {Action(en.A_PASS), Action(en.A_GUIDE, ("yellow", None))}
    s = s.apply_action(Action(en.A_GUIDE, ("yellow", None)))
    while s.current_player() == 1:  # which of the defender's servants is taken
        s = s.apply_action(s.legal_actions()[0])
    attacker, defender = s.religions
    assert s.guides["yellow"] is en.SIDE and defender.clerics == 3  # 1 + the guide's 2
    assert attacker.servants == 1 and defender.count(fx.SERVANT) == 2  # 2 + the guide's 1 - the stolen 1
    assert s.current_player() == 0 and s.phase == en.MAIN


def test_a_guide_can_be_sacrificed_before_choosing_to_skip() -> None:
    s = main_state(clerics=0, servants=0)
    s.phase = en.START
    s.guides["yellow"] = 0
    s = s.resettled()
    assert Action(en.A_GUIDE, ("yellow", None)) in s.legal_actions()
    assert Action(en.A_SKIP, ("promote",)) not in s.legal_actions()  # no servant to promote yet
    s = s.apply_action(Action(en.A_GUIDE, ("yellow", None)))
    assert s.phase == en.START
    s = s.apply_action(Action(en.A_SKIP, ("promote",)))
    assert (s.religions[0].clerics, s.religions[0].servants) == (3, 0)


def test_a_guide_can_be_sacrificed_after_the_end_of_turn_draws() -> None:
    s = main_state(hand=[])
    s.guides["blue"] = 0
    s = s.resettled()
    s = s.apply_action(Action(en.A_END_MAIN))
    s = s.apply_action(Action(en.A_END, ("empty-hand",)))  # only with an empty hand: the guide waited
    while s.is_chance_node() or en.A_DRAW_COLOUR in {a.kind for a in s.legal_actions()}:
        s = s.apply_action(s.chance_outcomes()[0][0] if s.is_chance_node() else s.legal_actions()[0])
    assert s.turns == 0 and set(s.legal_actions()) == {Action(en.A_PASS), Action(en.A_GUIDE, ("blue", None))}
    s = s.apply_action(Action(en.A_GUIDE, ("blue", None)))
    while s.is_chance_node() or s.current_player() == 0 and s.turns == 0:
        s = s.apply_action(s.chance_outcomes()[0][0] if s.is_chance_node() else s.legal_actions()[0])
    assert s.guides["blue"] is en.SIDE and s.turns == 1


# --------------------------------------------------------------------------- skip, end of turn, miracles


@pytest.mark.parametrize("option, expected", [
    ("convert", (1, 2, 0)), ("promote", (2, 0, 0)), ("sacrifice", (0, 1, 1)),
])
def test_skip_options(option: str, expected: tuple[int, int, int]) -> None:
    s = main_state(clerics=1, servants=1)
    s.phase = en.START
    s = s.resettled()
    s = s.apply_action(Action(en.A_SKIP, (option,)))
    r = s.religions[0]
    assert (r.clerics, r.servants, r.shrines) == expected
    assert s.phase == en.END  # ruling: a skipped turn still ends as usual


def test_end_options_and_the_empty_hand_draw() -> None:
    s = main_state(hand=["yellow-call-to-the-light"])
    s = s.apply_action(Action(en.A_END_MAIN))
    assert {a.args[0] for a in s.legal_actions()} == {"draw-one", "fresh-hand"}
    s.religions[0].hand = []
    s = s.resettled()
    assert {a.args[0] for a in s.legal_actions()} == {"draw-one", "fresh-hand", "empty-hand"}
    s = s.apply_action(Action(en.A_END, ("empty-hand",)))
    for _ in range(3):
        s = force_card(s, "yellow-call-to-the-light")
    assert len(s.religions[0].hand) == 3 and s.current == 1


def test_fresh_hand_discards_and_draws_three() -> None:
    s = main_state(hand=["yellow-apostasy", "yellow-apostasy"])
    s = s.apply_action(Action(en.A_END_MAIN))
    s = s.apply_action(Action(en.A_END, ("fresh-hand",)))
    for _ in range(3):
        s = force_card(s, "yellow-open-arms")
    assert s.religions[0].hand == ["yellow-open-arms"] * 3 and s.discards["yellow"]["yellow-apostasy"] == 2


def test_hand_limit_of_six_stops_drawing() -> None:
    s = main_state(hand=["yellow-open-arms"] * 6)
    s = s.apply_action(Action(en.A_END_MAIN))
    s = s.apply_action(Action(en.A_END, ("draw-one",)))
    assert len(s.religions[0].hand) == 6 and s.current == 1 and not s.is_chance_node()


def test_used_pieces_are_ready_after_the_turn() -> None:
    s = main_state(clerics_used=2, servants_used=3)
    s = s.apply_action(Action(en.A_END_MAIN))
    s = s.apply_action(Action(en.A_END, ("draw-one",)))
    s = first_outcome(s)
    assert (s.religions[0].clerics, s.religions[0].servants) == (2, 3)


def test_a_drawn_miracle_happens_at_once_and_is_replaced() -> None:
    s = main_state(tower=["yellow", "yellow"])
    s.religions[1].tower = ["yellow"]
    s = s.apply_action(Action(en.A_END_MAIN))
    s = s.apply_action(Action(en.A_END, ("draw-one",)))
    s = force_card(s, "yellow-bountiful-harvest")
    assert s.religions[0].clerics == 2 and s.religions[1].clerics == 1  # one per yellow block
    assert s.is_chance_node()  # the replacement card
    assert all(a.args[0] != "yellow-bountiful-harvest" for a, _ in s.chance_outcomes())
    s = force_card(s, "yellow-open-arms")
    assert s.religions[0].hand == ["yellow-open-arms"] and s.discards["yellow"]["yellow-bountiful-harvest"] == 1


def test_starting_hands_never_hold_a_miracle() -> None:
    s = Game.multiplayer(the_model(), 2).new_initial_state()
    s = s.apply_action(Action(en.A_COLOUR, ("blue",)))
    s = s.apply_action(Action(en.A_COLOUR, ("green",)))
    assert s.is_chance_node()
    while s.phase != en.START:
        assert all(not s.game.card(a.args[0]).is_miracle for a, _ in s.chance_outcomes() if a.kind == en.A_CARD)
        s = first_outcome(s)
    assert [len(r.hand) for r in s.religions] == [3, 3]
    assert (s.religions[0].clerics, s.religions[0].shrines) == (2, 1)  # blue's package
    assert s.religions[1].servants == 4  # green's package
    assert s.current == 1  # green comes before blue in the start order


def test_start_order_follows_the_colours() -> None:
    s = Game.multiplayer(the_model(), 3).new_initial_state()
    for colour in ("orange", "purple", "purple"):
        s = s.apply_action(Action(en.A_COLOUR, (colour,)))
    while s.phase != en.START:
        s = first_outcome(s)
    assert s.current == 1  # purple before orange; the purple tie goes to the earlier seat (ruling)


def test_soul_cube_faces_are_explicit_chance() -> None:
    """Rulebook, 2. Souls...: "You can only get a shrine when one of your clerics dies." A rolled cube
    landing on a shrine face is rolled again (ruling), so it arrives as a cleric or a servant, 1/2 each."""
    s = main_state(tower=["orange"], clerics=1, hand=["orange-leap-of-faith"])
    s = play(s, "orange-leap-of-faith")
    outcomes = s.chance_outcomes()
    assert {a.args[0]: p for a, p in outcomes} == {"cleric": Fraction(1, 2), "servant": Fraction(1, 2)}
    with pytest.raises(en.IllegalAction):
        s.apply_action(Action(en.A_FACE, ("shrine",)))


def test_red_start_rolls_three_souls_and_never_a_shrine() -> None:
    """Red's start, 'roll 3 soul cubes': three souls, none of them a shrine (no cleric died)."""
    s = Game.multiplayer(the_model(), 2).new_initial_state()
    s = s.apply_action(Action(en.A_COLOUR, ("red",))).apply_action(Action(en.A_COLOUR, ("blue",)))
    faces = []
    while s.phase != en.START:
        if s.chance_outcomes() and s.chance_outcomes()[0][0].kind == en.A_FACE:
            faces.append({a.args[0] for a, _ in s.chance_outcomes()})
        s = first_outcome(s)
    red = s.religions[0]
    assert faces == [{"cleric", "servant"}] * 3
    assert red.shrines == 0 and red.count(fx.CLERIC) + red.count(fx.SERVANT) == 3


# --------------------------------------------------------------------------- rulings


def test_cleric_deaths_make_shrines_and_servant_deaths_free_souls() -> None:
    s = main_state(tower=["purple", "purple"], clerics=2)
    victim = s.religions[1]
    victim.servants, victim.clerics = 3, 2
    s.religions[0].hand = ["purple-plague", "purple-danse-macabre"]
    s = s.resettled()
    pile = s.pile
    s = play(s, "purple-plague")
    assert s.religions[1].servants == 1 and s.pile == pile + 2 - 3  # two killed, three gained by the player


def test_protected_gods_cannot_be_targeted() -> None:
    s = main_state(tower=["green"], clerics=1, hand=["green-shackles"])
    s.religions[1].protected = True
    s = s.resettled()
    assert not any(a.kind == en.A_PLAY for a in s.legal_actions())


def test_protection_ends_at_your_next_turn() -> None:
    s = main_state()
    s.religions[1].protected = True
    s = s.apply_action(Action(en.A_END_MAIN))
    s = s.apply_action(Action(en.A_END, ("draw-one",)))
    s = first_outcome(s)
    assert s.current == 1 and not s.religions[1].protected


def test_extra_cost_kills_pieces_other_than_those_paying() -> None:
    s = main_state(tower=["red", "red", "red"], clerics=2, hand=["red-unbreakable-bond"])
    assert not any(a.kind == en.A_PLAY for a in s.legal_actions())
    s.religions[0].clerics_used = 1
    s = s.resettled()
    s = play(s, "red-unbreakable-bond")
    r = s.religions[0]
    assert (r.clerics, r.clerics_used, r.shrines) == (0, 2, 1)


def test_a_shrine_as_extra_cost_returns_to_the_pile() -> None:
    """'Every action has a cost, and most cards require available clerics or servants' (7.4): Grave Robbing's
    cost is one of your shrines, returned to the pile, so a god holding only shrines (purple's start) can play it."""
    s = main_state(tower=["purple"], shrines=2, hand=["purple-grave-robbing"])
    s.religions[1].shrines = 3
    s = s.resettled()
    pile = s.pile
    s = play(s, "purple-grave-robbing")
    assert (s.religions[0].shrines, s.religions[0].servants) == (1, 2)  # paid one shrine, gained two servants
    assert s.religions[1].shrines == 3 and s.pile == pile + 1 - 2  # your shrine in, the servants out
    s = main_state(tower=["purple"], shrines=0, hand=["purple-grave-robbing"])
    assert not any(a.kind == en.A_PLAY for a in s.legal_actions())  # no shrine, no play


def test_shrines_raised_as_clerics_arrive_available() -> None:
    """Ruling 17: a shrine turned back into a cleric arrives available (Blessed Birth's purple bonus raises one)."""
    s = main_state(tower=["yellow", "green", "blue", "purple"], clerics=1, shrines=1, hand=["yellow-blessed-birth"])
    s = play(s, "yellow-blessed-birth").apply_action(Action(en.A_DRAW_COLOUR, ("yellow",)))
    s = s.apply_action(s.chance_outcomes()[0][0])  # the card drawn; then the bonus resolves
    r = s.religions[0]
    # paid its cleric, killed it into a shrine, gained a cleric, and the bonus raised one shrine: both clerics ready
    assert (r.clerics, r.clerics_used, r.shrines) == (2, 0, 1)


def test_taking_a_card_into_a_full_hand_leaves_it() -> None:
    s = main_state(tower=["red"], clerics=1, servants=1, hand=["red-heart-thief"] + ["red-sacred-vow"] * 5)
    s.religions[1].hand = ["blue-inquiry"]
    s = s.resettled()
    s = play(s, "red-heart-thief", 1)
    assert s.religions[1].hand == ["blue-inquiry"]


def test_do_as_much_as_you_can() -> None:
    s = main_state(tower=["purple"], servants=1, hand=["purple-raise-the-dead"])
    s.pile = 1
    s = play(s, "purple-raise-the-dead")  # gain 1 cleric and 1 servant: the one soul left becomes the cleric
    r = s.religions[0]
    assert (r.clerics, r.servants, s.pile) == (1, 0, 0) and s.discards["purple"]["purple-raise-the-dead"] == 1


# --------------------------------------------------------------------------- solo


@pytest.mark.parametrize("difficulty, blocks, shrines", [("easy", 4, 6), ("normal", 5, 8), ("hard", 6, 10)])
def test_solo_setup(difficulty: str, blocks: int, shrines: int) -> None:
    s = Game.solo_game(the_model(), difficulty).new_initial_state()
    passive = s.religions[1:]
    assert all(r.passive and len(r.tower) == blocks and r.shrines == shrines for r in passive)
    assert [r.tower[0] for r in passive] == list(the_model().colour_ids)
    assert s.pile == 60 - 6 * shrines
    assert all(s.game.card(c).level != 3 for deck in s.decks.values() for c in deck)


def test_solo_start_block_comes_from_a_passive_religion() -> None:
    """'Choose a starting color and take a totem block from 1 of the passive religions.' (8.1 Setting up)"""
    s = solo_state("normal")
    assert s.religions[0].tower == ["green"] and len(s.religions[s.passive_seat("green")].tower) == 4
    # ruling: your starting souls come out of that passive religion's shrines; the block moves alone
    assert s.religions[0].servants == 4 and s.pile == 60 - 48
    assert s.religions[s.passive_seat("green")].shrines == 8 - 4


def test_hard_start_takes_souls_from_the_passive_shrines() -> None:
    """'Highway to hell': 6 blocks and 10 shrines each put every soul behind the passive religions."""
    s = solo_state("hard")
    assert s.pile == 0 and s.religions[s.passive_seat("green")].shrines == 10 - 4 and s.religions[0].servants == 4


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_taking_a_passive_block_moves_only_the_block(difficulty: str) -> None:
    """'When upgrading your tower, you can take a totem block from a passive religion, and draw a card of that
    color' (8.2 Your turn): nothing else moves, so the religion keeps its shrines and the pile is unchanged."""
    s = solo_state(difficulty, shrines=2, servants=5)
    seat = s.passive_seat("blue")
    blocks, shrines, pile = len(s.religions[seat].tower), s.religions[seat].shrines, s.pile
    s = s.apply_action(Action(en.A_BUILD, ("blue", seat)))
    assert len(s.religions[seat].tower) == blocks - 1 and s.religions[seat].shrines == shrines
    assert s.religions[0].shrines == 2 and s.pile == pile


def _after_turn(s: State) -> State:
    """End the solo god's turn with nothing played: the die is next."""
    s = s.apply_action(Action(en.A_END_MAIN))
    return s.apply_action(Action(en.A_END, ("draw-one",)))


def test_the_rolled_religion_gains_its_colours_starting_resources() -> None:
    """'The passive religion of the rolled color gains resources equal to the starting resources for that color
    (see 7.2 Starting colors).' (8.3) Orange's are 4 clerics, and they stay clerics."""
    s = _after_turn(solo_state("normal", hand=["green-shackles"] * 6))
    pile = s.pile
    s = s.apply_action(Action(en.A_DIE, ("orange",)))
    orange = s.religions[s.passive_seat("orange")]
    assert (orange.shrines, orange.clerics, s.pile) == (8, 4, pile - 4)
    s = _after_turn(s.apply_action(Action(en.A_PLAY_TURN)))
    s = s.apply_action(Action(en.A_DIE, ("purple",)))  # purple's 2 shrines, though its religion holds 8 already
    assert s.religions[s.passive_seat("purple")].shrines == 10 and s.pile == pile - 4 - 2


def test_solo_building_from_a_passive_religion_draws_a_card() -> None:
    s = solo_state("normal", shrines=2)
    seat = s.passive_seat("blue")
    s = s.apply_action(Action(en.A_BUILD, ("blue", seat)))
    assert len(s.religions[seat].tower) == 4 and s.religions[0].tower == ["green", "blue"]
    assert s.is_chance_node() and all(s.game.card(a.args[0]).colour == "blue" for a, _ in s.chance_outcomes())


def test_solo_die_gives_the_rolled_religion_its_package_or_ends_the_game() -> None:
    """'When you roll the single player die between your turns, and there are not enough souls to give that
    passive religion its resources, you lose the game.' (8.4)"""
    s = _after_turn(solo_state("normal", hand=["green-shackles"] * 6))
    assert {a.args[0] for a, _ in s.chance_outcomes()} == set(the_model().colour_ids)
    s = s.apply_action(Action(en.A_DIE, ("green",)))
    assert s.religions[s.passive_seat("green")].servants == 4 and s.pile == 12 - 4
    s.pile = 2
    s = _after_turn(s.apply_action(Action(en.A_PLAY_TURN)))
    s = s.apply_action(Action(en.A_DIE, ("purple",)))  # 2 shrines from a pile of 2
    assert not s.is_terminal() and s.pile == 0
    s.pile = 2
    s = _after_turn(s.apply_action(Action(en.A_PLAY_TURN)))
    s = s.apply_action(Action(en.A_DIE, ("yellow",)))  # 2 servants and 1 shrine: 3 souls, 2 in the pile
    assert (s.outcome().termination, s.outcome().winners) == (en.SOULS_DEPLETED, ())  # the solo god loses


@pytest.mark.parametrize("colour, souls", [("yellow", 3), ("green", 4), ("blue", 3), ("purple", 2), ("red", 3),
                                           ("orange", 4)])
def test_the_die_asks_for_the_whole_package(colour: str, souls: int) -> None:
    """8.4, read as written: the pile must hold every soul of the rolled colour's starting resources, whatever
    the religion already holds (red's 3 rolled souls count in full, their faces unknown until rolled)."""
    def roll(pile: int) -> State:
        s = solo_state("hard", hand=["green-shackles"] * 6)
        s.pile = pile
        return _after_turn(s).apply_action(Action(en.A_DIE, (colour,)))

    assert roll(souls - 1).is_terminal() and not roll(souls).is_terminal()


@pytest.mark.parametrize("colour", ["yellow", "green", "blue", "purple", "red", "orange"])
def test_hard_first_roll_needs_a_refill(colour: str) -> None:
    """'Highway to hell': 6 blocks and 10 shrines each leave no soul in the pile, so unless your first turn
    refills it, every face of the first roll ends the game ('Few have succeeded in this challenging mode')."""
    s = Game.solo_game(the_model(), "hard").new_initial_state().apply_action(Action(en.A_COLOUR, (colour,)))
    while s.phase != en.START:
        s = s.apply_action(s.chance_outcomes()[0][0])
    s = _after_turn(s.apply_action(Action(en.A_PLAY_TURN)))
    card = next(a for a, _ in s.chance_outcomes() if s.game.card(a.args[0]).level is not None)
    s = s.apply_action(card)  # a commandment: a miracle drawn would feed the passive religions first
    assert s.pile == 0 and all(s.apply_action(a).is_terminal() for a, _ in s.chance_outcomes())


def test_a_passive_religion_without_blocks_gains_nothing() -> None:
    s = solo_state("normal", hand=["green-shackles"] * 6)
    s.religions[s.passive_seat("purple")].tower.clear()
    s.pile = 0
    s = s.apply_action(Action(en.A_END_MAIN))
    s = s.apply_action(Action(en.A_END, ("draw-one",)))
    s = s.apply_action(Action(en.A_DIE, ("purple",)))  # would need 2 souls: nothing happens instead
    assert not s.is_terminal() and s.religions[s.passive_seat("purple")].shrines == 8


def test_passive_shrines_stand_in_for_stolen_and_killed_pieces() -> None:
    s = solo_state("normal", clerics=1, hand=["green-shackles"])
    seat = s.passive_seat("blue")
    s = s.apply_action(Action(en.A_PLAY, ("green-shackles", seat)))
    assert s.religions[0].servants == 4 + 1 and s.religions[seat].shrines == 8 - 1
    s = solo_state("normal", clerics=1, hand=["green-shackles"])
    s.religions[seat].servants = 1
    s = s.apply_action(Action(en.A_PLAY, ("green-shackles", seat)))
    assert s.religions[seat].servants == 0 and s.religions[seat].shrines == 8  # a real servant goes first
    s = solo_state("normal")
    pile = s.pile
    s.push(en.Take(seat, "servant", 2, en.TO_KILL))
    s = s.resettled()
    assert s.religions[seat].shrines == 8 - 2 and s.pile == pile + 2


def test_solo_targets_are_passive_religions_and_miracles_reach_them() -> None:
    s = solo_state("easy", clerics=1, hand=["green-shackles"])
    assert {a.args[1] for a in s.legal_actions() if a.kind == en.A_PLAY} == set(range(1, 7))
    s = s.apply_action(Action(en.A_END_MAIN))
    s = s.apply_action(Action(en.A_END, ("draw-one",)))
    pile = s.pile
    s = force_card(s, "green-night-terrors")
    # 'gaining clerics equal to the number of totem blocks of that color' (8.2): 3 green blocks left, 3 clerics
    green = s.religions[s.passive_seat("green")]
    assert (green.clerics, green.shrines) == (3, 6 - 4)  # its shrines gave you your 4 starting souls
    assert s.religions[0].servants == 4 + 1  # the player owns one green block
    assert s.pile == pile - 4


def test_idle_solo_length_matches_the_hand_computation() -> None:
    """A god who never acts and never draws loses when the pile runs short: exact expectation by recursion.

    Every roll drains the pile by the rolled colour's whole starting resources (8.3, 8.4)."""
    s = solo_state("easy", hand=["green-shackles"] * 6)
    packages = {p.colour: p.souls for p in the_model().setup.resources}

    @lru_cache(maxsize=None)
    def expected_turns(pile: int) -> Fraction:
        total = Fraction(0)
        for colour, souls in packages.items():
            total += Fraction(1, 6) * (1 + (expected_turns(pile - souls) if pile >= souls else 0))
        return total

    def engine_expectation(state: State) -> Fraction:
        if state.is_terminal():
            return Fraction(state.turns)
        if state.is_chance_node():
            total = Fraction(0)
            for action, p in state.chance_outcomes():
                child = state.clone()
                child = child.apply_action(action)
                total += p * engine_expectation(child)
            return total
        child = state.clone()
        kinds = {a.kind for a in child.legal_actions()}
        step = {en.A_PLAY_TURN: Action(en.A_PLAY_TURN), en.A_END_MAIN: Action(en.A_END_MAIN)}
        action = next((step[k] for k in step if k in kinds), Action(en.A_END, ("draw-one",)))
        child = child.apply_action(action)
        return engine_expectation(child)

    s = s.apply_action(Action(en.A_END_MAIN))
    s = s.apply_action(Action(en.A_END, ("draw-one",)))
    s.pile = 7  # keep the tree small: a few rolls
    assert engine_expectation(s) == expected_turns(7)


ITEM9_GAMES = 12  # seeded random solo games per difficulty


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_your_shrines_only_come_from_your_dying_clerics(difficulty: str) -> None:
    """'You can only get a shrine when one of your clerics dies.' (2. Souls, servants, clerics, and shrines; your
    starting resources apart): over random solo games, no action raises the solo god's shrines by more
    than the clerics of theirs it kills (taking passive blocks, the die and miracles included)."""
    game = Game.solo_game(the_model(), difficulty)
    rises = 0
    for seed in range(ITEM9_GAMES):
        before = None
        for s in en_play(game.new_initial_state(), random_policy, random.Random(seed), max_actions=600):
            mine = s.religions[0]
            if before is not None:
                died = sum(int(e.get("available") or 0) + int(e.get("used") or 0) for e in s.events
                           if e.kind == "pieces-taken" and e.subject == fx.CLERIC and e.get("seat") == 0
                           and e.get("then") == en.TO_KILL)
                assert mine.shrines - before <= died, f"seed {seed}: {s.events}"
                rises += mine.shrines > before
            if before is not None or s.phase == en.START:  # set-up is over: from now on shrines are earned
                before = mine.shrines
    assert rises > 0  # the games did make shrines, by killing clerics
