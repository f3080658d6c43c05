"""Every Monotheism cross-check (and the schema rules it relies on) catches broken data.

Each test breaks a copy of the data and asserts the specific message appears,
pinned to the right file and, where it matters, the right line.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Union

import pytest

from pipeline.data.dataset import load_game
from pipeline.data.problems import Problem
from pipeline.games.monotheism import checks
from pipeline.games.registry import spec as spec_of

GAME = "monotheism"
Edit = Callable[[Any], Any]


@pytest.fixture
def broken(data_copy: Path, edit_yaml, validate, small_budgets: None) -> Callable[[str, Edit], list[Problem]]:
    """``broken(kind, fn)``: edit ``data/monotheism/<kind>.yaml`` in the copy, return the problems (the data
    checks' messages are asserted, not the solver's or the #21 run's verdicts: see ``small_budgets``)."""

    def run(kind: str, fn: Edit) -> list[Problem]:
        edit_yaml(data_copy / GAME / f"{kind}.yaml", lambda data: _discard(fn(data)))
        return validate(data_copy, [GAME])

    return run


def _discard(_result: Any) -> None:
    """Edits mutate in place; drop what ``list.pop`` and friends return so edit_yaml keeps the data."""
    return None


def find(problems: list[Problem], *fragments: str) -> Problem:
    """The one problem whose message contains every fragment (fails listing all problems otherwise)."""
    hits = [p for p in problems if all(f in p.message for f in fragments)]
    assert len(hits) == 1, f"expected one problem with {fragments}, got:\n" + "\n".join(map(str, problems))
    return hits[0]


def line_of(root: Path, kind: str, *path: Union[str, int]) -> int:
    return load_game(root, spec_of(GAME)).doc(kind).at(*path).line


def scenario(data: dict, number: int) -> dict:
    return next(s for s in data["scenarios"] if s["number"] == number)


def worshiper_set(data: dict, set_id: str) -> dict:
    return next(s for s in data["worshiper_sets"] if s["id"] == set_id)


def test_shipped_data_is_clean(validate) -> None:
    from pipeline.data.dataset import default_data_root

    assert [str(p) for p in validate(default_data_root(), [GAME])] == []


# --- scenarios: card references ---------------------------------------------------
def test_unknown_deity_id(broken, data_copy: Path) -> None:
    problems = broken("scenarios", lambda d: scenario(d, 2)["deck"][0].update(deity="30"))
    problem = find(problems, "scenario 2: card 1 from the bottom (#30): no such deity (ids are #01..#29)")
    assert problem.at.file.endswith("scenarios.yaml")
    assert problem.at.line == line_of(data_copy, "scenarios", "scenarios", 1, "deck", 0, "deity")


def test_deity_id_must_have_two_digits(broken) -> None:
    problems = broken("scenarios", lambda d: scenario(d, 2)["deck"][0].update(deity="8"))
    find(problems, "scenario 2: deck[0].deity: '8' does not match")


def test_unknown_worshiper(broken) -> None:
    problems = broken("scenarios", lambda d: scenario(d, 2)["deck"][5].update(worshiper="virgil"))
    find(problems, "scenario 2: card 6 from the bottom (virgil): no such worshiper in worshiper-sets.yaml")


# --- scenarios: deck shape ------------------------------------------------------------
def test_card_count_must_equal_deck_length(broken, data_copy: Path) -> None:
    problems = broken("scenarios", lambda d: scenario(d, 2)["deck"].insert(0, {"deity": "05"}))
    problem = find(problems, "scenario 2: stated card count 9 but the deck lists 10 cards")
    assert problem.at.line == line_of(data_copy, "scenarios", "scenarios", 1, "card_count")


def test_no_deity_twice(broken) -> None:
    problems = broken("scenarios", lambda d: scenario(d, 2)["deck"][0].update(deity="13"))
    find(problems, "scenario 2: card 2 from the bottom (#13) is already in the deck as card 1")


def test_no_worshiper_twice(broken) -> None:
    problems = broken("scenarios", lambda d: scenario(d, 2)["deck"].__setitem__(0, {"worshiper": "mizaru"}))
    find(problems, "scenario 2: card 6 from the bottom (mizaru) is already in the deck as card 1")


def test_top_card_must_be_veiled(broken, data_copy: Path) -> None:
    problems = broken("scenarios", lambda d: scenario(d, 3)["deck"][-1].pop("veiled"))
    problem = find(problems, "scenario 3: top card #20 must be a veiled god")
    assert problem.at.line == line_of(data_copy, "scenarios", "scenarios", 2, "deck", 10)


def test_top_card_must_not_be_a_worshiper(broken) -> None:
    def put_worshiper_on_top(data: dict) -> None:
        deck = scenario(data, 3)["deck"]
        deck.append(deck.pop(9))

    find(broken("scenarios", put_worshiper_on_top), "scenario 3: top card iwazaru must be a veiled god")


def test_every_scenario_has_a_worshiper(broken) -> None:
    problems = broken("scenarios", lambda d: scenario(d, 2)["deck"].__setitem__(5, {"deity": "05"}))
    find(problems, "scenario 2: the deck has no worshiper")


def test_scenario_needs_two_gods(broken) -> None:
    def shrink(data: dict) -> None:
        record = scenario(data, 2)
        record["deck"] = [{"worshiper": "mizaru"}, {"deity": "02", "veiled": True}]
        record["card_count"] = 2

    find(broken("scenarios", shrink), "scenario 2: the deck has 1 gods; a scenario needs at least 2")


def test_worshipers_from_one_set_only(broken) -> None:
    def add_haruspex(data: dict) -> None:
        record = scenario(data, 2)
        record["deck"].insert(0, {"worshiper": "haruspex"})
        record["card_count"] += 1

    problems = broken("scenarios", add_haruspex)
    find(problems, "scenario 2: worshipers come from several sets (haruspex-of-scriptures, three-monks)")


# --- scenarios: curses ----------------------------------------------------------------
def test_curse_beyond_what_the_worshiper_survives(broken, data_copy: Path) -> None:
    problems = broken("scenarios", lambda d: scenario(d, 3)["deck"][9].update(cursed=2))
    problem = find(problems, "scenario 3: card 10 from the bottom (iwazaru): cursed 2 times, "
                             "but this worshiper is known to survive only 1")
    assert problem.at.line == line_of(data_copy, "scenarios", "scenarios", 2, "deck", 9, "cursed")


def test_worshiper_with_no_known_survival_cannot_start_cursed(broken) -> None:
    def haruspex_cursed(data: dict) -> None:
        scenario(data, 2)["deck"][5] = {"worshiper": "haruspex", "cursed": 1}

    find(broken("scenarios", haruspex_cursed), "(haruspex): cursed 1 times, but this worshiper is known to survive only 0")


def test_curse_only_on_worshipers(broken) -> None:
    problems = broken("scenarios", lambda d: scenario(d, 2)["deck"][0].update(cursed=1))
    find(problems, "scenario 2: deck[0]: unknown key 'cursed' (allowed: deity, transformed, veiled)")


def test_curse_at_most_three(broken) -> None:
    problems = broken("scenarios", lambda d: scenario(d, 1)["deck"][6].update(cursed=4))
    find(problems, "scenario 1: deck[6].cursed: 4 is greater than the maximum of 3")


def test_veiled_only_on_deities(broken) -> None:
    problems = broken("scenarios", lambda d: scenario(d, 2)["deck"][5].update(veiled=True))
    find(problems, "scenario 2: deck[5]: unknown key 'veiled' (allowed: cursed, worshiper)")


# --- scenarios: the rulebook's five ---------------------------------------------------
def test_stated_title(broken) -> None:
    problems = broken("scenarios", lambda d: scenario(d, 3).update(title="When Atlas Shrugs"))
    find(problems, "scenario 3: title 'When Atlas Shrugs' is not the rulebook's 'When Atlas Falls'")


def test_stated_card_count(broken) -> None:
    problems = broken("scenarios", lambda d: scenario(d, 2).update(card_count=11))
    find(problems, "scenario 2: card_count 11 is not the rulebook's 9")


def test_scenario_number_unknown_and_missing(broken) -> None:
    problems = broken("scenarios", lambda d: scenario(d, 5).update(number=6))
    find(problems, "scenario 5: number 6 is not one of the rulebook's scenarios 1..5")
    find(problems, "scenario number 5 is missing")


def test_scenario_id_is_its_number(broken) -> None:
    problems = broken("scenarios", lambda d: scenario(d, 4).update(id="four"))
    find(problems, "scenario four: id must be the scenario number '4'")


# --- worshiper-sets.yaml ----------------------------------------------------------
def test_set_size_and_total(broken) -> None:
    problems = broken("worshiper-sets", lambda d: worshiper_set(d, "three-monks")["worshipers"].pop())
    find(problems, "worshiper set three-monks: has 2 worshipers; the rulebook gives 3")
    find(problems, "the sets hold 6 worshiper cards; the game has 7")
    find(problems, "component worshiper-cards: count 7, but the data has 6 (worshiper-sets.yaml)")
    # Iwazaru is gone, so scenario 3 now names an unknown worshiper.
    find(problems, "scenario 3: card 10 from the bottom (iwazaru): no such worshiper")


def test_unknown_and_missing_set(broken) -> None:
    problems = broken("worshiper-sets", lambda d: worshiper_set(d, "poet-and-spirit-guide").update(id="divine-comedy"))
    find(problems, "worshiper set divine-comedy: not one of the rulebook's sets")
    find(problems, 'worshiper set "poet-and-spirit-guide" is missing from worshiper-sets.yaml (deleted or renamed?)')


def test_worshiper_ids_unique_across_sets(broken) -> None:
    problems = broken("worshiper-sets", lambda d: worshiper_set(d, "poet-and-spirit-guide")["worshipers"][0].update(id="mizaru"))
    find(problems, "worshiper mizaru: id already used in worshiper set three-monks")


def test_worshiper_names_unique(broken) -> None:
    problems = broken("worshiper-sets", lambda d: worshiper_set(d, "poet-and-spirit-guide")["worshipers"][1].update(name="The Poet"))
    find(problems, "worshiper spirit-guide: name 'The Poet' is also the name of worshiper poet")


def test_worshiper_names_unique_across_sets(broken) -> None:
    problems = broken("worshiper-sets", lambda d: worshiper_set(d, "three-monks")["worshipers"][0].update(name="the  POET"))
    find(problems, "worshiper poet: name 'The Poet' already used by mizaru (worshiper set three-monks)")


def test_zero_gods_victory_only_for_the_pretender(broken) -> None:
    def swap(data: dict) -> None:
        worshiper_set(data, "haruspex-of-scriptures").update(zero_gods_victory=True, victory_note="Zero gods wins.")
        pretender = worshiper_set(data, "autotheistic-pretender")
        pretender.update(zero_gods_victory=False)
        del pretender["victory_note"]

    problems = broken("worshiper-sets", swap)
    find(problems, "worshiper set haruspex-of-scriptures: zero_gods_victory must be false")
    find(problems, "worshiper set autotheistic-pretender: zero_gods_victory must be true")


def test_victory_note_only_with_zero_gods_victory(broken) -> None:
    problems = broken("worshiper-sets", lambda d: worshiper_set(d, "three-monks").update(victory_note="Nirvana."))
    find(problems, "worshiper set three-monks:", "key is not allowed here")


def test_only_the_haruspex_is_easier(broken) -> None:
    def swap(data: dict) -> None:
        worshiper_set(data, "haruspex-of-scriptures")["difficulty"]["level"] = "standard"
        worshiper_set(data, "three-monks")["difficulty"]["level"] = "easier"

    problems = broken("worshiper-sets", swap)
    find(problems, "worshiper set haruspex-of-scriptures: difficulty level must be easier")
    find(problems, "worshiper set three-monks: difficulty level must be standard")


# --- components.yaml --------------------------------------------------------------
def test_deity_card_count(broken, data_copy: Path) -> None:
    problems = broken("components", lambda d: d["components"][0].update(count=30))
    problem = find(problems, "component deity-cards: count 30, but the data has 29 (deity ids #01..#29)")
    assert problem.at.line == line_of(data_copy, "components", "components", 0, "count")


def test_worshiper_card_count(broken) -> None:
    problems = broken("components", lambda d: d["components"][1].update(count=8))
    find(problems, "component worshiper-cards: count 8, but the data has 7 (worshiper-sets.yaml)")


def test_missing_component(broken) -> None:
    problems = broken("components", lambda d: d["components"].pop(0))
    find(problems, 'component "deity-cards" is missing from components.yaml (deleted or renamed?); the rulebook states it')


# --- glossary.yaml and rules.yaml -------------------------------------------------
def test_see_also_names_a_term_once(broken) -> None:
    """The core checks see_also for every game; the game's checks must not report it a second time."""
    def bad_links(data: dict) -> None:
        data["terms"][0]["see_also"] = ["above", "sideways"]

    problems = broken("glossary", bad_links)
    find(problems, "term above: see_also names the term itself")
    find(problems, "term above: see_also 'sideways' is not a term")


def test_required_symbol(broken) -> None:
    problems = broken("glossary", lambda d: d.update(symbols=[s for s in d["symbols"] if s["id"] != "moon"]))
    find(problems, 'symbol "moon" is missing from glossary.yaml (deleted or renamed?); the rulebook states it')


def test_every_rulebook_section_is_covered(broken) -> None:
    problems = broken("rules", lambda d: d.update(sections=[s for s in d["sections"] if s["id"] != "timing"]))
    find(problems, 'section "timing" is missing from rules.yaml (deleted or renamed?); the rulebook states it')


def test_engine_rulings_complete_and_inferred(broken) -> None:
    def weaken(data: dict) -> None:
        rulings = next(s for s in data["sections"] if s["id"] == "engine-rulings")["subsections"]
        rulings.pop()
        rulings[0]["provenance"] = {"source": "rulebook", "section": "Play"}

    problems = broken("rules", weaken)
    find(problems, "section engine-rulings: ruling ruling-endless-resolution is missing (the engine applies it)")
    find(problems, "subsection ruling-turn-restart: an engine ruling needs provenance source inferred")


def test_prose_names_real_deities(broken) -> None:
    def mention(data: dict) -> None:
        data["sections"][0]["paragraphs"].append("Beware card #31 and card #7.")

    problems = broken("rules", mention)
    find(problems, "section overview: mentions deity #31")
    find(problems, "section overview: mentions deity #7,")


def test_missing_document(data_copy: Path, validate) -> None:
    (data_copy / GAME / "worshiper-sets.yaml").unlink()
    (data_copy / "schemas" / GAME / "worshiper-sets.schema.json").unlink()
    find(validate(data_copy, [GAME]), "monotheism: required file worshiper-sets.yaml is missing")


def test_fact_constants_agree() -> None:
    assert len(checks.DEITY_IDS) == checks.DEITY_COUNT
    assert sum(checks.WORSHIPER_SET_SIZES.values()) == checks.WORSHIPER_CARD_COUNT
    assert set(checks.STATED_SCENARIOS) == {1, 2, 3, 4, 5}
