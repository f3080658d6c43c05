"""Cross-checks of the card faces and of the scenarios in play.

* the deities: the facts the rulebook states about individual cards
  (monotheism-facts.md), each as code;
* the worshipers: one face record per worshiper of the sets, chains of states
  that follow the physical card (rotate, flip) and end in the void;
* the scenarios: the stored winning line replays to a win (the solver searches
  only when it does not), and the stored trap is a whole first turn other than
  the line's own (``pantheon monotheism rate`` proves it lost).
"""
from __future__ import annotations

from typing import Any, Iterator, Mapping, Optional, Sequence

from pipeline import store
from pipeline.data.dataset import Document, GameData
from pipeline.data.problems import Problem
from pipeline.games.monotheism import dsl, proofs, solver
from pipeline.games.monotheism.cards import HALF_KEYS, Cards
from pipeline.games.monotheism.dsl import walk_ops
from pipeline.games.monotheism.engine import Game
from pipeline.games.monotheism.model import MonotheismModel, Scenario, scenario_from_record
from pipeline.games.monotheism.rating import RATE_NODES, turns_of
from pipeline.games.monotheism.scenario_checks import solution_turns_findings
from pipeline.games.monotheism.text import face_text, word_count

DEITIES = "deities"
WORSHIPERS = "worshipers"
WORSHIPER_SETS = "worshiper-sets"
SCENARIOS = "scenarios"

# --- facts about individual deities (monotheism-facts.md) ---------------------
ATLAS = "07"                       # the only "When this is consumed" essence: the void takes every card above
SUN_WITH_ESSENCE = "13"            # sun aspect and an essence
NO_SUN_WITH_ACT = "20"             # no sun aspect, has an act
ALWAYS_CURSES_ON_UNVEIL = "21"
CURSE_IF_MUCH_UNVEILED = ("18", "25")
HINDER_WORSHIPERS = ("07", "09", "13", "22")
DEATH_MAJORITY = 2 / 3             # "typically": at least two in three consuming acts
MAX_FACE_WORDS = 45                # fits a poker card
UPRIGHT_KEY = HALF_KEYS[0]

# --- worshiper chains -----------------------------------------------------------
START_FACE, START_ORIENTATION = "front", "upright"
FLIP_FACE = {"front": "back", "back": "front"}
ROTATE = {"upright": "rotated", "rotated": "upright"}
VOID = "void"

# --- scenarios in play: how the findings that a scenario broke begin (they name the cards changed since its last proof)
CANNOT_WIN = "cannot be won"
LINE_BREAKS = "the stored winning line breaks"
BROKEN = (CANNOT_WIN, LINE_BREAKS)

# --- scenarios in play: node limits, never seconds, so the verdict is the same on every machine -------
SOLVE_NODES = RATE_NODES  # searched only when the stored line does not win: is there still a win?

def card_problems(game: GameData[MonotheismModel]) -> Iterator[Problem]:
    """Problems of deities.yaml and worshipers.yaml (run when both documents are present)."""
    deities, worshipers = game.doc(DEITIES), game.doc(WORSHIPERS)
    yield from deity_problems(deities)
    yield from worshiper_problems(worshipers, game.doc(WORSHIPER_SETS))


# ============================================================== deities
def _halves(record: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for key in HALF_KEYS:
        yield key, record[key]


def _ops_of(box: Optional[Mapping[str, Any]]) -> list[tuple[str, Mapping[str, Any]]]:
    if not box:
        return []
    return list(walk_ops(box.get("do"))) + list(walk_ops(box.get("otherwise")))


def _has_op(box: Optional[Mapping[str, Any]], name: str) -> bool:
    return any(op == name for op, _ in _ops_of(box))


def _selectors(box: Optional[Mapping[str, Any]]) -> list[str]:
    return [name for _, params in _ops_of(box) for name, _ in dsl.selectors_of(params)]


def _consumes_itself(act: Optional[Mapping[str, Any]]) -> bool:
    """The act makes this god eat (a consume op, not a grant to another)."""
    return _has_op(act, "consume")


def _hinders(record: Mapping[str, Any]) -> bool:
    """A card that makes the worshiper's task difficult: curses, or resists or punishes being eaten."""
    for _, half in _halves(record):
        boxes = (half.get("act"), half.get("essence"))
        if any(_has_op(box, "curse") for box in boxes):
            return True
        if half.get("essence", {}).get("when") in ("attempted", "consumed"):
            return True
    return False


def deity_problems(doc: Document) -> Iterator[Problem]:
    records = doc.data["deities"]
    index = {record["id"]: i for i, record in enumerate(records)}
    for i, record in enumerate(records):
        yield from _one_deity(doc, i, record)
    yield from _named_deity_problems(doc, records, index)
    yield from _death_majority(doc, records)
    if not any(_has_op(half.get("act"), "veil") for record in records for _, half in _halves(record)):
        yield doc.problem(("deities",), f"no god can veil another, so #{ALWAYS_CURSES_ON_UNVEIL} could never be "
                                        "unveiled three times in one cycle as the rulebook says")


def _label(record: Mapping[str, Any]) -> str:
    return f"deity {record['id']} ({record['name']})"


def _one_deity(doc: Document, i: int, record: Mapping[str, Any]) -> Iterator[Problem]:
    base = ("deities", i)
    for key, half in _halves(record):
        essence = half.get("essence")
        if essence:
            for name, params in _ops_of(essence):
                if params.get("optional") or any(
                        dsl.REGISTRY.flagged(dsl.SELECTOR, s, dsl.CHOICE_FLAG) for s, _ in dsl.selectors_of(params)):
                    yield doc.problem(base + (key, "essence"),
                                      f"{_label(record)} ({key}): an essence acts on its own: no 'optional' and no "
                                      f"choice in op '{name}'")
            if essence["when"] == "consumed" and record["id"] != ATLAS:
                yield doc.problem(base + (key, "essence", "when"),
                                  f"{_label(record)} ({key}): only #{ATLAS} has a 'When this is consumed' essence")
        yield from _meal_essence_problems(doc, base + (key,), f"{_label(record)} ({key})", half)
        yield from act_type_problems(doc, base + (key, "act"), f"{_label(record)} ({key})", half.get("act"))
        if "attacker" in _selectors(half.get("act")) or (
                essence and essence["when"] != "attempted" and "attacker" in _selectors(essence)):
            yield doc.problem(base + (key,), f"{_label(record)} ({key}): 'that god' only makes sense in a "
                                             "'When a god attempts to consume this' essence")
        words = sum(word_count(box) for box in face_text(half))
        if words > MAX_FACE_WORDS:
            yield doc.problem(base + (key,), f"{_label(record)} ({key}): {words} words of effect text; "
                                             f"at most {MAX_FACE_WORDS} fit a poker card")


def act_type_problems(doc: Document, path: tuple, label: str, act: Optional[Mapping[str, Any]]) -> Iterator[Problem]:
    """Rulebook: "There are three types of cards": every act is conditional ("If ..."), always acting
    ("If ..." with "otherwise"), or a choice (a single "This may ..." op); see ``dsl.act_type``."""
    if act and dsl.act_type(act) is None:
        yield doc.problem(path, f"{label}: the act is none of the rulebook's three types: give it a condition "
                                f"('if'), a condition and an 'otherwise' (it always acts), or make it one 'may' op "
                                f"(a choice the player may decline)")


def _meal_essence_problems(doc: Document, path: tuple, label: str, half: Mapping[str, Any]) -> Iterator[Problem]:
    """Rulebook: "A god with this condition [When this consumes one or more gods] does not normally have the
    power to consume other gods": such an essence on a half whose own act consumes is an error, unless the
    half lists the rule among its ``exceptions`` with a reason (and an exception the half does not need is one too)."""
    excepted = [i for i, item in enumerate(half.get("exceptions") or ()) if item["rule"] == dsl.CONSUMES_ESSENCE_ON_AN_EATER]
    breaks = (half.get("essence") or {}).get("when") == "consumes" and _consumes_itself(half.get("act"))
    if breaks and not excepted:
        yield doc.problem(path + ("essence", "when"),
                          f"{label}: a 'When this consumes one or more gods' essence on a god whose own act consumes "
                          f"(the rulebook: such a god does not normally have the power to consume); mark an intended "
                          f"exception with exceptions: [{{rule: {dsl.CONSUMES_ESSENCE_ON_AN_EATER}, reason: ...}}]")
    if excepted and not breaks:
        yield doc.problem(path + ("exceptions", excepted[0]),
                          f"{label}: exception {dsl.CONSUMES_ESSENCE_ON_AN_EATER} is marked but the half does not "
                          "break that rule")


def _named_deity_problems(doc: Document, records: Sequence[Mapping[str, Any]],
                          index: Mapping[str, int]) -> Iterator[Problem]:
    def at(card: str, *path: Any) -> tuple:
        return ("deities", index[card], *path)

    def upright(card: str) -> Mapping[str, Any]:
        return records[index[card]][UPRIGHT_KEY]

    needed = {ATLAS, SUN_WITH_ESSENCE, NO_SUN_WITH_ACT, ALWAYS_CURSES_ON_UNVEIL, *CURSE_IF_MUCH_UNVEILED,
              *HINDER_WORSHIPERS}
    missing = sorted(needed - set(index))
    if missing:
        yield doc.problem(("deities",), f"deities {', '.join(missing)} are missing")
        return
    essence = upright(ATLAS).get("essence") or {}
    if essence.get("when") != "consumed" or essence.get("do") != [{"void": {"target": {"above": True}}}]:
        yield doc.problem(at(ATLAS, UPRIGHT_KEY), f"deity {ATLAS}: must read 'When this is consumed: the void "
                                                  "consumes every card above this'")
    card = upright(SUN_WITH_ESSENCE)
    if "sun" not in card["aspects"] or not card.get("essence"):
        yield doc.problem(at(SUN_WITH_ESSENCE, UPRIGHT_KEY),
                          f"deity {SUN_WITH_ESSENCE}: needs a sun aspect and an essence")
    card = upright(NO_SUN_WITH_ACT)
    if not card.get("act") or any("sun" in half["aspects"] for _, half in _halves(records[index[NO_SUN_WITH_ACT]])):
        yield doc.problem(at(NO_SUN_WITH_ACT, UPRIGHT_KEY), f"deity {NO_SUN_WITH_ACT}: needs an act and no sun aspect")
    for key, half in _halves(records[index[ALWAYS_CURSES_ON_UNVEIL]]):
        essence = half.get("essence") or {}
        if essence.get("when") != "unveiled" or "if" in essence or not _has_op(essence, "curse"):
            yield doc.problem(at(ALWAYS_CURSES_ON_UNVEIL, key),
                              f"deity {ALWAYS_CURSES_ON_UNVEIL} ({key}): must always curse when unveiled")
    for card_id in CURSE_IF_MUCH_UNVEILED:
        essence = upright(card_id).get("essence") or {}
        if essence.get("when") != "unveiled" or "unveiled_at_least" not in essence.get("if", {}) or \
                not _has_op(essence, "curse"):
            yield doc.problem(at(card_id, UPRIGHT_KEY), f"deity {card_id}: must curse when unveiled if too many "
                                                        "gods are unveiled already")
    for card_id in HINDER_WORSHIPERS:
        if not _hinders(records[index[card_id]]):
            yield doc.problem(at(card_id), f"deity {card_id}: the rulebook says it makes the worshiper's task "
                                           "difficult (curse, or resist or punish being consumed)")


def _death_majority(doc: Document, records: Sequence[Mapping[str, Any]]) -> Iterator[Problem]:
    eaters = [(record, key) for record in records for key, half in _halves(record) if _consumes_itself(half.get("act"))]
    with_death = [pair for pair in eaters if "death" in pair[0][pair[1]]["aspects"]]
    if eaters and len(with_death) < DEATH_MAJORITY * len(eaters):
        yield doc.problem(("deities",), f"only {len(with_death)} of {len(eaters)} halves that consume when they act "
                                        f"have the death aspect; the rulebook says they typically do")


# ============================================================== worshipers
def worshiper_problems(faces: Document, sets: Document) -> Iterator[Problem]:
    members = [w["id"] for s in sets.data["worshiper_sets"] for w in s["worshipers"]]
    records = faces.data["worshipers"]
    present = [record["id"] for record in records]
    for worshiper in members:
        if worshiper not in present:
            yield faces.problem(("worshipers",), f"worshiper {worshiper}: worshiper-sets.yaml deals it, but "
                                                 f"{faces.path.name} has no record of its faces (deleted?)")
    for i, record in enumerate(records):
        if record["id"] not in members:
            yield faces.problem(("worshipers", i, "id"), f"worshiper {record['id']}: not in any worshiper set")
        yield from _chain_problems(faces, i, record)
        for j, state in enumerate(record["states"]):
            yield from act_type_problems(faces, ("worshipers", i, "states", j, "act"),
                                         f"worshiper {record['id']} (state {j + 1})", state.get("act"))


def _apply(symbol: str, face: str, orientation: str) -> tuple[str, str]:
    return (FLIP_FACE[face], orientation) if symbol == "flip" else (face, ROTATE[orientation])


def _chain_problems(doc: Document, i: int, record: Mapping[str, Any]) -> Iterator[Problem]:
    states = record["states"]
    label = f"worshiper {record['id']}"
    first = states[0]
    if (first["face"], first["orientation"]) != (START_FACE, START_ORIENTATION) or "bless" in first:
        yield doc.problem(("worshipers", i, "states", 0),
                          f"{label}: the chain starts front side up and upright, with nothing to bless back to")
    sides = [(s["face"], s["orientation"]) for s in states]
    if len(set(sides)) != len(sides):
        yield doc.problem(("worshipers", i, "states"), f"{label}: a side and orientation appears twice in the chain")
    for j, state in enumerate(states):
        path = ("worshipers", i, "states", j)
        last = j == len(states) - 1
        if (state["curse"] == VOID) != last:
            yield doc.problem(path + ("curse",), f"{label}: the last state, and only it, is consumed by the void "
                                                 "when cursed")
        if not last and state["curse"] != VOID and _apply(state["curse"], *sides[j]) != sides[j + 1]:
            yield doc.problem(path + ("curse",), f"{label}: a {state['curse']} from state {j + 1} does not give "
                                                 f"state {j + 2}")
        if j and state.get("bless") and _apply(state["bless"], *sides[j]) != sides[j - 1]:
            yield doc.problem(path + ("bless",), f"{label}: a blessing ({state['bless']}) from state {j + 1} does "
                                                 f"not give back state {j}")
        if j and not state.get("bless"):
            yield doc.problem(path, f"{label}: state {j + 1} needs a bless symbol leading back")


# ============================================================== scenarios in play
def scenario_play_problems(game: GameData[MonotheismModel], cards: Cards) -> Iterator[Problem]:
    doc = game.doc(SCENARIOS)
    engine = Game(cards)
    under = game.scope or store.scope()  # for every scenario's last good proof: validate's, else taken here
    for i, record in enumerate(doc.data["scenarios"]):
        scenario = scenario_from_record(record)
        if not playable(scenario, cards):
            continue  # scenario_findings in checks.py reports the unknown card or impossible curse
        label = f"scenario {scenario.id} ({scenario.title})"
        findings = scenario_play_findings(engine, scenario)
        if not findings:
            proofs.remember(game, scenario, under)
            continue
        changed = proofs.changes(game, scenario, under) if any(m.startswith(BROKEN) for _, m in findings) else []
        since = f"; changed since the last good proof: {'; '.join(changed)}" if changed else ""
        for path, message in findings:
            yield doc.problem(("scenarios", i, *path), f"{label}: {message}{since if message.startswith(BROKEN) else ''}")


def playable(scenario: Scenario, cards: Cards) -> bool:
    """Every card exists, a worshiper's curses stay within its chain, and the top card is a god."""
    for card in scenario.deck:
        if card.is_deity and card.ref not in cards.deities:
            return False
        if card.is_worshiper and (card.ref not in cards.worshipers or
                                  card.cursed >= len(cards.worshipers[card.ref].states)):
            return False
    return bool(scenario.deck) and any(card.is_worshiper for card in scenario.deck)


def scenario_play_findings(engine: Game, scenario: Scenario) -> list[tuple[tuple, str]]:
    """(path inside the scenario record, message) for each way the scenario fails in play.

    Cheap by design, so a run with no cache is as quick as any other: the stored winning line, replayed,
    proves the scenario winnable in milliseconds; only when it does not win does the solver search (is
    there still a win?). The trap is checked to be one whole first turn other than the winning line's
    first. Proving that the trap loses takes seconds of search for each scenario: that, and every figure
    of the stored rating, is what ``pantheon monotheism rate`` measures (its ``--write`` stores them).
    """
    found = list(_line_replay_findings(engine, scenario))
    if found:
        found += _search_findings(engine, scenario)
    return found + _trap_findings(engine, scenario)


def _line_replay_findings(engine: Game, scenario: Scenario) -> Iterator[tuple[tuple, str]]:
    if not scenario.winning_line:
        yield ("id",), "has no winning_line"
    else:
        broken = list(_line_findings(engine.scenario_state(scenario), scenario.winning_line))
        yield from broken or solution_turns_findings(scenario, engine.scenario_state(scenario, track_history=False))


def _search_findings(engine: Game, scenario: Scenario) -> list[tuple[tuple, str]]:
    """Whether a scenario whose stored line does not win can be won at all (the solver's answer, in
    ``SOLVE_NODES`` at most); a win found is not a problem of its own: the line's problem says what to fix."""
    result = solver.solve(engine.scenario_state(scenario, track_history=False).with_events(False), max_nodes=SOLVE_NODES)
    if result.status == solver.NO_WIN:
        return [(("deck",), f"{CANNOT_WIN}: the solver closed all {result.nodes} positions without a win")]
    if result.status == solver.LIMIT:
        return [(("deck",), f"undecided: the solver reached its limit of {SOLVE_NODES} nodes without finding a "
                            "winning line")]
    return []


def _trap_findings(engine: Game, scenario: Scenario) -> list[tuple[tuple, str]]:
    """The stored losing first move is one whole first turn, and not the stored winning line's own first
    turn (proving that it loses is a search: ``pantheon monotheism rate`` does it)."""
    if not scenario.losing_first_move:
        return [(("id",), "has no losing_first_move (a first turn that loses shows it is a real puzzle)")]
    start = engine.scenario_state(scenario, track_history=False).with_events(False)
    trap = tuple(scenario.losing_first_move)
    turns = solver.first_turns(start)
    if all(move != trap for move, _ in turns):
        example = f" (e.g. {', '.join(turns[0][0])})" if turns else " (the game is over before any turn)"
        return [(("losing_first_move",), f"losing_first_move {', '.join(trap)} is not one whole first turn{example}")]
    won, _ = solver.verify(start, scenario.winning_line)
    if won and turns_of(start, scenario.winning_line)[0][1] == trap:
        return [(("losing_first_move",), "is not a real puzzle: the losing_first_move can still win (the stored "
                                         "winning line begins with it)")]
    return []


def _line_findings(state: Any, line: Sequence[str]) -> Iterator[tuple[tuple, str]]:
    for number, action in enumerate(line, 1):
        path = ("winning_line", number - 1)
        top = _top_name(state)
        if state.is_terminal():
            yield path, f"the stored winning line ends the game before move {number} ({action}): " \
                        f"{state.outcome().detail}, with {top} on top"
            return
        why = state.why_illegal(action)
        if why is not None:
            yield path, f"{LINE_BREAKS} at move {number}: {action!r} is not legal with {top} on top: {why}"
            return
        state = state.apply_action(action)
    outcome = state.outcome()
    if outcome is None or not outcome.winners:
        reason = outcome.detail if outcome else "the game is not over"
        yield ("winning_line",), f"the stored winning line does not win ({reason}), with {_top_name(state)} on top"


def _top_name(state: Any) -> str:
    if not state.deck:
        return "no card"
    label = state.deck[0][0]
    cards = state.game.cards
    if label in cards.deities:
        return f"#{label} {cards.deities[label].name}"
    return cards.worshipers[label].name
