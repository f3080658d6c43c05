"""Every Totems + Taboos cross-check catches the data it is meant to catch.

Each case breaks one thing in a copy of the data (keeping it schema-valid, so
the cross-checks run) and asserts the specific message appears; a few cases
also pin the problem to its file and line.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from pipeline.data.problems import Problem

GAME = "totems-and-taboos"
Edit = Callable[[Any], Any]


@pytest.fixture
def data_copy(data_copy_of: Callable[..., Path]) -> Path:
    """A copy of the data with only this game (and the shared schema), safe to break: its checks need no other."""
    return data_copy_of(GAME)


@pytest.fixture
def broken(data_copy: Path, edit_yaml, validate) -> Callable[[str, Edit], list[Problem]]:
    """``broken(kind, fn)``: edit ``<kind>.yaml`` of the game in the data copy, return every problem."""

    def run(kind: str, fn: Edit) -> list[Problem]:
        edit_yaml(data_copy / GAME / f"{kind}.yaml", lambda data: _apply(fn, data))
        return validate(data_copy, [GAME], fold=False)

    return run


def _apply(fn: Edit, data: Any) -> None:
    fn(data)  # mutate in place; any return value is ignored


def messages(problems: list[Problem]) -> str:
    return "\n".join(str(p) for p in problems)


# --- helpers to reach records ---------------------------------------------------
def record(items: list[dict[str, Any]], record_id: str) -> dict[str, Any]:
    return next(item for item in items if item["id"] == record_id)


def card(data: Any, card_id: str) -> dict[str, Any]:
    return record(data["commandments"], card_id)


def colour(data: Any, colour_id: str) -> dict[str, Any]:
    return record(data["colours"], colour_id)


def guide(data: Any, guide_id: str) -> dict[str, Any]:
    return record(data["guides"], guide_id)


def difficulty(data: Any, difficulty_id: str) -> dict[str, Any]:
    return record(data["difficulties"], difficulty_id)


def level(data: Any, number: int) -> dict[str, Any]:
    return next(row for row in data["levels"] if row["level"] == number)


def setter(getter: Callable[[Any], dict[str, Any]], key: str, value: Any) -> Edit:
    def edit(data: Any) -> None:
        getter(data)[key] = value

    return edit


def add_white(data: Any) -> None:
    data["colours"].append({**colour(data, "yellow"), "id": "white", "name": "White"})
    data["wheel"]["order"].append("white")


def duplicate_yellow_on_wheel(data: Any) -> None:
    data["wheel"]["order"][-1] = "yellow"


def swap_green_blue(data: Any) -> None:
    order = data["wheel"]["order"]
    order[1], order[2] = order[2], order[1]


def all_yellow_self(data: Any) -> None:
    for item in data["commandments"]:
        if item["colour"] == "yellow" and item["type"] != "miracle":
            item["type"] = "self"


def long_effect(data: Any) -> None:
    ops = card(data, "red-unbreakable-bond")["effect"]["ops"]
    ops += [{"op": "draw", "who": "self", "count": 1, "source": "tower"}] * 2


def remove(items_key: str, record_id: str) -> Edit:
    def edit(data: Any) -> None:
        data[items_key] = [item for item in data[items_key] if item["id"] != record_id]

    return edit


def op_of(getter: Callable[[Any], dict[str, Any]], index: int, key: str, value: Any, where: str = "effect") -> Edit:
    def edit(data: Any) -> None:
        getter(data)[where]["ops"][index][key] = value

    return edit


def y(card_id: str) -> Callable[[Any], dict[str, Any]]:
    return lambda data: card(data, card_id)


CASES: list[tuple[str, str, Edit, str]] = [
    # colours and the wheel
    ("colour-count", "colours", add_white, "colours: expected 6 colours, found 7"),
    ("wheel-duplicate", "colours", duplicate_yellow_on_wheel, "wheel.order: ['yellow', 'green', 'blue', 'purple', 'red', 'yellow'] has non-unique elements"),
    ("wheel-missing", "colours", lambda d: d["wheel"]["order"].pop(), "wheel: no entry for colour orange"),
    ("opposite-steps", "colours", lambda d: d["wheel"].update(opposite_steps=2), "opposites must sit half way round the wheel of 6 (3 steps), not 2"),
    ("opposite-wheel", "colours", setter(lambda d: colour(d, "yellow"), "opposite", "blue"),
     "colour yellow: opposite is blue but the wheel puts purple 3 steps away"),
    ("opposite-symmetric", "colours", setter(lambda d: colour(d, "yellow"), "opposite", "blue"),
     "colour yellow: opposite blue names orange back, not yellow"),
    ("opposite-self", "colours", setter(lambda d: colour(d, "red"), "opposite", "red"), "colour red: a colour cannot be its own opposite"),
    ("opposed-principles", "colours", setter(lambda d: colour(d, "yellow"), "opposite", "blue"),
     "colour yellow: Life and Truth are not a pair of opposed principles"),
    ("principle", "colours", setter(lambda d: colour(d, "yellow"), "principle", "Hope"), "colour yellow: principle is Hope, the rulebook says Life"),
    ("adjacency", "colours", setter(lambda d: colour(d, "blue"), "adjacent", ["green", "red"]),
     "colour blue: adjacent lists green, red but the wheel gives green, purple"),
    ("adjacency-example", "colours", swap_green_blue, "wheel: blue must be adjacent to green, purple (the rulebook's building example)"),
    ("unknown-colour", "commandments", lambda d: card(d, "yellow-open-arms")["bonus"].update(colour="pink"),
     "commandment yellow-open-arms (yellow): bonus colour 'pink' is not a colour"),
    ("unknown-guide-colour", "guides", setter(lambda d: guide(d, "red"), "colour", "pink"), "guide red: colour colour 'pink' is not a colour"),
    # tower
    ("tower-gap", "tower", setter(lambda d: d["levels"][2], "level", 4), "tower level 4: expected level 3"),
    ("tower-numeral", "tower", setter(lambda d: level(d, 3), "numeral", "IIII"), "tower level 3: numeral IIII should be III"),
    ("tower-table", "tower", setter(lambda d: level(d, 3), "shrines", 5), "tower level 3: needs 4 shrines and 2 servants in the rulebook, not 5 and 2"),
    ("tower-increasing", "tower", setter(lambda d: level(d, 4), "servants", 2), "tower level 4: each level must need more shrines and servants"),
    ("tower-start", "tower", setter(lambda d: level(d, 1), "servants", 1), "tower level 1: the starting block needs no shrines or servants"),
    ("tower-size", "tower", lambda d: d["levels"].pop(), "tower: expected 6 levels, found 5"),
    ("tower-win", "tower", lambda d: d["win"].update(level=5), "tower: the game is won at level 6, the top of the table; data says 5"),
    ("tower-blocks", "tower", lambda d: d["supply"].update(blocks_per_colour=5), "tower: 5 blocks x 6 colours is not the 36 totem blocks"),
    # set-up
    ("start-missing", "setup", remove("starting_resources", "orange"), "starting resources: no entry for colour orange"),
    ("start-duplicate", "setup", setter(lambda d: record(d["starting_resources"], "orange"), "colour", "yellow"),
     "starting resources: colour yellow appears 2 times"),
    ("start-empty", "setup", setter(lambda d: record(d["starting_resources"], "purple"), "shrines", 0),
     "starting resources purple: a colour must start with some souls"),
    ("start-package", "setup", setter(lambda d: record(d["starting_resources"], "green"), "servants", 5),
     "starting resources: packages [(0, 5, 0, 0)] are not among the six the rulebook lists"),
    ("start-order", "setup", lambda d: d["start_order"]["order"].pop(),
     "start order: no entry for colour orange"),
    ("players", "setup", lambda d: d["players"].update(max=5), "players: the game is for 2 to 4 players"),
    ("starting-hand", "setup", lambda d: d["starting_hand"].update(cards=4), "starting hand: 3 cards in the rulebook"),
    # deck composition
    ("deck-size", "commandments", lambda d: d["deck"].update(cards_per_colour=28), "deck: 27 cards per colour in the rulebook, not 28"),
    ("deck-designs", "commandments", setter(lambda d: d["deck"]["levels"][1], "designs", 3), "deck level 2: 2 designs per colour in the rulebook, not 3"),
    ("deck-blocks", "commandments", setter(lambda d: d["deck"]["levels"][1], "blocks_needed", 1), "deck level 2: a level-2 card needs 2 blocks, not 1"),
    ("deck-miracles", "commandments", lambda d: d["deck"].update(miracle_designs=2), "deck: 1 miracle per colour in the rulebook"),
    ("deck-total", "commandments", setter(lambda d: d["deck"]["levels"][0], "copies_per_design", 6), "deck: the composition table adds up to 30 cards per colour, not 27"),
    ("deck-levels", "commandments", lambda d: d["deck"]["levels"].reverse(), "deck: levels must be 1, 2, 3"),
    ("deck-commandments", "commandments", setter(lambda d: d["deck"]["levels"][2], "designs", 2), "deck: 6 commandment designs per colour in the rulebook"),
    # the six decks
    ("colour-cards", "commandments", remove("commandments", "yellow-open-arms"), "colour yellow: 22 cards, expected 27"),
    ("colour-levels", "commandments", remove("commandments", "yellow-open-arms"), "colour yellow: 2 level-1 commandments, expected 3"),
    ("colour-miracles", "commandments", setter(y("yellow-bountiful-harvest"), "colour", "green"), "colour green: 2 miracles, expected 1"),
    ("colour-variety", "commandments", all_yellow_self, "colour yellow: commandments use only self (mix at least 2 types)"),
    ("bonus-coverage", "commandments", lambda d: card(d, "yellow-great-awakening")["bonus"].update(colour="green"),
     "colour yellow: no commandment has an orange bonus"),
    ("card-total", "commandments", remove("commandments", "yellow-open-arms"), "commandments: 157 cards in all, the rulebook has 162"),
    ("card-components", "commandments", remove("commandments", "yellow-open-arms"), "commandments.yaml holds 157 commandment cards, but components.yaml counts 162, as the rulebook does"),
    ("card-names", "commandments", setter(y("green-shackles"), "name", "Call to the Light"), "commandment green-shackles: name 'Call to the Light' is also the name of commandment yellow-call-to-the-light"),
    # single cards
    ("card-id", "commandments", setter(y("green-shackles"), "id", "yellow-shackles"), "commandment yellow-shackles (green): id must start with its colour"),
    ("card-copies", "commandments", setter(y("green-shackles"), "copies", 4), "commandment green-shackles (green): 4 copies, but the deck table gives 5 for level 1"),
    ("card-text", "commandments", lambda d: card(d, "green-shackles")["effect"].update(text="Take a servant."),
     "commandment green-shackles (green): effect text disagrees with its ops; expected: \"Kill 1 of your clerics; it becomes a shrine. Take 1 of target player's servants as your servant.\""),
    ("bonus-text", "commandments", lambda d: card(d, "green-shackles")["bonus"].update(text="Yellow bonus: Gain 2 servants."),
     "commandment green-shackles (green): bonus text disagrees with its ops; expected: 'Yellow bonus: Gain 1 servant.'"),
    ("card-words", "commandments", long_effect, "commandment red-unbreakable-bond (red): 58 words of effect and bonus text; at most 45 fit a card"),
    ("reach-allowed", "commandments", op_of(y("yellow-call-to-the-light"), 0, "who", "target"),
     "commandment yellow-call-to-the-light (yellow): a self card cannot have an op for 'target' (recruit)"),
    ("reach-required", "commandments", op_of(y("orange-inquisition"), 0, "who", "self"),
     "commandment orange-inquisition (orange): a target card needs an effect op for target"),
    # 8.2: "Cards that target each player, target all 6 passive religions, and you": never "each other player"
    ("reach-all-players", "commandments", op_of(y("green-intimidation"), 0, "who", "others"),
     "commandment green-intimidation (green): a all card cannot have an op for 'others' (kill)"),
    ("per-block-commandment", "commandments", op_of(y("yellow-call-to-the-light"), 0, "per_block", True),
     "commandment yellow-call-to-the-light (yellow): recruit: only miracles scale with blocks of their colour"),
    ("per-block-miracle", "commandments", op_of(y("yellow-bountiful-harvest"), 0, "per_block", False),
     "commandment yellow-bountiful-harvest (yellow): recruit: a miracle's ops scale with the owner's blocks"),
    ("per-block-who", "commandments", op_of(y("yellow-bountiful-harvest"), 0, "who", "each"),
     "commandment yellow-bountiful-harvest (yellow): recruit: per-block ops reach the owners of the colour"),
    ("transform-same", "commandments", op_of(y("blue-change-of-heart"), 1, "into", "servant"),
     "commandment blue-change-of-heart (blue): transform: a servant cannot turn into a servant"),
    ("build-zero", "commandments", lambda d: card(d, "green-whip-and-mortar")["effect"]["ops"][0].update(servants=0, shrines=0),
     "commandment green-whip-and-mortar (green): build: a card that builds must lower the servants or shrines needed"),
    ("cancel-not-reaction", "commandments", lambda d: [card(d, "red-unrequited").update(timing="own-turn"), card(d, "red-unrequited").pop("trigger")],
     "commandment red-unrequited (red): an effect that cancels must be a reaction"),
    ("reaction-without-cancel", "commandments", lambda d: card(d, "red-unrequited")["effect"].update(ops=[{"op": "draw", "who": "target", "count": 1, "source": "tower"}]),
     "commandment red-unrequited (red): a reaction must cancel the card it answers"),
    ("free-card", "commandments", lambda d: card(d, "yellow-call-to-the-light").update(cost={"clerics": 0, "servants": 0}),
     "commandment yellow-call-to-the-light (yellow): every commandment has a cost"),
    ("bonus-own-colour", "commandments", lambda d: card(d, "yellow-open-arms")["bonus"].update(colour="yellow"),
     "commandment yellow-open-arms (yellow): the bonus colour must differ from the card's colour"),
    ("balance", "commandments", op_of(y("yellow-call-to-the-light"), 0, "count", 6),
     "commandment yellow-call-to-the-light (yellow): worth 5.5 after its cost; a level-1 card should be worth 0.4 to 1.6"),
    ("bonus-balance", "commandments", op_of(y("yellow-call-to-the-light"), 0, "count", 5, where="bonus"),
     "commandment yellow-call-to-the-light (yellow): bonus adds 5.0; a bonus should add 0.3 to 2.5"),
    ("example-self", "commandments", lambda d: card(d, "yellow-blessed-birth")["bonus"].update(colour="red"),
     "no card matches the example of '5. Playing your cards' (self card, level 1, 1 cleric, purple bonus)"),
    ("example-blue", "commandments", lambda d: card(d, "blue-paradigm-shift")["cost"].update(clerics=2),
     "no card matches the example of '7.4 Playing a turn' (blue level 2, 3 clerics)"),
    # guides
    ("guide-missing", "guides", lambda d: [guide(d, "orange").update(colour="red"), guide(d, "orange")["summon"].update(colour="red")],
     "guides: no entry for colour orange"),
    ("guide-summon-colour", "guides", lambda d: guide(d, "red")["summon"].update(colour="green"), "guide red (red): summoned by green cards, but it is the red guide"),
    ("guide-summon-cards", "guides", lambda d: guide(d, "red")["summon"].update(cards=2), "guide red (red): summoned by 2 cards, the summoning rule says 3"),
    ("summoning", "guides", lambda d: d["summoning"].update(cards_of_one_colour=4), "summoning: 3 cards of one colour in the rulebook"),
    ("guide-text", "guides", lambda d: guide(d, "orange")["sacrifice"].update(text="Roll 4 soul cubes."),
     "guide orange (orange): sacrifice text disagrees with its ops; expected: 'Roll 3 soul cubes.'"),
    ("guide-owners", "guides", lambda d: guide(d, "purple")["sacrifice"]["ops"][0].update(who="owners"),
     "guide purple (purple): only miracles reach the owners of a colour"),
    ("guide-cancel", "guides", lambda d: [guide(d, "red")["sacrifice"].update(timing="any"), guide(d, "red")["sacrifice"].pop("trigger")],
     "guide red (red): an effect that cancels must be a reaction"),
    ("guide-balance", "guides", lambda d: guide(d, "orange")["sacrifice"]["ops"][0].update(count=6),
     "guide orange (orange): sacrifice worth 7.2; a guide's ability should be worth 2.5 to 4.5"),
    ("guide-components", "guides", remove("guides", "orange"), "guides.yaml holds 5 spiritual guides, but components.yaml counts 6, as the rulebook does"),
    # turn
    ("hand-limit", "turn", lambda d: d["end_of_turn"].update(hand_limit=7), "end of turn: the hand limit is 6 in the rulebook, not 7"),
    ("uses-per-piece", "turn", lambda d: d["actions"].update(uses_per_piece=2), "actions: each cleric and servant acts 1 time per turn"),
    ("end-draws", "turn", lambda d: d["end_of_turn"]["options"][0].update(draw=2), "end of turn: the rulebook's options draw [1, 3, 3] cards"),
    ("end-over-limit", "turn", lambda d: d["end_of_turn"].update(hand_limit=2), "end-of-turn option fresh-hand: draws more than the hand limit"),
    ("skip-text", "turn", lambda d: d["skip"]["options"][0].update(text="Gain a servant."),
     "skip option convert: text disagrees with its ops; expected: 'Gain 1 servant.'"),
    ("skip-one-soul", "turn", lambda d: d["skip"]["options"][0]["ops"][0].update(count=2), "skip option convert: a skip changes exactly one of your own souls"),
    ("skip-choices", "turn", lambda d: d["skip"]["options"][0]["ops"][0].update(role="cleric"),
     "skip: the options must be the rulebook's three (convert a soul, promote a servant, sacrifice a cleric)"),
    # dice
    ("solo-die-faces", "dice", lambda d: record(d["dice"], "solo-die")["faces"].__setitem__(5, "red"), "die solo-die: a colour die shows each of the 6 colours once"),
    ("soul-cube-faces", "dice", lambda d: record(d["dice"], "soul-cube").update(faces=["cleric"] * 6), "die soul-cube: a role die shows every role"),
    ("soul-cube-shrine-stands", "dice", lambda d: record(d["dice"], "soul-cube").pop("reroll"),
     "die soul-cube: a rolled soul cannot arrive as a shrine ('You can only get a shrine when one of your clerics dies')"),
    ("soul-cube-reroll-unknown", "dice", lambda d: record(d["dice"], "soul-cube")["reroll"].append("saint"),
     "die soul-cube: reroll names saint, not faces of the die"),
    ("soul-cube-reroll-all", "dice", lambda d: record(d["dice"], "soul-cube").update(reroll=["cleric", "servant", "shrine"]),
     "die soul-cube: every face is rolled again, so no roll ever ends"),
    ("solo-die-ref", "solo", lambda d: d["between_turns"].update(die="soul-cube"), "solo: die 'soul-cube' is not a colour die in dice.yaml"),
    ("solo-die-count", "components", setter(lambda d: record(d["components"], "solo-die"), "count", 2), "component solo-die: count 2, but the data has 1 (colour dice in dice.yaml)"),
    # solo
    ("solo-missing", "solo", remove("difficulties", "hard"), "solo: expected one hard difficulty, found 0"),
    ("solo-stated", "solo", setter(lambda d: difficulty(d, "hard"), "name", "Road to ruin"),
     "difficulty hard: the rulebook has Highway to hell with 6 blocks and 10 shrines"),
    ("solo-blocks", "solo", setter(lambda d: difficulty(d, "hard"), "passive_blocks", 7), "difficulty hard: a one-colour passive tower cannot have more than 6 blocks"),
    ("solo-shrines", "solo", setter(lambda d: difficulty(d, "normal"), "passive_shrines", 7),
     "difficulty normal: passive towers of 5 blocks hold the 8 shrines that level needs, not 7"),
    ("solo-souls", "solo", setter(lambda d: difficulty(d, "hard"), "passive_shrines", 11), "difficulty hard: 6 x 11 shrines need more than the 60 soul cubes"),
    ("solo-order", "solo", setter(lambda d: difficulty(d, "easy"), "passive_shrines", 9), "solo: harder difficulties must leave fewer souls in the pile"),
    ("solo-removed", "solo", lambda d: d["setup"].update(remove_levels=[2]), "solo: the rulebook removes the level (3,) cards"),
    ("solo-win", "solo", lambda d: d["win"].update(tower_level=5), "solo: you win at tower level 6, as in tower.yaml"),
    # components and glossary
    ("component-missing", "components", remove("components", "cheat-sheets"), 'component "cheat-sheets" is missing from'),
    ("component-count", "components", setter(lambda d: record(d["components"], "soul-cubes"), "count", 50), "component soul-cubes: count 50, the rulebook says 60"),
    ("see-also-unknown", "glossary", lambda d: d["terms"][0]["see_also"].append("nirvana"), "term soul: see_also 'nirvana' is not a term"),
    ("see-also-self", "glossary", lambda d: d["terms"][0]["see_also"].append("soul"), "term soul: see_also names the term itself"),
]


@pytest.mark.parametrize(("kind", "edit", "expected"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_cross_check_catches(broken, kind: str, edit: Edit, expected: str) -> None:
    problems = broken(kind, edit)
    assert expected in messages(problems)


def test_shipped_data_is_clean(validate) -> None:
    from pipeline.data.dataset import default_data_root

    assert messages(validate(default_data_root(), [GAME])) == ""


def test_problem_points_at_the_node(broken, data_copy: Path) -> None:
    problems = broken("colours", setter(lambda d: colour(d, "yellow"), "principle", "Hope"))
    problem = next(p for p in problems if "principle is Hope" in p.message)
    lines = (data_copy / GAME / "colours.yaml").read_text(encoding="utf-8").splitlines()
    assert problem.at.file.endswith("colours.yaml")
    assert lines[problem.at.line - 1].strip() == "principle: Hope"


def test_card_problem_points_at_its_text(broken, data_copy: Path) -> None:
    problems = broken("commandments", lambda d: card(d, "green-shackles")["effect"].update(text="Take a servant."))
    problem = next(p for p in problems if "effect text disagrees" in p.message)
    lines = (data_copy / GAME / "commandments.yaml").read_text(encoding="utf-8").splitlines()
    assert lines[problem.at.line - 1].strip() == "text: Take a servant."


def test_missing_document_is_reported(data_copy: Path, validate) -> None:
    (data_copy / GAME / "dice.yaml").unlink()
    (data_copy / "schemas" / GAME / "dice.schema.json").unlink()
    assert "dice.yaml is missing: the game needs it" in messages(validate(data_copy, [GAME]))


# --- engine replays of the stored examples ---------------------------------------
def test_build_example_with_a_wrong_answer_is_reported(broken) -> None:
    def flip(data: Any) -> None:
        record(data["examples"], "blue-then-red")["can_build"] = True

    problems = broken("tower", flip)
    assert "tower example blue-then-red: the example says yes, the engine says no" in messages(problems)
    hit = next(p for p in problems if "blue-then-red" in p.message)
    assert hit.at.file.endswith("tower.yaml")


def test_card_example_the_engine_cannot_play_is_reported(broken) -> None:
    def make_reaction(data: Any) -> None:
        card = record(data["commandments"], "blue-paradigm-shift")
        card["timing"] = "reaction"
        card["trigger"] = "affects-you"

    problems = broken("commandments", make_reaction)
    assert "commandment blue-paradigm-shift (blue): the example of '7.4 Playing a turn' plays it" in messages(problems)
