"""Cross-checks of Totems + Taboos' data: what the schemas cannot say.

The rulebook's fixed facts (six colours and their opposed principles, the
tower table, 162 cards in six decks of 27, the starting packages, the solo
difficulties, the box contents) are module constants. ``cross_checks``
compares the data with them and with itself - the colour wheel with each
colour's opposite and neighbours, the decks with their composition table and
components.yaml, every printed text with the ops it is rendered from, the
card types with whom their ops reach, and a rough power budget per level -
and yields every problem it finds.
"""
from __future__ import annotations

from collections import Counter
from typing import Callable, Iterator, Mapping, Optional, Sequence, Union

from pipeline.checks.components import ComponentCount, Inventory, count_problems
from pipeline.data.dataset import DATA_SUFFIX, GameData, display_path
from pipeline.data.problems import Location, Problem, checks_then_engine
from pipeline.games.totems_and_taboos import effects as fx
from pipeline.games.totems_and_taboos import engine
from pipeline.games.totems_and_taboos.model import (
    COLOURS,
    COMMANDMENTS,
    DICE,
    GUIDES,
    KINDS,
    REACTION,
    SETUP,
    SOLO,
    TOWER,
    TURN,
    Card,
    Guide,
    TotemsModel,
)

PathKey = tuple[Union[str, int], ...]

# --- Fixed facts from the rulebook -------------------------------------------
COLOUR_COUNT = 6
OPPOSITE_STEPS = COLOUR_COUNT // 2
PRINCIPLES: Mapping[str, str] = {
    "yellow": "Life", "purple": "Death", "orange": "Faith", "blue": "Truth", "green": "Fear", "red": "Love",
}
OPPOSED_PRINCIPLES = frozenset({frozenset({"Life", "Death"}), frozenset({"Faith", "Truth"}), frozenset({"Fear", "Love"})})
ADJACENCY_EXAMPLE = ("blue", frozenset({"green", "purple"}))  # '4. Building your tower'
# level -> (shrines, servants) needed to reach it
TOWER_TABLE: Mapping[int, tuple[int, int]] = {1: (0, 0), 2: (2, 1), 3: (4, 2), 4: (6, 3), 5: (8, 4), 6: (10, 5)}
WIN_LEVEL = 6
ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI", 7: "VII", 8: "VIII", 9: "IX", 10: "X", 11: "XI", 12: "XII"}
CARDS_PER_COLOUR = 27
CARD_COUNT = COLOUR_COUNT * CARDS_PER_COLOUR  # 162
COMMANDMENTS_PER_COLOUR = 6
MIRACLES_PER_COLOUR = 1
DESIGNS_PER_LEVEL: Mapping[int, int] = {1: 3, 2: 2, 3: 1}
CARD_LEVELS = tuple(DESIGNS_PER_LEVEL)
# (clerics, servants, shrines, rolled souls), the six packages of '7.2 Starting colors'
STARTING_PACKAGES = Counter([(0, 2, 1, 0), (0, 4, 0, 0), (2, 0, 1, 0), (0, 0, 2, 0), (0, 0, 0, 3), (4, 0, 0, 0)])
MIN_PLAYERS, MAX_PLAYERS = 2, 4
STARTING_HAND = 3
HAND_LIMIT = 6
USES_PER_PIECE = 1
END_OF_TURN_DRAWS = Counter([1, 3, 3])
SUMMON_CARDS = 3
# The three skip choices of '7.5 Skipping a turn', as (op, role, into) of one self op each.
SKIP_CHOICES = frozenset({(fx.RECRUIT, fx.SERVANT, None), (fx.TRANSFORM, fx.SERVANT, fx.CLERIC), (fx.KILL, fx.CLERIC, None)})
# difficulty -> (name, passive blocks, passive shrines), '8.1' and '8.5'
SOLO_DIFFICULTIES: Mapping[str, tuple[str, int, int]] = {
    "easy": ("Stairway to heaven", 4, 6),
    "normal": ("Normal", 5, 8),
    "hard": ("Highway to hell", 6, 10),
}
SOLO_REMOVED_LEVELS = (3,)
COMPONENT_COUNTS: Mapping[str, int] = {
    "soul-cubes": 60, "totem-blocks": 36, "spiritual-guides": 6, "commandment-cards": 162, "solo-die": 1, "cheat-sheets": 6,
}
SOUL_CUBES, TOTEM_BLOCKS, GUIDE_COMPONENT, CARD_COMPONENT, SOLO_DIE = (
    "soul-cubes", "totem-blocks", "spiritual-guides", "commandment-cards", "solo-die",
)
# The worked examples of '5. Playing your cards' and '7.4 Playing a turn'.
EXAMPLE_SELF_CARD = ("self", 1, (1, 0), "purple")  # type, level, (clerics, servants), bonus colour
EXAMPLE_BLUE_CARD = ("blue", 2, (3, 0))  # colour, level, (clerics, servants)

# --- Authoring standards --------------------------------------------------------
MAX_CARD_WORDS = 45  # effect + bonus text on a poker card
MIN_CARD_TYPES_PER_COLOUR = 2  # each deck mixes self / target / all commandments
# Power budget: effect worth minus cost, per card level (see effects.op_value).
NET_VALUE_BANDS: Mapping[int, tuple[float, float]] = {1: (0.4, 1.6), 2: (0.7, 2.4), 3: (2.4, 3.6)}
BONUS_VALUE_BAND = (0.3, 2.5)
GUIDE_VALUE_BAND = (2.5, 4.5)
CARD_TYPE_SELF, CARD_TYPE_TARGET, CARD_TYPE_ALL, CARD_TYPE_MIRACLE = "self", "target", "all", "miracle"
# Whom a card type's ops may reach, and whom at least one of its effect ops must reach. A card that affects all
# players reaches its player too: solo, "Cards that target each player, target all 6 passive religions, and you"
# ('8.2 Your turn'), so "each other player" would spare you where the rulebook does not.
ALLOWED_WHO: Mapping[str, frozenset[str]] = {
    CARD_TYPE_SELF: frozenset({fx.SELF}),
    CARD_TYPE_TARGET: frozenset({fx.SELF, fx.TARGET}),
    CARD_TYPE_ALL: frozenset({fx.SELF, fx.EACH}),
    CARD_TYPE_MIRACLE: frozenset({fx.OWNERS}),
}
REQUIRED_WHO: Mapping[str, frozenset[str]] = {
    CARD_TYPE_SELF: frozenset({fx.SELF}),
    CARD_TYPE_TARGET: frozenset({fx.TARGET}),
    CARD_TYPE_ALL: frozenset({fx.EACH}),
    CARD_TYPE_MIRACLE: frozenset({fx.OWNERS}),
}
FLOAT_TOLERANCE = 1e-9


class Reporter:
    """Turns (kind, path, message) into Problems pinned to the right YAML node."""

    def __init__(self, game: GameData[TotemsModel]) -> None:
        self._game = game

    def __call__(self, kind: str, path: PathKey, message: str) -> Problem:
        return self._game.doc(kind).problem(path, message)

    def file_problem(self, kind: str, message: str) -> Problem:
        return Problem(Location(display_path(self._game.root / f"{kind}{DATA_SUFFIX}"), 1, 1), message)


Check = Callable[[TotemsModel, Reporter], Iterator[Problem]]


def cross_checks(game: GameData[TotemsModel]) -> Iterator[Problem]:
    """Every problem of Totems + Taboos' data that no schema can express."""
    report = Reporter(game)
    missing = [kind for kind in KINDS if not game.has(kind)]
    for kind in missing:
        yield report.file_problem(kind, f"{kind}.yaml is missing: the game needs it")
    if missing:
        return
    model = game.model
    problems = list(colour_reference_problems(model, report))
    yield from problems
    if problems:
        return  # the later checks look colours up on the wheel
    # The engine reads the box counts (soul cubes): validate reports components.yaml against them, and
    # the engine checks wait until it agrees.
    counts_agree = not any(True for _ in count_problems(game, component_counts(game)))
    yield from checks_then_engine(CHECKS, ENGINE_CHECKS if counts_agree else (), model, report)
    for check in CARD_CHECKS:
        yield from check(model, report)


# --- Colours -----------------------------------------------------------------
def colour_reference_problems(model: TotemsModel, report: Reporter) -> Iterator[Problem]:
    """Every colour named anywhere exists, and the wheel holds each colour once."""
    known = set(model.colour_ids)
    out: list[Problem] = []
    if len(model.colours) != COLOUR_COUNT:
        out.append(report(COLOURS, ("colours",), f"colours: expected {COLOUR_COUNT} colours, found {len(model.colours)}"))
    for index, colour in enumerate(model.colours):
        for key, value in (("opposite", colour.opposite),) + tuple(("adjacent", a) for a in colour.adjacent):
            if value not in known:
                out.append(report(COLOURS, ("colours", index, key), f"colour {colour.id}: {key} '{value}' is not a colour"))
    for index, value in enumerate(model.wheel.order):
        if value not in known:
            out.append(report(COLOURS, ("wheel", "order", index), f"wheel: '{value}' is not a colour"))
    for index, card in enumerate(model.cards):
        if card.colour not in known:
            out.append(
                report(COMMANDMENTS, ("commandments", index, "colour"), f"commandment {card.id}: colour '{card.colour}' is not a colour")
            )
        if card.bonus and card.bonus.colour not in known:
            out.append(report(COMMANDMENTS, ("commandments", index, "bonus", "colour"),
                              f"commandment {card.id} ({card.colour}): bonus colour '{card.bonus.colour}' is not a colour"))
    for index, guide in enumerate(model.guides):
        for key, value in (("colour", guide.colour), ("summon", guide.summon_colour)):
            if value not in known:
                out.append(report(GUIDES, ("guides", index, key), f"guide {guide.id}: {key} colour '{value}' is not a colour"))
    for index, res in enumerate(model.setup.resources):
        if res.colour not in known:
            out.append(
                report(SETUP, ("starting_resources", index, "colour"), f"starting resources {res.colour}: '{res.colour}' is not a colour")
            )
    for index, value in enumerate(model.setup.start_order):
        if value not in known:
            out.append(report(SETUP, ("start_order", "order", index), f"start order: '{value}' is not a colour"))
    out += _covers_colours(model, report, [c for c in model.wheel.order if c in known], COLOURS, ("wheel", "order"), "wheel")
    return iter(out)


def colour_problems(model: TotemsModel, report: Reporter) -> Iterator[Problem]:
    wheel = model.wheel
    if wheel.opposite_steps != OPPOSITE_STEPS or 2 * wheel.opposite_steps != len(wheel.order):
        yield report(COLOURS, ("wheel", "opposite_steps"),
                     f"wheel: opposites must sit half way round the wheel of {len(wheel.order)} "
                     f"({OPPOSITE_STEPS} steps), not {wheel.opposite_steps}")
    by_id = {colour.id: colour for colour in model.colours}
    for index, colour in enumerate(model.colours):
        path: PathKey = ("colours", index)
        label = f"colour {colour.id}"
        if PRINCIPLES.get(colour.id) != colour.principle:
            yield report(COLOURS, path + ("principle",),
                         f"{label}: principle is {colour.principle}, the rulebook says {PRINCIPLES.get(colour.id, 'nothing')}")
        if colour.opposite == colour.id:
            yield report(COLOURS, path + ("opposite",), f"{label}: a colour cannot be its own opposite")
        elif wheel.opposite_of(colour.id) != colour.opposite:
            yield report(COLOURS, path + ("opposite",),
                         f"{label}: opposite is {colour.opposite} but the wheel puts {wheel.opposite_of(colour.id)} "
                         f"{wheel.opposite_steps} steps away")
        if by_id[colour.opposite].opposite != colour.id:
            yield report(COLOURS, path + ("opposite",),
                         f"{label}: opposite {colour.opposite} names {by_id[colour.opposite].opposite} back, not {colour.id}")
        pair = frozenset({colour.principle, by_id[colour.opposite].principle})
        if pair not in OPPOSED_PRINCIPLES:
            yield report(COLOURS, path + ("opposite",),
                         f"{label}: {' and '.join(sorted(pair))} are not a pair of opposed principles in the rulebook")
        if frozenset(colour.adjacent) != wheel.neighbours(colour.id):
            yield report(COLOURS, path + ("adjacent",),
                         f"{label}: adjacent lists {', '.join(colour.adjacent)} but the wheel gives "
                         f"{', '.join(sorted(wheel.neighbours(colour.id)))}")
    example_colour, example_neighbours = ADJACENCY_EXAMPLE
    if example_colour in by_id and wheel.neighbours(example_colour) != example_neighbours:
        yield report(COLOURS, ("wheel", "order"),
                     f"wheel: {example_colour} must be adjacent to {', '.join(sorted(example_neighbours))} "
                     f"(the rulebook's building example)")


# --- Tower ---------------------------------------------------------------------
def tower_problems(model: TotemsModel, report: Reporter) -> Iterator[Problem]:
    tower = model.tower
    previous = None
    for index, row in enumerate(tower.levels):
        path: PathKey = ("levels", index)
        label = f"tower level {row.level}"
        if row.level != index + 1:
            yield report(TOWER, path + ("level",), f"{label}: expected level {index + 1} (levels run 1, 2, 3... without gaps)")
        if ROMAN.get(row.level) != row.numeral:
            yield report(TOWER, path + ("numeral",), f"{label}: numeral {row.numeral} should be {ROMAN.get(row.level)}")
        stated = TOWER_TABLE.get(row.level)
        if stated is not None and stated != (row.shrines, row.servants):
            yield report(TOWER, path, f"{label}: needs {stated[0]} shrines and {stated[1]} servants in the rulebook, "
                                      f"not {row.shrines} and {row.servants}")
        if previous is not None and (row.shrines <= previous.shrines or row.servants <= previous.servants):
            yield report(TOWER, path, f"{label}: each level must need more shrines and servants than the one below")
        previous = row
    if tower.levels and (tower.levels[0].shrines, tower.levels[0].servants) != (0, 0):
        yield report(TOWER, ("levels", 0), "tower level 1: the starting block needs no shrines or servants")
    if len(tower.levels) != len(TOWER_TABLE):
        yield report(TOWER, ("levels",), f"tower: expected {len(TOWER_TABLE)} levels, found {len(tower.levels)}")
    top = tower.levels[-1].level if tower.levels else 0
    if tower.win_level != WIN_LEVEL or tower.win_level != top:
        yield report(
            TOWER, ("win", "level"), f"tower: the game is won at level {WIN_LEVEL}, the top of the table; data says {tower.win_level}"
        )
    blocks = model.components.get(TOTEM_BLOCKS)
    if blocks is not None and tower.blocks_per_colour * len(model.colours) != blocks:
        yield report(
            TOWER,
            ("supply", "blocks_per_colour"),
            f"tower: {tower.blocks_per_colour} blocks x {len(model.colours)} colours is not the {blocks} totem blocks in components.yaml",
        )


# --- Set-up --------------------------------------------------------------------
def setup_problems(model: TotemsModel, report: Reporter) -> Iterator[Problem]:
    setup = model.setup
    yield from _covers_colours(model, report, [r.colour for r in setup.resources], SETUP, ("starting_resources",), "starting resources")
    for index, res in enumerate(setup.resources):
        if res.souls == 0:
            yield report(SETUP, ("starting_resources", index), f"starting resources {res.colour}: a colour must start with some souls")
    packages = Counter(res.package for res in setup.resources)
    odd = sorted((packages - STARTING_PACKAGES).elements())
    missing = sorted((STARTING_PACKAGES - packages).elements())
    if odd:
        yield report(SETUP, ("starting_resources",),
                     f"starting resources: packages {odd} are not among the six the rulebook lists "
                     f"(clerics, servants, shrines, rolled souls)")
    elif missing and len(setup.resources) == len(model.colour_ids):  # (a colour missing is told by itself)
        yield report(SETUP, ("starting_resources",),
                     f"starting resources: packages {missing} of the six the rulebook lists start no colour")
    yield from _covers_colours(model, report, list(setup.start_order), SETUP, ("start_order", "order"), "start order")
    if (setup.min_players, setup.max_players) != (MIN_PLAYERS, MAX_PLAYERS):
        yield report(SETUP, ("players",), f"players: the game is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if setup.starting_hand != STARTING_HAND or setup.starting_hand > model.turn.hand_limit:
        yield report(SETUP, ("starting_hand", "cards"),
                     f"starting hand: {STARTING_HAND} cards in the rulebook, within the hand limit; data says {setup.starting_hand}")


def _covers_colours(
    model: TotemsModel, report: Reporter, named: Sequence[str], kind: str, path: PathKey, label: str
) -> Iterator[Problem]:
    """``named`` lists every colour exactly once."""
    counts = Counter(named)
    for colour in model.colour_ids:
        if counts[colour] == 0:
            yield report(kind, path, f"{label}: no entry for colour {colour}")
        elif counts[colour] > 1:
            yield report(kind, path, f"{label}: colour {colour} appears {counts[colour]} times")


# --- Commandments ----------------------------------------------------------------
def deck_problems(model: TotemsModel, report: Reporter) -> Iterator[Problem]:
    deck = model.deck
    if deck.cards_per_colour != CARDS_PER_COLOUR:
        yield report(
            COMMANDMENTS,
            ("deck", "cards_per_colour"),
            f"deck: {CARDS_PER_COLOUR} cards per colour in the rulebook, not {deck.cards_per_colour}",
        )
    if tuple(row.level for row in deck.levels) != CARD_LEVELS:
        yield report(COMMANDMENTS, ("deck", "levels"), f"deck: levels must be {', '.join(map(str, CARD_LEVELS))}")
    for index, row in enumerate(deck.levels):
        path: PathKey = ("deck", "levels", index)
        if DESIGNS_PER_LEVEL.get(row.level) != row.designs:
            yield report(
                COMMANDMENTS,
                path + ("designs",),
                f"deck level {row.level}: {DESIGNS_PER_LEVEL.get(row.level)} designs per colour in the rulebook, not {row.designs}",
            )
        if row.blocks_needed != row.level:
            yield report(
                COMMANDMENTS,
                path + ("blocks_needed",),
                f"deck level {row.level}: a level-{row.level} card needs {row.level} blocks, not {row.blocks_needed}",
            )
    if deck.miracle_designs != MIRACLES_PER_COLOUR:
        yield report(COMMANDMENTS, ("deck", "miracle_designs"), f"deck: {MIRACLES_PER_COLOUR} miracle per colour in the rulebook")
    total = sum(row.designs * row.copies_per_design for row in deck.levels) + deck.miracle_designs * deck.miracle_copies
    if total != deck.cards_per_colour:
        yield report(
            COMMANDMENTS, ("deck",), f"deck: the composition table adds up to {total} cards per colour, not {deck.cards_per_colour}"
        )
    if sum(row.designs for row in deck.levels) != COMMANDMENTS_PER_COLOUR:
        yield report(COMMANDMENTS, ("deck", "levels"), f"deck: {COMMANDMENTS_PER_COLOUR} commandment designs per colour in the rulebook")


def colour_deck_problems(model: TotemsModel, report: Reporter) -> Iterator[Problem]:
    deck = model.deck
    for colour in model.colour_ids:
        cards = model.cards_of(colour)
        copies = sum(card.copies for card in cards)
        if copies != deck.cards_per_colour:
            yield report(COMMANDMENTS, ("commandments",), f"colour {colour}: {copies} cards, expected {deck.cards_per_colour}")
        levels = Counter(card.level for card in cards if not card.is_miracle)
        for row in deck.levels:
            if levels[row.level] != row.designs:
                yield report(COMMANDMENTS, ("commandments",),
                             f"colour {colour}: {levels[row.level]} level-{row.level} commandments, expected {row.designs}")
        miracles = sum(1 for card in cards if card.is_miracle)
        if miracles != deck.miracle_designs:
            yield report(COMMANDMENTS, ("commandments",), f"colour {colour}: {miracles} miracles, expected {deck.miracle_designs}")
        types = {card.type for card in cards if not card.is_miracle}
        if len(types) < MIN_CARD_TYPES_PER_COLOUR:
            yield report(
                COMMANDMENTS,
                ("commandments",),
                f"colour {colour}: commandments use only {', '.join(sorted(types))} (mix at least {MIN_CARD_TYPES_PER_COLOUR} types)",
            )
        bonus_colours = {card.bonus.colour for card in cards if card.bonus}
        for other in model.colour_ids:
            if other != colour and other not in bonus_colours:
                yield report(
                    COMMANDMENTS,
                    ("commandments",),
                    f"colour {colour}: no commandment has {fx.article(other)} bonus (bonuses should reach every other colour)",
                )
    if model.card_count != CARD_COUNT:
        yield report(COMMANDMENTS, ("commandments",), f"commandments: {model.card_count} cards in all, the rulebook has {CARD_COUNT}")


def card_problems(model: TotemsModel, report: Reporter) -> Iterator[Problem]:
    for index, card in enumerate(model.cards):
        for path, message in _card_findings(model, card):
            yield report(COMMANDMENTS, ("commandments", index) + path, f"commandment {card.id} ({card.colour}): {message}")


Finding = tuple[PathKey, str]


def _card_findings(model: TotemsModel, card: Card) -> Iterator[Finding]:
    if not card.id.startswith(f"{card.colour}-"):
        yield ("id",), f"id must start with its colour ('{card.colour}-')"
    expected_copies = model.deck.copies_for(card.level)
    if card.copies != expected_copies:
        yield ("copies",), f"{card.copies} copies, but the deck table gives {expected_copies} for {_level_label(card)}"
    yield from _text_findings(model, card)
    yield from _reach_findings(card)
    yield from _op_findings(model, card.all_ops, ("effect", "ops"), miracle=card.is_miracle)
    if card.is_miracle:
        return
    yield from _timing_findings(card.timing == REACTION, card.ops, card.trigger)
    if card.cost is not None and card.cost.is_free:
        yield ("cost",), "every commandment has a cost (clerics, servants or a sacrifice)"
    if card.bonus is not None and card.bonus.colour == card.colour:
        yield ("bonus", "colour"), "the bonus colour must differ from the card's colour (you always own that one)"
    yield from _balance_findings(card)


def _level_label(card: Card) -> str:
    return "a miracle" if card.level is None else f"level {card.level}"


def _text_findings(model: TotemsModel, card: Card) -> Iterator[Finding]:
    name = model.colour_name(card.colour)
    sacrifice = card.cost.sacrifice if card.cost else None
    expected = fx.render_effect(card.ops, name, trigger=card.trigger, sacrifice=sacrifice)
    if card.text != expected:
        yield ("effect", "text"), f"effect text disagrees with its ops; expected: {expected!r}"
    words = fx.word_count(expected)  # what the card face will print once text and ops agree
    if card.bonus is not None:
        bonus_text = fx.render_bonus(card.bonus.mode, card.bonus.ops, model.colour_name(card.bonus.colour), name)
        if card.bonus.text != bonus_text:
            yield ("bonus", "text"), f"bonus text disagrees with its ops; expected: {bonus_text!r}"
        words += fx.word_count(bonus_text)
    if words > MAX_CARD_WORDS:
        yield ("effect", "text"), f"{words} words of effect and bonus text; at most {MAX_CARD_WORDS} fit a card"


def _reach_findings(card: Card) -> Iterator[Finding]:
    """The card type says whom the card affects; its ops must agree."""
    allowed = ALLOWED_WHO[card.type]
    for where, ops in (("effect", card.ops), ("bonus", card.bonus.ops if card.bonus else ())):
        for index, op in enumerate(ops):
            if op.who not in allowed:
                yield (where, "ops", index, "who"), f"a {card.type} card cannot have an op for '{op.who}' ({op.op})"
    if not any(op.who in REQUIRED_WHO[card.type] for op in card.ops):
        wanted = " or ".join(sorted(REQUIRED_WHO[card.type]))
        yield ("effect", "ops"), f"a {card.type} card needs an effect op for {wanted}"


def _op_findings(model: TotemsModel, ops: Sequence[fx.Op], path: PathKey, *, miracle: bool) -> Iterator[Finding]:
    most_servants = max((row.servants for row in model.tower.levels), default=0)
    most_shrines = max((row.shrines for row in model.tower.levels), default=0)
    for index, op in enumerate(ops):
        at = path + (index,)
        if op.per_block and not miracle:
            yield at + ("per_block",), f"{op.op}: only miracles scale with blocks of their colour"
        if miracle and not op.per_block and op.op in fx.SCALABLE:
            yield at + ("per_block",), f"{op.op}: a miracle's ops scale with the owner's blocks of its colour (per_block: true)"
        if op.op in fx.SCALABLE and op.per_block and op.who != fx.OWNERS:
            yield at + ("who",), f"{op.op}: per-block ops reach the owners of the colour"
        if op.op == fx.TRANSFORM and op.role == op.into:
            yield at + ("into",), f"transform: a {op.role} cannot turn into a {op.into}"
        if op.op == fx.BUILD and (op.servants > most_servants or op.shrines > most_shrines):
            yield (
                at,
                f"build: discounts of {op.servants} servants / {op.shrines} shrines "
                f"exceed what any level needs ({most_servants} / {most_shrines})",
            )
        if op.op == fx.BUILD and not (op.servants or op.shrines):
            yield at, "build: a card that builds must lower the servants or shrines needed"


def _timing_findings(is_reaction: bool, ops: Sequence[fx.Op], trigger: Optional[str]) -> Iterator[Finding]:
    cancels = any(op.op == fx.CANCEL for op in ops)
    if cancels and not is_reaction:
        yield ("timing",), "an effect that cancels must be a reaction (used on another player's turn)"
    if is_reaction and not cancels:
        yield ("effect", "ops"), "a reaction must cancel the card it answers"


def _balance_findings(card: Card) -> Iterator[Finding]:
    if card.cost is None or card.level is None:
        return
    price: float = card.cost.clerics + card.cost.servants
    if card.cost.sacrifice:
        role, count = card.cost.sacrifice
        price -= fx.op_value(fx.Op(fx.KILL, role=role, count=count))
    net = fx.effect_value(card.ops) - price
    low, high = NET_VALUE_BANDS[card.level]
    if not low - FLOAT_TOLERANCE <= net <= high + FLOAT_TOLERANCE:
        yield ("effect", "ops"), f"worth {net:.1f} after its cost; a level-{card.level} card should be worth {low} to {high}"
    if card.bonus is not None:
        gain = fx.effect_value(card.bonus.ops)
        if card.bonus.mode == fx.REPLACE:
            gain -= fx.effect_value(card.ops)
        low, high = BONUS_VALUE_BAND
        if not low - FLOAT_TOLERANCE <= gain <= high + FLOAT_TOLERANCE:
            yield ("bonus", "ops"), f"bonus adds {gain:.1f}; a bonus should add {low} to {high}"


def engine_example_problems(model: TotemsModel, report: Reporter) -> Iterator[Problem]:
    """Replay the stored build examples and the card example of '7.4 Playing a turn' on the rules engine."""
    for index, example in enumerate(model.tower.examples):
        unknown = [c for c in (*example.tower, example.block) if c not in model.colour_ids]
        if unknown:
            yield report(TOWER, ("examples", index), f"tower example {example.id}: unknown colour {unknown[0]!r}")
            continue
        result = engine.can_build(model, example.tower, example.shrines, example.servants, example.block)
        if result.can_build != example.can_build:
            said = "yes" if example.can_build else "no"
            got = "yes" if result.can_build else "no"
            yield report(TOWER, ("examples", index, "can_build"),
                         f"tower example {example.id}: the example says {said}, the engine says {got} ({result.reason})")
    yield from _card_example_problems(model, report, engine)


def _card_example_problems(model: TotemsModel, report: Reporter, engine) -> Iterator[Problem]:
    colour, level, (clerics, servants) = EXAMPLE_BLUE_CARD
    card = next((c for c in model.cards if c.colour == colour and c.level == level and c.cost
                 and (c.cost.clerics, c.cost.servants) == (clerics, servants)), None)
    if card is None:
        return  # example_problems reports the missing card
    index = model.cards.index(card)
    state = engine.Game.multiplayer(model, MIN_PLAYERS).new_initial_state()
    seat = state.religions[0]
    seat.tower, seat.clerics, seat.servants = [colour] * level, clerics, servants
    if state.unplayable_reason(0, card) is not None:
        yield report(COMMANDMENTS, ("commandments", index),
                     f"commandment {card.id} ({colour}): the example of '7.4 Playing a turn' plays it with "
                     f"{level} {colour} blocks and {clerics} clerics, but the engine says: {state.unplayable_reason(0, card)}")
    seat.tower = [colour] * (level - 1)
    if state.unplayable_reason(0, card) is None:
        yield report(COMMANDMENTS, ("commandments", index),
                     f"commandment {card.id} ({colour}): playable with only {level - 1} {colour} blocks; its level asks for {level}")


def example_problems(model: TotemsModel, report: Reporter) -> Iterator[Problem]:
    """The rulebook's worked examples must be real cards."""
    kind, level, (clerics, servants), bonus = EXAMPLE_SELF_CARD
    if not any(
        c.type == kind and c.level == level and c.cost and (c.cost.clerics, c.cost.servants) == (clerics, servants)
        and c.cost.sacrifice is None and c.bonus and c.bonus.colour == bonus
        for c in model.cards
    ):
        yield report(COMMANDMENTS, ("commandments",),
                     f"commandments: no card matches the example of '5. Playing your cards' "
                     f"({kind} card, level {level}, {clerics} cleric, {bonus} bonus)")
    colour, level, (clerics, servants) = EXAMPLE_BLUE_CARD
    if not any(
        c.colour == colour and c.level == level and c.cost and (c.cost.clerics, c.cost.servants) == (clerics, servants)
        for c in model.cards
    ):
        yield report(COMMANDMENTS, ("commandments",),
                     f"commandments: no card matches the example of '7.4 Playing a turn' ({colour} level {level}, {clerics} clerics)")


# --- Guides ------------------------------------------------------------------------
def guide_problems(model: TotemsModel, report: Reporter) -> Iterator[Problem]:
    yield from _covers_colours(model, report, [g.colour for g in model.guides], GUIDES, ("guides",), "guides")
    if model.summoning.cards_of_one_colour != SUMMON_CARDS:
        yield report(GUIDES, ("summoning", "cards_of_one_colour"), f"summoning: {SUMMON_CARDS} cards of one colour in the rulebook")
    for index, guide in enumerate(model.guides):
        for path, message in _guide_findings(model, guide):
            yield report(GUIDES, ("guides", index) + path, f"guide {guide.id} ({guide.colour}): {message}")


def _guide_findings(model: TotemsModel, guide: Guide) -> Iterator[Finding]:
    if guide.summon_colour != guide.colour:
        yield ("summon", "colour"), f"summoned by {guide.summon_colour} cards, but it is the {guide.colour} guide"
    if guide.summon_cards != model.summoning.cards_of_one_colour:
        yield ("summon", "cards"), f"summoned by {guide.summon_cards} cards, the summoning rule says {model.summoning.cards_of_one_colour}"
    expected = fx.render_effect(guide.ops, model.colour_name(guide.colour), trigger=guide.trigger)
    if guide.text != expected:
        yield ("sacrifice", "text"), f"sacrifice text disagrees with its ops; expected: {expected!r}"
    for index, op in enumerate(guide.ops):
        if op.who == fx.OWNERS:
            yield ("sacrifice", "ops", index, "who"), "only miracles reach the owners of a colour"
    yield from ((("sacrifice",) + p, m) for p, m in _op_findings(model, guide.ops, ("ops",), miracle=False))
    yield from ((("sacrifice",) + p, m) for p, m in _timing_findings(guide.timing == REACTION, guide.ops, guide.trigger))
    worth = fx.effect_value(guide.ops)
    low, high = GUIDE_VALUE_BAND
    if not low - FLOAT_TOLERANCE <= worth <= high + FLOAT_TOLERANCE:
        yield ("sacrifice", "ops"), f"sacrifice worth {worth:.1f}; a guide's ability should be worth {low} to {high}"


# --- Turn, dice, solo, components ----------------------------------------------------
def turn_problems(model: TotemsModel, report: Reporter) -> Iterator[Problem]:
    turn = model.turn
    if turn.hand_limit != HAND_LIMIT:
        yield report(
            TURN, ("end_of_turn", "hand_limit"), f"end of turn: the hand limit is {HAND_LIMIT} in the rulebook, not {turn.hand_limit}"
        )
    if turn.uses_per_piece != USES_PER_PIECE:
        yield report(TURN, ("actions", "uses_per_piece"), f"actions: each cleric and servant acts {USES_PER_PIECE} time per turn")
    if Counter(o.draw for o in turn.end_options) != END_OF_TURN_DRAWS:
        yield report(
            TURN, ("end_of_turn", "options"), f"end of turn: the rulebook's options draw {sorted(END_OF_TURN_DRAWS.elements())} cards"
        )
    for index, option in enumerate(turn.end_options):
        if option.draw > turn.hand_limit:
            yield report(TURN, ("end_of_turn", "options", index, "draw"), f"end-of-turn option {option.id}: draws more than the hand limit")
    choices = set()
    for index, skip in enumerate(turn.skip_options):
        path: PathKey = ("skip", "options", index)
        expected = fx.render_ops(skip.ops, "")
        if skip.text != expected:
            yield report(TURN, path + ("text",), f"skip option {skip.id}: text disagrees with its ops; expected: {expected!r}")
        if len(skip.ops) != 1 or skip.ops[0].who != fx.SELF or skip.ops[0].count != 1:
            yield report(TURN, path + ("ops",), f"skip option {skip.id}: a skip changes exactly one of your own souls")
        choices |= {(op.op, op.role, op.into) for op in skip.ops}
    if choices != SKIP_CHOICES:
        yield report(
            TURN,
            ("skip", "options"),
            "skip: the options must be the rulebook's three (convert a soul, promote a servant, sacrifice a cleric)",
        )


def dice_problems(model: TotemsModel, report: Reporter) -> Iterator[Problem]:
    for index, die in enumerate(model.dice):
        path: PathKey = ("dice", index, "faces")
        if die.face_kind == "colour":
            if Counter(die.faces) != Counter(model.colour_ids):
                yield report(DICE, path, f"die {die.id}: a colour die shows each of the {len(model.colour_ids)} colours once")
        else:
            odd = sorted(set(die.faces) - set(fx.ROLES))
            if odd or set(die.faces) != set(fx.ROLES):
                yield report(DICE, path, f"die {die.id}: a role die shows every role ({', '.join(fx.ROLES)}) and nothing else")
            if fx.SHRINE not in die.reroll:
                yield report(DICE, ("dice", index, "reroll"),
                             f"die {die.id}: a rolled soul cannot arrive as a shrine ('You can only get a shrine "
                             f"when one of your clerics dies'): its shrine faces must be rolled again (reroll: [shrine])")
        unknown = sorted(set(die.reroll) - set(die.faces))
        if unknown:
            yield report(DICE, ("dice", index, "reroll"), f"die {die.id}: reroll names {', '.join(unknown)}, not faces of the die")
        elif die.reroll and not die.standing_faces:
            yield report(DICE, ("dice", index, "reroll"), f"die {die.id}: every face is rolled again, so no roll ever ends")
    if model.solo.die not in {d.id for d in model.dice if d.face_kind == "colour"}:
        yield report(SOLO, ("between_turns", "die"), f"solo: die '{model.solo.die}' is not a colour die in dice.yaml")


def solo_problems(model: TotemsModel, report: Reporter) -> Iterator[Problem]:
    solo = model.solo
    seen = Counter(d.difficulty for d in solo.difficulties)
    for difficulty in SOLO_DIFFICULTIES:
        if seen[difficulty] != 1:
            yield report(SOLO, ("difficulties",), f"solo: expected one {difficulty} difficulty, found {seen[difficulty]}")
    souls = model.components.get(SOUL_CUBES)  # the component count reports it missing
    for index, diff in enumerate(solo.difficulties):
        path: PathKey = ("difficulties", index)
        label = f"difficulty {diff.id}"
        stated = SOLO_DIFFICULTIES.get(diff.difficulty)
        if stated is not None and stated != (diff.name, diff.passive_blocks, diff.passive_shrines):
            yield report(SOLO, path, f"{label}: the rulebook has {stated[0]} with {stated[1]} blocks and {stated[2]} shrines")
        if diff.passive_blocks > model.tower.blocks_per_colour:
            yield report(
                SOLO,
                path + ("passive_blocks",),
                f"{label}: a one-colour passive tower cannot have more than {model.tower.blocks_per_colour} blocks",
            )
        row = model.tower.needs(diff.passive_blocks)
        if row is not None and row.shrines != diff.passive_shrines:
            yield report(
                SOLO,
                path + ("passive_shrines",),
                f"{label}: passive towers of {diff.passive_blocks} blocks hold the {row.shrines} shrines that level needs, "
                f"not {diff.passive_shrines}",
            )
        if souls is not None and diff.passive_shrines * len(model.colours) > souls:
            yield report(
                SOLO,
                path + ("passive_shrines",),
                f"{label}: {len(model.colours)} x {diff.passive_shrines} shrines need more than the {souls} soul cubes",
            )
    by_difficulty = {d.difficulty: d for d in solo.difficulties}
    ordered = [by_difficulty[k] for k in SOLO_DIFFICULTIES if k in by_difficulty]
    if any(a.passive_shrines >= b.passive_shrines for a, b in zip(ordered, ordered[1:])):
        yield report(SOLO, ("difficulties",), "solo: harder difficulties must leave fewer souls in the pile (more passive shrines)")
    if solo.removed_levels != SOLO_REMOVED_LEVELS:
        yield report(SOLO, ("setup", "remove_levels"), f"solo: the rulebook removes the level {SOLO_REMOVED_LEVELS} cards")
    if solo.win_level != model.tower.win_level:
        yield report(SOLO, ("win", "tower_level"), f"solo: you win at tower level {model.tower.win_level}, as in tower.yaml")


def component_counts(game: GameData[TotemsModel]) -> Inventory:
    """The rulebook's Contents (the whole list), with what the data holds of the cards, guides and solo die."""
    model: TotemsModel = game.model
    found: dict[str, tuple[Optional[int], str]] = {
        CARD_COMPONENT: (model.card_count, "commandments.yaml"),
        GUIDE_COMPONENT: (len(model.guides), "guides.yaml"),
        SOLO_DIE: (sum(1 for die in model.dice if die.face_kind == "colour"), "colour dice in dice.yaml"),
    }
    return Inventory.of([ComponentCount(cid, *found.get(cid, (None, "")), rulebook=count)
                         for cid, count in COMPONENT_COUNTS.items()], closed=True)


# The rules: what the engine plays by.
CHECKS: tuple[Check, ...] = (
    colour_problems,
    tower_problems,
    setup_problems,
    deck_problems,
    colour_deck_problems,
    guide_problems,
    turn_problems,
    dice_problems,
    solo_problems,
)
# The cards as printed and authored (wording, reach, power budget, the rulebook's example cards).
CARD_CHECKS: tuple[Check, ...] = (card_problems, example_problems)
# Run only on data every one of CHECKS passed: the engine relies on what they vouch for.
ENGINE_CHECKS: tuple[Check, ...] = (engine_example_problems,)
