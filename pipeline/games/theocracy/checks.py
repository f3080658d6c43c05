"""Cross-checks for the Theocracy data: what no schema can express.

The rulebook's fixed facts are module constants. Every check yields all of its
problems, each naming the record and pointing at its YAML node. The bid
examples are replayed through the reference engine's `resolve_bid`.
"""
from __future__ import annotations

from collections import Counter
from itertools import product
from typing import Any, Callable, Iterator, Optional

from pipeline.checks.components import ComponentCount, Inventory
from pipeline.data.dataset import GameData
from pipeline.data.problems import Problem
from pipeline.games.theocracy import engine
from pipeline.games.theocracy.model import (
    ADD_ROLE_OP,
    BID_RULE_OP,
    CHOSEN_OP,
    FATE_ID,
    TRANSCENDENCE_ID,
    TheocracyModel,
    power_reminder,
)

# Facts stated by the rulebook (COMPONENTS, GAME STRUCTURE, TURN, END OF THE GAME, added rules).
MAX_PLAYERS = 4
# Names that repeat on purpose (pipeline/checks/names.py): every player holds the same five power
# cards (one title per player), and the four resource dice are identical copies.
NAME_TWINS = {("power-cards", "power_cards"): ("player",), ("dice", "dice"): ("id",)}
POWER_VALUES = (1, 2, 3, 4, 5)
BELIEVERS_PER_PLAYER = 4
DICE_COUNT = 4
TURNS_PER_ROUND = 4
TRANSCENDENCE_THRESHOLD = 54
FATE_DICE = 2
FATE_TARGET = 9
FATE_ROLLER = "last"
UPSET = (1, 5)  # the 1 beats the 5
ROLES_BY_COUNT = {2: ("first", "last"), 3: ("first", "lukewarm", "last"), 4: ("first", "lukewarm", "lost", "last")}
ROLE_ORDER = ("first", "lukewarm", "lost", "last")
NEW_FIRST = "last"
SEAT_DIRECTION = "anticlockwise"
ROLLER_DUTIES = ("roll-resource-die", "roll-fate-dice")
PHASE_ORDER = ("tribulation", "omen", "revelation", "grace")
GRACE_ORDER = (
    ("a", "acquire-believer"),
    ("b", "lose-believer"),
    ("c", "set-aside-bid"),
    ("d", "place-die"),
    ("e", "set-aside-locked"),
)
PROPHECY_RULES = {"win": (True, "subject-wins"), "lose": (True, "another-player-wins"), "draw": (False, "no-winner")}
ADDED_RULE_PLAYERS = {"the-chosen": (3, 4), "ruin": (3, 4), "ouroboros": (3, 4)}
# Every bid example the rulebook gives: bids -> winning seat (None = draw).
RULEBOOK_BIDS: dict[tuple[int, ...], Optional[int]] = {
    (1, 5): 0,
    (5, 3): 0,
    (3, 1): 0,
    (1, 5, 3): None,
    (4, 4, 2): 2,
    (1, 2, 4, 5): None,
    (4, 4, 1, 5): 2,
    (2, 3, 4, 5): 3,
    (1, 1, 1, 3): 3,
    (2, 2, 3, 3): None,
}

# Our own limits for print-and-play.
MAX_CARD_WORDS = 45
PLAYER_PLACEHOLDER = "{player}"
PROPHECY_VOICES = {"win": ("self", "other"), "lose": ("self", "other"), "draw": ("none",)}

NodePath = tuple[Any, ...]


def cross_checks(game: GameData[TheocracyModel]) -> Iterator[Problem]:
    """Every problem in the Theocracy data that its schemas cannot see."""
    model = game.model
    for check in CHECKS:
        yield from check(game, model)


def _at(game: GameData[TheocracyModel], kind: str, path: NodePath, message: str) -> Problem:
    return game.doc(kind).problem(path, message)


def _words(*texts: Optional[str]) -> int:
    return sum(len(t.split()) for t in texts if t)


def _longest(**fields: Optional[str]) -> str:
    """The field holding the most words (where a card with too many words is blamed: the likeliest edit)."""
    return max(fields, key=lambda name: _words(fields[name]))


# --------------------------------------------------------------------------- cards


def check_players(game: GameData[TheocracyModel], model: TheocracyModel) -> Iterator[Problem]:
    if len(model.players) != MAX_PLAYERS:
        yield _at(game, "players", ("players",), f"players: {len(model.players)} colours, the game needs {MAX_PLAYERS}")
    for field in ("colour", "emblem", "order"):  # names: pipeline/checks/names.py
        seen: dict[Any, str] = {}
        for i, player in enumerate(model.players):
            value = getattr(player, field)
            if value in seen:
                yield _at(game, "players", ("players", i, field),
                          f"player {player.id}: {field} {value!r} is also used by player {seen[value]}")
            seen.setdefault(value, player.id)


def check_power_cards(game: GameData[TheocracyModel], model: TheocracyModel) -> Iterator[Problem]:
    known = {p.id for p in model.players}
    yield from _twin_title_problems(game, model)
    for i, card in enumerate(model.power_cards):
        label = f"power card {card.id} ({card.player})"
        if card.player not in known:
            yield _at(game, "power-cards", ("power_cards", i, "player"), f"{label}: no player colour '{card.player}'")
        expected = power_reminder(card.value, model.upset)
        if card.reminder != expected:
            want = f"'{expected}'" if expected else "no reminder"
            yield _at(game, "power-cards", ("power_cards", i, "reminder"),
                      f"{label}: reminder {card.reminder!r} does not match the upset rule (expected {want})")
        words = _words(card.title, card.reminder, card.flavour)
        if words > MAX_CARD_WORDS:
            longest = _longest(title=card.title, reminder=card.reminder, flavour=card.flavour)
            yield _at(game, "power-cards", ("power_cards", i, longest),
                      f"{label}: {words} words of text, more than {MAX_CARD_WORDS} fit a card")
    for player in model.players:
        values = model.power_values(player.id)
        if values != POWER_VALUES:
            yield _at(game, "players", game.doc("players").record_at("players", player.id),
                      f"player {player.id}: power-cards.yaml gives it the values {list(values)}, expected {list(POWER_VALUES)}")


def _twin_title_problems(game: GameData[TheocracyModel], model: TheocracyModel) -> Iterator[Problem]:
    """The power cards of one value are twins (one per house) and share a title. The cards whose title
    differs from the majority's are blamed, each naming the twins it disagrees with; with no majority
    (two against two), every card is named with the titles in play."""
    by_value: dict[int, list[tuple[int, Any]]] = {}
    for i, card in enumerate(model.power_cards):
        by_value.setdefault(card.value, []).append((i, card))
    for value, twins in sorted(by_value.items()):
        counts = Counter(card.title for _, card in twins)
        if len(counts) < 2:
            continue
        (top, top_count), (_, second_count) = counts.most_common(2)
        for i, card in twins:
            label = f"power card {card.id} ({card.player})"
            where = ("power_cards", i, "title")
            if top_count > second_count:
                if card.title != top:
                    agree = ", ".join(c.id for _, c in twins if c.title == top)
                    yield _at(game, "power-cards", where,
                              f"{label}: title '{card.title}' differs from '{top}' on the other value-{value} cards "
                              f"({agree}): this card's title changed")
            else:
                titles = "; ".join(f"'{t}' on {', '.join(c.id for _, c in twins if c.title == t)}" for t in counts)
                yield _at(game, "power-cards", where,
                          f"{label}: the value-{value} cards of the houses must share a title, found {titles}")


def check_believers(game: GameData[TheocracyModel], model: TheocracyModel) -> Iterator[Problem]:
    known = {p.id for p in model.players}
    for i, believer in enumerate(model.believers):
        label = f"believer {believer.id} ({believer.player})"
        if believer.player not in known:
            yield _at(game, "believers", ("believers", i, "player"), f"{label}: no player colour '{believer.player}'")
        words = _words(believer.name, believer.flavour)
        if words > MAX_CARD_WORDS:
            yield _at(game, "believers", ("believers", i, _longest(name=believer.name, flavour=believer.flavour)),
                      f"{label}: {words} words of text, more than {MAX_CARD_WORDS} fit a card")
    expected = list(range(1, BELIEVERS_PER_PLAYER + 1))
    for player in model.players:
        indices = sorted(b.index for b in model.believers_of(player.id))
        if indices != expected:
            yield _at(game, "players", game.doc("players").record_at("players", player.id),
                      f"player {player.id}: believers.yaml gives it the indices {indices}, expected {expected}")


def check_dice(game: GameData[TheocracyModel], model: TheocracyModel) -> Iterator[Problem]:
    if len(model.dice) != DICE_COUNT:
        yield _at(game, "dice", ("dice",), f"dice: {len(model.dice)} dice, the rulebook has {DICE_COUNT}")
    faces = {die.faces for die in model.dice}
    if len(faces) > 1:
        yield _at(game, "dice", ("dice",), "dice: the dice do not all have the same faces")
    for i, die in enumerate(model.dice):
        if len(die.faces) < model.turns_per_round:
            yield _at(game, "dice", ("dice", i, "faces"),
                      f"die {die.id}: {len(die.faces)} faces cannot give {model.turns_per_round} different values a round")


def component_counts(game: GameData[TheocracyModel]) -> Inventory:
    """The box contents as the rulebook states them and as the card data holds them."""
    model: TheocracyModel = game.model
    return Inventory.of([
        ComponentCount("power-card", len(model.power_cards), "power-cards.yaml", MAX_PLAYERS * len(POWER_VALUES)),
        ComponentCount("believer-card", len(model.believers), "believers.yaml", MAX_PLAYERS * BELIEVERS_PER_PLAYER),
        ComponentCount("die", len(model.dice), "dice.yaml", DICE_COUNT),
    ])


# --------------------------------------------------------------------------- structure


def check_roles(game: GameData[TheocracyModel], model: TheocracyModel) -> Iterator[Problem]:
    doc = game.doc("roles").data
    by_order = tuple(r.id for r in sorted(model.roles, key=lambda r: r.order))
    if by_order != ROLE_ORDER:
        yield _at(game, "roles", ("roles",), f"roles: order {list(by_order)}, expected {list(ROLE_ORDER)}")
    for i, role in enumerate(model.roles):
        has_duties = all(d in role.duties for d in ROLLER_DUTIES)
        if has_duties != (role.id == FATE_ROLLER):
            yield _at(game, "roles", ("roles", i, "duties"),
                      f"role {role.id}: only {FATE_ROLLER} rolls the resource die and the fate dice")
    counts = [u.players for u in model.line_ups]
    if sorted(counts) != sorted(ROLES_BY_COUNT):
        yield _at(game, "roles", ("line_ups",), f"line-ups: player counts {sorted(counts)}, expected {sorted(ROLES_BY_COUNT)}")
    for i, line_up in enumerate(model.line_ups):
        label = f"line-up {doc['line_ups'][i]['id']} ({line_up.players} players)"
        if len(line_up.roles) != line_up.players:
            yield _at(game, "roles", ("line_ups", i, "roles"),
                      f"{label}: {len(line_up.roles)} roles for {line_up.players} players")
        if line_up.roles != tuple(r for r in ROLE_ORDER if r in line_up.roles):
            yield _at(game, "roles", ("line_ups", i, "roles"), f"{label}: roles are not in acting order")
        rulebook = ROLES_BY_COUNT.get(line_up.players)
        if rulebook is not None and line_up.roles != rulebook:
            yield _at(game, "roles", ("line_ups", i, "roles"),
                      f"{label}: roles {list(line_up.roles)}, the rulebook gives {list(rulebook)}")
    rotation = model.rotation
    if rotation.new_first != NEW_FIRST or rotation.direction != SEAT_DIRECTION:
        yield _at(game, "roles", ("rotation",),
                  f"rotation: {rotation.new_first} becomes First going {rotation.direction}; "
                  f"the rulebook has {NEW_FIRST} becoming First, roles {SEAT_DIRECTION}")
    if rotation.first_round_first_seat >= min(counts, default=MAX_PLAYERS):
        yield _at(game, "roles", ("rotation", "first_round_first_seat"),
                  f"rotation: first_round_first_seat {rotation.first_round_first_seat} does not exist with {min(counts)} players")


def check_phases(game: GameData[TheocracyModel], model: TheocracyModel) -> Iterator[Problem]:
    doc = game.doc("phases").data
    order = tuple(p["id"] for p in sorted(doc["phases"], key=lambda p: p["order"]))
    if order != PHASE_ORDER:
        yield _at(game, "phases", ("phases",), f"phases: order {list(order)}, expected {list(PHASE_ORDER)}")
    orders = Counter(p["order"] for p in doc["phases"])
    for i, phase in enumerate(doc["phases"]):
        if orders[phase["order"]] > 1:
            yield _at(game, "phases", ("phases", i, "order"), f"phase {phase['id']}: order {phase['order']} is used twice")
    steps = tuple((s.id, s.op) for s in sorted(model.grace_steps, key=lambda s: s.order))
    if steps != GRACE_ORDER:
        shown = ", ".join(f"{a}) {op}" for a, op in steps)
        yield _at(game, "phases", ("grace_steps",), f"grace steps: {shown}; the rulebook's order is "
                  + ", ".join(f"{a}) {op}" for a, op in GRACE_ORDER))
    if model.turns_per_round != TURNS_PER_ROUND:
        yield _at(game, "phases", ("turn_structure", "turns_per_round"),
                  f"turn structure: {model.turns_per_round} turns per round, the rulebook has {TURNS_PER_ROUND}")
    if model.turns_per_round > len(model.dice):
        yield _at(game, "phases", ("turn_structure", "turns_per_round"),
                  f"turn structure: {model.turns_per_round} turns need one die each, only {len(model.dice)} dice in dice.yaml")


def check_prophecies(game: GameData[TheocracyModel], model: TheocracyModel) -> Iterator[Problem]:
    kinds = {p.id: (p.needs_subject, p.fulfilled_when) for p in model.prophecies}
    for kind, rule in PROPHECY_RULES.items():
        if kind not in kinds:
            yield _at(game, "prophecies", ("prophecies",), f"prophecy {kind}: missing")
        elif kinds[kind] != rule:
            yield _at(game, "prophecies", game.doc("prophecies").record_at("prophecies", kind),
                      f"prophecy {kind}: needs_subject/fulfilled_when {list(kinds[kind])}, expected {list(rule)}")
    covered = set()
    texts: dict[str, str] = {}
    for i, phrasing in enumerate(model.phrasings):
        label = f"phrasing {phrasing.id} ({phrasing.prophecy}, {phrasing.voice})"
        covered.add((phrasing.prophecy, phrasing.voice))
        if phrasing.voice not in PROPHECY_VOICES[phrasing.prophecy]:
            yield _at(game, "prophecies", ("phrasings", i, "voice"),
                      f"{label}: a {phrasing.prophecy} prophecy is spoken as {' or '.join(PROPHECY_VOICES[phrasing.prophecy])}")
        names_player = PLAYER_PLACEHOLDER in phrasing.text
        if names_player != (phrasing.voice == "other"):
            yield _at(game, "prophecies", ("phrasings", i, "text"),
                      f"{label}: {PLAYER_PLACEHOLDER} must appear exactly in phrasings about another player")
        key = phrasing.text.casefold()
        if key in texts:
            yield _at(game, "prophecies", ("phrasings", i, "text"), f"{label}: same text as phrasing {texts[key]}")
        texts.setdefault(key, phrasing.id)
    for kind, voices in PROPHECY_VOICES.items():
        for voice in voices:
            if (kind, voice) not in covered:
                yield _at(game, "prophecies", ("phrasings",), f"phrasings: none for a {kind} prophecy in the {voice} voice")


# --------------------------------------------------------------------------- bids


def check_bid_rules(game: GameData[TheocracyModel], model: TheocracyModel) -> Iterator[Problem]:
    upset = (model.upset.weak, model.upset.strong)
    if upset != UPSET:
        yield _at(game, "bid-rules", ("upset",), f"upset: {upset[0]} beats {upset[1]}, the rulebook has {UPSET[0]} beats {UPSET[1]}")
    values = sorted({c.value for c in model.power_cards})
    if values and upset != (values[0], values[-1]):
        yield _at(game, "bid-rules", ("upset",),
                  f"upset: weak/strong must be the lowest and highest power values {values[0]} and {values[-1]}")
    ids = {r.id for r in model.bid_rules}
    for rule_id in engine.BID_RULE_IDS:
        if rule_id not in ids:
            yield _at(game, "bid-rules", ("bid_rules",), f"bid rule {rule_id}: the engine decides bids by it but it has no record")
    used = {e.rule for e in model.bid_examples}
    for i, rule in enumerate(model.bid_rules):
        if rule.id not in used:
            yield _at(game, "bid-rules", ("bid_rules", i), f"bid rule {rule.id}: no bid example shows it")


def check_bid_examples(game: GameData[TheocracyModel], model: TheocracyModel) -> Iterator[Problem]:
    rules = {r.id: r for r in model.bid_rules}
    counts = set(model.player_counts)
    for i, example in enumerate(model.bid_examples):
        label = f"bid example {example.id} ({' vs '.join(map(str, example.bids))})"
        yield from (_at(game, "bid-examples", ("bid_examples", i, field), f"{label}: {msg}")
                    for field, msg in _example_shape(example, rules, counts))
    stored = {e.bids: e.winner for e in model.bid_examples}
    for bids, winner in RULEBOOK_BIDS.items():
        if bids not in stored:
            yield _at(game, "bid-examples", ("bid_examples",),
                      f"bid examples: the rulebook example {' vs '.join(map(str, bids))} is missing")
        elif stored[bids] != winner:
            i = next(j for j, e in enumerate(model.bid_examples) if e.bids == bids)
            yield _at(game, "bid-examples", ("bid_examples", i, "winner"),
                      f"bid example {model.bid_examples[i].id}: winner {stored[bids]}, the rulebook says {_result(winner)}")


def _example_shape(example: Any, rules: dict[str, Any], counts: set[int]) -> Iterator[tuple[str, str]]:
    seats = len(example.bids)
    if seats not in counts:
        yield "bids", f"{seats} bids, but roles.yaml has line-ups for {sorted(counts)} players only"
    if example.winner is not None and example.winner >= seats:
        yield "winner", f"winner seat {example.winner} does not exist with {seats} bids"
    if example.winner is not None and example.winner in example.ruined:
        yield "winner", f"winner seat {example.winner} is also listed as ruined"
    for seat in example.ruined:
        if seat >= seats:
            yield "ruined", f"ruined seat {seat} does not exist with {seats} bids"
    rule = rules.get(example.rule)
    if rule is None:
        yield "rule", f"rule {example.rule} has no record in bid-rules.yaml"
        return
    if seats not in rule.players:
        yield "rule", f"rule {rule.id} does not apply with {seats} players"
    if (rule.outcome == "draw") != (example.winner is None):
        yield "rule", f"rule {rule.id} gives a {rule.outcome}, but the example says {_result(example.winner)}"


def _result(winner: Optional[int]) -> str:
    return "draw" if winner is None else f"seat {winner} wins"


def replay_bid_examples(game: GameData[TheocracyModel]) -> Iterator[tuple[str, tuple[Any, ...], str]]:
    """The engine's resolve_bid must give each example's stored winner, rule and ruined seats (the spec's
    ``examples``: the core replays them once every other check passed)."""
    model = game.model
    for example in model.bid_examples:
        got = engine.resolve_bid(example.bids, model.upset)
        if (got.winner, got.rule, got.ruined) != (example.winner, example.rule, example.ruined):
            yield example.id, (), (f"the engine says {_result(got.winner)} by {got.rule} (ruined {list(got.ruined)}), "
                                   f"the data says {_result(example.winner)} by {example.rule} "
                                   f"(ruined {list(example.ruined)})")


def check_added_rules(game: GameData[TheocracyModel], model: TheocracyModel) -> Iterator[Problem]:
    bid_rules = {r.id: r for r in model.bid_rules}
    steps = {s.id: s.op for s in model.grace_steps}
    for i, rule in enumerate(model.added_rules):
        label = f"added rule {rule.id}"
        where = ("added_rules", i, "effect")
        if rule.op == ADD_ROLE_OP:
            with_role = tuple(sorted(u.players for u in model.line_ups if rule.target in u.roles))
            if with_role != tuple(sorted(rule.players)):
                yield _at(game, "added-rules", where,
                          f"{label}: role {rule.target} is in the line-ups of roles.yaml for {list(with_role)} players, "
                          f"not {list(rule.players)}")
        elif rule.op == BID_RULE_OP:
            target = bid_rules.get(rule.target)
            if target is None:
                yield _at(game, "added-rules", where, f"{label}: bid rule {rule.target} has no record")
            elif tuple(sorted(target.players)) != tuple(sorted(rule.players)):
                yield _at(game, "added-rules", where,
                          f"{label}: bid rule {rule.target} applies to {list(target.players)} players, not {list(rule.players)}")
        elif rule.op == CHOSEN_OP and steps.get(rule.target) != engine.OP_ACQUIRE:
            yield _at(game, "added-rules", where, f"{label}: grace step {rule.target} is not the step where believers are acquired")
        expected = ADDED_RULE_PLAYERS.get(rule.id)
        if expected is not None and tuple(sorted(rule.players)) != expected:
            yield _at(game, "added-rules", ("added_rules", i, "players"),
                      f"{label}: applies to {list(rule.players)} players, the rulebook says {list(expected)}")
    if not model.added_rule_players(CHOSEN_OP):
        yield _at(game, "added-rules", ("added_rules",), f"added rules: none has the {CHOSEN_OP} effect (the chosen)")


def check_round_end(game: GameData[TheocracyModel], model: TheocracyModel) -> Iterator[Problem]:
    ends = game.doc("round-end").data["end_conditions"]
    by_id = {c["id"]: i for i, c in enumerate(ends)}  # the schema requires both conditions
    if model.transcendence_threshold != TRANSCENDENCE_THRESHOLD:
        yield _at(game, "round-end", ("end_conditions", by_id[TRANSCENDENCE_ID], "check", "threshold"),
                  f"end condition transcendence: threshold {model.transcendence_threshold}, the rulebook says {TRANSCENDENCE_THRESHOLD}")
    fate = model.fate
    where = ("end_conditions", by_id[FATE_ID], "check")
    if (fate.dice, fate.target, fate.roller) != (FATE_DICE, FATE_TARGET, FATE_ROLLER):
        yield _at(game, "round-end", where,
                  f"end condition fate: {fate.roller} rolls {fate.dice} dice for {fate.target}, "
                  f"the rulebook says {FATE_ROLLER} rolls {FATE_DICE} for {FATE_TARGET}")
    if fate.dice > len(model.dice):
        yield _at(game, "round-end", where, f"end condition fate: {fate.dice} dice, the game has only {len(model.dice)}")
    elif model.dice and not any(sum(r) == fate.target for r in product(model.dice[0].faces, repeat=fate.dice)):
        yield _at(game, "round-end", where, f"end condition fate: {fate.dice} dice can never total {fate.target}")
    if [c["id"] for c in sorted(ends, key=lambda c: c["order"])] != [TRANSCENDENCE_ID, FATE_ID]:
        yield _at(game, "round-end", ("end_conditions",), "end conditions: transcendence must be checked before fate")


# --------------------------------------------------------------------------- rules text


CHECKS: tuple[Callable[[GameData, TheocracyModel], Iterator[Problem]], ...] = (
    check_players,
    check_power_cards,
    check_believers,
    check_dice,
    check_roles,
    check_phases,
    check_prophecies,
    check_bid_rules,
    check_bid_examples,
    check_added_rules,
    check_round_end,
)
