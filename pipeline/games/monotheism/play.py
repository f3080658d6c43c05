"""Loading the engine from the data, describing positions in words, and the terminal game.

Shared by the ``replay``, ``solve`` and ``play`` commands: a position is shown
as the rules let a player see it (veiled gods hidden, unless the whole truth is
asked for, as a replay of a known scenario does).
"""
from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Optional

from pipeline.base.errors import UserError
from pipeline.data.dataset import Document, GameData, display_path
from pipeline.data.schemas import load_schemas, schema_problems
from pipeline.data.yamlmarks import YamlLoadError, load_marked
from pipeline.games.monotheism import GAME_ID
from pipeline.games.monotheism.engine import (
    ACCEPT,
    DECLINE,
    LABEL,
    PHASE_ACT,
    PHASE_PLACE,
    PLAYER,
    STAGE,
    TURNED,
    VEILED,
    Card,
    Game,
    State,
)
from pipeline.games.monotheism.model import CardKind, MonotheismModel, Scenario, ScenarioCard, scenario_from_record
from pipeline.games.monotheism.narrate import narrate, option_key, option_words
from pipeline.games.monotheism.scenario_checks import scenario_findings
from pipeline.games.monotheism.text import act_text, essence_text

SCENARIO_DEF = "urn:pantheon:monotheism:scenarios#/$defs/scenario"
DETAIL_CARDS = 2  # how many cards from the top are shown with their full text
HIDDEN = "(veiled god)"


@dataclass(frozen=True)
class Loaded:
    model: MonotheismModel
    game: Game


def load(data: GameData[MonotheismModel]) -> Loaded:
    """The model and engine of validated data (which must hold deities and worshipers)."""
    model = data.model
    if model.cards is None:
        raise UserError(f"{GAME_ID}: deities.yaml and worshipers.yaml are needed to play")
    return Loaded(model, Game(model.cards))


def scenario_by_number(model: MonotheismModel, number: str) -> Scenario:
    for scenario in model.scenarios:
        if scenario.id == number or str(scenario.number) == number:
            return scenario
    known = ", ".join(s.id for s in model.scenarios)
    raise UserError(f"unknown scenario {number!r} (known: {known})")


def scenario_from_file(path: Path, data_root: Path, loaded: Loaded) -> Scenario:
    """One scenario read from ``path``; every problem names file:line:column."""
    try:
        marked = load_marked(path)
    except YamlLoadError as exc:
        raise UserError(f"{display_path(path)}:{exc.line}:{exc.column}: {exc.message}") from None
    doc = Document(kind="scenario", path=path, marked=marked)
    schemas = load_schemas(data_root)
    validator = schemas.validator(GAME_ID, "scenarios")
    if validator is None:
        raise UserError("the scenarios schema is missing")
    validator = validator.evolve(schema={"$ref": SCENARIO_DEF})
    problems = list(schema_problems(doc, validator))
    if problems:
        raise UserError(str(problems[0]))
    scenario = scenario_from_record(marked.data)
    for index, card in enumerate(scenario.deck):
        known = loaded.game.cards.deities if card.is_deity else loaded.game.cards.worshipers
        if card.ref not in known:
            where = doc.at("deck", index)
            raise UserError(f"{where}: card {index + 1} from the bottom ({card.label()}) is not a known card")
    set_of = {w.id: w.set_id for w in loaded.model.worshipers}
    for field_path, message in scenario_findings(scenario, set_of):  # the checks validate makes of every scenario
        raise UserError(f"{doc.at(*field_path)}: scenario {scenario.id}: {message}")
    return scenario


# --------------------------------------------------------------------- describing cards
def card_name(game: Game, card: Card, *, reveal: bool, known: Iterable[str] = ()) -> str:
    label = card[LABEL]
    if game.is_god(label):
        deity = game.cards.deities[label]
        if card[VEILED] and not reveal and label not in known:
            return HIDDEN
        turned = ", transformed" if card[TURNED] else ""
        veiled = "veiled: " if card[VEILED] else ""
        return f"({veiled}#{label} {deity.name}{turned})" if card[VEILED] else f"#{label} {deity.name}{turned}"
    worshiper = game.cards.worshipers[label]
    curses = card[STAGE]
    return f"{worshiper.name} (cursed {curses}x)" if curses else worshiper.name


def card_facts(game: Game, card: Card) -> str:
    numbers = game.numbers(card)
    aspects = sorted(game.aspects(card))
    parts = [" ".join(str(n) for n in numbers)] if numbers else []
    if aspects:
        parts.append("/".join(aspects))
    return f"[{' | '.join(parts)}]" if parts else ""


def card_text(game: Game, card: Card) -> list[str]:
    """The boxes of the card as they read now."""
    half = game.half(card)
    if half is not None:
        boxes = []
        if half.act:
            boxes.append(f"Act: {act_text(half.act)}")
        if half.essence:
            boxes.append(f"Essence: {essence_text(half.essence)}")
        return boxes
    act = game.act(card)
    if act and not game.is_god(card[LABEL]):
        worshiper = game.cards.worshipers[card[LABEL]]
        symbol = worshiper.states[card[STAGE]].curse
        return [f"Ability: {act_text(act)}", f"When cursed: {symbol}"]
    if not game.is_god(card[LABEL]):
        return [f"When cursed: {game.cards.worshipers[card[LABEL]].states[card[STAGE]].curse}"]
    return []


def describe(state: State, *, reveal: bool, detail: int = DETAIL_CARDS) -> list[str]:
    """The deck, top first, one line per card; the top ``detail`` cards with their text."""
    game = state.game
    lines = [f"Deck, top first ({len(state.deck)} cards, {state.gods()} gods):"]
    hidden_from = None
    for i, card in enumerate(state.deck):
        name = card_name(game, card, reveal=reveal, known=state.revealed)
        if name == HIDDEN and i >= detail:  # runs of unknown veiled gods fold into one line
            hidden_from = i if hidden_from is None else hidden_from
            continue
        lines += _hidden_run(hidden_from, i)
        hidden_from = None
        lines.append(f"  {i + 1:>2}. {name} {card_facts(game, card)}".rstrip())
        if i < detail:
            lines += [f"        {box}" for box in card_text(game, card)]
    lines += _hidden_run(hidden_from, len(state.deck))
    return lines


def _hidden_run(start: Optional[int], end: int) -> list[str]:
    if start is None:
        return []
    if end - start == 1:
        return [f"  {start + 1:>2}. {HIDDEN}"]
    return [f"  {start + 1:>2}-{end}. {end - start} veiled gods"]


def explain(state: State) -> str:
    """What the pending decision means, in words."""
    if state.phase == PHASE_PLACE:
        return (f"Submerging {state.number} cards: where does the old top card go among them? "
                f"place 1 keeps it highest; place {state.number} puts it lowest (at the very bottom).")
    if state.phase == PHASE_ACT:
        if ACCEPT in state.legal_actions():
            return "The top card's act says you may: y to do it, n not to."
        return "The top card's act asks you to pick a card (see its text above)."
    return "Submerge: choose how many cards go from the top to the bottom."


# --------------------------------------------------------------------- a full game
def deal(loaded: Loaded, set_id: str, seed: Optional[int]) -> State:
    """29 shuffled veiled gods with the chosen set's worshipers at the bottom."""
    sets = {s.id: s for s in loaded.model.worshiper_sets}
    if set_id not in sets:
        raise UserError(f"unknown worshiper set {set_id!r} (known: {', '.join(sets)})")
    deities = sorted(loaded.game.cards.deities)
    random.Random(seed).shuffle(deities)
    deck = [_dealt(CardKind.DEITY, d) for d in deities]
    deck += [_dealt(CardKind.WORSHIPER, w.id) for w in sets[set_id].worshipers]
    return loaded.game.state_for(deck)


@functools.lru_cache(maxsize=None)
def _dealt(kind: CardKind, ref: str) -> ScenarioCard:
    """A card as a deal starts it (a god veiled), made once: the #21 estimate deals 20,000 times."""
    return ScenarioCard(kind, ref, veiled=kind is CardKind.DEITY)


HELP = ("Each choice shows its key in brackets: type 4 to submerge four cards, 2 to place the old top card "
        "second, 07 to pick #07, y or n to accept or decline (the words after the key work too). "
        "Other keys: u undo, d the whole deck, h this help, q quit.")
COMMANDS = {"undo": ("u", "undo"), "deck": ("d", "deck"), "help": ("h", "help", "?"), "quit": ("q", "quit", "exit")}
YES_NO = {ACCEPT: ("y", "yes"), DECLINE: ("n", "no")}


def key_of(action: str) -> str:
    """What the player types for ``action``: its number or card, or y / n for a "may"."""
    if action in YES_NO:
        return YES_NO[action][0]
    return action.split(" ", 1)[1]


@dataclass(frozen=True)
class Choices:
    """The options of a decision as the player sees them: each action's key and words. A veiled god
    is shown by its place (p3), never its number, unless ``reveal``."""

    keys: dict[str, str]
    words: dict[str, str]

    @classmethod
    def of(cls, state: State, *, reveal: bool = False) -> "Choices":
        options = state.legal_actions()
        return cls({o: option_key(o, state, reveal=reveal) for o in options},
                   {o: option_words(o, state, reveal=reveal) for o in options})

    def line(self) -> str:
        return "Choose: " + "   ".join(f"[{self.keys[o]}] {self.words[o]}" for o in self.keys)


def run(state: State, ask: Callable[[str], Optional[str]], say: Callable[[str], None], *,
        interactive: bool, reveal: bool = False) -> Optional[bool]:
    """The game loop: show, ask, apply, say what happened; undo with a stack of states. Returns
    won/lost/None (quit). ``reveal`` shows veiled gods too (for designers)."""
    history: list[State] = []
    say(HELP)
    for line in narrate(state, state, reveal=reveal):  # what the setup did (a god unveiled on top)
        say(line)
    show = True
    while not state.is_terminal():
        options = state.legal_actions()
        choices = Choices.of(state, reveal=reveal)
        if show:
            say("")
            for line in describe(state, reveal=reveal):
                say(line)
            say(explain(state))
        say(choices.line())
        show = False
        answer = ask("> ")
        if answer is None:
            say("")
            say("Goodbye.")
            return None
        answer = answer.strip().lower()
        if answer in COMMANDS["quit"]:
            say("Goodbye.")
            return None
        if answer in COMMANDS["undo"]:
            if history:
                state, show = history.pop(), True
            else:
                say("Nothing to undo yet.")
            continue
        if answer in COMMANDS["deck"]:
            for line in describe(state, reveal=reveal, detail=len(state.deck)):
                say(line)
            continue
        if answer in COMMANDS["help"]:
            say(HELP)
            continue
        action = parse(answer, options, choices)
        if action is None:
            keys = ", ".join(choices.keys.values())
            message = f"not a move here: {answer!r} (type one of {keys}; or u, d, h, q)"
            if not interactive:
                raise UserError(message)
            say(message)
            continue
        history.append(state)
        before, state, show = state, state.apply_action(action), True
        say("")
        say(f"You: {choices.words[action]}")
        for line in narrate(before, state, reveal=reveal):
            say(line)
    outcome = state.outcome()
    assert outcome is not None
    say("")
    for line in describe(state, reveal=True, detail=0):
        say(line)
    won = outcome.won_by(PLAYER)
    say(("You win: " if won else "You lose: ") + outcome.detail)
    return won


def parse(answer: str, options: list[str], choices: Optional[Choices] = None) -> Optional[str]:
    """The action ``answer`` names: a key (``4``, ``07``, ``7``, ``#07``, ``y``, ``p3``), or the action's
    words. With ``choices``, only what the prompt shows counts (a veiled god's number is not a key)."""
    answer = " ".join(answer.split())
    for option in options:
        key = choices.keys[option] if choices is not None else key_of(option)
        shown = choices.words[option] if choices is not None else option
        words = YES_NO.get(option, ())
        if key == option.partition(" ")[2]:  # not a hidden card: the action's own words work too
            words = (*words, option)
        if answer in (shown, key, *words) or _same_number(answer.lstrip("#"), key):
            return option
    return None


def _same_number(answer: str, key: str) -> bool:
    return answer.isdigit() and key.isdigit() and int(answer) == int(key)
