"""Cross-checks of Who's Your Heavenly Father?'s data: what the schemas cannot say.

The rulebook's fixed facts (card and token counts, the four Virtues and their
colours, the Country Club God, the six Philosopher powers, the turn actions,
the setup numbers, the balance statements) are module constants.
``cross_checks`` compares the data with them and with itself, computes the
balance measures over the gods and the dilemma deck, and yields every problem.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any, Callable, Iterable, Iterator, Mapping, Optional, Sequence

from pipeline.checks.components import ComponentCount, Inventory
from pipeline.checks.required import NUMBERED_LIST
from pipeline.checks.validate import REFERENCE, walk
from pipeline.data.dataset import Document, GameData
from pipeline.data.kinds import COMPONENTS_KIND, RULES_KIND
from pipeline.data.problems import Problem
from pipeline.games.heavenly_father.engine import apply_tokens, judge
from pipeline.games.heavenly_father.model import (
    BALANCE,
    CHEAT_SHEETS,
    DILEMMAS,
    ENVELOPE,
    GODS,
    PARAMETERS,
    PHILOSOPHER_KINDS,
    PHILOSOPHERS,
    TOKENS,
    TURN_ACTIONS,
    VIRTUES,
    Consequence,
    DilemmaExample,
    God,
    HeavenlyFatherModel,
    Power,
    ScoringExample,
    Timing,
)
from pipeline.games.heavenly_father.text import power_text

# --- Fixed facts from the rulebook ---------------------------------------------
GOD_COUNT = 10
DILEMMA_COUNT = 65
PHILOSOPHER_COUNT = 23
MORTAL_CARD_COUNT = 88
TOKENS_PER_VIRTUE = 30
PRAYER_BEADS_ID = "prayer-beads"
PRAYER_BEADS_COUNT = 1
# (id, name, colour), in scoring order S, X, B, J (the order Setup lists them).
VIRTUE_FACTS: tuple[tuple[str, str, str], ...] = (
    ("selfishness", "Selfishness", "green"),
    ("xenophobia", "Xenophobia", "yellow"),
    ("benevolence", "Benevolence", "blue"),
    ("justice", "Justice", "red"),
)
COUNTRY_CLUB_GOD = "country-club-god"
COUNTRY_CLUB_NAME = "Country Club God"
COUNTRY_CLUB_POINTS: Mapping[str, int] = {"selfishness": 1, "xenophobia": 1, "benevolence": -1, "justice": 0}
TRAFFIC_LIGHT = "traffic-light-trouble"
TRAFFIC_LIGHT_TITLE = "Traffic light trouble"
TRAFFIC_LIGHT_GAINS = "selfishness"  # running the red light
TRAFFIC_LIGHT_LOSES = "justice"
PHILOSOPHER_KIND_NAMES: Mapping[str, str] = {
    "prophet": "Prophet",
    "skeptic": "Skeptic",
    "annoying-undergrad": "Annoying Undergrad",
    "rationalist": "Rationalist",
    "cult-leader": "Cult Leader",
    "nihilist": "Nihilist",
}
PowerFact = tuple[Timing, str, Optional[str], Optional[str], tuple[tuple[str, Mapping[str, int]], ...]]
# kind -> (timing, target, invoke, requires, ((op, params), ...)) as the rulebook describes each power.
KIND_POWERS: Mapping[str, PowerFact] = {
    "prophet": (Timing.IMMEDIATE, "self", None, None, (("peek-false-god", {"count": 1}),)),
    "skeptic": (Timing.IMMEDIATE, "self", None, None, (("reveal-false-god", {"count": 1}),)),
    "annoying-undergrad": (Timing.KEPT, "self", "owner-resolves-dilemma", None,
                           (("invent-third-option", {"gain_virtue_max": 2, "lose_virtue_max": 2, "draw_cards": 2}),)),
    "rationalist": (Timing.IMMEDIATE, "self", None, "judgment-day-called-by-player",
                    (("cancel-judgment-day", {"bar_caller_turns": 1}), ("extra-action", {"count": 1}))),
    "cult-leader": (Timing.PLACED, "other-player", "target-confronts-dilemma", None, (("dictate-choice", {}),)),
    "nihilist": (Timing.PLACED, "any-player", "target-resolves-dilemma", None, (("randomize-virtues", {}),)),
}
PARAMETER_FACTS: Mapping[str, int] = {
    "min-players": 2,
    "max-players": 6,
    "gods-in-envelope": 1,
    "gods-per-player": 1,
    "hand-size": 5,
    "starting-tokens-per-virtue": 3,
    "actions-per-turn": 1,
    "prayers-resolved-per-turn": 1,
    "draw-action-cards": 1,
    "replacement-draw": 1,
    "reclaim-discard-cost": 2,
    "final-turns-per-player": 1,
}
TURN_ACTION_IDS = ("resolve-prayer", "play-dilemma", "request-dilemma", "play-philosopher", "draw-card", "call-judgment-day")
PRAYING = "praying"
# States in which the rulebook forbids an action (on top of praying, which blocks all but one).
TURN_ACTION_FORBIDDEN: Mapping[str, frozenset[str]] = {
    "draw-card": frozenset({"draw-pile-empty"}),
    "call-judgment-day": frozenset({"barred-by-rationalist"}),
}
EACH_OVER_EACH = "each-over-each"
ANY_OF_GROUP = "any-of-group"
BENEVOLENCE_JUSTICE = frozenset({"benevolence", "justice"})
SELFISHNESS_XENOPHOBIA = frozenset({"selfishness", "xenophobia"})
BENEVOLENCE_SELFISHNESS = frozenset({"benevolence", "selfishness"})
XENOPHOBIA_JUSTICE = frozenset({"xenophobia", "justice"})
# claim id -> (measure, comparison, higher, lower): the rulebook's balance statements (Play).
BALANCE_CLAIMS: Mapping[str, tuple[str, str, frozenset[str], frozenset[str]]] = {
    "gods-prefer-benevolence-or-justice": ("preferred-by", ANY_OF_GROUP, BENEVOLENCE_JUSTICE, SELFISHNESS_XENOPHOBIA),
    "gods-favour-benevolence-or-justice": ("favoured-by", ANY_OF_GROUP, BENEVOLENCE_JUSTICE, SELFISHNESS_XENOPHOBIA),
    "easier-to-gain-by-tokens": ("tokens-gained", EACH_OVER_EACH, BENEVOLENCE_SELFISHNESS, XENOPHOBIA_JUSTICE),
    "easier-to-gain-by-options": ("options-gaining", EACH_OVER_EACH, BENEVOLENCE_SELFISHNESS, XENOPHOBIA_JUSTICE),
    "easier-to-lose-by-tokens": ("tokens-lost", EACH_OVER_EACH, BENEVOLENCE_JUSTICE, SELFISHNESS_XENOPHOBIA),
    "easier-to-lose-by-options": ("options-losing", EACH_OVER_EACH, BENEVOLENCE_JUSTICE, SELFISHNESS_XENOPHOBIA),
}
# component id -> count in the rulebook's Contents.
COMPONENT_FACTS: Mapping[str, int] = {
    "god-cards": GOD_COUNT,
    "moral-dilemma-cards": DILEMMA_COUNT,
    "philosopher-cards": PHILOSOPHER_COUNT,
    "judgment-day-envelope": 1,
    "selfishness-tokens": TOKENS_PER_VIRTUE,
    "xenophobia-tokens": TOKENS_PER_VIRTUE,
    "benevolence-tokens": TOKENS_PER_VIRTUE,
    "justice-tokens": TOKENS_PER_VIRTUE,
    "prayer-beads-token": PRAYER_BEADS_COUNT,
    "cheat-sheets": 8,
    "markers": 8,
}
MORTAL_COMPONENTS = ("moral-dilemma-cards", "philosopher-cards")
MARKERS = "markers"
CHEAT_SHEET_COMPONENT = "cheat-sheets"
ENVELOPE_SIDES: Mapping[str, str] = {"sealed": "from-setup", "judgment-day": "when-called"}
JUDGMENT_DAY_SIDE = "judgment-day"
JUDGMENT_DAY_HEADING = "Judgment Day"

# --- Card faces and prose -----------------------------------------------------------
OPTION_IDS = ("a", "b")
MAX_EFFECT_WORDS = 45
MAX_SITUATION_WORDS = 35
MIN_SITUATION_SENTENCES = 1
MAX_SITUATION_SENTENCES = 3
MAX_LABEL_WORDS = 8
SENTENCE_END = re.compile(r"[.!?](?=\s|$)")

# --- Balance measures: per record (god or dilemma option), a weight per virtue ------------
GodMeasure = Callable[[God], Iterable[str]]
OptionMeasure = Callable[[Consequence], Mapping[str, int]]
GOD_MEASURES: Mapping[str, GodMeasure] = {
    "preferred-by": lambda god: god.preferred,
    "favoured-by": lambda god: god.favoured,
}
OPTION_MEASURES: Mapping[str, OptionMeasure] = {
    "tokens-gained": lambda c: c.gain,
    "tokens-lost": lambda c: c.lose,
    "options-gaining": lambda c: {virtue: 1 for virtue in c.gain},
    "options-losing": lambda c: {virtue: 1 for virtue in c.lose},
}
MEASURES = {*GOD_MEASURES, *OPTION_MEASURES}


def measure_weights(model: HeavenlyFatherModel, measure: str) -> list[Mapping[str, int]]:
    """One mapping virtue -> weight per god (god measures) or per dilemma option (option measures)."""
    if measure in GOD_MEASURES:
        return [{virtue: 1 for virtue in GOD_MEASURES[measure](god)} for god in model.gods]
    return [OPTION_MEASURES[measure](o.consequence) for d in model.dilemmas for o in d.options]


def measure_totals(model: HeavenlyFatherModel, measure: str) -> Counter[str]:
    """Each virtue's total weight under ``measure``."""
    totals: Counter[str] = Counter({v: 0 for v in model.virtue_order})
    for weights in measure_weights(model, measure):
        totals.update(weights)
    return totals


def group_count(model: HeavenlyFatherModel, measure: str, group: Iterable[str]) -> int:
    """How many records weigh at least one virtue of ``group`` under ``measure``."""
    members = set(group)
    return sum(1 for weights in measure_weights(model, measure) if any(weights.get(v, 0) > 0 for v in members))


# --- Helpers -----------------------------------------------------------------------
def _words(text: str) -> int:
    return len(text.split())


def _duplicates(values: Sequence[Any]) -> Iterator[tuple[int, int]]:
    """(index, index of first occurrence) for every repeated value."""
    first: dict[Any, int] = {}
    for index, value in enumerate(values):
        if value in first:
            yield index, first[value]
        else:
            first[value] = index


def _records(game: GameData[HeavenlyFatherModel], kind: str, key: str) -> list[dict[str, Any]]:
    return game.doc(kind).data[key]


# --- Counts and components ----------------------------------------------------------
def count_problems(game: GameData[HeavenlyFatherModel], model: HeavenlyFatherModel) -> Iterator[Problem]:
    """The card counts the rulebook states."""
    expected = ((GODS, "gods", len(model.gods), GOD_COUNT, "God cards"),
                (DILEMMAS, "dilemmas", len(model.dilemmas), DILEMMA_COUNT, "Moral Dilemma cards"),
                (PHILOSOPHERS, "philosophers", len(model.philosophers), PHILOSOPHER_COUNT, "Philosopher cards"))
    for kind, key, found, wanted, what in expected:
        if found != wanted:
            yield game.doc(kind).problem((key,), f"{kind}: {found} {what}, the rulebook has {wanted}")


def component_counts(game: GameData[HeavenlyFatherModel]) -> Inventory:
    """The rulebook's Contents (the whole list), with the count the data holds of each it can count."""
    model: HeavenlyFatherModel = game.model
    tokens = {t.virtue: t.count for t in model.tokens if t.virtue}
    found = {
        "god-cards": (len(model.gods), "gods.yaml"),
        "moral-dilemma-cards": (len(model.dilemmas), "dilemmas.yaml"),
        "philosopher-cards": (len(model.philosophers), "philosophers.yaml"),
        "judgment-day-envelope": (sum(r["count"] for r in _records(game, ENVELOPE, "envelopes")), "envelope.yaml"),
        "prayer-beads-token": (sum(t.count for t in model.tokens if t.id == PRAYER_BEADS_ID), "tokens.yaml"),
        "cheat-sheets": (sum(r["count"] for r in _records(game, CHEAT_SHEETS, "cheat_sheets")), "cheat-sheets.yaml"),
    }
    for virtue in model.virtue_order:
        found[f"{virtue}-tokens"] = (tokens.get(virtue, 0), "tokens.yaml")
    return Inventory.of([ComponentCount(cid, *found.get(cid, (None, "")), rulebook=count)
                         for cid, count in COMPONENT_FACTS.items()], closed=True)


def mortal_card_problems(game: GameData[HeavenlyFatherModel], model: HeavenlyFatherModel) -> Iterator[Problem]:
    """The Mortal cards of the box (dilemmas + philosophers) add up to the rulebook's number."""
    doc = game.doc(COMPONENTS_KIND)
    mortal = sum(r["count"] for r in doc.data["components"] if r["id"] in MORTAL_COMPONENTS)
    if mortal != MORTAL_CARD_COUNT:
        yield doc.problem(
            ("components",), f"components: {mortal} Mortal cards (dilemmas + philosophers), the rulebook has {MORTAL_CARD_COUNT}"
        )


# --- Virtues ---------------------------------------------------------------------------
def virtue_problems(game: GameData[HeavenlyFatherModel], model: HeavenlyFatherModel) -> Iterator[Problem]:
    """The four Virtues with the rulebook's names and colours, in S, X, B, J order."""
    doc = game.doc(VIRTUES)
    records = doc.data["virtues"]
    ids = [r["id"] for r in records]
    if ids != [fact[0] for fact in VIRTUE_FACTS]:
        yield doc.problem(
            ("virtues",), f"virtues: {', '.join(ids)}; the rulebook's are {', '.join(f[0] for f in VIRTUE_FACTS)}, in that order"
        )
    facts = {vid: (name, colour) for vid, name, colour in VIRTUE_FACTS}
    for index, record in enumerate(records):
        vid = record["id"]
        if vid not in facts:
            continue
        name, colour = facts[vid]
        label = f"virtue {vid}"
        if record["name"] != name:
            yield doc.problem(("virtues", index, "name"), f"{label}: name {record['name']!r}, the rulebook says {name!r}")
        if record["colour"] != colour:
            yield doc.problem(("virtues", index, "colour"), f"{label}: colour {record['colour']}, the rulebook says {colour}")
        if record["abbreviation"] != name[0]:
            yield doc.problem(("virtues", index, "abbreviation"), f"{label}: abbreviation {record['abbreviation']}, expected {name[0]}")
        if record["position"] != index + 1:
            yield doc.problem(("virtues", index, "position"),
                              f"{NUMBERED_LIST}: {label} has position {record['position']}, but it is virtue {index + 1} "
                              f"in the list")


# --- Gods -----------------------------------------------------------------------------
def god_problems(game: GameData[HeavenlyFatherModel], model: HeavenlyFatherModel) -> Iterator[Problem]:
    """Every god scores exactly the four Virtues, favours and opposes something, and is unique."""
    doc = game.doc(GODS)
    virtues = set(model.virtue_order)
    for index, god in enumerate(model.gods):
        label = f"god {god.id}"
        for missing in [v for v in model.virtue_order if v not in god.points]:
            yield doc.problem(("gods", index, "points"), f"{label}: no points for {missing}")
        for unknown in [v for v in god.points if v not in virtues]:
            yield doc.problem(("gods", index, "points", unknown), f"{label}: points for unknown virtue {unknown!r}")
        if not god.favoured:
            yield doc.problem(("gods", index, "points"), f"{label}: favours no Virtue (no positive points)")
        if not god.opposed:
            yield doc.problem(("gods", index, "points"), f"{label}: opposes no Virtue (no negative points)")
    profiles = [tuple(sorted(g.points.items())) for g in model.gods]
    for index, first in _duplicates(profiles):
        yield doc.problem(("gods", index, "points"), f"god {model.gods[index].id}: same points as god {model.gods[first].id}")
    yield from _country_club_problems(doc, model)


def _country_club_problems(doc: Document, model: HeavenlyFatherModel) -> Iterator[Problem]:
    index = next((i for i, g in enumerate(model.gods) if g.id == COUNTRY_CLUB_GOD), None)
    if index is None:
        yield doc.problem(("gods",), f"god {COUNTRY_CLUB_GOD}: missing (the rulebook's scoring example)")
        return
    god = model.gods[index]
    if god.name != COUNTRY_CLUB_NAME:
        yield doc.problem(("gods", index, "name"), f"god {god.id}: name {god.name!r}, the rulebook says {COUNTRY_CLUB_NAME!r}")
    if dict(god.points) != dict(COUNTRY_CLUB_POINTS):
        stated = ", ".join(f"{v} {p:+d}" for v, p in COUNTRY_CLUB_POINTS.items())
        yield doc.problem(("gods", index, "points"), f"god {god.id}: points differ from the rulebook's ({stated})")


# --- Dilemmas -----------------------------------------------------------------------
def _option_problems(doc: Document, model: HeavenlyFatherModel, index: int) -> Iterator[Problem]:
    dilemma = model.dilemmas[index]
    virtues = set(model.virtue_order)
    if tuple(o.id for o in dilemma.options) != OPTION_IDS:
        yield doc.problem(
            ("dilemmas", index, "options"), f"dilemma {dilemma.id}: options must be {' and '.join(OPTION_IDS)}, in that order"
        )
    for o_index, option in enumerate(dilemma.options):
        label = f"dilemma {dilemma.id} option {option.id}"
        path = ("dilemmas", index, "options", o_index)
        c = option.consequence
        for field, amounts in (("gain", c.gain), ("lose", c.lose)):
            for unknown in [v for v in amounts if v not in virtues]:
                yield doc.problem(path + (field, unknown), f"{label}: {field}s unknown virtue {unknown!r}")
        if c.is_empty:
            yield doc.problem(path, f"{label}: changes nothing (no Virtue or card gained or lost)")
        for both in sorted(set(c.gain) & set(c.lose)):
            yield doc.problem(path, f"{label}: both gains and loses {both}")
        if _words(option.label) > MAX_LABEL_WORDS:
            yield doc.problem(path + ("label",), f"{label}: label has {_words(option.label)} words, at most {MAX_LABEL_WORDS} fit")
    first, second = dilemma.options[0], dilemma.options[-1]
    if len(dilemma.options) > 1 and first.consequence.key() == second.consequence.key():
        yield doc.problem(("dilemmas", index, "options"), f"dilemma {dilemma.id}: both options have the same consequences")


def _situation_problems(doc: Document, model: HeavenlyFatherModel, index: int) -> Iterator[Problem]:
    dilemma = model.dilemmas[index]
    path = ("dilemmas", index, "situation")
    sentences = len(SENTENCE_END.findall(dilemma.situation))
    if not dilemma.situation.rstrip().endswith((".", "!", "?")):
        yield doc.problem(path, f"dilemma {dilemma.id}: situation must end with a full stop, ! or ?")
    if not MIN_SITUATION_SENTENCES <= sentences <= MAX_SITUATION_SENTENCES:
        yield doc.problem(
            path,
            f"dilemma {dilemma.id}: situation has {sentences} sentences, expected {MIN_SITUATION_SENTENCES} to {MAX_SITUATION_SENTENCES}",
        )
    if _words(dilemma.situation) > MAX_SITUATION_WORDS:
        yield doc.problem(path, f"dilemma {dilemma.id}: situation has {_words(dilemma.situation)} words, at most {MAX_SITUATION_WORDS} fit")


def _traffic_light_problems(doc: Document, model: HeavenlyFatherModel) -> Iterator[Problem]:
    index = next((i for i, d in enumerate(model.dilemmas) if d.id == TRAFFIC_LIGHT), None)
    if index is None:
        yield doc.problem(("dilemmas",), f"dilemma {TRAFFIC_LIGHT}: missing (the rulebook's example)")
        return
    dilemma = model.dilemmas[index]
    if dilemma.title != TRAFFIC_LIGHT_TITLE:
        yield doc.problem(
            ("dilemmas", index, "title"), f"dilemma {dilemma.id}: title {dilemma.title!r}, the rulebook says {TRAFFIC_LIGHT_TITLE!r}"
        )
    if not any(TRAFFIC_LIGHT_GAINS in o.consequence.gain and TRAFFIC_LIGHT_LOSES in o.consequence.lose for o in dilemma.options):
        yield doc.problem(
            ("dilemmas", index, "options"),
            f"dilemma {dilemma.id}: no option gains {TRAFFIC_LIGHT_GAINS} and loses {TRAFFIC_LIGHT_LOSES} "
            "(running the red light, per the rulebook)",
        )


def dilemma_problems(game: GameData[HeavenlyFatherModel], model: HeavenlyFatherModel) -> Iterator[Problem]:
    """Options name real Virtues and change something; no two cards alike; faces fit a card."""
    doc = game.doc(DILEMMAS)
    for index in range(len(model.dilemmas)):
        yield from _option_problems(doc, model, index)
        yield from _situation_problems(doc, model, index)
    dilemmas = model.dilemmas
    for index, first in _duplicates([d.situation.casefold() for d in dilemmas]):  # titles: pipeline/checks/names.py
        yield doc.problem(("dilemmas", index, "situation"), f"dilemma {dilemmas[index].id}: same situation as dilemma {dilemmas[first].id}")
    pairs = [frozenset(o.consequence.key() for o in d.options) for d in dilemmas]
    for index, first in _duplicates(pairs):
        yield doc.problem(
            ("dilemmas", index, "options"), f"dilemma {dilemmas[index].id}: same pair of consequences as dilemma {dilemmas[first].id}"
        )
    yield from _traffic_light_problems(doc, model)


# --- Philosophers ----------------------------------------------------------------------
def _power_fact(power: Power) -> PowerFact:
    effects = tuple((op.name, dict(op.params)) for op in power.effects)
    return (power.timing, power.target, power.invoke, power.requires, effects)


def philosopher_kind_problems(game: GameData[HeavenlyFatherModel], model: HeavenlyFatherModel) -> Iterator[Problem]:
    """The six kinds with the rulebook's powers; printed text rendered from the power."""
    doc = game.doc(PHILOSOPHER_KINDS)
    present = {k.id for k in model.philosopher_kinds}
    for missing in [k for k in PHILOSOPHER_KIND_NAMES if k not in present]:
        yield doc.problem(("philosopher_kinds",), f"philosopher kind {missing}: missing (the rulebook names six kinds)")
    for index, kind in enumerate(model.philosopher_kinds):
        label = f"philosopher kind {kind.id}"
        path = ("philosopher_kinds", index)
        if kind.id not in PHILOSOPHER_KIND_NAMES:
            yield doc.problem(path + ("id",), f"{label}: not one of the rulebook's kinds ({', '.join(PHILOSOPHER_KIND_NAMES)})")
            continue
        if kind.name != PHILOSOPHER_KIND_NAMES[kind.id]:
            yield doc.problem(path + ("name",), f"{label}: name {kind.name!r}, the rulebook says {PHILOSOPHER_KIND_NAMES[kind.id]!r}")
        if _power_fact(kind.power) != KIND_POWERS[kind.id]:
            yield doc.problem(path + ("power",), f"{label}: power differs from the rulebook's description")
        yield from _text_problems(doc, path, label, kind.power, kind.text)
    total = sum(k.count for k in model.philosopher_kinds)
    if total != PHILOSOPHER_COUNT:
        yield doc.problem(
            ("philosopher_kinds",), f"philosopher kinds: copies add up to {total}, the rulebook has {PHILOSOPHER_COUNT} Philosophers"
        )


def _text_problems(doc: Document, path: tuple[Any, ...], label: str, power: Power, text: str) -> Iterator[Problem]:
    try:
        rendered = power_text(power)
    except KeyError as exc:
        yield doc.problem(path + ("power",), f"{label}: no printed phrase for {exc.args[0]!r}")
        return
    if text != rendered:
        yield doc.problem(path + ("text",), f"{label}: text does not match its power; rendered: {rendered!r}")
    if _words(text) > MAX_EFFECT_WORDS:
        yield doc.problem(path + ("text",), f"{label}: text has {_words(text)} words, at most {MAX_EFFECT_WORDS} fit")


def philosopher_problems(game: GameData[HeavenlyFatherModel], model: HeavenlyFatherModel) -> Iterator[Problem]:
    """Each card is of a known kind, and each kind has as many cards as its `copies`."""
    doc = game.doc(PHILOSOPHERS)
    kinds = {k.id: k for k in model.philosopher_kinds}
    per_kind = Counter(p.kind for p in model.philosophers)
    for index, card in enumerate(model.philosophers):
        if card.kind not in kinds:
            yield doc.problem(("philosophers", index, "kind"), f"philosopher {card.id}: unknown kind {card.kind!r}")
    for kind in model.philosopher_kinds:
        if per_kind[kind.id] != kind.count:
            yield doc.problem(
                ("philosophers",), f"philosophers: {per_kind[kind.id]} {kind.name} cards, philosopher-kinds.yaml says {kind.count}"
            )
    cards = model.philosophers
    for index, first in _duplicates([c.quote for c in cards]):  # names: pipeline/checks/names.py
        yield doc.problem(("philosophers", index, "quote"), f"philosopher {cards[index].id}: same quote as philosopher {cards[first].id}")


# --- Tokens, envelope, cheat sheets ------------------------------------------------------
def token_problems(game: GameData[HeavenlyFatherModel], model: HeavenlyFatherModel) -> Iterator[Problem]:
    """One kind of token per Virtue, 30 of each, and the single Prayer Beads token."""
    doc = game.doc(TOKENS)
    virtues = set(model.virtue_order)
    seen: dict[str, int] = {}
    for index, token in enumerate(model.tokens):
        label = f"token {token.id}"
        if token.virtue is None:
            continue
        if token.virtue not in virtues:
            yield doc.problem(("tokens", index, "virtue"), f"{label}: unknown virtue {token.virtue!r}")
        elif token.virtue in seen:
            yield doc.problem(
                ("tokens", index, "virtue"),
                f"{label}: a second token kind for {token.virtue} (first: {model.tokens[seen[token.virtue]].id})",
            )
        else:
            seen[token.virtue] = index
        if token.count != TOKENS_PER_VIRTUE:
            yield doc.problem(
                ("tokens", index, "count"), f"{label}: {token.count} tokens, the rulebook has {TOKENS_PER_VIRTUE} of each colour"
            )
    for missing in [v for v in model.virtue_order if v not in seen]:
        yield doc.problem(("tokens",), f"tokens: no token for virtue {missing}")
    beads = [i for i, t in enumerate(model.tokens) if t.id == PRAYER_BEADS_ID]
    if not beads:
        yield doc.problem(("tokens",), f"token {PRAYER_BEADS_ID}: missing")
    for index in beads:
        if model.tokens[index].count != PRAYER_BEADS_COUNT or model.tokens[index].virtue is not None:
            yield doc.problem(("tokens", index), f"token {PRAYER_BEADS_ID}: must be a single token with no virtue")


def envelope_problems(game: GameData[HeavenlyFatherModel], model: HeavenlyFatherModel) -> Iterator[Problem]:
    """The envelope holds as many gods as setup seals in it, with a sealed and a Judgment Day side."""
    doc = game.doc(ENVELOPE)
    sealed = model.parameters.get("gods-in-envelope")
    for index, record in enumerate(doc.data["envelopes"]):
        label = f"envelope {record['id']}"
        if sealed is not None and record["holds_gods"] != sealed:
            yield doc.problem(("envelopes", index, "holds_gods"), f"{label}: holds {record['holds_gods']} gods, setup seals {sealed}")
        sides = {side["id"]: (s_index, side) for s_index, side in enumerate(record["sides"])}
        for side_id, shown in ENVELOPE_SIDES.items():
            if side_id not in sides:
                yield doc.problem(("envelopes", index, "sides"), f"{label}: no {side_id} side")
            elif sides[side_id][1]["shown"] != shown:
                yield doc.problem(
                    ("envelopes", index, "sides", sides[side_id][0], "shown"), f"{label}: the {side_id} side must be shown {shown}"
                )
        if JUDGMENT_DAY_SIDE in sides and JUDGMENT_DAY_HEADING not in sides[JUDGMENT_DAY_SIDE][1]["heading"]:
            s_index = sides[JUDGMENT_DAY_SIDE][0]
            yield doc.problem(
                ("envelopes", index, "sides", s_index, "heading"),
                f"{label}: the {JUDGMENT_DAY_SIDE} side must read {JUDGMENT_DAY_HEADING!r}",
            )


def cheat_sheet_problems(game: GameData[HeavenlyFatherModel], model: HeavenlyFatherModel) -> Iterator[Problem]:
    """Every cheat sheet lists each god exactly once."""
    doc = game.doc(CHEAT_SHEETS)
    gods = [g.id for g in model.gods]
    for index, sheet in enumerate(doc.data["cheat_sheets"]):
        label = f"cheat sheet {sheet['id']}"
        rows = sheet["rows"]
        for r_index, god in enumerate(rows):
            if god not in gods:
                yield doc.problem(("cheat_sheets", index, "rows", r_index), f"{label}: unknown god {god!r}")
        for missing in [g for g in gods if g not in rows]:
            yield doc.problem(("cheat_sheets", index, "rows"), f"{label}: god {missing} is not listed")


# --- Parameters and turn actions ---------------------------------------------------------
def parameter_problems(game: GameData[HeavenlyFatherModel], model: HeavenlyFatherModel) -> Iterator[Problem]:
    """The rulebook's numbers, and a setup the box can actually supply."""
    doc = game.doc(PARAMETERS)
    params = model.parameters
    for missing in [p for p in PARAMETER_FACTS if p not in params]:
        yield doc.problem(("parameters",), f"parameter {missing}: missing (the rulebook gives {PARAMETER_FACTS[missing]})")
    for index, record in enumerate(doc.data["parameters"]):
        pid, value = record["id"], record["value"]
        if pid not in PARAMETER_FACTS:
            yield doc.problem(("parameters", index, "id"), f"parameter {pid}: not a rulebook number this game knows")
        elif value != PARAMETER_FACTS[pid]:
            yield doc.problem(("parameters", index, "value"), f"parameter {pid}: {value}, the rulebook says {PARAMETER_FACTS[pid]}")
    if all(p in params for p in PARAMETER_FACTS):
        yield from _supply_problems(doc, model)


def _supply_problems(doc: Document, model: HeavenlyFatherModel) -> Iterator[Problem]:
    p, c = model.parameters, model.components
    players = p["max-players"]
    needs = (
        (
            "starting tokens",
            players * p["starting-tokens-per-virtue"],
            min((t.count for t in model.tokens if t.virtue), default=0),
            "tokens of the scarcest virtue",
        ),
        ("God cards", players * p["gods-per-player"] + p["gods-in-envelope"], len(model.gods), "God cards"),
        ("starting hands", players * p["hand-size"], len(model.dilemmas) + len(model.philosophers), "Mortal cards"),
        ("cheat sheets", players, c.get(CHEAT_SHEET_COMPONENT, 0), "cheat sheets"),
        ("markers", players, c.get(MARKERS, 0), "markers"),
    )
    for what, needed, supplied, unit in needs:
        if needed > supplied:
            yield doc.problem(("parameters",), f"parameters: {players} players need {needed} for {what}, the box has {supplied} {unit}")


def turn_action_problems(game: GameData[HeavenlyFatherModel], model: HeavenlyFatherModel) -> Iterator[Problem]:
    """The six actions in the rulebook's order; praying forces the first and blocks the rest."""
    doc = game.doc(TURN_ACTIONS)
    actions = model.turn_actions
    ids = tuple(a.id for a in actions)
    if ids != TURN_ACTION_IDS:
        yield doc.problem(
            ("turn_actions",), f"turn actions: {', '.join(ids)}; the rulebook's are {', '.join(TURN_ACTION_IDS)}, in that order"
        )
    for index, action in enumerate(actions):
        label = f"turn action {action.id}"
        path = ("turn_actions", index)
        if action.mandatory_when is not None and action.mandatory_when not in action.requires:
            yield doc.problem(path + ("requires",), f"{label}: mandatory when {action.mandatory_when} but does not require it")
        if action.mandatory_when != PRAYING and PRAYING not in action.forbidden_when:
            yield doc.problem(path + ("forbidden_when",), f"{label}: must be forbidden while praying (the prayed-on card comes first)")
        for state in sorted(TURN_ACTION_FORBIDDEN.get(action.id, frozenset()) - action.forbidden_when):
            yield doc.problem(path + ("forbidden_when",), f"{label}: the rulebook forbids it when {state}")
    mandatory = [a.id for a in actions if a.mandatory_when == PRAYING]
    if len(mandatory) != 1:
        yield doc.problem(("turn_actions",), f"turn actions: exactly one must be mandatory while praying, found {len(mandatory)}")


# --- Balance ------------------------------------------------------------------------------
def balance_problems(game: GameData[HeavenlyFatherModel], model: HeavenlyFatherModel) -> Iterator[Problem]:
    """The rulebook's balance statements, computed over the gods and the dilemma deck."""
    doc = game.doc(BALANCE)
    defined = {m["id"] for m in doc.data["measures"]}
    for index, measure in enumerate(doc.data["measures"]):
        if measure["id"] not in MEASURES:
            yield doc.problem(("measures", index, "id"), f"measure {measure['id']}: no implementation in checks.py")
    present = {c.id: i for i, c in enumerate(model.claims)}
    for missing in [c for c in BALANCE_CLAIMS if c not in present]:
        yield doc.problem(("claims",), f"balance claim {missing}: missing (a rulebook statement)")
    for index, claim in enumerate(model.claims):
        yield from _claim_problems(doc, model, index, defined)


def _claim_problems(doc: Document, model: HeavenlyFatherModel, index: int, defined: set[str]) -> Iterator[Problem]:
    claim = model.claims[index]
    label = f"balance claim {claim.id}"
    path = ("claims", index)
    stated = BALANCE_CLAIMS.get(claim.id)
    if stated is not None and stated != (claim.measure, claim.comparison, frozenset(claim.higher), frozenset(claim.lower)):
        yield doc.problem(path, f"{label}: differs from the rulebook statement it encodes")
    if claim.measure not in defined:
        yield doc.problem(path + ("measure",), f"{label}: measure {claim.measure!r} is not defined under measures")
        return
    unknown = [v for v in claim.higher + claim.lower if v not in model.virtue_order]
    for virtue in unknown:
        yield doc.problem(path, f"{label}: unknown virtue {virtue!r}")
    if unknown or claim.measure not in MEASURES:
        return
    yield from (
        doc.problem(path, f"{label}: {failure}")
        for failure in claim_failures(model, claim.measure, claim.comparison, claim.higher, claim.lower)
    )


def claim_failures(model: HeavenlyFatherModel, measure: str, comparison: str,
                   higher: Sequence[str], lower: Sequence[str]) -> list[str]:
    """Why the claim does not hold on ``model`` (empty when it holds)."""
    if comparison == ANY_OF_GROUP:
        high, low = group_count(model, measure, higher), group_count(model, measure, lower)
        if high > low:
            return []
        return [f"by {measure}, {high} records for {' or '.join(higher)} do not exceed {low} for {' or '.join(lower)}"]
    totals = measure_totals(model, measure)
    return [f"by {measure}, {high} ({totals[high]}) does not exceed {low} ({totals[low]})"
            for high in higher for low in lower if totals[high] <= totals[low]]


# --- Stored examples, replayed by the rules engine ---------------------------------------
# The spec's ``examples``: the core replays them once every other check passed.
def replay_scoring_examples(game: GameData[HeavenlyFatherModel]) -> Iterator[tuple[str, tuple[Any, ...], str]]:
    """Every stored scoring example gives its stated result when the engine replays it."""
    model = game.model
    for scoring in model.scoring_examples:
        yield from ((scoring.id, path, message) for path, message in _scoring_failures(model, scoring))


def replay_dilemma_examples(game: GameData[HeavenlyFatherModel]) -> Iterator[tuple[str, tuple[Any, ...], str]]:
    """Every stored dilemma example gives its stated result when the engine replays it."""
    model = game.model
    for dilemma in model.dilemma_examples:
        yield from ((dilemma.id, path, message) for path, message in _dilemma_failures(model, dilemma))


Failure = tuple[tuple[Any, ...], str]


def _scoring_failures(model: HeavenlyFatherModel, example: ScoringExample) -> Iterator[Failure]:
    gods = {g.id: g for g in model.gods}
    if example.god not in gods:
        yield ("god",), f"unknown god {example.god!r}"
        return
    for index, first in _duplicates(example.names):
        yield ("players", index, "name"), f"player name {example.names[index]!r} used twice"
    for name in [w for w in example.winners if w not in example.names]:
        yield ("expect", "winners"), f"winner {name!r} is not one of the players"
    if len(example.scores) != len(example.names):
        yield ("expect", "scores"), f"{len(example.scores)} scores for {len(example.names)} players"
        return
    result = judge(gods[example.god], example.holdings)
    for index, (name, got, stated) in enumerate(zip(example.names, result.scores, example.scores)):
        if got != stated:
            yield ("expect", "scores", index), f"player {name} scores {got}, the example says {stated}"
    winners = [example.names[i] for i in result.winners]
    if sorted(winners) != sorted(example.winners):
        yield ("expect", "winners"), f"winners {', '.join(winners)}, the example says {', '.join(example.winners)}"


def _dilemma_failures(model: HeavenlyFatherModel, example: DilemmaExample) -> Iterator[Failure]:
    dilemmas = {d.id: d for d in model.dilemmas}
    if example.dilemma not in dilemmas:
        yield ("dilemma",), f"unknown dilemma {example.dilemma!r}"
        return
    options = {o.id: o.consequence for o in dilemmas[example.dilemma].options}
    after = apply_tokens(example.before, options[example.option])
    for virtue in model.virtue_order:
        if after.get(virtue, 0) != example.after.get(virtue, 0):
            yield (("after", virtue), f"after option {example.option} of {example.dilemma}, {virtue} is "
                   f"{after.get(virtue, 0)}, the example says {example.after.get(virtue, 0)}")


# --- Prose coverage --------------------------------------------------------------------------
def prose_problems(game: GameData[HeavenlyFatherModel], model: HeavenlyFatherModel) -> Iterator[Problem]:
    """The rules mention every turn action and Philosopher kind (the sections they must have are the spec's
    ``rule_sections``, checked by the core); glossary links resolve."""
    rules = game.doc(RULES_KIND)
    referenced = {(m["kind"], m["id"]) for _, node in walk(rules.data) if isinstance(node, str) for m in REFERENCE.finditer(node)}
    wanted = [(TURN_ACTIONS, a.id) for a in model.turn_actions] + [(PHILOSOPHER_KINDS, k.id) for k in model.philosopher_kinds]
    for kind, rid in wanted:
        if (kind, rid) not in referenced:
            yield rules.problem(("sections",), f"rules: never mention [[{kind}/{rid}]]")


CHECKS: tuple[Callable[[GameData, HeavenlyFatherModel], Iterator[Problem]], ...] = (
    count_problems, mortal_card_problems, virtue_problems, god_problems, dilemma_problems,
    philosopher_kind_problems, philosopher_problems, token_problems, envelope_problems,
    cheat_sheet_problems, parameter_problems, turn_action_problems, balance_problems, prose_problems,
)


def cross_checks(game: GameData[HeavenlyFatherModel]) -> Iterator[Problem]:
    """Every problem the schemas cannot see; run only on schema-valid data."""
    model = game.model
    for check in CHECKS:
        yield from check(game, model)
