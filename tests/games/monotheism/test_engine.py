"""The rules engine against the rulebook's worked examples and each ruling of monotheism-facts.md."""
from __future__ import annotations

import pickle

import pytest

from pipeline.data.dataset import load_game
from pipeline.games.monotheism.engine import PHASE_PLACE, PHASE_SUBMERGE, PLAYER, STAGE, play_line
from pipeline.games.registry import spec as spec_of

from .helpers import NEXT, THIS, deity, game, half, labels, start, worshiper

EAT_FOUR = {"do": [{"consume": {"target": {"nearest": 4}}}]}
VOID_BOTTOM_THREE = {"when": "attempted", "do": [{"void": {"target": {"bottom": 3}}}]}
VOID_ATTACKER = {"when": "attempted", "do": [{"void": {"target": {"attacker": True}}}]}
GRANT_NEXT_NEIGHBOURS = {"do": [{"grant": {"grantee": NEXT, "consume": {"neighbours": True}}}]}


def plain(*ids: str, numbers=(3, 4)):
    return [deity(i, half(numbers)) for i in ids]


# ------------------------------------------------------------------ worked examples of the rulebook
def test_submerge_orderings_adcb_dacb_dcab_dcba() -> None:
    """Top four DCBA (A on top), submerge 4: A may go anywhere in the moved stack."""
    g = game(plain("01", "02", "03", "04", "05", numbers=(4, 5)), [worshiper("w")])
    names = {"01": "A", "02": "B", "03": "C", "04": "D"}
    state = start(g, ["01", "02", "03", "04", "05", "w"]).apply_action("submerge 4")
    assert state.phase == PHASE_PLACE
    orders = set()
    for action in state.legal_actions():
        after = state.apply_action(action)
        moved = [names[label] for label in labels(after)[-4:]]
        orders.add("".join(reversed(moved)))  # written bottom .. top, as the rulebook does
    assert orders == {"ADCB", "DACB", "DCAB", "DCBA"}


def test_four_nearest_against_bottom_three_by_the_void_removes_twelve() -> None:
    ids = [f"{i:02d}" for i in range(3, 17)]
    g = game([deity("01", half(act=EAT_FOUR)), deity("02", half(essence=VOID_BOTTOM_THREE)),
              *plain(*ids)], [worshiper("w")])
    state = start(g, ["01", "02", "w", *ids])
    assert len(state.deck) == 17 - 12
    assert labels(state) == ["01", "02", "w", "03", "04"]


def test_worshiper_eaten_before_victory_in_a_five_card_deck() -> None:
    g = game([deity("01", half(act=EAT_FOUR)), *plain("02", "03", "04")], [worshiper("w")])
    state = start(g, ["01", "02", "03", "04", "w"])
    assert state.is_terminal() and not state.outcome().won_by(PLAYER)
    assert "last worshiper" in state.outcome().detail


def test_veiled_top_is_unveiled_and_veiled_second_gives_no_number() -> None:
    g = game([deity("01", half((7, 5))), deity("02", half((2, 9)))], [worshiper("w")])
    state = start(g, ["01v", "02v", "w"])
    assert state.deck[0][1] is False  # the top card was unveiled
    assert state.submerge_options() == [5, 7]  # #02 is veiled: no left-most number
    unveiled_second = start(g, ["01v", "02", "w"])
    assert unveiled_second.submerge_options() == [2, 5, 7]


def test_atlas_void_chain_consumes_every_card_above() -> None:
    atlas = {"when": "consumed", "do": [{"void": {"target": {"above": True}}}]}
    eat_third = {"do": [{"consume": {"target": {"choose": {"count": 1, "among_top": 4, "kind": "god"}}}}]}
    g = game([deity("01", half(act=eat_third)), deity("07", half(essence=atlas)), *plain("02", "03")],
             [worshiper("w")])
    state = start(g, ["01", "02", "07", "03", "w"]).apply_action("pick 07")
    assert labels(state) == ["03", "w"]
    assert state.outcome().won_by(PLAYER)  # one god left after the act


def test_timing_in_the_middle_of_the_deck_upper_neighbour_first() -> None:
    """A god in the middle eats the card above it, then the one below (which voids it)."""
    grant = {"do": [{"grant": {"grantee": {"choose": {"count": 1, "among_top": 4, "kind": "god"}},
                               "consume": {"neighbours": True}}}]}
    g = game([deity("01", half(act=grant)), *plain("02", "03"), deity("04", half(essence=VOID_ATTACKER)),
              *plain("05")], [worshiper("w")])
    state = start(g, ["01", "02", "03", "04", "05", "w"]).apply_action("pick 03")
    # #03 eats #02 (above) first; then it attempts #04, whose essence voids #03.
    assert labels(state) == ["01", "04", "05", "w"]


def test_worshiper_submerged_with_the_whole_deck_is_cursed() -> None:
    g = game(plain("01", "02", numbers=(3, 3)), [worshiper("w")])
    state = start(g, ["01", "02", "w"])
    after = play_line(state, ["submerge 3", "place 1"])
    assert labels(after) == ["01", "02", "w"]
    assert after.deck[2][STAGE] == 1


# ------------------------------------------------------------------ rulings
def test_ruling_1_reentry_after_the_top_card_leaves() -> None:
    leave = {"do": [{"move": {"target": THIS, "to": "bottom"}}]}
    g = game([deity("01", half(act=leave)), deity("02", half(act=leave)), *plain("03")], [worshiper("w")])
    state = start(g, ["01", "02", "03", "w"])
    assert labels(state) == ["03", "w", "01", "02"]  # both moved away in the same turn
    assert state.phase == PHASE_SUBMERGE


def test_ruling_2_began_unveiled_is_judged_on_arrival() -> None:
    act = {"if": {"began_unveiled": True}, "do": [{"consume": {"target": NEXT}}]}
    g = game([deity("01", half((1, 1), act=act)), *plain("02", "03", "04")], [worshiper("w")])
    first = start(g, ["01v", "02", "03", "04", "w"])
    assert labels(first)[:2] == ["01", "02"]  # arrived veiled: no act
    again = start(g, ["01", "02", "03", "04", "w"])
    assert labels(again)[:2] == ["01", "03"]  # arrived unveiled: eats #02


def test_ruling_3_numbers_larger_than_the_deck() -> None:
    g2 = game([deity("01", half((2, 9))), *plain("02")], [worshiper("w")])
    state = start(g2, ["01", "02", "w"])
    assert "submerge 9" in state.legal_actions()
    lost = state.apply_action("submerge 9")
    assert lost.is_terminal() and not lost.outcome().won_by(PLAYER)
    too_big = game([deity("01", half((8, 9))), deity("02", half((7, 7)))], [worshiper("w")])
    assert start(too_big, ["01", "02", "w"]).outcome().won_by(PLAYER) is False


def test_ruling_4_worshipers_cursed_top_most_first() -> None:
    g = game(plain("01", "02", numbers=(3, 3)), [worshiper("u", stages=2), worshiper("w", stages=2)])
    state = start(g, ["01", "u:1", "w:1", "02"])
    after = state.apply_action("submerge 3")  # every placement loses: the game ends at once
    assert after.outcome().detail == "the last worshiper (w) was consumed"


def test_ruling_5_targets_are_chosen_first() -> None:
    two_of_four = {"do": [{"consume": {"target": {"choose": {"count": 2, "among_top": 4, "kind": "god"}}}}]}
    g = game([deity("01", half(act=two_of_four)), *plain("02", "03", "04", "05")], [worshiper("w")])
    state = start(g, ["01", "02", "03", "04", "05", "w"])
    assert state.legal_actions() == ["pick 02", "pick 03"]  # the 5th card can never be reached
    state = state.apply_action("pick 03")
    assert state.legal_actions() == ["pick 04"]
    assert labels(state.apply_action("pick 04")) == ["01", "02", "05", "w"]


def test_ruling_5_a_consumer_consumed_mid_meal_stops() -> None:
    g = game([deity("01", half(act=EAT_FOUR)), deity("02", half(essence=VOID_ATTACKER)), *plain("03", "04")],
             [worshiper("w")])
    state = start(g, ["01", "02", "03", "04", "w"])
    assert labels(state) == ["02", "03", "04", "w"]


def test_ruling_6_the_void_does_not_trigger_attempted_and_veiled_gods_have_no_essence() -> None:
    void_next = {"do": [{"void": {"target": NEXT}}]}
    eat_next = {"do": [{"consume": {"target": NEXT}}]}
    g = game([deity("01", half(act=void_next)), deity("02", half(act=eat_next)),
              deity("09", half(essence=VOID_ATTACKER)), *plain("03")], [worshiper("w")])
    assert "09" not in labels(start(g, ["01", "09", "03", "w"]))  # the void is not a god
    assert "02" not in labels(start(g, ["02", "09", "03", "w"]))  # a god attempting is voided
    assert labels(start(g, ["02", "09v", "03", "w"]))[:2] == ["02", "03"]  # veiled: no essence


def test_ruling_7_granted_power_survives_the_granter_and_fires_once() -> None:
    bless_on_meal = {"when": "consumes", "do": [{"bless": {"target": {"highest_worshiper": True}}}]}
    g = game([deity("01", half(act=GRANT_NEXT_NEIGHBOURS)), deity("02", half(essence=bless_on_meal)),
              *plain("03", "04")], [worshiper("w")])
    state = start(g, ["01", "02", "03", "04", "w:2"])
    assert labels(state) == ["02", "04", "w"]  # ate the granter (#01), then went on to #03
    assert state.deck[2][STAGE] == 1  # blessed once, not twice


def test_ruling_8_zero_gods_win_only_for_the_pretender() -> None:
    eat_all = {"do": [{"consume": {"target": {"nearest": 1}}}, {"void": {"target": THIS}}]}
    for zero, won in ((True, True), (False, False)):
        g = game([deity("01", half(act=eat_all)), *plain("02")], [worshiper("w", zero_gods_victory=zero)])
        assert start(g, ["01", "02", "w"]).outcome().won_by(PLAYER) is won


def test_ruling_9_a_repeated_position_is_a_stalemate() -> None:
    g = game(plain("01", "02", numbers=(1, 1)),
             [worshiper("w", act={"do": [{"move": {"target": THIS, "to": "bottom"}}]})])
    state = play_line(start(g, ["01", "02", "w"]), ["submerge 1", "submerge 1"])
    assert state.is_terminal() and "stalemate" in state.outcome().detail


def test_a_repeat_is_still_found_after_pickling_the_positions_seen() -> None:
    """The positions seen are kept with their hashes; a pickled state (another process) hashes them again."""
    g = game(plain("01", "02", numbers=(1, 1)),
             [worshiper("w", act={"do": [{"move": {"target": THIS, "to": "bottom"}}]})])
    state = start(g, ["01", "02", "w"]).apply_action("submerge 1")
    for mark in (*state.seen, state.__dict__["mark"]):
        mark.hash ^= 1  # as if hashed in a process with another string hash seed
    again = pickle.loads(pickle.dumps(state)).apply_action("submerge 1")
    assert again.is_terminal() and "stalemate" in again.outcome().detail


def test_ruling_10_curse_and_bless_follow_the_chain() -> None:
    bless = {"do": [{"bless": {"target": {"highest_worshiper": True}}}]}
    g = game([deity("01", half((1, 1), act=bless)), *plain("02", numbers=(1, 1))], [worshiper("w", stages=3)])
    state = start(g, ["02", "w:1", "01"]).apply_action("submerge 1")
    assert state.deck[0][STAGE] == 1  # w reached the top
    cursed = state.apply_action("submerge 1")  # w is cursed once more; #01 then blesses it
    assert labels(cursed)[0] == "01" and cursed.deck[-1][STAGE] == 1
    assert start(g, ["02", "w:2", "01"]).apply_action("submerge 1").apply_action("submerge 1").is_terminal()


# ------------------------------------------------------------------ events: what an action caused
def kinds_and_subjects(state) -> list[tuple[str, str]]:
    return [(e.kind, e.subject) for e in state.events]


def test_events_name_who_consumed_whom_and_the_essence_that_answered() -> None:
    ids = [f"{i:02d}" for i in range(3, 17)]
    g = game([deity("01", half(act=EAT_FOUR)), deity("02", half(essence=VOID_BOTTOM_THREE)),
              *plain(*ids)], [worshiper("w")])
    state = start(g, ["01", "02", "w", *ids])
    assert ("act", "01") in kinds_and_subjects(state)
    answers = [e for e in state.events if e.kind == "essence"]
    assert [(e.subject, e.get("trigger"), e.get("attacker")) for e in answers] == [("02", "attempted", "01")] * 4
    assert sum(1 for e in state.events if e.kind == "voided") == 12  # four bites, three cards each
    assert not [e for e in state.events if e.kind == "consumed"]  # #02 answered every bite instead


def test_events_of_a_consumption_and_the_end() -> None:
    g = game([deity("01", half(act=EAT_FOUR)), *plain("02", "03", "04")], [worshiper("w")])
    state = start(g, ["01", "02", "03", "04", "w"])
    eaten = [(e.subject, e.get("by")) for e in state.events if e.kind == "consumed"]
    assert eaten == [("02", "01"), ("03", "01"), ("04", "01"), ("w", "01")]
    assert state.events[-1].kind == "game-over" and state.events[-1].subject == "last-worshiper"


def test_events_of_submerging_placing_and_cursing() -> None:
    g = game(plain("01", "02", "03", numbers=(3, 3)), [worshiper("w")])
    state = start(g, ["01", "02", "w", "03"]).apply_action("submerge 3")
    assert kinds_and_subjects(state) == [("submerge", "01")] and state.events[0].get("cards") == ("01", "02", "w")
    placed = state.apply_action("place 2")
    assert kinds_and_subjects(placed)[:2] == [("place", "01"), ("curse", "w")]
    assert placed.events[1].get("stage") == 1


def test_events_can_be_left_out_for_search() -> None:
    g = game(plain("01", "02", "03", numbers=(3, 3)), [worshiper("w")])
    quiet = start(g, ["01", "02", "w", "03"]).with_events(False)
    after = quiet.apply_action("submerge 3").apply_action("place 2")
    assert after.events == () and not after.recording
    assert after.key() == start(g, ["01", "02", "w", "03"]).apply_action("submerge 3").apply_action("place 2").key()


# ------------------------------------------------------------------ rulebook statements (issue #16)
GRANT_CHOSEN = {"do": [{"grant": {"grantee": {"choose": {"count": 1, "among_top": 4, "kind": "god"}},
                                  "consume": {"neighbours": True}}}]}
EAT_CHOSEN = {"do": [{"consume": {"target": {"choose": {"count": 1, "among_top": 4, "kind": "card"}}}}]}


def test_a_god_may_grant_this_power_to_itself() -> None:
    """Rulebook: "Other gods act in ways that grant the power to consume. A god may grant this power to itself." """
    g = game([deity("01", half(act=GRANT_CHOSEN)), *plain("02", "03")], [worshiper("w")])
    state = start(g, ["01", "02", "03", "w"])
    assert state.legal_actions() == ["pick 01", "pick 02", "pick 03"]
    after = state.apply_action("pick 01")  # #01 takes the power itself: it eats its one neighbour, #02
    assert labels(after) == ["01", "03", "w"] and after.phase == PHASE_SUBMERGE


def test_gods_cannot_consume_themselves_when_choosing_what_to_eat() -> None:
    """Rulebook: "Gods cannot consume themselves. If the top card is a god that may consume something from
    among the top four cards, you must choose a card from the three cards beneath it." """
    g = game([deity("01", half(act=EAT_CHOSEN)), *plain("02", "03")], [worshiper("w")])
    assert start(g, ["01", "02", "03", "w"]).legal_actions() == ["pick 02", "pick 03", "pick w"]


@pytest.mark.parametrize("granter", ["11", "24"])
def test_the_real_granting_gods_offer_themselves(granter: str) -> None:
    """#11 (upright) and #24 (upright) grant a chosen god the power: the granter itself is among the choices."""
    from pipeline.data.dataset import default_data_root
    from pipeline.games.monotheism.play import load

    real = load(load_game(default_data_root(), spec_of("monotheism"))).game
    others = [god for god in sorted(real.cards.deities) if god != granter][:3]
    worshiper_id = sorted(real.cards.worshipers)[0]
    state = start(real, [granter, *others, worshiper_id], track_history=False)
    assert f"pick {granter}" in state.legal_actions()


def test_a_card_consumed_while_attempting_to_act_stops_acting() -> None:
    """Rulebook: "If a card is itself consumed while attempting to act, its act will cease. After being
    consumed, a card can no longer effect the world." Fixture: #01 grants #02 the power to consume everything
    next to itself (#02 eats #01 above it, then #03 below), then would transform the bottom card #04; #01 is
    gone by then, so #04 stays as it was."""
    act = {"do": [{"grant": {"grantee": NEXT, "consume": {"neighbours": True}}},
                  {"transform": {"target": {"bottom": 1}}}]}
    g = game([deity("01", half(act=act)), *plain("02", "03", "04")], [worshiper("w")])
    state = start(g, ["01", "02", "03", "w", "04"])
    assert labels(state) == ["02", "w", "04"] and not state.is_terminal()
    assert all(not card[2] for card in state.deck), "the rest of a consumed card's act ran"


def test_an_act_goes_on_while_its_card_survives() -> None:
    """The same act when the grantee does not reach the granter: the rest of the act runs."""
    act = {"do": [{"grant": {"grantee": {"bottom": 1}, "consume": {"neighbours": True}}},
                  {"transform": {"target": NEXT}}]}
    g = game([deity("01", half(act=act)), *plain("02", "03", "04")], [worshiper("w")])
    state = start(g, ["01", "02", "w", "03", "04"])
    assert labels(state) == ["01", "02", "w", "04"]
    assert dict((card[0], card[2]) for card in state.deck)["02"] is True


def test_an_essence_when_consumed_still_runs_after_its_card_is_gone() -> None:
    """Only acts cease: "When this is consumed" runs once its card is gone (#02 voids every card above it)."""
    atlas = {"when": "consumed", "do": [{"void": {"target": {"above": True}}}]}
    g = game([deity("01", half(act=EAT_FOUR)), deity("02", half(essence=atlas)), *plain("03")],
             [worshiper("w"), worshiper("v")])
    state = start(g, ["01", "02", "w", "03", "v"])
    assert labels(state) == ["w", "03", "v"]


# ------------------------------------------------------------------ "If so:" (ruling 12, Acts)
MAY_EAT_THEN_TURN = {"do": [{"consume": {"target": {"choose": {"count": 1, "among_top": 4, "kind": "god"}},
                                         "optional": True, "if_so": [{"transform": {"target": THIS}}]}}]}
MUST_EAT_THEN_TURN = {"do": [{"consume": {"target": NEXT, "if_so": [{"transform": {"target": THIS}}]}}]}
INSTEAD_CURSE = {"when": "attempted", "do": [{"curse": {"target": {"highest_worshiper": True}}}]}


def test_a_chosen_consumption_turned_aside_still_lets_the_card_act() -> None:
    """Rulebook, Acts, on "This may consume any god from among the top four cards. If so:": "If the player
    chooses to do so, the top card will then act. If the player chooses not to, the top card will not act".
    #02 answers the attempt with an "instead" essence and survives; the choice was made, so #01 acts on."""
    g = game([deity("01", half(act=MAY_EAT_THEN_TURN)), deity("02", half(essence=INSTEAD_CURSE)), *plain("03")],
             [worshiper("w")])
    state = start(g, ["01", "02", "03", "w"])
    after = state.apply_action("pick 02")
    assert labels(after) == ["01", "02", "03", "w"] and after.deck[3][STAGE] == 1  # #02 answered, not eaten
    assert after.deck[0][2] is True, "the act after 'If so:' did not follow the player's choice"
    declined = state.apply_action("decline")
    assert declined.deck[0][2] is False and declined.phase == PHASE_SUBMERGE  # chose not to: no act


def test_a_chosen_consumption_that_consumes_the_chooser_ends_its_act() -> None:
    """Rulebook, Consuming gods: "If a card is itself consumed while attempting to act, its act will cease."
    #02 has the void consume its attacker: #01 is gone and nothing follows."""
    g = game([deity("01", half(act=MAY_EAT_THEN_TURN)), deity("02", half(essence=VOID_ATTACKER)),
              *plain("03", "04")], [worshiper("w")])
    after = start(g, ["01", "02", "03", "04", "w"]).apply_action("pick 02")
    assert labels(after) == ["02", "03", "04", "w"]


def test_a_consumption_the_card_makes_unasked_leads_on_only_when_it_consumed() -> None:
    """Without a choice, "If so:" can only mean that a card was consumed (ruling 12): a meal turned aside by
    an "instead" essence does not lead on; one that eats does."""
    g = game([deity("01", half(act=MUST_EAT_THEN_TURN)), deity("02", half(essence=INSTEAD_CURSE)), *plain("03")],
             [worshiper("w")])
    averted = start(g, ["01", "02", "03", "w"])
    assert labels(averted) == ["01", "02", "03", "w"] and averted.deck[0][2] is False
    eaten = start(g, ["01", "03", "02", "w"])
    assert labels(eaten)[:2] == ["01", "02"] and eaten.deck[0][2] is True


def test_real_01_transformed_acts_on_after_choosing_13() -> None:
    """The shipped #01 (transformed) reads "This may consume any god from among the top three cards. If so:
    Transform this."; #13 (upright) answers an attempt with "instead" (curse, transform itself). The player
    chose to consume, so #01 transforms (Acts: "If the player chooses to do so, the top card will then act")."""
    from pipeline.data.dataset import default_data_root
    from pipeline.games.monotheism.play import load

    real = load(load_game(default_data_root(), spec_of("monotheism"))).game
    state = start(real, ["01tv", "13", "05", "06", "haruspex", "07"], track_history=False)
    assert state.legal_actions() == ["decline", "pick 13", "pick 05"]
    after = state.apply_action("pick 13")
    by_label = {card[0]: card for card in after.deck}
    assert by_label["13"][2] is True and by_label["haruspex"][STAGE] == 1  # #13's essence answered
    assert by_label["01"][2] is False  # "If so: Transform this." followed the choice
