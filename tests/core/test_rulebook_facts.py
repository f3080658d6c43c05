"""Rulebook facts: a value that cites the rulebook must equal what the rulebook says.

Each finding class gets a failing fixture through `pantheon validate` (exit 1,
one line per problem at file:line:column, no traceback); every pinned value of
every game is then changed by one step and must be caught: by its fact, with
exactly the matching problem, or (``checked_by``) by the game's own checks.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
import yaml

from pipeline.checks.rulebook_facts import FACTS_KEY, FACTS_KIND, covered_paths, fact_problems, node_at, resolve, same_value, show
from pipeline.checks.validate import RecordCatalogue, game_problems, walk
from pipeline.data.dataset import GameData, default_data_root, game_ids, load_game
from pipeline.data.problems import Problem
from pipeline.data.schemas import load_schemas
from pipeline.data.yamlmarks import PathKey
from pipeline.games.registry import catalogue
from pipeline.games.registry import spec as spec_of

DATA = default_data_root()
GAMES = game_ids(DATA)
DEPART = "to depart from the rulebook on purpose, set this record's provenance to inferred or authored"
# The source rulebooks are not part of the repository; point PANTHEON_RULEBOOKS at them to check citations.
RULEBOOKS = Path(os.environ.get("PANTHEON_RULEBOOKS", "/work/shared/rulebooks"))
RULEBOOK_FILES = {
    "monotheism": "monotheism.md", "theocracy": "theocracy.md", "monstrous": "monstrous.md",
    "heavenly-father": "whos-your-heavenly-father.md", "totems-and-taboos": "totems-and-taboos.md",
}


# ---- helpers ---------------------------------------------------------------------------------
def run_validate(root: Path, *games: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PANTHEON_DEBUG"}
    return subprocess.run([sys.executable, "-m", "pipeline", "validate", *games, "--data", str(root)],
                          capture_output=True, text=True, env=env)


def edit_line(path: Path, old: str, new: str, occurrence: int = 1) -> int:
    """Replace the ``occurrence``-th line equal to ``old`` with ``new``; return its 1-based line number."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    hits = [i for i, line in enumerate(lines) if line.rstrip("\n") == old]
    assert len(hits) >= occurrence, f"{path.name}: line {old!r} not found"
    index = hits[occurrence - 1]
    lines[index] = new + "\n"
    path.write_text("".join(lines), encoding="utf-8")
    return index + 1


def line_of(path: Path, text: str) -> int:
    """The 1-based number of the one line of ``path`` equal to ``text``."""
    hits = [i + 1 for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()) if line == text]
    assert len(hits) == 1, f"{path.name}: {len(hits)} lines equal {text!r}"
    return hits[0]


def rejected(result: subprocess.CompletedProcess[str], expected: str) -> None:
    """`pantheon validate` refused the data with exactly the ``expected`` line among its one-line problems."""
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert expected in result.stdout.splitlines(), f"missing {expected!r} in:\n{result.stdout}"


def reported(problems: list[Problem], expected: str) -> None:
    """validate (in this process, as the CLI runs it) lists exactly the ``expected`` line."""
    lines = [str(p) for p in problems]
    assert expected in lines, f"missing {expected!r} in:\n" + "\n".join(lines)


# ---- the attack's examples (the CLI itself for three) ---------------------------------------------------------
@dataclass(frozen=True)
class Change:
    game: str
    file: str
    old: str
    new: str
    column: int
    message: str


ATTACKS = [
    Change("monstrous", "setup.yaml", "  practice_throws: 10", f"  practice_throws: {2 ** 63 - 1}", 20,
           f"first_game.practice_throws is {2 ** 63 - 1}, but the rulebook says 10 (fact practice-throws, "
           f"section \"Game Setup\"); {DEPART}"),
    Change("totems-and-taboos", "tower.yaml", "  immediate: true", "  immediate: false", 14,
           f"win.immediate is false, but the rulebook says true (fact win-at-once, section \"4. Building your tower\"); {DEPART}"),
    Change("theocracy", "phases.yaml", "      optional: true", "      optional: false", 17,
           f"phase omen: prophecy.optional is false, but the rulebook says true (fact prophecy-optional, section \"TURN\"); {DEPART}"),
    Change("theocracy", "components.yaml", "    count: 4", "    count: 5", 12, "component die: count 5, the rulebook says 4"),
]
ATTACK_IDS = ["practice-throws", "level-six-at-once", "prophecy-optional", "four-dice"]


def test_monstrous_penalty_must_be_the_rulebooks(data_copy: Path) -> None:
    path = data_copy / "monstrous" / "scoring.yaml"
    line = edit_line(path, "  faith_per_card: 1", "  faith_per_card: 2147483648")
    rejected(run_validate(data_copy, "monstrous"),
             f"{path}:{line}:19: penalty.faith_per_card is 2147483648, but the rulebook says 1 "
             f"(fact penalty-per-card, section \"Deciding the winner\"); {DEPART}")


def test_deleting_the_last_tie_breaker_is_refused(data_copy: Path) -> None:
    path = data_copy / "monstrous" / "scoring.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: text.index("  - id: play-again\n")], encoding="utf-8")
    required = data_copy / "monstrous" / "required.yaml"
    # The cause is one line, first; the fact's "3 entries, but the rulebook says 4" follows from it, folded in.
    result = run_validate(data_copy, "monstrous")
    assert result.returncode == 1
    first = result.stdout.splitlines()[0]
    assert first.startswith(f"{path}:{line_of(path, '  - id: most-faith')}:3: tie breaker \"play-again\" is missing from "
                            f"scoring.yaml (deleted or renamed?); the rulebook states it "
                            f"({required}:{line_of(required, '  - scoring/tie_breakers/play-again')})"), result.stdout
    assert "problems that follow from it not listed" in first and "tie_breakers has 3 entries" not in result.stdout


def test_reordering_the_tie_breakers_is_refused(data_copy: Path, validate: Callable[..., list[Problem]]) -> None:
    path = data_copy / "monstrous" / "scoring.yaml"
    line = edit_line(path, "    measure: monsters_in_play", "    measure: monsters_hitting_locations")
    edit_line(path, "    measure: monsters_hitting_locations", "    measure: monsters_in_play")
    reported(validate(data_copy, ["monstrous"]),
             f"{path}:{line}:14: tie breaker most-monsters-in-play: measure is monsters_hitting_locations, but the rulebook "
             f"says monsters_in_play (fact tie-breakers, section \"Deciding the winner\"); {DEPART}")


@pytest.mark.parametrize("faces, where, message", [
    ("[1, 2, 3, 4, 5, 6, 7, 8]", 12, "dice die-1: faces: [1, 2, 3, 4, 5, 6, 7, 8] is too long"),
    ("[3, 4, 5, 6, 7, 8]", 25, "dice die-1: faces[4]: 7 is greater than the maximum of 6"),
], ids=["eight-sides", "numbered-3-to-8"])
def test_theocracy_dice_are_ordinary_dice(data_copy: Path, faces: str, where: int, message: str) -> None:
    path = data_copy / "theocracy" / "dice.yaml"
    line = edit_line(path, "    faces: [1, 2, 3, 4, 5, 6]", f"    faces: {faces}")
    rejected(run_validate(data_copy, "theocracy"), f"{path}:{line}:{where}: {message}")


# ---- per game: a rulebook-provenance value changed (with the attack's examples above) -----------------
CHANGES = [
    Change("monotheism", "components.yaml", "    count: 29", "    count: 30", 12,
           "component deity-cards: count 30, but the data has 29 (deity ids #01..#29)"),
    Change("theocracy", "roles.yaml", "    order: 2", "    order: 3", 12,
           "role lukewarm: order is 3, but the rulebook says 2 (fact role-order, section \"GAME STRUCTURE\"); " + DEPART),
    Change("monstrous", "variants.yaml", "      starting_faith: 3", "      starting_faith: 4", 23,
           "variant young-gods: changes.starting_faith is 4, but the rulebook says 3 (fact young-gods, "
           "section \"Young gods Monstrous\"); " + DEPART),
    Change("heavenly-father", "parameters.yaml", "    value: 5", "    value: 6", 12,
           "parameter hand-size: 6, the rulebook says 5"),
    Change("totems-and-taboos", "turn.yaml", "  then_draw: 1", "  then_draw: 2", 14,
           "miracles.then_draw is 2, but the rulebook says 1 (fact miracle-replacement, section \"7.6 Ending your turn\"); " + DEPART),
]


@pytest.mark.parametrize("change", ATTACKS + CHANGES, ids=ATTACK_IDS + [c.game for c in CHANGES])
def test_changed_rulebook_value_is_reported_at_its_field(data_copy: Path, change: Change,
                                                         validate: Callable[..., list[Problem]]) -> None:
    path = data_copy / change.game / change.file
    line = edit_line(path, change.old, change.new)
    reported(validate(data_copy, [change.game]), f"{path}:{line}:{change.column}: {change.message}")


# ---- per game: a pin that no longer resolves ----------------------------------------------------------
@dataclass(frozen=True)
class Rename:
    game: str
    file: str
    old: str
    new: str
    pin: str
    fact: str
    why: str


RENAMES = [
    Rename("monotheism", "components.yaml", "  - id: worshiper-cards", "  - id: worshiper-card-pack",
           "components/components/worshiper-cards/count", "components", "no record with id worshiper-cards in components.yaml components"),
    Rename("theocracy", "bid-examples.yaml", "  - id: two-1-5", "  - id: one-against-five",
           "bid-examples/bid_examples/two-1-5", "bid-example-one-beats-five",
           "no record with id two-1-5 in bid-examples.yaml bid_examples"),
    Rename("monstrous", "faq.yaml", "  - id: monsters-stay", "  - id: monsters-remain",
           "faq/rulings/monsters-stay/verdict/value", "faq-monsters-stay", "no record with id monsters-stay in faq.yaml rulings"),
    Rename("heavenly-father", "parameters.yaml", "  - id: hand-size", "  - id: cards-in-hand",
           "parameters/parameters/hand-size/value", "setup-deal", "no record with id hand-size in parameters.yaml parameters"),
    Rename("totems-and-taboos", "turn.yaml", "    - id: draw-one", "    - id: draw-single",
           "turn/end_of_turn/options/draw-one/draw", "end-of-turn-draws",
           "no record with id draw-one in turn.yaml end_of_turn.options"),
]


@pytest.mark.parametrize("rename", RENAMES, ids=[r.game for r in RENAMES])
def test_pin_that_no_longer_resolves_names_its_fact(data_copy: Path, rename: Rename,
                                                    validate: Callable[..., list[Problem]]) -> None:
    edit_line(data_copy / rename.game / rename.file, rename.old, rename.new)
    facts = data_copy / rename.game / f"{FACTS_KIND}.yaml"
    line = line_of(facts, f"      - {rename.pin}")
    problems = validate(data_copy, [rename.game])
    old_id = rename.old.split("id: ", 1)[1]
    if rename.game == "totems-and-taboos":  # a nested list: no deleted-record line, the pin tells it
        reported(problems, f"{facts}:{line}:9: fact {rename.fact}: pin {rename.pin} resolves to nothing: {rename.why}")
        return
    # A record the rulebook states, renamed: one cause line first, naming the fact's pin among the places left
    cause = str(problems[0])
    assert f'"{old_id}" is missing from {rename.file} (deleted or renamed?)' in cause, cause
    assert f"{facts}:{line}" in cause


# ---- completeness and departures -------------------------------------------------------------------
NEW_COMPONENT = """  - id: dice
    name: Dice
    count: 2
    provenance:
      source: {source}
"""


def test_new_unpinned_rulebook_number_is_refused(data_copy: Path) -> None:
    path = data_copy / "monstrous" / "components.yaml"
    with path.open("a", encoding="utf-8") as out:
        out.write(NEW_COMPONENT.format(source="rulebook\n      section: Components"))
    line = line_of(path, "    count: 2")
    rejected(run_validate(data_copy, "monstrous"),
             f"{path}:{line}:12: component dice: count = 2 cites the rulebook, but no rulebook fact pins it; "
             "add a fact to rulebook-facts.yaml or set this record's provenance to inferred or authored")


def test_new_number_of_our_own_needs_no_fact(data_copy: Path, validate: Callable[..., list[Problem]]) -> None:
    with (data_copy / "monstrous" / "components.yaml").open("a", encoding="utf-8") as out:
        out.write(NEW_COMPONENT.format(source="authored"))
    assert not [p for p in validate(data_copy, ["monstrous"]) if "pins it" in p.message]


def test_designer_departs_from_the_rulebook_by_provenance(data_copy: Path, validate: Callable[..., list[Problem]]) -> None:
    path = data_copy / "monstrous" / "scoring.yaml"
    edit_line(path, "  faith_per_card: 1", "  faith_per_card: 2")
    text = path.read_text(encoding="utf-8")
    house_rule = "    source: authored\n    note: House rule - a harsher penalty.\n"
    path.write_text(text.replace("    source: rulebook\n    section: Deciding the winner\n", house_rule, 1), encoding="utf-8")
    assert [str(p) for p in validate(data_copy, ["monstrous"])] == []


def test_every_games_data_is_pinned_and_agrees(validate: Callable[..., list[Problem]]) -> None:
    assert [str(p) for p in validate(DATA)] == []


# ---- the facts file itself ---------------------------------------------------------------------------
def _add_fact(root: Path, game: str, fact: str) -> Path:
    path = root / game / f"{FACTS_KIND}.yaml"
    with path.open("a", encoding="utf-8") as out:
        out.write(fact)
    return path


def test_fact_needs_a_value_or_a_check_not_both(data_copy: Path, validate: Callable[..., list[Problem]]) -> None:
    path = _add_fact(data_copy, "monstrous", "  - id: both\n    section: Components\n    says: x\n    value: 1\n"
                                             "    checked_by: [LOCATION_COUNT]\n    pins: [components/components/rulebook/count]\n")
    found = [str(p) for p in validate(data_copy, ["monstrous"])]
    assert any(m.startswith(f"{path}:") and "fact both" in m for m in found), found


def test_checked_by_must_name_a_constant_of_the_checks(data_copy: Path, validate: Callable[..., list[Problem]]) -> None:
    path = data_copy / "theocracy" / f"{FACTS_KIND}.yaml"
    line = edit_line(path, "    checked_by: [DICE_COUNT]", "    checked_by: [DIE_COUNT]")
    found = [str(p) for p in validate(data_copy, ["theocracy"])]
    assert found == [f"{path}:{line}:18: fact four-dice: checked_by names DIE_COUNT, "
                     "which pipeline.games.theocracy.checks does not define"]


@pytest.mark.parametrize("fact, message", [
    ("  - id: again\n    section: Deciding the winner\n    says: x\n    value: 1\n    pins:\n      - scoring/penalty/faith_per_card\n",
     "fact again: scoring/penalty/faith_per_card pins penalty.faith_per_card, which fact penalty-per-card already pins"),
    ("  - id: ambiguous\n    section: Components\n    says: x\n    value: 1\n    pins:\n      - components/components/count=1/count\n",
     "fact ambiguous: pin components/components/count=1/count resolves to nothing: 2 records with count 1 in components.yaml components"),
], ids=["two-facts-one-field", "selector-picks-two"])
def test_faulty_pin_is_reported_at_the_pin(data_copy: Path, validate: Callable[..., list[Problem]], fact: str, message: str) -> None:
    path = _add_fact(data_copy, "monstrous", fact)
    line = len(path.read_text(encoding="utf-8").splitlines())
    assert [str(p) for p in validate(data_copy, ["monstrous"])] == [f"{path}:{line}:9: {message}"]


def test_values_compare_as_data_not_as_python() -> None:
    assert not same_value(True, 1) and not same_value(1, True) and not same_value(0, False)
    assert same_value({"a": 1, "b": [1, 2]}, {"b": [1, 2], "a": 1})
    assert not same_value([1, 2], [2, 1])
    assert show({"a": [True, None, "x"]}) == "{a: [true, null, x]}"


# ---- every section a fact cites is a heading of its rulebook ---------------------------------------
HEADING_LABEL_WORDS = 4  # "End game: ..." opens a section; a longer text before a colon is a sentence


def _headings(text: str) -> set[str]:
    """Headings of a rulebook as extracted: whole lines (markdown marks dropped) and the short
    labels that open a paragraph with a colon ("COMPONENTS: 4 dice", "Setup: Give each player")."""
    found = set()
    for raw in text.splitlines():
        line = re.sub(r"[#*]", "", raw).strip()
        if line:
            found.add(line.rstrip(":").strip())
        label = line.split(":", 1)[0].strip()
        if ":" in line and label[:1].isupper() and len(label.split()) <= HEADING_LABEL_WORDS:
            found.add(label)
    return found


@pytest.mark.skipif(not RULEBOOKS.is_dir(), reason="the source rulebooks are not here (set PANTHEON_RULEBOOKS)")
@pytest.mark.parametrize("game", GAMES)
def test_every_fact_cites_a_heading_of_its_rulebook(game: str) -> None:
    headings = _headings((RULEBOOKS / RULEBOOK_FILES[game]).read_text(encoding="utf-8"))
    facts = yaml.safe_load((DATA / game / f"{FACTS_KIND}.yaml").read_text(encoding="utf-8"))[FACTS_KEY]
    assert [f["id"] for f in facts if f["section"] not in headings] == []


# ---- every pinned value, changed by one step, is caught --------------------------------------------
@dataclass(frozen=True)
class PinnedValue:
    game: str
    fact: str
    checked: bool  # left to the game's checks (checked_by) rather than compared with a value
    kind: str
    path: PathKey

    def __str__(self) -> str:
        return f"{self.game}:{self.fact}:{self.kind}/{'/'.join(map(str, self.path))}"


def _pinned_values(game: str) -> Iterator[PinnedValue]:
    loaded = load_game(DATA, spec_of(game))
    for fact in loaded.doc(FACTS_KIND).data[FACTS_KEY]:
        for address in fact["pins"]:
            doc, path = resolve(loaded, address)
            node = node_at(doc.data, path)
            if "value" in fact:
                leaves = list(covered_paths(path, node, fact["value"]))
            else:  # the numbers and booleans below the pin (what completeness asks to be pinned)
                leaves = [path + sub for sub, value in walk(node)
                          if not isinstance(value, (dict, list, str)) and "provenance" not in sub]
            for leaf in leaves:
                yield PinnedValue(game, fact["id"], "value" not in fact, doc.kind, leaf)


def _changed(value: Any) -> Any:
    """One step away: a number plus one, a flag flipped, a text with a suffix, a null made 0."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    if isinstance(value, str):
        return f"{value}-x"
    return 0


@pytest.fixture
def loaded_data() -> tuple[RecordCatalogue, Any]:
    """The project's data, loaded for the test (which changes it: no other test sees it), and its schemas."""
    return RecordCatalogue(DATA, catalogue()), load_schemas(DATA)


def _uncaught(pinned: PinnedValue, loaded: GameData, schemas: Any, catalogue: RecordCatalogue) -> list[str]:
    """What is wrong with how the checks take ``pinned`` changed by one step (nothing when it is caught as it
    should be); the data is as it was afterwards."""
    doc = loaded.docs[pinned.kind]
    parent, key = node_at(doc.data, pinned.path[:-1]), pinned.path[-1]
    original = parent[key]
    parent[key] = _changed(original)
    loaded.edited()
    try:
        if pinned.checked:
            problems, _ = game_problems(loaded, schemas, catalogue)
            return [] if problems else [f"changing {original!r} went unnoticed by the game's checks"]
        problems = list(fact_problems(loaded, loaded.spec.checks))
        if len(problems) != 1:
            return [f"{len(problems)} problems, not 1: " + "; ".join(map(str, problems))]
        [problem] = problems
        wrong = [] if problem.at == doc.at(*pinned.path) else [f"reported at {problem.at}, not {doc.at(*pinned.path)}"]
        if f"(fact {pinned.fact}, section " not in problem.message or not problem.message.endswith(DEPART):
            wrong.append(f"the message does not name the fact and how to depart: {problem.message}")
        return wrong
    finally:
        parent[key] = original
        loaded.edited()


@pytest.mark.parametrize("game", GAMES)
def test_each_pinned_value_changed_is_caught(game: str, loaded_data: tuple[RecordCatalogue, Any]) -> None:
    """Every value a fact pins, changed by one step, is caught: by its fact (one problem, at the value, naming
    the fact) or, for a fact ``checked_by`` the game's checks, by those checks."""
    pinned_values = list(_pinned_values(game))
    assert pinned_values, f"{game}: no pinned values"
    catalogue, schemas = loaded_data
    wrong = {str(pinned): found for pinned in pinned_values
             if (found := _uncaught(pinned, catalogue.game(game), schemas, catalogue))}
    assert wrong == {}


# ---- ranges: numbers our own records hold keep to the bounds the rules give ------------------------
def _number_schemas(schema: Any) -> Iterator[tuple[PathKey, dict[str, Any]]]:
    """Every sub-schema of a number that may take more than one value."""
    for where, node in walk(schema):
        if isinstance(node, dict) and node.get("type") in ("integer", "number") and not {"const", "enum"} & set(node):
            yield where, node


@pytest.mark.parametrize("path", sorted((DATA / "schemas").rglob("*.schema.json")), ids=lambda p: p.stem)
def test_every_open_ended_number_says_why(path: Path) -> None:
    """A number without a maximum is a choice: its description must give the reason (or the fact that pins it)."""
    schema = yaml.safe_load(path.read_text(encoding="utf-8"))
    unexplained = [where for where, node in _number_schemas(schema)
                   if "maximum" not in node and "exclusiveMaximum" not in node and not node.get("description")]
    assert unexplained == []


@pytest.mark.parametrize("game, file, old, new, column, message", [
    ("heavenly-father", "philosopher-kinds.yaml", "      count: 3", "      count: 24", 14,
     "philosopher kind rationalist: copies.count: 24 is greater than the maximum of 23"),
    ("monstrous", "faith-tokens.yaml", "    count: 24", "    count: 57", 12,
     "token faith-1: count: 57 is greater than the maximum of 56"),
    ("theocracy", "phases.yaml", "  turns_per_round: 4", "  turns_per_round: 7", 20,
     "turn_structure.turns_per_round: 7 is greater than the maximum of 6"),
    ("monotheism", "scenarios.yaml", "    card_count: 9", "    card_count: 37", 17,
     "scenario 2: card_count: 37 is greater than the maximum of 36"),
], ids=["philosopher-copies", "faith-token-count", "turns-per-round", "scenario-size"])
def test_inferred_and_authored_numbers_keep_to_the_rules_bounds(data_copy: Path, validate: Callable[..., list[Problem]],
                                                               game: str, file: str, old: str, new: str,
                                                               column: int, message: str) -> None:
    path = data_copy / game / file
    line = edit_line(path, old, new)
    reported(validate(data_copy, [game]), f"{path}:{line}:{column}: {message}")
