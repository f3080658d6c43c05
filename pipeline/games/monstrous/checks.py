"""Cross-checks of the Monstrous data: the rulebook's fixed facts and every reference.

Each check is a small generator over the loaded game; ``cross_checks`` runs
them all and reports every problem, each naming its record and pointing at
its YAML node. The data has already passed its JSON schemas, so the shapes
are known; these checks cover what no schema can say (counts, agreement
between files, references, rulebook facts, power wording vs structure).
"""
from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from pipeline.checks.components import ComponentCount, Inventory
from pipeline.data.dataset import Document, GameData
from pipeline.data.problems import Problem
from pipeline.data.yamlmarks import PathKey
from pipeline.games.monstrous import declared, engine
from pipeline.games.monstrous.model import MonstrousModel
from pipeline.games.monstrous.powers import (
    TRIGGER_LABELS,
    Owner,
    context_problems,
    op_problems,
    power_word_count,
    render_power,
)

# ---- fixed facts from the rulebook -------------------------------------------------
GOD_COLOURS = ("green", "blue", "purple", "orange", "white")
MONSTER_DESIGN_COUNT = 12
MONSTER_CARD_COUNT = MONSTER_DESIGN_COUNT * len(GOD_COLOURS)  # 60
LOCATION_COUNT = 11
RULEBOOK_MONSTERS = ("gorgon", "siren", "phoenix", "harpy", "dragon", "manticore", "cyclops",
                     "pegasus", "hellhound", "giant", "gryphon")
TRAP_MONSTERS = frozenset({"gorgon", "siren", "phoenix"})
RULEBOOK_POWER_TEXTS = {  # card wordings the rulebook quotes
    "harpy": "HIT MONSTERS: Take 2 Faith from one hit Monster's god.",
    "dragon": "HIT MONSTERS: Discard hit Monsters.",
    "manticore": "HIT MONSTERS: Gain 1 Faith for each hit Monster.",
}
RULEBOOK_LOCATIONS = {"athens": "Athens", "naxos": "Naxos", "corinth": "Corinth", "sparta": "Sparta",
                      "troy": "Troy", "olympia": "Olympia", "argos": "Argos", "underworld": "Underworld",
                      "delphi": "Delphi", "mt-olympus": "Mt Olympus", "thebes": "Thebes"}
RULEBOOK_LOCATION_FAITH = {"naxos": 4, "athens": 3}  # Turn examples 1 and 2
UNIQUE_PLATES = frozenset({"red", "bronze"})
TRAP_PLATE = "red"
COMMON_PLATE = "iron"
TRAP_TRIGGER = "when_hit"
THROW_STEP_ORDER = ("throw", "trap-monster-powers", "monster-powers", "location-powers",
                    "gain-faith", "extra-throw", "end-turn")
GAIN_FAITH_STEP = "gain-faith"
GAME_END_TRIGGER = "game_end"
MIN_PLAYERS, MAX_PLAYERS = 2, 5
STARTING_HAND = 3
SCENARIO_LOCATIONS = 5
SCENARIO_COUNT = 12
FIRST_GAME_LOCATIONS = frozenset({"naxos", "athens", "corinth", "sparta", "troy"})
FAITH_DENOMINATIONS = (1, 3, 10, 30)
FAITH_TOKEN_COUNT = 56
MM_PER_INCH = 25.4
SIZE_TOLERANCE_MM = 0.05
CARD_SIZES_MM = {"monster-card": (63, 88), "location-card": (88.9, 127)}
MONSTER_CARD_SIDES = 2
MAX_FACE_WORDS = 45
TEAM_VARIANT, EPIC_VARIANT = "team", "epic"
# components.yaml id -> (document kind, list key) whose record count it must equal
COMPONENT_RECORDS = {"god-boards": ("gods", "gods"), "player-aids": ("player-aids", "aids"),
                     "monster-cards": ("monster-cards", "cards"), "location-cards": ("locations", "locations")}
FAITH_COMPONENT = "faith-tokens"
RULEBOOK_COUNTS = {"god-boards": len(GOD_COLOURS), "player-aids": len(GOD_COLOURS), "monster-cards": MONSTER_CARD_COUNT,
                   "location-cards": LOCATION_COUNT}  # one board and one aid per god
# The worked examples' titles are document headings that name the Monsters and Locations they show
# ([[monsters/dragon]]), so a renamed card is renamed there too (pipeline/checks/names.py).
PROSE_TITLES = frozenset({("examples", "examples")})

Check = Callable[[GameData], Iterator[Problem]]


# ---- helpers -----------------------------------------------------------------------
def _ids(doc: Document, key: str) -> list[str]:
    return [record["id"] for record in doc.data[key]]


def _enumerate(doc: Document, key: str) -> Iterator[tuple[int, dict[str, Any]]]:
    return enumerate(doc.data[key])


def _missing_refs(doc: Document, path: tuple, values: Iterable[str], known: Iterable[str], what: str,
                  label: str) -> Iterator[Problem]:
    known_set = set(known)
    for index, value in enumerate(values):
        if value not in known_set:
            yield doc.problem(path + (index,), f"{label}: {what} '{value}' does not exist")


def _card_owner(card_id: str) -> str:
    return card_id.split("-", 1)[0]


# ---- gods and Monster designs ------------------------------------------------------
def check_gods(game: GameData[MonstrousModel]) -> Iterator[Problem]:
    doc = game.doc("gods")
    ids = _ids(doc, "gods")
    if sorted(ids) != sorted(GOD_COLOURS):
        yield doc.problem(("gods",), f"gods: the rulebook has one god per colour ({', '.join(GOD_COLOURS)}), "
                                     f"the data has {', '.join(ids)}")
    for index, god in _enumerate(doc, "gods"):
        if god["colour"] != god["id"]:
            yield doc.problem(("gods", index, "colour"), f"god {god['id']}: colour {god['colour']} differs from its id")
    lists = [side["lists"] for side in doc.data["god_board"]["sides"]]
    if sorted(lists) != ["locations", "monsters"]:
        yield doc.problem(("god_board", "sides"), "god board: one side must list the Locations and the other the Monsters")


def check_monster_designs(game: GameData[MonstrousModel]) -> Iterator[Problem]:
    doc = game.doc("monsters")
    ids = _ids(doc, "monsters")
    if len(ids) != MONSTER_DESIGN_COUNT:
        yield doc.problem(("monsters",), f"monsters: {len(ids)} designs, the rulebook has {MONSTER_DESIGN_COUNT} per deck")
    for name in RULEBOOK_MONSTERS:
        if name not in ids:
            yield doc.problem(("monsters",), f"monsters: the rulebook's {name} is missing")
    for index, monster in _enumerate(doc, "monsters"):
        if monster["trap"] != (monster["id"] in TRAP_MONSTERS):
            should = "is" if monster["id"] in TRAP_MONSTERS else "is not"
            yield doc.problem(("monsters", index, "trap"), f"monster {monster['id']}: the rulebook says it {should} a Trap Monster")


def check_plates(game: GameData[MonstrousModel]) -> Iterator[Problem]:
    doc = game.doc("monsters")
    for index, monster in _enumerate(doc, "monsters"):
        yield from _unique_side_problems(doc, index, monster)
    common = doc.data["common_side"]
    if common["plate"] != COMMON_PLATE:
        yield doc.problem(("common_side", "plate"), f"common side: plate must be {COMMON_PLATE}, not {common['plate']}")
    for p_index, power in enumerate(common["powers"]):
        if power["trigger"] == TRAP_TRIGGER:
            yield doc.problem(("common_side", "powers", p_index, "trigger"),
                              "common side: WHEN HIT powers belong to Trap Monsters' red sides only")


def _unique_side_problems(doc: Document, index: int, monster: Mapping[str, Any]) -> Iterator[Problem]:
    side, name = monster["unique_side"], f"monster {monster['id']}"
    path = ("monsters", index, "unique_side")
    plate = side["plate"]
    if plate not in UNIQUE_PLATES:
        yield doc.problem(path + ("plate",), f"{name}: unique side plate is {plate}; it must be red (trap) or bronze")
    elif (plate == TRAP_PLATE) != monster["trap"]:
        wanted = TRAP_PLATE if monster["trap"] else "bronze"
        yield doc.problem(path + ("plate",), f"{name}: plate is {plate} but should be {wanted} "
                                             f"(red plates mark exactly the Trap Monsters)")
    triggers = [power["trigger"] for power in side["powers"]]
    if monster["trap"] and triggers[0] != TRAP_TRIGGER:
        yield doc.problem(path + ("powers", 0, "trigger"), f"{name}: a Trap Monster's first power must be WHEN HIT")
    if not monster["trap"] and TRAP_TRIGGER in triggers:
        yield doc.problem(path + ("powers", triggers.index(TRAP_TRIGGER), "trigger"),
                          f"{name}: only Trap Monsters have WHEN HIT powers")


# ---- powers: vocabulary, context, wording ----------------------------------------------
def _all_powers(game: GameData[MonstrousModel]) -> Iterator[tuple[Document, tuple, Owner, str, Mapping[str, Any]]]:
    """(document, path to power, owner, record label, power) for every printed power."""
    monsters = game.doc("monsters")
    for p_index, power in enumerate(monsters.data["common_side"]["powers"]):
        yield monsters, ("common_side", "powers", p_index), Owner("monster", "Monster"), "common side", power
    for index, monster in _enumerate(monsters, "monsters"):
        owner = Owner("monster", monster["name"])
        for p_index, power in enumerate(monster["unique_side"]["powers"]):
            yield monsters, ("monsters", index, "unique_side", "powers", p_index), owner, f"monster {monster['id']}", power
    locations = game.doc("locations")
    for index, location in _enumerate(locations, "locations"):
        yield locations, ("locations", index, "power"), Owner("location", location["name"]), \
            f"location {location['id']}", location["power"]


def check_powers(game: GameData[MonstrousModel]) -> Iterator[Problem]:
    for doc, path, owner, label, power in _all_powers(game):
        for o_index, op in enumerate(power["effects"]):
            for message in op_problems(op):
                yield doc.problem(path + ("effects", o_index), f"{label}: {message}")
        for message in context_problems(power, owner):
            yield doc.problem(path, f"{label}: {message}")
        rendered = render_power(power, owner)
        if rendered != power["text"]:
            yield doc.problem(path + ("text",), f"{label}: printed text {power['text']!r} does not match its "
                                                f"effects, which read {rendered!r}")


def check_rulebook_wordings(game: GameData[MonstrousModel]) -> Iterator[Problem]:
    doc = game.doc("monsters")
    for index, monster in _enumerate(doc, "monsters"):
        stated = RULEBOOK_POWER_TEXTS.get(monster["id"])
        texts = [power["text"] for power in monster["unique_side"]["powers"]]
        if stated is not None and stated not in texts:
            yield doc.problem(("monsters", index, "unique_side", "powers"),
                              f"monster {monster['id']}: the rulebook prints {stated!r}")


def check_face_lengths(game: GameData[MonstrousModel]) -> Iterator[Problem]:
    doc = game.doc("monsters")
    faces: list[tuple[PathKey, str, Any]] = [(("common_side",), "common side", doc.data["common_side"])]
    faces += [(("monsters", i, "unique_side"), f"monster {m['id']}", m["unique_side"]) for i, m in _enumerate(doc, "monsters")]
    for path, label, side in faces:
        words = power_word_count(side["powers"])
        if words > MAX_FACE_WORDS:
            yield doc.problem(path, f"{label}: {words} words of power text, more than fits a card face ({MAX_FACE_WORDS})")


# ---- the 60 cards -------------------------------------------------------------------
def check_cards(game: GameData[MonstrousModel]) -> Iterator[Problem]:
    doc = game.doc("monster-cards")
    designs, gods = set(_ids(game.doc("monsters"), "monsters")), set(_ids(game.doc("gods"), "gods"))
    cards = doc.data["cards"]
    if len(cards) != MONSTER_CARD_COUNT:
        yield doc.problem(("cards",), f"monster cards: {len(cards)} cards, the rulebook has {MONSTER_CARD_COUNT} "
                                      f"({MONSTER_DESIGN_COUNT} Monsters x {len(GOD_COLOURS)} colours)")
    seen: dict[tuple[str, str], str] = {}
    for index, card in enumerate(cards):
        label = f"card {card['id']}"
        if card["monster"] not in designs:
            yield doc.problem(("cards", index, "monster"), f"{label}: monster '{card['monster']}' does not exist")
        if card["god"] not in gods:
            yield doc.problem(("cards", index, "god"), f"{label}: god '{card['god']}' does not exist")
        if card["id"] != f"{card['god']}-{card['monster']}":
            yield doc.problem(("cards", index, "id"), f"{label}: id should be '{card['god']}-{card['monster']}'")
        pair = (card["god"], card["monster"])
        if pair in seen:
            yield doc.problem(("cards", index), f"{label}: {card['god']} already has a {card['monster']} ({seen[pair]})")
        seen.setdefault(pair, card["id"])
    for god in sorted(gods):
        for monster in sorted(designs):
            if (god, monster) not in seen:
                yield doc.problem(("cards",), f"god {god}: deck has no {monster} card")


# ---- Locations and card formats ------------------------------------------------------
def check_locations(game: GameData[MonstrousModel]) -> Iterator[Problem]:
    doc = game.doc("locations")
    locations = doc.data["locations"]
    if len(locations) != LOCATION_COUNT:
        yield doc.problem(("locations",), f"locations: {len(locations)} Locations, the rulebook has {LOCATION_COUNT}")
    ids = _ids(doc, "locations")
    for location_id in RULEBOOK_LOCATIONS:
        if location_id not in ids:
            yield doc.problem(("locations",), f"locations: the rulebook's {RULEBOOK_LOCATIONS[location_id]} is missing")
    for index, location in enumerate(locations):
        label = f"location {location['id']}"
        stated_name = RULEBOOK_LOCATIONS.get(location["id"])
        if stated_name is not None and location["name"] != stated_name:
            yield doc.problem(("locations", index, "name"), f"{label}: the rulebook names it {stated_name}")
        stated_faith = RULEBOOK_LOCATION_FAITH.get(location["id"])
        if stated_faith is not None and location["faith"] != stated_faith:
            yield doc.problem(("locations", index, "faith"), f"{label}: the rulebook gives {stated_faith} Faith, "
                                                              f"not {location['faith']}")


def check_card_formats(game: GameData[MonstrousModel]) -> Iterator[Problem]:
    doc = game.doc("card-formats")
    formats = {f["id"]: (i, f) for i, f in _enumerate(doc, "formats")}
    for kind in ("monster-cards", "locations", "player-aids"):
        user = game.doc(kind)
        if user.data["card_format"] not in formats:
            yield user.problem(("card_format",), f"{kind}: card format '{user.data['card_format']}' does not exist")
    for format_id, (width, height) in CARD_SIZES_MM.items():
        if format_id not in formats:
            yield doc.problem(("formats",), f"card formats: '{format_id}' is missing")
            continue
        index, fmt = formats[format_id]
        if abs(fmt["width_mm"] - width) > SIZE_TOLERANCE_MM or abs(fmt["height_mm"] - height) > SIZE_TOLERANCE_MM:
            yield doc.problem(("formats", index), f"card format {format_id}: must be {width} x {height} mm, "
                                                  f"not {fmt['width_mm']} x {fmt['height_mm']}")
    for index, fmt in formats.values():
        if "width_in" in fmt and (abs(fmt["width_in"] * MM_PER_INCH - fmt["width_mm"]) > SIZE_TOLERANCE_MM
                                  or abs(fmt["height_in"] * MM_PER_INCH - fmt["height_mm"]) > SIZE_TOLERANCE_MM):
            yield doc.problem(("formats", index), f"card format {fmt['id']}: inches and millimetres disagree")
    monster_format = formats.get(game.doc("monster-cards").data["card_format"])
    if monster_format is not None and monster_format[1]["sides"] != MONSTER_CARD_SIDES:
        yield doc.problem(("formats", monster_format[0], "sides"), "card format for Monster cards must be two-sided")


# ---- turn structure and aids -----------------------------------------------------------
def _used_triggers(game: GameData[MonstrousModel]) -> set[tuple[str, str]]:
    """(card kind, trigger) of every printed power."""
    return {(owner.kind, power["trigger"]) for _, _, owner, _, power in _all_powers(game)}


def check_throw_steps(game: GameData[MonstrousModel]) -> Iterator[Problem]:
    doc = game.doc("throw-steps")
    steps = doc.data["steps"]
    ids = _ids(doc, "steps")
    if tuple(ids) != THROW_STEP_ORDER:
        missing = [step for step in THROW_STEP_ORDER if step not in ids]
        said = f"{', '.join(missing)} missing; " if missing else ""
        yield doc.problem(("steps",), f"throw steps: {said}the rulebook's order is {', '.join(THROW_STEP_ORDER)}")
    resolved = {(r["card"], r["trigger"]) for step in steps for r in step["resolves"]}
    for kind, trigger in sorted(_used_triggers(game)):
        if trigger != GAME_END_TRIGGER and (kind, trigger) not in resolved:
            yield doc.problem(("steps",), f"throw steps: no step resolves the {TRIGGER_LABELS[trigger]} powers of {kind}s")


def check_player_aids(game: GameData[MonstrousModel]) -> Iterator[Problem]:
    doc = game.doc("player-aids")
    gods = Counter(aid["god"] for aid in doc.data["aids"])
    for colour in GOD_COLOURS:
        if gods[colour] != 1:
            yield doc.problem(("aids",), f"player aids: god {colour} has {gods[colour]} aids, expected 1")
    order = list(_ids(game.doc("throw-steps"), "steps"))
    for index, aid in _enumerate(doc, "aids"):
        if aid["steps"] != order:
            yield doc.problem(("aids", index, "steps"), f"aid {aid['id']}: steps must list every step of throw-steps.yaml in order")
    keywords = {k["trigger"] for k in doc.data["keywords"]}
    for _, trigger in sorted(_used_triggers(game)):
        if trigger not in keywords:
            yield doc.problem(("keywords",), f"player aids: no keyword explains {TRIGGER_LABELS[trigger]}")


# ---- setup -----------------------------------------------------------------------
def check_setup(game: GameData[MonstrousModel]) -> Iterator[Problem]:
    doc = game.doc("setup")
    players = doc.data["players"]
    if (players["min"], players["max"]) != (MIN_PLAYERS, MAX_PLAYERS):
        yield doc.problem(("players",), f"setup: the rulebook plays {MIN_PLAYERS}-{MAX_PLAYERS} gods")
    if doc.data["play"]["starting_hand"] != STARTING_HAND:
        yield doc.problem(("play", "starting_hand"), f"setup: each god starts with {STARTING_HAND} cards")
    yield from _deck_table_problems(doc, players["min"], players["max"])
    yield from _first_game_problems(doc, set(_ids(game.doc("locations"), "locations")))


def _deck_table_problems(doc: Document, low: int, high: int) -> Iterator[Problem]:
    rows = doc.data["deck_table"]["rows"]
    counts = Counter(row["players"] for row in rows)
    for players in sorted(n for n, count in counts.items() if count > 1 and low <= n <= high):
        yield doc.problem(("deck_table", "rows"), f"deck table: {counts[players]} rows for {players} gods, expected 1")
    for first, last in _gaps(sorted(n for n in counts if low <= n <= high), low, high):
        gods = f"{first} gods" if first == last else f"{first} to {last} gods"
        yield doc.problem(("deck_table", "rows"), f"deck table: 0 rows for {gods}, expected 1{'' if first == last else ' each'}")
    for index, row in enumerate(rows):
        n = row["players"]
        if not low <= n <= high:
            yield doc.problem(("deck_table", "rows", index), f"deck table: {n} gods is outside {low}-{high}")
        if row["deck"] != MONSTER_DESIGN_COUNT - n:
            yield doc.problem(
                ("deck_table", "rows", index, "deck"),
                f"deck table, {n} gods: deck {row['deck']}, expected {MONSTER_DESIGN_COUNT} - {n} = {MONSTER_DESIGN_COUNT - n}",
            )
        if row["underworld"] != n:
            yield doc.problem(("deck_table", "rows", index, "underworld"),
                              f"deck table, {n} gods: Underworld {row['underworld']}, expected {n} (one per god)")


def _gaps(present: Sequence[int], low: int, high: int) -> Iterator[tuple[int, int]]:
    """The runs of whole numbers from ``low`` to ``high`` missing from the sorted ``present``
    (as first, last: a range of millions is one run, not millions of numbers)."""
    expected = low
    for number in (*present, high + 1):
        if number > expected:
            yield expected, number - 1
        expected = number + 1


def _first_game_problems(doc: Document, locations: set[str]) -> Iterator[Problem]:
    chosen = doc.data["first_game"]["locations"]
    yield from _missing_refs(doc, ("first_game", "locations"), chosen, locations, "location", "first game")
    if set(chosen) != FIRST_GAME_LOCATIONS or len(chosen) != len(set(chosen)):
        yield doc.problem(("first_game", "locations"), f"first game: the rulebook uses {', '.join(sorted(FIRST_GAME_LOCATIONS))}")
    if len(chosen) != doc.data["play"]["location_count"]:
        yield doc.problem(("first_game", "locations"), f"first game: {len(chosen)} Locations, "
                                                       f"setup lays out {doc.data['play']['location_count']}")


# ---- scenarios -------------------------------------------------------------------
def check_scenarios(game: GameData[MonstrousModel]) -> Iterator[Problem]:
    doc = game.doc("scenarios")
    locations = set(_ids(game.doc("locations"), "locations"))
    difficulties = set(_ids(doc, "difficulties"))
    if len(doc.data["scenarios"]) != SCENARIO_COUNT:
        yield doc.problem(("scenarios",), f"scenarios: {len(doc.data['scenarios'])} layouts, the rulebook lists {SCENARIO_COUNT}")
    layouts: dict[frozenset, str] = {}
    for index, scenario in _enumerate(doc, "scenarios"):
        label = f"scenario {scenario['id']}"
        if scenario["difficulty"] not in difficulties:
            yield doc.problem(("scenarios", index, "difficulty"), f"{label}: difficulty '{scenario['difficulty']}' does not exist")
        layout = scenario["layout"]
        for position, location in layout.items():
            if location not in locations:
                yield doc.problem(("scenarios", index, "layout", position), f"{label}: location '{location}' at {position} does not exist")
        repeated = sorted(loc for loc, n in Counter(layout.values()).items() if n > 1)
        if repeated or len(layout) != SCENARIO_LOCATIONS:
            yield doc.problem(("scenarios", index, "layout"),
                              f"{label}: needs {SCENARIO_LOCATIONS} different Locations; repeated: {', '.join(repeated) or 'none'}")
        key = frozenset(layout.items())
        if key in layouts:
            yield doc.problem(("scenarios", index, "layout"), f"{label}: same layout as {layouts[key]}")
        layouts.setdefault(key, scenario["id"])


# ---- tokens and components ---------------------------------------------------------------
def check_faith_tokens(game: GameData[MonstrousModel]) -> Iterator[Problem]:
    doc = game.doc("faith-tokens")
    values = sorted(token["value"] for token in doc.data["tokens"])
    if tuple(values) != FAITH_DENOMINATIONS:
        yield doc.problem(("tokens",), f"faith tokens: denominations {values}, the rulebook has {list(FAITH_DENOMINATIONS)}")
    total = sum(token["count"] for token in doc.data["tokens"])
    if total != doc.data["total_tokens"] or total != FAITH_TOKEN_COUNT:
        yield doc.problem(("total_tokens",), f"faith tokens: the counts in {doc.path.name} add up to {total}; total_tokens says "
                                             f"{doc.data['total_tokens']}, the rulebook {FAITH_TOKEN_COUNT}")


def component_counts(game: GameData[MonstrousModel]) -> Inventory:
    """The box contents as the data holds them: records of each card and board file, and the faith tokens."""
    counts = [ComponentCount(cid, len(game.doc(kind).data[key]), f"{kind}.yaml", RULEBOOK_COUNTS[cid])
              for cid, (kind, key) in COMPONENT_RECORDS.items()]
    tokens = sum(t["count"] for t in game.doc("faith-tokens").data["tokens"])
    return Inventory.of(counts + [ComponentCount(FAITH_COMPONENT, tokens, "faith-tokens.yaml", FAITH_TOKEN_COUNT)])


# ---- variants, FAQ, glossary ---------------------------------------------------------------
def check_variants(game: GameData[MonstrousModel]) -> Iterator[Problem]:
    doc = game.doc("variants")
    variants = {v["id"]: v for v in doc.data["variants"]}
    for index, variant in _enumerate(doc, "variants"):
        label = f"variant {variant['id']}"
        combined = variant.get("combines", [])
        yield from _missing_refs(doc, ("variants", index, "combines"), combined, variants, "variant", label)
        if any(v not in variants for v in combined):
            continue  # whose rules are unknown: the missing variant is the problem, told above
        rules = {r["id"] for v in combined for r in variants[v].get("rules", [])}
        yield from _missing_refs(doc, ("variants", index, "excludes_rules"), variant.get("excludes_rules", []),
                                 rules, "rule of a combined variant", label)
    team = variants.get(TEAM_VARIANT, {}).get("changes", {})
    if team and team.get("deck_split", 0) * team.get("team_size", 0) != MONSTER_DESIGN_COUNT:
        yield doc.problem(("variants",), f"variant team: {team.get('team_size')} decks of {team.get('deck_split')} "
                                         f"do not make one {MONSTER_DESIGN_COUNT}-card deck")
    epic = variants.get(EPIC_VARIANT, {}).get("changes", {})
    if epic.get("setup_underworld") != 0:
        yield doc.problem(("variants",), "variant epic: plays all 12 Monsters, so setup_underworld must be 0")


def check_faq(game: GameData[MonstrousModel]) -> Iterator[Problem]:
    doc = game.doc("faq")
    known = {"monsters": _ids(game.doc("monsters"), "monsters"), "locations": _ids(game.doc("locations"), "locations"),
             "steps": _ids(game.doc("throw-steps"), "steps")}
    for index, ruling in _enumerate(doc, "rulings"):
        for kind, values in ruling.get("refs", {}).items():
            yield from _missing_refs(doc, ("rulings", index, "refs", kind), values, known[kind],
                                     kind.rstrip("s"), f"ruling {ruling['id']}")


# ---- worked examples: references and a ledger replay ------------------------------------------
class _Ledger:
    """Faith, hands and decks of an example, moved by its events; mismatches become messages."""

    def __init__(self, initial: Mapping[str, Any]) -> None:
        self.faith: defaultdict[str, int] = defaultdict(int, initial["faith"])
        self.hands: defaultdict[str, list[str]] = defaultdict(list, {g: list(h) for g, h in initial.get("hands", {}).items()})
        self.decks: defaultdict[str, list[str]] = defaultdict(list, {g: list(d) for g, d in initial.get("decks", {}).items()})

    def throw(self, god: str, card: str) -> list[str]:
        if card not in self.hands[god]:
            return [f"{card} is thrown but is not in {god}'s hand"]
        self.hands[god].remove(card)
        return []

    def draw(self, god: str, card: str) -> list[str]:
        if not self.decks[god] or self.decks[god][0] != card:
            top = self.decks[god][0] if self.decks[god] else "nothing"
            return [f"{god} draws {card} but the top of their deck is {top}"]
        self.hands[god].append(self.decks[god].pop(0))
        return []

    def apply(self, event: Mapping[str, Any]) -> list[str]:
        kind = event["event"]
        if kind == "gain_faith":
            self.faith[event["god"]] += event["amount"]
        elif kind == "take_faith":
            if self.faith[event["from"]] < event["amount"]:
                return [f"{event['god']} takes {event['amount']} Faith from {event['from']}, who has {self.faith[event['from']]}"]
            self.faith[event["from"]] -= event["amount"]
            self.faith[event["god"]] += event["amount"]
        elif kind == "draw":
            return self.draw(event["god"], event["card"])
        elif kind == "move" and event["to"] == "deck_top":
            self.decks[_card_owner(event["card"])].insert(0, event["card"])
        elif kind == "move" and event["to"] == "hand":
            self.hands[_card_owner(event["card"])].append(event["card"])
        return []


def check_examples(game: GameData[MonstrousModel]) -> Iterator[Problem]:
    doc = game.doc("examples")
    known = {"card": set(_ids(game.doc("monster-cards"), "cards")),
             "location": set(_ids(game.doc("locations"), "locations"))}
    faith = {loc["id"]: loc["faith"] for loc in game.doc("locations").data["locations"]}
    for index, example in _enumerate(doc, "examples"):
        path, label = ("examples", index), f"example {example['id']}"
        for where, message in _example_reference_problems(example, known):
            yield doc.problem(path + where, f"{label}: {message}")
        for where, message in _example_replay_problems(example, faith):
            yield doc.problem(path + where, f"{label}: {message}")


def _example_reference_problems(example: Mapping[str, Any], known: Mapping[str, set[str]]) -> Iterator[tuple[tuple, str]]:
    initial = example["initial"]
    gods = [initial["active"], *initial["faith"], *initial.get("hands", {}), *initial.get("decks", {})]
    gods += [e[key] for t in example["throws"] for s in t["steps"] for e in s["events"] for key in ("god", "from") if key in e]
    for god in sorted(set(gods) - set(initial["seats"])):
        yield ("initial", "seats"), f"god {god} takes part but has no seat"
    for loc in initial["locations"]:
        if loc not in known["location"]:
            yield ("initial", "locations"), f"location '{loc}' does not exist"
    cards = [entry["card"] for entry in initial["table"]]
    cards += [card for pile in ("hands", "decks") for held in initial.get(pile, {}).values() for card in held]
    for t_index, throw in enumerate(example["throws"]):
        cards.append(throw["card"])
        for s_index, step in enumerate(throw["steps"]):
            cards += step.get("hits", []) + [e["card"] for e in step["events"] if "card" in e]
            for loc in step.get("locations_hit", []) + ([step["location"]] if "location" in step else []):
                if loc not in initial["locations"]:
                    yield ("throws", t_index, "steps", s_index), f"location '{loc}' is not on the table"
    for card in sorted(set(cards) - known["card"]):
        yield (), f"card '{card}' does not exist"


def _example_replay_problems(example: Mapping[str, Any], faith: Mapping[str, int]) -> Iterator[tuple[tuple, str]]:
    initial = example["initial"]
    active, ledger = initial["active"], _Ledger(initial)
    throws = example["throws"]
    for t_index, throw in enumerate(throws):
        where = ("throws", t_index)
        for message in ledger.throw(active, throw["card"]):
            yield where + ("card",), message
        yield from _step_problems(throw, where, ledger, faith)
        if throw["extra_throw"] != (t_index < len(throws) - 1):
            yield where + ("extra_throw",), "extra_throw must be true exactly when another throw follows"
    end = example["end_turn"]
    if "draw" in end:
        for message in ledger.draw(active, end["draw"]):
            yield ("end_turn", "draw"), message
    seats = initial["seats"]
    expected_next = seats[(seats.index(active) + 1) % len(seats)] if active in seats else None
    if end["next"] != expected_next:
        yield ("end_turn", "next"), f"play passes to the left, to {expected_next}, not {end['next']}"
    for god, amount in example["final"]["faith"].items():
        if ledger.faith.get(god) != amount:
            yield ("final", "faith", god), f"final Faith of {god} is {amount} but the events give {ledger.faith.get(god)}"
    for god, hand in example["final"].get("hands", {}).items():
        if ledger.hands.get(god) != hand:
            yield ("final", "hands", god), f"final hand of {god} is {hand} but the events give {ledger.hands.get(god)}"


def _step_problems(throw: Mapping[str, Any], where: tuple, ledger: _Ledger,
                   faith: Mapping[str, int]) -> Iterator[tuple[tuple, str]]:
    last = -1
    for s_index, step in enumerate(throw["steps"]):
        step_where = where + ("steps", s_index)
        position = THROW_STEP_ORDER.index(step["step"])
        if position <= last:
            yield step_where + ("step",), f"step {step['step']} is out of Throw Step order"
        last = position
        for e_index, event in enumerate(step["events"]):
            for message in ledger.apply(event):
                yield step_where + ("events", e_index), message
        if step["step"] == GAIN_FAITH_STEP and step.get("location") in faith:
            gained = sum(e["amount"] for e in step["events"] if e["event"] == "gain_faith")
            if gained != faith[step["location"]]:
                yield step_where, f"gains {gained} Faith at {step['location']}, whose card shows {faith[step['location']]}"


# ---- the rules engine: replays of the worked turns (the spec's examples; its rulings are checked by the core) ----
def replay_examples(game: GameData[MonstrousModel]) -> Iterator[tuple[str, Sequence[Any], str]]:
    """Replay every worked turn through the engine: its events, draws, next god and final state must be as stated.

    The spec's ``examples``: the core runs it only on data every check passed (the engine relies on them)."""
    rules = engine.Game(game.model)
    for example in game.doc("examples").data["examples"]:
        for where, message in declared.replay_example(rules, example):
            yield example["id"], tuple(where), message


CHECKS: Sequence[Check] = (
    check_gods, check_monster_designs, check_plates, check_powers, check_rulebook_wordings, check_face_lengths,
    check_cards, check_locations, check_card_formats, check_throw_steps, check_player_aids, check_setup,
    check_scenarios, check_faith_tokens, check_variants, check_faq,
    check_examples,
)


def cross_checks(game: GameData[MonstrousModel]) -> Iterator[Problem]:
    """Every problem the schemas cannot see, from every check."""
    for check in CHECKS:
        yield from check(game)
