"""What a move did, in words, from the engine's events: for `play` and `replay`.

Every unveiling, act, essence, consumption, transformation, curse and bless
the engine records is said as it happened. Nothing the rules hide is
printed: a god still veiled (and never seen) is named by its place in the
deck, "the veiled god at p3", never by its number, unless ``reveal`` asks
for the whole truth (designers). Places count from the top: p1 is the top.
"""
from __future__ import annotations

from typing import Optional

from pipeline.engine import Event
from pipeline.games.monotheism.engine import ACCEPT, DECLINE, LABEL, PICK, STAGE, TURNED, VEILED, Card, Game, State
from pipeline.games.monotheism.text import act_text

ESSENCE_WHEN = {
    "attempted": "a god attempts to consume it",
    "consumed": "it is consumed",
    "consumes": "it consumes",
    "unveiled": "it is unveiled",
}
VOID_REASONS = {"submerge": "submerged past the bottom", "curse": "its curse", "void": "an effect"}


class Namer:
    """Names cards as the player may know them at one moment of the game."""

    def __init__(self, game: Game, before: State, after: Optional[State] = None, *, reveal: bool = False) -> None:
        self.game = game
        self.reveal = reveal
        self.known = after.revealed if after is not None else before.revealed
        self.places = {card[LABEL]: i for i, card in enumerate(before.deck)}
        self.veiled = {card[LABEL] for card in before.deck if card[VEILED]}
        self.cards = {card[LABEL]: card for card in before.deck}
        if after is not None:
            self.veiled |= {card[LABEL] for card in after.deck if card[VEILED]}
            self.places = {**{card[LABEL]: i for i, card in enumerate(after.deck)}, **self.places}
            self.cards.update({card[LABEL]: card for card in after.deck})

    def hidden(self, label: str) -> bool:
        """Whether the rules hide which god ``label`` is."""
        return not self.reveal and self.game.is_god(label) and label in self.veiled and label not in self.known

    def place(self, label: str) -> str:
        return f"p{self.places[label] + 1}" if label in self.places else "p?"

    def __call__(self, label: str) -> str:
        if self.hidden(label):
            return f"the veiled god at {self.place(label)}"
        if self.game.is_god(label):
            return f"#{label} {self.game.cards.deities[label].name}"
        return self.game.cards.worshipers[label].name


def narrate(before: State, after: State, *, reveal: bool = False) -> list[str]:
    """What the move from ``before`` to ``after`` caused, one line per event (indented under its act)."""
    name = Namer(before.game, before, after, reveal=reveal)
    lines: list[str] = []
    for event in after.events:
        said = _say(event, name, before.game)
        if said is not None:
            indent = "    " if event.kind not in ("act", "unveil", "submerge", "place") else "  "
            lines.append(indent + said)
    return lines


def _say(event: Event, name: Namer, game: Game) -> Optional[str]:
    subject = str(event.subject)
    kind = event.kind
    if kind == "unveil":
        return f"{name(subject)} unveils" + (" on top" if event.get("on_top") else "")
    if kind == "act":
        return f"{name(subject)} acts{_act_words(game, name.cards.get(subject))}{_choices(event.get('choices'), name)}"
    if kind == "consumed":
        return f"{name(str(event.get('by')))} consumes {name(subject)}"
    if kind == "voided":
        return f"the void consumes {name(subject)} ({VOID_REASONS.get(str(event.get('reason')), str(event.get('reason')))})"
    if kind == "essence":
        when = ESSENCE_WHEN.get(str(event.get("trigger")), str(event.get("trigger")))
        return f"the essence of {name(subject)} answers (when {when})"
    if kind == "curse":
        if event.get("consumed"):
            return f"{name(subject)} is cursed and consumed by the void"
        return f"{name(subject)} is cursed ({event.get('stage')}x now)"
    if kind == "bless":
        return f"{name(subject)} is blessed ({event.get('stage')}x cursed now)"
    if kind == "transform":
        return f"{name(subject)} " + ("transforms" if event.get("transformed") else "turns back to its first side")
    if kind == "veil":
        return f"{name(subject)} is veiled again"
    if kind == "grant":
        return f"{name(str(event.get('by')))} grants {name(subject)} the power to consume"
    if kind == "peek":
        return f"you peek at {name(subject)}"
    if kind == "move":
        to = event.get("moved_to")
        return f"{name(subject)} moves from p{int(str(event.get('moved_from'))) + 1} to p{int(str(to)) + 1}"
    if kind == "submerge":
        return f"you submerge {event.get('count')} cards"
    if kind == "place":
        return f"{name(subject)} goes under as card {event.get('position')} of {event.get('count')}"
    return None  # game-over: the outcome is said on its own


def _act_words(game: Game, card: Optional[Card]) -> str:
    """The act's wording on the side the card shows (a card acting is unveiled)."""
    act = game.act((card[LABEL], False, card[TURNED], card[STAGE])) if card is not None else None
    return f": {act_text(act)}" if act else ""


def _choices(choices: object, name: Namer) -> str:
    """The player's decisions the act was carried out with."""
    if not isinstance(choices, tuple) or not choices:
        return ""
    said = []
    for choice in choices:
        if choice is True:
            said.append("yes")
        elif choice is False or choice == ():
            said.append("no")
        elif isinstance(choice, tuple):
            said.append(" and ".join(name(str(label)) for label in choice))
    return f" (chosen: {'; '.join(said)})" if said else ""


def option_key(action: str, state: State, *, reveal: bool = False) -> str:
    """What the player types for ``action``: its number, its card, y / n, or a veiled god's place (p3)."""
    if action == ACCEPT:
        return "y"
    if action == DECLINE:
        return "n"
    verb, _, arg = action.partition(" ")
    name = Namer(state.game, state, reveal=reveal)
    return name.place(arg) if verb == PICK and name.hidden(arg) else arg


def option_words(action: str, state: State, *, reveal: bool = False) -> str:
    """How the prompt shows ``action`` (a veiled god by its place)."""
    verb, _, arg = action.partition(" ")
    if verb == PICK:
        return f"{PICK} {Namer(state.game, state, reveal=reveal)(arg)}"
    return action
