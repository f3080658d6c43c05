"""Cross-checks of Monotheism's data: what the schemas cannot say.

The rulebook's fixed facts (card counts, the worshiper sets, the five
scenarios, what each worshiper is known to survive) are module constants;
``cross_checks`` compares the data with them and with itself and yields every
problem it finds. ``scenario_findings`` checks one scenario on its own, so a
single scenario file (``pantheon monotheism solve --file``) can reuse it.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Iterator, Mapping

from pipeline.checks.components import ComponentCount, Inventory
from pipeline.checks.names import normal_name
from pipeline.checks.validate import walk
from pipeline.data.dataset import DATA_SUFFIX, Document, GameData, display_path
from pipeline.data.kinds import COMPONENTS_KIND, GLOSSARY_KIND, RULES_KIND
from pipeline.data.problems import Location, Problem
from pipeline.data.schemas import describe_path
from pipeline.games.monotheism import deck_checks
from pipeline.games.monotheism.model import (
    DEITIES,
    SCENARIOS,
    WORSHIPER_SETS,
    WORSHIPERS,
    MonotheismModel,
    Scenario,
)

# The fixed facts and the one-scenario checks live with those checks; named here too (rulebook facts cite them).
from pipeline.games.monotheism.scenario_checks import (  # noqa: F401
    CURSES_SURVIVED,
    DEITY_COUNT,
    DEITY_IDS,
    MIN_SCENARIO_GODS,
    Finding,
    PathKey,
    rating_findings,
    scenario_findings,
)

REQUIRED_KINDS = (COMPONENTS_KIND, WORSHIPER_SETS, SCENARIOS, GLOSSARY_KIND, RULES_KIND)

# --- Fixed facts (rulebook and monotheism-facts.md) -------------------------
WORSHIPER_CARD_COUNT = 7
WORSHIPER_SET_SIZES: Mapping[str, int] = {
    "haruspex-of-scriptures": 1,
    "three-monks": 3,
    "autotheistic-pretender": 1,
    "poet-and-spirit-guide": 2,
}
ZERO_GODS_VICTORY_SETS = frozenset({"autotheistic-pretender"})
EASIER_SETS = frozenset({"haruspex-of-scriptures"})  # "significantly easier"
EASIER = "easier"
# Curses each worshiper is known to survive, from the scenario notation
DEITY_COMPONENT = "deity-cards"
WORSHIPER_COMPONENT = "worshiper-cards"
# Scenario number -> (title, stated card count).
STATED_SCENARIOS: Mapping[int, tuple[str, int]] = {
    1: ("Wrath of the Cherubim", 11),
    2: ("A Friendly Game of Leap-frog", 9),
    3: ("When Atlas Falls", 11),
    4: ("Awakening an Endless Hunger", 11),
    5: ("A Light in the Dark Depths", 11),
}
RULEBOOK = "rulebook"  # the provenance of the rulebook's own scenarios

# --- What the documents must contain ------------------------------------------
REQUIRED_SYMBOLS = (
    "sun", "moon", "death",
    "curse-void", "curse-rotate", "curse-flip", "bless-rotate", "bless-flip",
    "act-box", "essence-box", "numbers",
)
# The rules sections (one per rulebook section, plus the engine rulings) are the spec's rule_sections.
ENGINE_RULINGS = "engine-rulings"
# The ten rulings of monotheism-facts.md, in its order ...
FACTS_RULINGS = (
    "ruling-turn-restart", "ruling-began-unveiled", "ruling-submerge-options", "ruling-submerge-curses",
    "ruling-multiple-consumption", "ruling-attempts-to-consume", "ruling-granted-power", "ruling-win-check",
    "ruling-stalemate", "ruling-worshiper-chain",
)
# ... and the further rulings engine.py applies, each of which the printed rules must explain.
ENGINE_ONLY_RULINGS = (
    "ruling-nearest-bites", "ruling-if-so", "ruling-veiled-on-top", "ruling-no-gods", "ruling-fatal-submerge",
    "ruling-your-worshiper", "ruling-consume-that-god", "ruling-worshiper-abilities", "ruling-short-choices",
    "ruling-move-ends", "ruling-endless-resolution",
)
REQUIRED_RULINGS = FACTS_RULINGS + ENGINE_ONLY_RULINGS
INFERRED = "inferred"
DEITY_MENTION = re.compile(r"#(\d+)")


def cross_checks(game: GameData[MonotheismModel]) -> Iterator[Problem]:
    """Every problem in ``game`` that no schema can express."""
    missing = [kind for kind in REQUIRED_KINDS if not game.has(kind)]
    for kind in missing:
        path = display_path(game.root / f"{kind}{DATA_SUFFIX}")
        yield Problem(Location(path, 1, 1), f"{game.game}: required file {kind}{DATA_SUFFIX} is missing")
    if missing:
        return
    model = game.model
    yield from worshiper_set_problems(game.doc(WORSHIPER_SETS), model)
    yield from scenario_problems(game.doc(SCENARIOS), model)
    yield from glossary_problems(game.doc(GLOSSARY_KIND))
    yield from rules_problems(game.doc(RULES_KIND))
    for doc in game.docs.values():
        yield from deity_mention_problems(doc)
    if not (game.has(DEITIES) and game.has(WORSHIPERS)):
        for kind in (DEITIES, WORSHIPERS):
            if not game.has(kind):
                path = display_path(game.root / f"{kind}{DATA_SUFFIX}")
                yield Problem(Location(path, 1, 1), f"{game.game}: required file {kind}{DATA_SUFFIX} is missing")
        return
    # The named cards' checks look cards up by id: a deleted or renumbered deity is told once, by its id.
    card_problems = list(deity_id_problems(game.doc(DEITIES))) or list(deck_checks.card_problems(game))
    yield from card_problems
    if not card_problems and model.cards is not None:  # play the scenarios only with sound cards
        yield from deck_checks.scenario_play_problems(game, model.cards)
    # #21's frequency (20,000 seeded deals) is not played here: `pantheon monotheism estimate-21 --check` does


def deity_id_problems(doc: Document) -> Iterator[Problem]:
    """deities.yaml holds exactly the cards #01..#29."""
    present = [record["id"] for record in doc.data["deities"]]
    for deity_id in DEITY_IDS:
        if deity_id not in present:  # told where it belongs: at the first card after it, else at the list's end
            after = next((i for i, other in enumerate(present) if other in DEITY_IDS and other > deity_id), None)
            where = ("deities", after, "id") if after is not None else ("deities", len(present) - 1)
            yield doc.problem(where, f"deity {deity_id} is missing (the deck is #{DEITY_IDS[0]}..#{DEITY_IDS[-1]})")
    for i, deity_id in enumerate(present):
        if deity_id not in DEITY_IDS:
            yield doc.problem(("deities", i, "id"), f"deity {deity_id}: not one of #{DEITY_IDS[0]}..#{DEITY_IDS[-1]}")


def _problem(doc: Document, path: PathKey, message: str) -> Problem:
    """A problem labelled with the innermost record on ``path`` (``scenario 3: ...``)."""
    label, _ = describe_path(doc.data, path)
    return doc.problem(path, f"{label}{message}")


# --- components.yaml ------------------------------------------------------------
def component_counts(game: GameData[MonotheismModel]) -> Inventory:
    """The box counts: the deity ids and the worshipers of worshiper-sets.yaml (none without that file)."""
    if not game.has(WORSHIPER_SETS):  # cross_checks reports the file missing
        return Inventory.of([])
    return Inventory.of([
        ComponentCount(DEITY_COMPONENT, len(DEITY_IDS), f"deity ids #{DEITY_IDS[0]}..#{DEITY_IDS[-1]}"),
        ComponentCount(WORSHIPER_COMPONENT, len(game.model.worshipers), "worshiper-sets.yaml"),
    ])


# --- worshiper-sets.yaml --------------------------------------------------------
def worshiper_set_problems(doc: Document, model: MonotheismModel) -> Iterator[Problem]:
    """The four sets of the rulebook, 1 + 3 + 1 + 2 = 7 cards, with their special rules."""
    sets = model.worshiper_sets
    present = {s.id for s in sets}
    for set_id in WORSHIPER_SET_SIZES:
        if set_id not in present:
            yield doc.problem(("worshiper_sets",), f"worshiper set {set_id} is missing")
    total = len(model.worshipers)
    if total != WORSHIPER_CARD_COUNT:
        yield doc.problem(
            ("worshiper_sets",), f"the sets hold {total} worshiper cards; the game has {WORSHIPER_CARD_COUNT}"
        )
    for i, worshiper_set in enumerate(sets):
        path: PathKey = ("worshiper_sets", i)
        stated = WORSHIPER_SET_SIZES.get(worshiper_set.id)
        size = len(worshiper_set.worshipers)
        if stated is None:
            yield _problem(doc, path + ("id",), f"not one of the rulebook's sets ({', '.join(WORSHIPER_SET_SIZES)})")
        elif size != stated:
            yield _problem(doc, path + ("worshipers",), f"has {size} worshipers; the rulebook gives {stated}")
        wins_with_zero = worshiper_set.id in ZERO_GODS_VICTORY_SETS
        if worshiper_set.zero_gods_victory != wins_with_zero:
            yield _problem(
                doc, path + ("zero_gods_victory",),
                f"zero_gods_victory must be {str(wins_with_zero).lower()} "
                f"(only {', '.join(sorted(ZERO_GODS_VICTORY_SETS))} wins with zero gods)",
            )
        is_easier = worshiper_set.id in EASIER_SETS
        if (worshiper_set.difficulty.level == EASIER) != is_easier:
            yield _problem(
                doc, path + ("difficulty", "level"),
                f"difficulty level must be {'easier' if is_easier else 'standard'} "
                f"(the rulebook calls only {', '.join(sorted(EASIER_SETS))} easier)",
            )
    yield from _duplicate_worshipers(doc, model)


def _duplicate_worshipers(doc: Document, model: MonotheismModel) -> Iterator[Problem]:
    """Worshiper ids and names are unique across all sets (the core checks them within one set's list)."""
    seen_ids: dict[str, str] = {}
    seen_names: dict[str, tuple[str, str]] = {}  # name -> (worshiper, its set)
    for i, worshiper_set in enumerate(model.worshiper_sets):
        for j, worshiper in enumerate(worshiper_set.worshipers):
            path = ("worshiper_sets", i, "worshipers", j)
            if worshiper.id in seen_ids:
                if seen_ids[worshiper.id] != worshiper_set.id:
                    yield _problem(doc, path + ("id",), f"id already used in worshiper set {seen_ids[worshiper.id]}")
            else:
                seen_ids[worshiper.id] = worshiper_set.id
            name = normal_name(worshiper.name)
            if name not in seen_names:
                seen_names[name] = (worshiper.id, worshiper_set.id)
            elif seen_names[name][1] != worshiper_set.id:
                other, other_set = seen_names[name]
                yield _problem(doc, path + ("name",), f"name {worshiper.name!r} already used by {other} (worshiper set {other_set})")


# --- scenarios.yaml -------------------------------------------------------------
def scenario_problems(doc: Document, model: MonotheismModel) -> Iterator[Problem]:
    """Each scenario on its own, then the five scenarios of the rulebook as a whole."""
    set_of = {w.id: w.set_id for w in model.worshipers}
    for i, scenario in enumerate(model.scenarios):
        base: PathKey = ("scenarios", i)
        for path, message in scenario_findings(scenario, set_of):
            yield _problem(doc, base + path, message)
        yield from _stated_scenario_problems(doc, base, scenario)
    numbers = Counter(s.number for s in model.scenarios)
    for number in STATED_SCENARIOS:
        if numbers[number] == 0:
            yield doc.problem(("scenarios",), f"scenario number {number} is missing")
    for i, scenario in enumerate(model.scenarios):
        if numbers[scenario.number] > 1 and scenario.source != RULEBOOK:
            yield _problem(doc, ("scenarios", i, "number"), f"number {scenario.number} is used by another scenario")


def _stated_scenario_problems(doc: Document, base: PathKey, scenario: Scenario) -> Iterator[Problem]:
    if scenario.source != RULEBOOK:
        yield from _authored_scenario_problems(doc, base, scenario)
        return
    stated = STATED_SCENARIOS.get(scenario.number) if scenario.number is not None else None
    if stated is None:
        yield _problem(doc, base + ("number",), f"number {scenario.number} is not one of the rulebook's scenarios 1..5")
        return
    title, count = stated
    if scenario.id != str(scenario.number):
        yield _problem(doc, base + ("id",), f"id must be the scenario number '{scenario.number}'")
    for key, listed, wanted in (("title", scenario.title, title), ("card_count", scenario.card_count, count)):
        if listed != wanted:
            yield _problem(doc, base + (key,), f"{key} {listed!r} is not the rulebook's {wanted!r}")


def _authored_scenario_problems(doc: Document, base: PathKey, scenario: Scenario) -> Iterator[Problem]:
    """A scenario added to the rulebook's five (``pantheon monotheism add``): numbered after them, rated."""
    if scenario.number is not None and scenario.number in STATED_SCENARIOS:
        yield _problem(doc, base + ("number",), f"number {scenario.number} is the rulebook's scenario "
                                                 f"'{STATED_SCENARIOS[scenario.number][0]}'; number added ones "
                                                 f"from {max(STATED_SCENARIOS) + 1}")
    if scenario.rating is None:
        yield _problem(doc, base + ("id",), "an added scenario needs its rating (pantheon monotheism rate --json)")


# --- glossary.yaml and rules.yaml -----------------------------------------------
def glossary_problems(doc: Document) -> Iterator[Problem]:
    """The symbols the cards need are all defined (see_also links are checked by the core, for every game)."""
    symbol_ids = {symbol["id"] for symbol in doc.data.get("symbols", [])}
    for symbol_id in REQUIRED_SYMBOLS:
        if symbol_id not in symbol_ids:
            yield doc.problem(("symbols",), f"glossary: symbol {symbol_id} is missing")


def rules_problems(doc: Document) -> Iterator[Problem]:
    """The engine rulings are all there, marked inferred (the core checks the spec's rule_sections)."""
    sections = doc.data["sections"]
    index = {section["id"]: i for i, section in enumerate(sections)}
    if ENGINE_RULINGS not in index:
        return
    base: PathKey = ("sections", index[ENGINE_RULINGS])
    rulings = sections[index[ENGINE_RULINGS]].get("subsections", [])
    present = {ruling["id"] for ruling in rulings}
    for ruling_id in REQUIRED_RULINGS:
        if ruling_id not in present:
            yield _problem(doc, base, f"ruling {ruling_id} is missing (the engine applies it)")
    for j, ruling in enumerate(rulings):
        if ruling.get("provenance", {}).get("source") != INFERRED:
            yield _problem(doc, base + ("subsections", j), "an engine ruling needs provenance source inferred")


def deity_mention_problems(doc: Document) -> Iterator[Problem]:
    """Prose that names a deity by number (``#07``) names one of #01..#29."""
    for path, node in walk(doc.data):
        if not isinstance(node, str):
            continue
        for match in DEITY_MENTION.finditer(node):
            if match[1] not in DEITY_IDS:
                yield _problem(doc, path, f"mentions deity {match[0]}, not one of #{DEITY_IDS[0]}..#{DEITY_IDS[-1]}")
