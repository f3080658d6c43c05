"""Who's Your Heavenly Father?'s print sheet: 10 God cards, 65 Moral Dilemmas (grey fronts), 23 Philosophers (pink fronts).

The God cards are shuffled as one deck and the 88 Mortal cards (dilemmas and
philosophers) as another, so each deck has one back; the rulebook's grey and
pink backgrounds are on the Mortal fronts, with the kind's name. The two decks
are printed on sheets of their own: a tan God back butting plum Mortal backs
would mark that god among the face-down False Gods after a duplex shift. Dilemma
consequences and Philosopher powers are rendered from the structured data by
``text.py``; each Virtue a card names is drawn as its token (its colour, its
letter) beside its name, and a consequence line breaks only after a comma
("+1 Justice" stays on one line).
"""
from __future__ import annotations

from pipeline.cards.plan import ColourKey, Face, PrintCard
from pipeline.data.dataset import GameData
from pipeline.games.heavenly_father.model import Consequence, God, HeavenlyFatherModel, Virtue
from pipeline.games.heavenly_father.text import consequence_text

GOD_TEMPLATE = "heavenly-father/god.svg.j2"
DILEMMA_TEMPLATE = "heavenly-father/dilemma.svg.j2"
PHILOSOPHER_TEMPLATE = "heavenly-father/philosopher.svg.j2"
BACK_TEMPLATE = "heavenly-father/back.svg.j2"
GOD_DECK, MORTAL_DECK = "god", "mortal"  # the two shuffled decks, each with one back
BACK_LABELS = {GOD_DECK: "God card", MORTAL_DECK: "Mortal card"}
VIRTUE_FAMILY = "virtue"


def virtue_icon(virtue_id: str) -> str:
    return f"virtue-{virtue_id}"


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)


def virtue_key(virtue: Virtue) -> ColourKey:
    """A Virtue is told by its token's colour, its letter (the token icon) and its name."""
    return ColourKey(VIRTUE_FAMILY, virtue.colour, virtue_icon(virtue.id), virtue.name)


def _god(god: God, model: HeavenlyFatherModel, back: Face) -> PrintCard:
    rows = [{"icon": virtue_icon(v.id), "name": v.name, "points": signed(god.points.get(v.id, 0))} for v in model.virtues]
    front = Face(GOD_TEMPLATE, {"card": {"name": god.name, "flavour": god.flavour, "rows": rows}})
    return PrintCard(god.id, god.name, front, back, deck=GOD_DECK, colours=tuple(virtue_key(v) for v in model.virtues),
                     sheet=GOD_DECK)


def _named(consequence: Consequence) -> set[str]:
    return set(consequence.gain) | set(consequence.lose)


def print_cards(game: GameData[HeavenlyFatherModel]) -> list[PrintCard]:
    """Gods, then Moral Dilemmas, then Philosophers (each kind's card as many times as it has copies)."""
    model = game.model
    backs = {deck: Face(BACK_TEMPLATE, {"deck": deck, "label": label}) for deck, label in BACK_LABELS.items()}
    names = {v.id: f":{virtue_icon(v.id)}: {v.name}" for v in model.virtues}
    cards = [_god(god, model, backs[GOD_DECK]) for god in model.gods]
    for dilemma in model.dilemmas:
        options = [{"label": o.label, "consequence": consequence_text(o.consequence, names, keep_together=True)} for o in dilemma.options]
        front = Face(DILEMMA_TEMPLATE, {"card": {"title": dilemma.title, "situation": dilemma.situation, "options": options}})
        named = set().union(*(_named(o.consequence) for o in dilemma.options))
        keys = tuple(virtue_key(v) for v in model.virtues if v.id in named)
        cards.append(PrintCard(dilemma.id, dilemma.title, front, backs[MORTAL_DECK], deck=MORTAL_DECK, colours=keys, sheet=MORTAL_DECK))
    kinds = {k.id: k for k in model.philosopher_kinds}
    for philosopher in model.philosophers:
        kind = kinds[philosopher.kind]
        context = {"kind": kind.name, "name": philosopher.name, "quote": philosopher.quote, "power": kind.text}
        front = Face(PHILOSOPHER_TEMPLATE, {"card": context})
        cards.append(PrintCard(philosopher.id, philosopher.name, front, backs[MORTAL_DECK], deck=MORTAL_DECK, sheet=MORTAL_DECK))
    return cards
