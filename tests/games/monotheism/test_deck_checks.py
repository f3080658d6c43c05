"""Every cross-check of the card faces: break a copy of the data, expect the specific message."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pipeline.data.dataset import load_game
from pipeline.games.registry import spec as spec_of

DEITIES = "deities.yaml"
WORSHIPERS = "worshipers.yaml"


def _deity(data: Any, card: str) -> dict:
    return next(d for d in data["deities"] if d["id"] == card)


def _worshiper(data: Any, card: str) -> dict:
    return next(w for w in data["worshipers"] if w["id"] == card)


EAT_NEXT = {"if": {"next_to_aspect": "moon"}, "do": [{"consume": {"target": {"next": True}}}]}
MEAL_EXCEPTION = {"rule": "consumes-essence-on-an-eater", "reason": "a test: this god feeds itself on purpose"}

CASES = {
    "atlas wording": (DEITIES, lambda d: _deity(d, "07")["upright"]["essence"].update(
        do=[{"void": {"target": {"bottom": 3}}}]), "deity 07: must read 'When this is consumed"),
    "only atlas": (DEITIES, lambda d: _deity(d, "03")["upright"]["essence"].update(when="consumed"),
                   "only #07 has a 'When this is consumed' essence"),
    "13 sun": (DEITIES, lambda d: _deity(d, "13")["upright"].update(aspects=["moon"]),
               "deity 13: needs a sun aspect and an essence"),
    "20 no sun": (DEITIES, lambda d: _deity(d, "20")["transformed"].update(aspects=["sun"]),
                  "deity 20: needs an act and no sun aspect"),
    "21 always": (DEITIES, lambda d: _deity(d, "21")["transformed"]["essence"].update(when="consumes"),
                  "deity 21 (transformed): must always curse when unveiled"),
    "18 condition": (DEITIES, lambda d: _deity(d, "18")["upright"]["essence"].pop("if"),
                     "deity 18: must curse when unveiled if too many gods are unveiled already"),
    "22 hinders": (DEITIES, lambda d: _deity(d, "22")["upright"].pop("act"),
                   "deity 22: the rulebook says it makes the worshiper's task difficult"),
    "death majority": (DEITIES, lambda d: [h.update(aspects=["sun"]) for x in d["deities"]
                                           for h in (x["upright"], x["transformed"]) if "death" in h["aspects"]],
                       "halves that consume when they act have the death aspect"),
    "essence choice": (DEITIES, lambda d: _deity(d, "16")["transformed"]["essence"].update(
        do=[{"bless": {"target": {"highest_worshiper": True}}},
            {"consume": {"target": {"next": True}, "optional": True}}]),
        "an essence acts on its own: no 'optional' and no choice in op 'consume'"),
    "attacker outside": (DEITIES, lambda d: _deity(d, "15")["upright"]["act"].update(
        do=[{"consume": {"target": {"attacker": True}}}]), "'that god' only makes sense"),
    "too many words": (DEITIES, lambda d: _deity(d, "06")["upright"]["act"].update(
        do=[{"move": {"target": {"next": True}, "to": "bottom"}}] * 6), "words of effect text"),
    "no veil": (DEITIES, lambda d: [h.update(act={"do": [{"transform": {"target": {"this": True}}}]})
                                    for x in d["deities"] for h in (x["upright"], x["transformed"])
                                    if h.get("act") and "veil" in str(h["act"]) and "unveil" not in str(h["act"])],
                "no god can veil another"),
    # Rulebook: "A god with this condition [When this consumes one or more gods] does not normally have the
    # power to consume other gods; its essence will trigger if it is granted the ability to consume gods by
    # something else."
    "eater with meal essence": (DEITIES, lambda d: _deity(d, "05")["upright"].update(act=EAT_NEXT),
                                "a 'When this consumes one or more gods' essence on a god whose own act consumes"),
    "exception not needed": (DEITIES, lambda d: _deity(d, "05")["upright"].update(exceptions=[MEAL_EXCEPTION]),
                             "exception consumes-essence-on-an-eater is marked but the half does not break"),
    "missing deity": (DEITIES, lambda d: d["deities"].pop(), "deity 29 is missing"),
    "chain start": (WORSHIPERS, lambda d: _worshiper(d, "poet")["states"][0].update(face="back"),
                    "worshiper poet: the chain starts front side up and upright"),
    "chain curse": (WORSHIPERS, lambda d: _worshiper(d, "poet")["states"][0].update(curse="flip"),
                    "worshiper poet: a flip from state 1 does not give state 2"),
    "chain void": (WORSHIPERS, lambda d: _worshiper(d, "poet")["states"][2].update(curse="rotate"),
                   "worshiper poet: the last state, and only it, is consumed by the void"),
    "chain bless": (WORSHIPERS, lambda d: _worshiper(d, "poet")["states"][1].update(bless="flip"),
                    "worshiper poet: a blessing (flip) from state 2 does not give back state 1"),
    "no faces": (WORSHIPERS, lambda d: d["worshipers"].pop(), "worshiper spirit-guide: worshiper-sets.yaml deals it, but worshipers.yaml has no record of its faces"),
    "stranger": (WORSHIPERS, lambda d: _worshiper(d, "poet").update(id="bard"),
                 "worshiper bard: not in any worshiper set"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_card_fact_check(case: str, data_copy: Path, edit_yaml, validate) -> None:
    filename, edit, expected = CASES[case]
    edit_yaml(data_copy / "monotheism" / filename, lambda data: [edit(data), None][1])
    messages = [p.message for p in validate(data_copy, ["monotheism"])]
    assert any(expected in m for m in messages), messages


def test_stale_schema_is_reported(data_copy: Path, validate) -> None:
    import json
    path = data_copy / "schemas" / "monotheism" / "deities.schema.json"
    schema = json.loads(path.read_text())
    schema["$defs"]["trigger"]["enum"].append("whenever")
    path.write_text(json.dumps(schema))
    messages = [p.message for p in validate(data_copy, ["monotheism"])]
    assert any("is in the schema but not registered" in m for m in messages), messages


def test_an_eater_with_a_meal_essence_is_allowed_when_the_data_marks_the_exception(data_copy: Path, edit_yaml,
                                                                                  validate, small_budgets: None) -> None:
    edit_yaml(data_copy / "monotheism" / DEITIES,
              lambda d: [_deity(d, "05")["upright"].update(act=EAT_NEXT, exceptions=[MEAL_EXCEPTION]), None][1])
    messages = [p.message for p in validate(data_copy, ["monotheism"])]
    assert not any("consumes one or more gods" in m or "consumes-essence-on-an-eater" in m for m in messages), messages


def test_the_endless_hunger_never_acts_and_feeds_only_on_a_granted_power() -> None:
    """#05 upright keeps its "When this consumes one or more gods" essence and has no act of its own: the
    rulebook's type of card that "will never perform an act when it reaches the top of the deck"."""
    from pipeline.data.dataset import default_data_root
    from pipeline.games.monotheism.play import load

    hunger = load(load_game(default_data_root(), spec_of("monotheism"))).game.cards.deities["05"].halves[0]
    assert hunger.act is None and hunger.essence is not None and hunger.essence["when"] == "consumes"


def _cards_key(root: Path) -> str:
    from pipeline.games.monotheism.play import load
    from pipeline.games.monotheism.playkey import cards_key

    return cards_key(load(load_game(root, spec_of("monotheism"))).game.cards)


def test_scenario_proofs_are_keyed_by_play_not_by_names_or_flavour(data_copy: Path, edit_yaml) -> None:
    """A reworded flavour line (the model never carries it) or a renamed card (the engine only quotes names)
    keeps every scenario proof; a number does not."""
    before = _cards_key(data_copy)
    edit_yaml(data_copy / "monotheism" / DEITIES, lambda d: [_deity(d, "01").update(flavour="Reworded."), None][1])
    edit_yaml(data_copy / "monotheism" / DEITIES, lambda d: [_deity(d, "02").update(name="The Renamed Hare"), None][1])
    edit_yaml(data_copy / "monotheism" / WORSHIPERS, lambda d: [_worshiper(d, "poet").update(name="The Bard"), None][1])
    assert _cards_key(data_copy) == before
    edit_yaml(data_copy / "monotheism" / DEITIES, lambda d: [_deity(d, "01")["upright"]["numbers"].reverse(), None][1])
    assert _cards_key(data_copy) != before


def test_a_renamed_card_is_quoted_by_the_replay_of_a_broken_line(data_copy: Path, edit_yaml, validate,
                                                                small_budgets: None) -> None:
    """The stored line is replayed afresh on every validation, so its messages quote the card's name of now."""
    validate(data_copy, ["monotheism"])
    edit_yaml(data_copy / "monotheism" / DEITIES, lambda d: [_deity(d, "09").update(name="The Renamed Maw"), None][1])
    validate(data_copy, ["monotheism"])
    edit_yaml(data_copy / "monotheism" / "scenarios.yaml",
              lambda d: [d["scenarios"][0]["winning_line"].append("accept"), None][1])
    broken = [p.message for p in validate(data_copy, ["monotheism"])]
    assert any("winning line ends the game" in m and "#09 The Renamed Maw on top" in m for m in broken), broken
