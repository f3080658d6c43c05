"""The rulebook's three types of acting card, and the eight acts redesigned so the deck has all three (#16 item 2).

Rulebook, "The top card might act": "There are three types of cards" -- one acts "if the condition described
in the pink box is met"; one "will perform an act every time it reaches the top of the deck. If the condition
described in the top pink box is met, this card will perform the act described in the blue box. If the
condition described in the top pink box is *not* met, this card will instead perform the act described in the
bottom box."; and, under Acts, "Some cards have a condition that asks the player to make a choice ... If the
player chooses not to, the top card will not act".
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pipeline.data.dataset import default_data_root, load_game
from pipeline.games.monotheism import dsl
from pipeline.games.monotheism.engine import LABEL, PHASE_SUBMERGE, STAGE, TURNED, VEILED, State
from pipeline.games.monotheism.play import Loaded, load
from pipeline.games.monotheism.render import OTHERWISE, RESULT, deity_half
from pipeline.games.monotheism.text import act_parts
from pipeline.games.registry import spec as spec_of
from tests.games.monotheism.helpers import labels, start

WORSHIPER = "haruspex"
FILLER = ["04", "05", "07"]  # plain gods under the test's cards (no act on top, nothing to trigger), so no win


@pytest.fixture(scope="module")
def loaded() -> Loaded:
    return load(load_game(default_data_root(), spec_of("monotheism")))


def _play(loaded: Loaded, top_first: list[str]) -> State:
    return start(loaded.game, top_first + FILLER + [WORSHIPER])


def _card(state: State, label: str) -> Any:
    return next(card for card in state.deck if card[LABEL] == label)


# ------------------------------------------------------------------ the three types in the data
def test_every_act_in_the_data_is_one_of_the_three_types(loaded: Loaded) -> None:
    halves = [h for d in loaded.game.cards.deities.values() for h in d.halves]
    acts = [h.act for h in halves if h.act] + [s.act for w in loaded.game.cards.worshipers.values()
                                               for s in w.states if s.act]
    kinds = {dsl.act_type(act) for act in acts}
    assert None not in kinds
    assert kinds == set(dsl.ACT_TYPES)  # the deck has all three, as the rulebook describes it


@pytest.mark.parametrize("act, kind", [
    ({"if": {"began_unveiled": True}, "do": [{"transform": {"target": {"this": True}}}]}, dsl.CONDITIONAL),
    # Rulebook, Acts: "This is the only condition that will prevent a god from acting when it is first
    # unveiled": with an "Otherwise" box it still does not act every time it reaches the top.
    ({"if": {"began_unveiled": True}, "do": [{"transform": {"target": {"this": True}}}],
      "otherwise": [{"veil": {"target": {"next": True}}}]}, dsl.CONDITIONAL),
    ({"if": {"next_to_aspect": "moon"}, "do": [{"transform": {"target": {"this": True}}}],
      "otherwise": [{"veil": {"target": {"next": True}}}]}, dsl.ALWAYS),
    ({"do": [{"consume": {"target": {"next": True}, "optional": True}}]}, dsl.CHOICE),
    ({"do": [{"consume": {"target": {"next": True}}}]}, None),                          # acts with no condition
    ({"do": [{"veil": {"target": {"next": True}, "optional": True}},
             {"curse": {"target": {"highest_worshiper": True}}}]}, None),              # a "may" and a must
    ({"do": [{"veil": {"target": {"next": True}}}], "otherwise": [{"curse": {"target": {"this": True}}}]}, None),
])
def test_act_type(act: dict, kind: str) -> None:
    assert dsl.act_type(act) == kind


@pytest.mark.parametrize("filename, edit, expected", [
    ("deities.yaml", lambda d: next(x for x in d["deities"] if x["id"] == "03")["transformed"]["act"].pop("if"),
     "deity 03 (The Drowned Mother) (transformed): the act is none of the rulebook's three types"),
    ("worshipers.yaml", lambda d: next(x for x in d["worshipers"] if x["id"] == "haruspex")["states"][1].update(
        act={"do": [{"move": {"target": {"next": True}, "to": "bottom"}}]}),
     "worshiper haruspex (state 2): the act is none of the rulebook's three types"),
])
def test_validate_names_an_act_of_no_type(filename: str, edit: Any, expected: str, data_copy: Path, edit_yaml,
                                          validate) -> None:
    edit_yaml(data_copy / "monotheism" / filename, lambda data: [edit(data), None][1])
    messages = [p.message for p in validate(data_copy, ["monotheism"])]
    assert any(expected in m for m in messages), messages


def test_an_always_acting_act_prints_condition_result_and_otherwise_boxes(loaded: Loaded) -> None:
    half = loaded.game.cards.deities["20"].halves[1]
    condition, body, otherwise = act_parts(half.act)  # type: ignore[arg-type]
    assert condition == dsl.ACT_FRAMES["if"]("this is next to a worshiper")
    assert otherwise == dsl.ACT_FRAMES["otherwise"]("Veil the card beneath this.")
    boxes = deity_half(half)["boxes"]
    assert [box["kind"] for box in boxes] == ["act", RESULT, OTHERWISE]
    assert [box["text"] for box in boxes] == [condition, body, otherwise]
    assert all(box["share"] > 0 for box in boxes)
    assert all("share" not in box for box in deity_half(loaded.game.cards.deities["01"].halves[0])["boxes"])


# ------------------------------------------------------------------ always acting: "If ... / otherwise ..."
def test_03_transformed_eats_a_sun_god_otherwise_turns_back(loaded: Loaded) -> None:
    state = _play(loaded, ["03t", "27"])  # #27 has a sun aspect
    assert "27" not in labels(state) and state.phase == PHASE_SUBMERGE
    state = _play(loaded, ["03t", "06"])  # #06 has none: the bottom box acts
    assert not _card(state, "03")[TURNED] and "06" in labels(state) and state.phase == PHASE_SUBMERGE


def test_08_transformed_unveils_a_veiled_god_otherwise_turns_back(loaded: Loaded) -> None:
    state = _play(loaded, ["08t", "06v"])
    assert not _card(state, "06")[VEILED] and _card(state, "08")[TURNED]
    state = _play(loaded, ["08t", "06"])
    assert not _card(state, "08")[TURNED]


def test_14_transformed_sinks_when_it_began_unveiled_otherwise_turns_back(loaded: Loaded) -> None:
    """#14T: "If this began unveiled: Move this down two cards. Otherwise: Transform this." Rulebook, Acts: "A
    god with this condition will not act if it was veiled at the top of the deck this turn. ... This is the
    only condition that will prevent a god from acting when it is first unveiled"."""
    state = _play(loaded, ["14t", "06", "04"])
    assert labels(state)[:3] == ["06", "04", "14"]
    state = _play(loaded, ["14tv", "06"])  # reached the top veiled: unveiled, and it does not act at all
    assert labels(state)[0] == "14" and _card(state, "14")[TURNED] and not _card(state, "14")[VEILED]
    assert state.phase == PHASE_SUBMERGE


def test_20_transformed_blesses_next_to_a_worshiper_otherwise_veils(loaded: Loaded) -> None:
    state = start(loaded.game, ["20t", f"{WORSHIPER}:1", *FILLER])
    assert _card(state, WORSHIPER)[STAGE] == 0
    state = _play(loaded, ["20t", "06"])
    assert _card(state, "06")[VEILED]


def test_22_transformed_sinks_next_to_a_veiled_god_otherwise_veils(loaded: Loaded) -> None:
    state = _play(loaded, ["22t", "06v"])
    assert labels(state)[0] == "06" and labels(state)[-1] == "22"  # #06 then reached the top and was unveiled
    state = _play(loaded, ["22t", "06"])
    assert labels(state)[0] == "22" and _card(state, "06")[VEILED]


def test_28_transformed_eats_a_moon_god_and_sinks_otherwise_turns_back(loaded: Loaded) -> None:
    state = _play(loaded, ["28t", "06"])  # #06 has a moon aspect
    assert "06" not in labels(state) and labels(state)[-1] == "28"
    state = _play(loaded, ["28t", "27"])
    assert labels(state)[:2] == ["28", "27"] and not _card(state, "28")[TURNED]


# ------------------------------------------------------------------ conditional: "If ..."
def test_18_transformed_veils_only_a_moon_god(loaded: Loaded) -> None:
    assert _card(_play(loaded, ["18t", "06"]), "06")[VEILED]
    state = _play(loaded, ["18t", "27"])
    assert not _card(state, "27")[VEILED] and state.phase == PHASE_SUBMERGE


# ------------------------------------------------------------------ choice: "This may ..."
def test_11_may_grant_and_declining_means_it_does_not_act(loaded: Loaded) -> None:
    state = _play(loaded, ["11", "06", "27"])
    assert "decline" in state.legal_actions() and "pick 06" in state.legal_actions()
    declined = state.apply_action("decline")
    assert labels(declined) == labels(state) and declined.phase == PHASE_SUBMERGE
    picked = state.apply_action("pick 06")  # #06 eats everything next to itself: #11 and #27
    assert "27" not in labels(picked) and "06" in labels(picked)
