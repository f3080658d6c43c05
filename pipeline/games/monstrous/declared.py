"""Declared throws: resolve real (or rulebook) throws through the engine.

A throw file (schema: ``$defs/throw_file`` of examples.schema.json) holds a
game state and the throws of one turn, each declaring what the thrown card
hit at each Throw Step check and the choices made. `run_turn` applies them to
the engine and returns the state plus a step-by-step report; `replay_example`
does the same for the rulebook's worked turns (examples.yaml) and compares
what the engine did with what the example states.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping, Optional, Sequence

from pipeline.base.errors import UserError
from pipeline.data.dataset import Document, display_path
from pipeline.data.schemas import SchemaValidator, load_schemas, schema_problems
from pipeline.data.yamlmarks import YamlLoadError, load_marked
from pipeline.engine import Event, IllegalAction
from pipeline.games.monstrous.engine import (
    GAIN_FAITH,
    LANDING,
    LOCATION_POWER,
    MONSTER_POWERS,
    ON_TABLE,
    TRAPS,
    EngineError,
    Game,
    Landing,
    State,
)

THROW_FILE_SCHEMA = "urn:pantheon:monstrous:examples#/$defs/throw_file"
RESOLVED_STEPS = (TRAPS, MONSTER_POWERS, LOCATION_POWER, GAIN_FAITH)  # the Steps an example states events for
CHOICE_KEYS = ("card", "side", "god", "option")  # order in which a step's choices come up
STATE_EVENTS = ("gain_faith", "take_faith", "gain_throw", "discard", "move", "draw", "throw_card")


@dataclass
class TurnReport:
    """What happened: the engine's events per throw, and where the declared turn stopped."""

    events: list[dict[str, Any]] = field(default_factory=list)
    throws_resolved: int = 0
    stopped: str = ""


# --------------------------------------------------------------------------- loading a throw file

def load_throw_file(path: Path, data_root: Path) -> tuple[Document, Mapping[str, Any]]:
    """Read and schema-check a throw file; problems become one UserError naming file:line:column."""
    try:
        marked = load_marked(path)
    except YamlLoadError as exc:
        raise UserError(f"{display_path(path)}:{exc.line}:{exc.column}: {exc.message}") from None
    doc = Document(kind="throw", path=path, marked=marked)
    schemas = load_schemas(data_root)
    validator = SchemaValidator({"$ref": THROW_FILE_SCHEMA}, registry=schemas.registry)
    problems = list(schema_problems(doc, validator))
    if problems:
        raise UserError(str(problems[0]) + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
    return doc, marked.data


def landing_of(throw: Mapping[str, Any]) -> Landing:
    """The chance outcome a declared throw stands for."""
    def opt(step: str, key: str) -> Optional[tuple[str, ...]]:
        value = throw.get(step, {}).get(key)
        return None if value is None else tuple(value)

    return Landing(
        side=throw.get("landed_side", throw["side"]), result=throw.get("result", ON_TABLE),
        hits=tuple(throw.get("hits", ())), locations=tuple(throw.get("locations", ())),
        step3_hits=opt("step3", "hits"), step3_locations=opt("step3", "locations"),
        step4_locations=opt("step4", "locations"), step5_locations=opt("step5", "locations"),
        knocked_off=tuple(throw.get("knocked_off", ())),
        shifted=tuple((s["card"], tuple(s["on_locations"])) for s in throw.get("shifted", ())),
    )


def power_landing_of(entry: Mapping[str, Any], side: str) -> Landing:
    return Landing(side=entry.get("side", side), result=entry.get("result", ON_TABLE),
                   locations=tuple(entry.get("locations", ())))


# --------------------------------------------------------------------------- running a turn

class DeclarationError(EngineError):
    """A declared throw does not fit the state; ``where`` is the path of the node at fault."""

    def __init__(self, where: tuple, message: str) -> None:
        super().__init__(message)
        self.where = where


def event_record(event: Event) -> dict[str, Any]:
    """An engine event as the examples and reports write it: ``{"step", "event", <its data>}``."""
    data = event.as_data()
    del data["kind"], data["subject"]
    return {"step": data.pop("step"), "event": event.kind, **data}


def run_turn(game: Game, state: State, throws: Sequence[Mapping[str, Any]]) -> tuple[State, TurnReport]:
    """Resolve the declared throws in order (Steps 1-6 each), then Step 7 if the turn is over."""
    report = TurnReport()
    god = state.active
    for index, throw in enumerate(throws):
        where = ("throws", index)
        if state.pending_kind() != "throw" or state.active != god:
            raise DeclarationError(where, f"throw {index + 1} is declared but {god}'s turn has no throw left")
        action = f"throw {throw['card']} {throw['side']}"
        if action not in state.legal_actions():
            raise DeclarationError(where + ("card",), f"throw {index + 1}: {throw['card']} is not in {god}'s hand")
        steps: list[Event] = []
        try:
            state = state.apply_action(action)
            steps += state.events
            landing = landing_of(throw)
            state = state.condition(landing).apply_action(landing)
            steps += state.events
            state = _resolve(state, throw, where, god, steps)
        except DeclarationError:
            raise
        except IllegalAction as exc:
            raise DeclarationError(where, f"throw {index + 1}: {exc}") from None
        report.events.extend(dict(event_record(e), throw=index + 1) for e in steps)
        report.throws_resolved += 1
    if state.is_terminal():
        report.stopped = "the game is over"
    elif state.active == god and state.pending_kind() == "throw":
        report.stopped = f"{god} still has a throw to make: declare it to go on"
    else:
        report.stopped = f"play passes to {state.active}"
    return state, report


def _resolve(state: State, throw: Mapping[str, Any], where: tuple, god: str, events: list[Event]) -> State:
    """Answer the throw's decisions from its declaration until its Step 6 is done (events gathered in ``events``)."""
    queues = {step: list(values) for step, values in throw.get("choices", {}).items()}
    landings = [power_landing_of(entry, throw["side"]) for entry in throw.get("power_throws", ())]
    while not state.is_terminal():
        kind = state.pending_kind()
        if kind == "throw" or state.active != god:
            break
        if kind == LANDING:
            if not landings:
                raise DeclarationError(where, f"{state.board.step}: a power throws a card: declare where it landed "
                                              f"under power_throws")
            landing = landings.pop(0)
            state = state.condition(landing).apply_action(landing)
        elif state.is_chance_node():
            raise DeclarationError(where, f"{state.board.step}: a {kind} from an unknown deck order cannot be declared")
        else:
            state = state.apply_action(_choose(state, queues, where))
        events += state.events
    leftover = [(step, values) for step, values in queues.items() if values]
    if leftover:
        step, values = leftover[0]
        raise DeclarationError(where + ("choices", step), f"{step}: declared choice {values[0]} was never asked for")
    if landings:
        raise DeclarationError(where + ("power_throws",), "a declared power throw was never made")
    return state


def _choose(state: State, queues: dict[str, list[str]], where: tuple) -> str:
    step, options = state.board.step, _named_options(state)
    queue = queues.get(step, [])
    values = {option.split(" ", 1)[1]: option for option in options}
    if queue and queue[0] in values:
        return values[queue.pop(0)]
    if len(options) == 1:
        return options[0]
    wanted = ", ".join(values)
    if queue:
        raise DeclarationError(where + ("choices", step), f"{step}: {queue[0]} is not a possible "
                                                          f"{state.pending_kind()} here (possible: {wanted})")
    raise DeclarationError(where, f"{step}: {state.board.seats[state.current_player()]} must choose a "
                                  f"{state.pending_kind()} "
                                  f"({wanted}): declare it under choices: {step}")


def _named_options(state: State) -> list[str]:
    """A god's options at a decision: named choices (only a throw's landing is a ``Landing``, and that is chance)."""
    options = state.legal_actions()
    named = [option for option in options if isinstance(option, str)]
    if len(named) != len(options):
        raise EngineError(f"{state.board.step}: a {state.pending_kind()} decision offers a landing among its choices")
    return named


# --------------------------------------------------------------------------- describing events

# How an event's destination ("to") reads in prose.
PLACES = {"hand": "hand", "deck_top": "deck, on top", "deck_bottom": "deck, at the bottom"}


def _place(to: Any) -> str:
    return PLACES.get(str(to), str(to).replace("_", " "))


def _throws(amount: Any) -> str:
    return f"{amount} extra throw{'' if amount == 1 else 's'}"


def describe_event(event: Mapping[str, Any]) -> str:
    """One line of plain text for an engine event."""
    e = event
    text = {
        "throw": lambda: f"{e.get('god')} throws {e.get('card')} ({e.get('side')} side up)",
        "underworld": lambda: f"{e.get('card')} goes to its god's Underworld ({str(e.get('reason')).replace('_', ' ')})",
        "gain_faith": lambda: f"{e.get('god')} gains {e.get('amount')} Faith",
        "take_faith": lambda: f"{e.get('god')} takes {e.get('amount')} Faith from {e.get('from')}",
        "gain_throw": lambda: f"{e.get('god')} gains {_throws(e.get('amount'))}",
        "discard": lambda: f"{e.get('card')} is discarded to its god's Underworld",
        "move": lambda: f"{e.get('card')} returns to its god's {_place(e.get('to'))}",
        "draw": lambda: f"{e.get('god')} draws {e.get('card')}",
        "throw_card": lambda: f"{e.get('card')} is thrown ({e.get('side')} side up) and lands on "
                              f"{', '.join(e.get('locations_hit', [])) or 'no Location'}",
        "retrieve": lambda: f"{e.get('god')} takes {e.get('card')} from an Underworld to their {_place(e.get('to'))}",
        "throws_lost": lambda: f"{e.get('god')} has no card left for {e.get('amount')} {'throw' if e.get('amount') == 1 else 'throws'}",
        "end_triggered": lambda: f"{e.get('god')} has no cards left: every other god takes a final turn",
        "pass": lambda: f"{e.get('god')} passes to {e.get('to')}",
    }.get(e["event"])
    return text() if text else f"{e['event']} {e}"


# --------------------------------------------------------------------------- rulebook examples

def example_throw(throw: Mapping[str, Any]) -> dict[str, Any]:
    """An examples.yaml throw (steps with hits and events) as a declared throw."""
    steps = {step["step"]: step for step in throw["steps"]}
    trap, monster = steps.get("trap-monster-powers", {}), steps.get("monster-powers", {})
    location, faith = steps.get("location-powers", {}), steps.get("gain-faith", {})
    first_locations = monster.get("locations_hit") or [s["location"] for s in (location, faith) if "location" in s][:1]
    declared: dict[str, Any] = {"card": throw["card"], "side": throw["side"], "hits": list(trap.get("hits", [])),
                                "locations": list(first_locations)}
    if "hits" in monster or "locations_hit" in monster:
        declared["step3"] = {"hits": list(monster.get("hits", [])), "locations": list(first_locations)}
    for key, step in (("step4", location), ("step5", faith)):
        if "location" in step:
            declared[key] = {"locations": [step["location"]]}
    choices = {name: [step["choice"][k] for k in CHOICE_KEYS if k in step["choice"]]
               for name, step in steps.items() if "choice" in step}
    if choices:
        declared["choices"] = choices
    declared["power_throws"] = [{"side": e["side"], "locations": e["locations_hit"]}
                                for step in throw["steps"] for e in step["events"] if e["event"] == "throw_card"]
    return declared


def replay_example(game: Game, example: Mapping[str, Any]) -> Iterator[tuple[tuple, str]]:
    """(path in the example, message) for every way the engine's replay differs from the stated results."""
    try:
        state = game.state_from(example["initial"])
        state, report = run_turn(game, state, [example_throw(t) for t in example["throws"]])
    except DeclarationError as exc:
        yield exc.where, f"the engine cannot replay it: {exc}"
        return
    except IllegalAction as exc:
        yield ("initial",), f"the engine cannot replay it: {exc}"
        return
    for t_index, throw in enumerate(example["throws"]):
        yield from _throw_differences(game, t_index, throw, [e for e in report.events if e["throw"] == t_index + 1])
    yield from _end_differences(state, example, report)


def _stated(event: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k not in ("step", "throw")}


def _throw_differences(game: Game, t_index: int, throw: Mapping[str, Any],
                       events: list[dict[str, Any]]) -> Iterator[tuple[tuple, str]]:
    stated = {step["step"]: (s_index, step["events"]) for s_index, step in enumerate(throw["steps"])}
    for number in RESOLVED_STEPS:
        step_id = game.step_ids[number]
        got = [_stated(e) for e in events if e["step"] == step_id and e["event"] in STATE_EVENTS]
        s_index, wanted = stated.get(step_id, (None, []))
        if got != [dict(e) for e in wanted]:
            where = ("throws", t_index) + (("steps", s_index, "events") if s_index is not None else ())
            yield where, (f"throw {t_index + 1}, Throw Step {step_id}: the engine gives {_events_text(got)} "
                          f"but the example states {_events_text(wanted)}")
    gained = any(e["event"] == "gain_throw" for e in events)
    if gained != throw["extra_throw"]:
        yield ("throws", t_index, "extra_throw"), (f"throw {t_index + 1}: the engine "
                                                   f"{'gains' if gained else 'gains no'} extra throw")


def _end_differences(state: State, example: Mapping[str, Any], report: TurnReport) -> Iterator[tuple[tuple, str]]:
    end, final = example["end_turn"], example["final"]
    draws = [e["card"] for e in report.events if e["event"] == "draw" and e["step"] == "end-turn"]
    if draws != ([end["draw"]] if "draw" in end else []):
        yield ("end_turn", "draw"), f"the engine draws {draws or 'nothing'} at the end of the turn, not {end.get('draw')}"
    if state.active != end["next"]:
        yield ("end_turn", "next"), f"the engine passes play to {state.active}, not {end['next']}"
    for god, amount in final["faith"].items():
        if state.board.faith.get(god) != amount:
            yield ("final", "faith", god), f"the engine ends with {god} on {state.board.faith.get(god)} Faith, not {amount}"
    for god, hand in final["hands"].items():
        if state.board.hands.get(god) != list(hand):
            yield ("final", "hands", god), f"the engine ends with {god} holding {state.board.hands.get(god)}, not {list(hand)}"


def _events_text(events: Sequence[Mapping[str, Any]]) -> str:
    if not events:
        return "nothing"
    return "; ".join(" ".join(f"{v}" for k, v in e.items() if k != "event").join((f"{e['event']}(", ")"))
                     for e in events)
