"""Every Theocracy cross-check catches broken data, and the shipped data is clean.

Each case breaks a copy of the data (one YAML edit) and asserts the specific
message appears, in the right file.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from pipeline.checks.components import count_problems
from pipeline.checks.rulecontract import example_problems, ruling_problems
from pipeline.data.dataset import default_data_root, load_game
from pipeline.data.problems import Problem
from pipeline.games.registry import spec as spec_of
from pipeline.games.theocracy import GAME_ID, checks, model
from pipeline.games.theocracy.spec import SPEC

Edit = Callable[[Any], None]


def rec(data: dict[str, Any], key: str, record_id: Any) -> dict[str, Any]:
    """The record with ``record_id`` in the list ``data[key]``."""
    return next(r for r in data[key] if r["id"] == record_id)


def drop(data: dict[str, Any], key: str, *ids: Any) -> None:
    data[key] = [r for r in data[key] if r["id"] not in ids]


def set_field(key: str, record_id: Any, field: str, value: Any) -> Edit:
    return lambda data: rec(data, key, record_id).__setitem__(field, value)


def set_nested(path: tuple[Any, ...], value: Any) -> Edit:
    def edit(data: Any) -> None:
        node = data
        for step in path[:-1]:
            node = rec(node, step[0], step[1]) if isinstance(step, tuple) else node[step]
        node[path[-1]] = value

    return edit


def swap_orders(key: str, a: str, b: str) -> Edit:
    def edit(data: Any) -> None:
        ra, rb = rec(data, key, a), rec(data, key, b)
        ra["order"], rb["order"] = rb["order"], ra["order"]

    return edit


def _remove_clarification(data: Any) -> None:
    section = rec(data, "sections", "clarifications")
    section["items"] = [i for i in section["items"] if "fate-dice" not in i]


LONG = " ".join(["word"] * (checks.MAX_CARD_WORDS + 1))

# (test id, kind of the file to break, edit, fragments of the expected message)
CASES: list[tuple[str, str, Edit, tuple[str, ...]]] = [
    # players
    ("player-count", "players", lambda d: drop(d, "players", "jade"), ("players: 3 colours, the game needs 4",)),
    ("player-colour-twice", "players", set_field("players", "jade", "colour", "#C9A227"),
     ("player jade: colour '#C9A227' is also used by player gold",)),
    # power cards
    ("power-unknown-player", "power-cards", set_field("power_cards", "gold-power-2", "player", "violet"),
     ("power card gold-power-2 (violet): no player colour 'violet'",)),
    ("power-reminder-wrong", "power-cards", set_field("power_cards", "azure-power-1", "reminder", "Beats a 4."),
     ("power card azure-power-1 (azure): reminder 'Beats a 4.'", "expected 'Beats a 5.'")),
    ("power-reminder-extra", "power-cards", set_field("power_cards", "azure-power-3", "reminder", "Lucky."),
     ("power card azure-power-3 (azure)", "expected no reminder")),
    ("power-title", "power-cards", set_field("power_cards", "jade-power-4", "title", "Might"),
     ("power card jade-power-4 (jade): title 'Might' differs from 'Dominion'",)),
    ("power-words", "power-cards", set_field("power_cards", "jade-power-2", "flavour", LONG),
     ("power card jade-power-2 (jade):", f"more than {checks.MAX_CARD_WORDS} fit a card")),
    ("power-values", "power-cards", set_field("power_cards", "crimson-power-3", "value", 4),
     ("player crimson: power-cards.yaml gives it the values [1, 2, 4, 4, 5], expected [1, 2, 3, 4, 5]",)),
    # believers
    ("believer-unknown-player", "believers", set_field("believers", "gold-sun-reaper", "player", "violet"),
     ("believer gold-sun-reaper (violet): no player colour 'violet'",)),
    ("believer-words", "believers", set_field("believers", "azure-salt-widow", "flavour", LONG),
     ("believer azure-salt-widow (azure):", "fit a card")),
    ("believer-indices", "believers", set_field("believers", "jade-beekeeper", "index", 1),
     ("player jade: believers.yaml gives it the indices [1, 1, 3, 4], expected [1, 2, 3, 4]",)),
    # dice
    ("dice-count", "dice", lambda d: drop(d, "dice", "die-4"), ("dice: 3 dice, the rulebook has 4",)),
    ("dice-faces-differ", "dice", set_field("dice", "die-2", "faces", [1, 2, 3, 4, 5]),
     ("dice: the dice do not all have the same faces",)),
    ("dice-too-few-faces", "dice", set_field("dice", "die-1", "faces", [1, 2, 3]),
     ("die die-1: 3 faces cannot give 4 different values a round",)),
    # components
    ("component-missing", "components", lambda d: drop(d, "components", "die"), ("component die: missing",)),
    ("component-rulebook-count", "components", set_field("components", "die", "count", 5),
     ("component die: count 5, the rulebook says 4",)),
    ("component-data-count", "believers", lambda d: drop(d, "believers", "jade-root-hermit"),
     ("believers.yaml holds 15 believer cards, but components.yaml counts 16, as the rulebook does",)),
    # roles
    ("role-order", "roles", swap_orders("roles", "lukewarm", "lost"),
     ("roles: order ['first', 'lost', 'lukewarm', 'last']",)),
    ("role-duties", "roles", set_field("roles", "first", "duties", ["prophesy", "roll-resource-die", "roll-fate-dice"]),
     ("role first: only last rolls the resource die and the fate dice",)),
    ("line-up-counts", "roles", lambda d: drop(d, "line_ups", "four-players"),
     ("line-ups: player counts [2, 3], expected [2, 3, 4]",)),
    ("line-up-size", "roles", set_field("line_ups", "three-players", "roles", ["first", "last"]),
     ("line-up three-players (3 players): 2 roles for 3 players",)),
    ("line-up-order", "roles", set_field("line_ups", "two-players", "roles", ["last", "first"]),
     ("line-up two-players (2 players): roles are not in acting order",)),
    ("line-up-rulebook", "roles", set_field("line_ups", "three-players", "roles", ["first", "lost", "last"]),
     ("line-up three-players (3 players): roles ['first', 'lost', 'last'], the rulebook gives",)),
    ("rotation", "roles", set_nested(("rotation", "new_first"), "first"),
     ("rotation: first becomes First going anticlockwise; the rulebook has last becoming First",)),
    ("rotation-seat", "roles", set_nested(("rotation", "first_round_first_seat"), 3),
     ("rotation: first_round_first_seat 3 does not exist with 2 players",)),
    # phases
    ("phase-order", "phases", swap_orders("phases", "omen", "revelation"),
     ("phases: order ['tribulation', 'revelation', 'omen', 'grace']",)),
    ("phase-order-twice", "phases", set_field("phases", "grace", "order", 3), ("phase grace: order 3 is used twice",)),
    ("grace-order", "phases", swap_orders("grace_steps", "a", "b"),
     ("grace steps: b) lose-believer, a) acquire-believer", "the rulebook's order is a) acquire-believer")),
    ("turns-per-round", "phases", set_nested(("turn_structure", "turns_per_round"), 3),
     ("turn structure: 3 turns per round, the rulebook has 4",)),
    ("turns-vs-dice", "phases", set_nested(("turn_structure", "turns_per_round"), 5),
     ("turn structure: 5 turns need one die each, only 4 dice in dice.yaml",)),
    # prophecies
    ("prophecy-missing", "prophecies", lambda d: drop(d, "prophecies", "draw"), ("prophecy draw: missing",)),
    ("prophecy-rule", "prophecies", set_field("prophecies", "lose", "fulfilled_when", "no-winner"),
     ("prophecy lose: needs_subject/fulfilled_when [True, 'no-winner']",)),
    ("phrasing-voice", "prophecies", set_field("phrasings", "draw-sand", "voice", "self"),
     ("phrasing draw-sand (draw, self): a draw prophecy is spoken as none",)),
    ("phrasing-placeholder", "prophecies", set_field("phrasings", "win-other-sun", "text", "A new sun climbs."),
     ("phrasing win-other-sun (win, other): {player} must appear",)),
    ("phrasing-duplicate", "prophecies", set_field("phrasings", "draw-crownless", "text", "Sand will bury every field alike."),
     ("phrasing draw-crownless (draw, none): same text as phrasing draw-sand",)),
    ("phrasing-coverage", "prophecies", lambda d: drop(d, "phrasings", "lose-self-storm", "lose-self-well"),
     ("phrasings: none for a lose prophecy in the self voice",)),
    # bid rules
    ("upset-rulebook", "bid-rules", set_nested(("upset", "weak"), 2), ("upset: 2 beats 5, the rulebook has 1 beats 5",)),
    ("upset-extremes", "bid-rules", set_nested(("upset", "weak"), 2),
     ("upset: weak/strong must be the lowest and highest power values 1 and 5",)),
    ("bid-rule-missing", "bid-rules", lambda d: drop(d, "bid_rules", "tie"),
     ("bid rule tie: the engine decides bids by it but it has no record",)),
    ("bid-rule-unshown", "bid-examples", lambda d: drop(d, "bid_examples", "two-3-3"),
     ("bid rule tie: no bid example shows it",)),
    # bid examples
    ("example-player-count", "roles", lambda d: drop(d, "line_ups", "four-players"),
     ("bid example four-2-3-4-5 (2 vs 3 vs 4 vs 5): 4 bids, but roles.yaml has line-ups for [2, 3] players only",)),
    ("example-winner-seat", "bid-examples", set_field("bid_examples", "two-1-5", "winner", 3),
     ("bid example two-1-5 (1 vs 5): winner seat 3 does not exist with 2 bids",)),
    ("example-winner-ruined", "bid-examples", set_field("bid_examples", "three-4-4-2", "ruined", [0, 2]),
     ("bid example three-4-4-2 (4 vs 4 vs 2): winner seat 2 is also listed as ruined",)),
    ("example-ruined-seat", "bid-examples", set_field("bid_examples", "three-4-4-2", "ruined", [0, 1, 3]),
     ("bid example three-4-4-2 (4 vs 4 vs 2): ruined seat 3 does not exist with 3 bids",)),
    ("example-rule-record", "bid-rules", lambda d: drop(d, "bid_rules", "tie"),
     ("bid example two-3-3 (3 vs 3): rule tie has no record in bid-rules.yaml",)),
    ("example-rule-players", "bid-examples", set_field("bid_examples", "two-1-5", "rule", "ruin"),
     ("bid example two-1-5 (1 vs 5): rule ruin does not apply with 2 players",)),
    ("example-rule-outcome", "bid-examples", set_field("bid_examples", "four-1-2-4-5", "winner", 0),
     ("bid example four-1-2-4-5 (1 vs 2 vs 4 vs 5): rule ouroboros gives a draw, but the example says seat 0 wins",)),
    ("replay-bid", "bid-examples", set_field("bid_examples", "four-4-4-1-5", "rule", "higher-card"),
     ("bid example four-4-4-1-5: the engine says seat 2 wins by one-beats-five",
      "the data says seat 2 wins by higher-card")),
    ("example-rulebook-missing", "bid-examples", lambda d: drop(d, "bid_examples", "three-4-4-2"),
     ("bid examples: the rulebook example 4 vs 4 vs 2 is missing",)),
    ("example-rulebook-winner", "bid-examples", set_field("bid_examples", "four-2-3-4-5", "winner", 2),
     ("bid example four-2-3-4-5: winner 2, the rulebook says seat 3 wins",)),
    # added rules
    ("added-role", "added-rules", set_field("added_rules", "lost", "players", [3, 4]),
     ("added rule lost: role lost is in the line-ups of roles.yaml for [4] players, not [3, 4]",)),
    ("added-bid-rule-missing", "bid-rules", lambda d: drop(d, "bid_rules", "ouroboros"),
     ("added rule ouroboros: bid rule ouroboros has no record",)),
    ("added-bid-rule-players", "bid-rules", set_field("bid_rules", "ruin", "players", [4]),
     ("added rule ruin: bid rule ruin applies to [4] players, not [3, 4]",)),
    ("added-chosen-step", "added-rules", set_nested((("added_rules", "the-chosen"), "effect", "grace_step"), "b"),
     ("added rule the-chosen: grace step b is not the step where believers are acquired",)),
    ("added-rulebook-players", "added-rules", set_field("added_rules", "the-chosen", "players", [4]),
     ("added rule the-chosen: applies to [4] players, the rulebook says [3, 4]",)),
    ("added-no-chosen", "added-rules", lambda d: drop(d, "added_rules", "the-chosen"),
     ("added rules: none has the prophet-chooses-giver effect",)),
    # round end
    ("threshold", "round-end", set_nested((("end_conditions", "transcendence"), "check", "threshold"), 50),
     ("end condition transcendence: threshold 50, the rulebook says 54",)),
    ("fate-rulebook", "round-end", set_nested((("end_conditions", "fate"), "check", "target"), 8),
     ("end condition fate: last rolls 2 dice for 8, the rulebook says last rolls 2 for 9",)),
    ("fate-dice-rulebook", "round-end", set_nested((("end_conditions", "fate"), "check", "dice"), 3),
     ("end condition fate: last rolls 3 dice for 9, the rulebook says last rolls 2 for 9",)),
    ("fate-unreachable", "round-end", set_nested((("end_conditions", "fate"), "check", "target"), 13),
     ("end condition fate: 2 dice can never total 13",)),
    ("end-order", "round-end", swap_orders("end_conditions", "transcendence", "fate"),
     ("end conditions: transcendence must be checked before fate",)),
    # rules text
    ("clarifications-missing", "rules", set_field("sections", "clarifications", "id", "notes"),
     ("rules: no 'clarifications' section listing the rulings",)),
    ("ruling-unlisted", "rules", _remove_clarification,
     ("ruling fate-dice: not listed in the rules' clarifications section",)),
]


@pytest.fixture
def data_copy(data_copy_of: Callable[..., Path]) -> Path:
    """A copy of the data with only this game (and the shared schema), safe to break: its checks need no other."""
    return data_copy_of(GAME_ID)


@pytest.fixture
def broken(data_copy: Path, edit_yaml, validate) -> Callable[[str, Edit], list[Problem]]:
    def run(kind: str, edit: Edit) -> list[Problem]:
        edit_yaml(data_copy / GAME_ID / f"{kind}.yaml", lambda data: _none(edit(data)))
        return validate(data_copy, [GAME_ID], fold=False)

    return run


def _none(_: Any) -> None:
    return None


def find(problems: list[Problem], *fragments: str) -> Problem:
    hits = [p for p in problems if all(f in p.message for f in fragments)]
    assert len(hits) == 1, f"expected one problem with {fragments}, got:\n" + "\n".join(map(str, problems))
    return hits[0]


COUNTS = "component_counts"  # the box contents, compared by the core (pipeline/checks/components.py)
RULINGS = "rulings"  # the rulings and where they are listed, checked by the core (pipeline/checks/rulecontract.py)
EXAMPLES = "examples"  # the bid examples replayed through the engine by the core (the spec's examples)
# Which check each case breaks, by the case id's first word.
CHECK_OF_PREFIX = {
    "player": "check_players", "power": "check_power_cards", "believer": "check_believers", "dice": "check_dice",
    "component": COUNTS, "role": "check_roles", "line": "check_roles", "rotation": "check_roles",
    "phase": "check_phases", "grace": "check_phases", "turns": "check_phases", "prophecy": "check_prophecies",
    "phrasing": "check_prophecies", "upset": "check_bid_rules", "bid": "check_bid_rules",
    "example": "check_bid_examples", "added": "check_added_rules", "threshold": "check_round_end",
    "fate": "check_round_end", "end": "check_round_end", "clarifications": RULINGS,
    "ruling": RULINGS, "replay": EXAMPLES,
}


def check_of(case_id: str) -> str:
    return CHECK_OF_PREFIX[case_id.split("-")[0]]


@pytest.mark.parametrize("case_id, kind, edit, fragments", CASES, ids=[c[0] for c in CASES])
def test_cross_check_catches(broken, data_copy: Path, case_id: str, kind: str, edit: Edit,
                             fragments: tuple[str, ...]) -> None:
    problem = find(broken(kind, edit), *fragments)
    assert problem.at.file.endswith(".yaml")
    # The message comes from the check this case is meant to exercise.
    game = load_game(data_copy, spec_of(GAME_ID))
    if check_of(case_id) == COUNTS:
        own = list(count_problems(game, checks.component_counts(game)))
    elif check_of(case_id) == RULINGS:
        own = list(ruling_problems(game, SPEC.rulings))
    elif check_of(case_id) == EXAMPLES:
        own = [p for examples in SPEC.examples for p in example_problems(game, examples)]
    else:
        own = list(getattr(checks, check_of(case_id))(game, model.build(game)))
    assert any(all(f in p.message for f in fragments) for p in own)


def test_fate_dice_beyond_the_box(data_copy: Path, edit_yaml, validate) -> None:
    edit_yaml(data_copy / GAME_ID / "dice.yaml", lambda d: _none(drop(d, "dice", "die-4")))
    edit_yaml(data_copy / GAME_ID / "round-end.yaml",
              lambda d: _none(set_nested((("end_conditions", "fate"), "check", "dice"), 4)(d)))
    problem = find(validate(data_copy, [GAME_ID]), "end condition fate: 4 dice, the game has only 3")
    assert problem.at.file.endswith("round-end.yaml")


def test_replay_mismatch_points_at_the_example(broken, data_copy: Path) -> None:
    # A disagreement only the engine sees (the replay runs once every other check passed, as engines do).
    problem = find(broken("bid-examples", set_field("bid_examples", "four-4-4-1-5", "rule", "higher-card")),
                   "bid example four-4-4-1-5", "the engine says seat 2 wins by one-beats-five")
    assert problem.at.file.endswith("bid-examples.yaml")
    text = (data_copy / GAME_ID / "bid-examples.yaml").read_text(encoding="utf-8").splitlines()
    assert "four-4-4-1-5" in text[problem.at.line - 1]


def test_every_check_has_a_failing_case() -> None:
    assert {check_of(c[0]) for c in CASES} == {check.__name__ for check in checks.CHECKS} | {COUNTS, RULINGS, EXAMPLES}


def test_shipped_data_is_clean(validate) -> None:
    assert validate(default_data_root(), [GAME_ID]) == []


def test_model_build_counts() -> None:
    built = model.build(load_game(default_data_root(), spec_of(GAME_ID)))
    assert len(built.players) == checks.MAX_PLAYERS
    assert len(built.power_cards) == checks.MAX_PLAYERS * len(checks.POWER_VALUES)
    assert len(built.believers) == checks.MAX_PLAYERS * checks.BELIEVERS_PER_PLAYER
    assert len(built.dice) == checks.DICE_COUNT
    assert built.player_counts == (2, 3, 4)
    assert {u.players: u.roles for u in built.line_ups} == checks.ROLES_BY_COUNT
    assert built.transcendence_threshold == checks.TRANSCENDENCE_THRESHOLD
    assert (built.fate.dice, built.fate.target) == (checks.FATE_DICE, checks.FATE_TARGET)
    assert tuple((s.id, s.op) for s in built.grace_steps) == checks.GRACE_ORDER
    assert all(built.power_values(p.id) == checks.POWER_VALUES for p in built.players)
    assert {b for e in built.bid_examples for b in [e.bids]} >= set(checks.RULEBOOK_BIDS)
    assert built.added_rule_players(model.CHOSEN_OP) == (3, 4)
