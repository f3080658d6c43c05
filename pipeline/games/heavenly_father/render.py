"""Who's Your Heavenly Father?'s print sheet: 10 God cards (beige backs), 65 Moral Dilemmas (grey), 23 Philosophers (pink).

Dilemma consequences and Philosopher powers are rendered from the structured
data by ``text.py``; each Virtue a consequence names is drawn as its token.
"""
from __future__ import annotations

from pipeline.core.dataset import GameData
from pipeline.core.render.model import Face, PrintCard
from pipeline.games.heavenly_father.model import God, HeavenlyFatherModel
from pipeline.games.heavenly_father.text import consequence_text

GOD_TEMPLATE = "heavenly-father/god.svg.j2"
DILEMMA_TEMPLATE = "heavenly-father/dilemma.svg.j2"
PHILOSOPHER_TEMPLATE = "heavenly-father/philosopher.svg.j2"
BACK_TEMPLATE = "heavenly-father/back.svg.j2"
GOD_DECK, DILEMMA_DECK, PHILOSOPHER_DECK = "god", "dilemma", "philosopher"
BACK_LABELS = {GOD_DECK: "God", DILEMMA_DECK: "Moral Dilemma", PHILOSOPHER_DECK: "Philosopher"}


def virtue_icon(virtue_id: str) -> str:
    return f"virtue-{virtue_id}"


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else str(points)


def _god(god: God, model: HeavenlyFatherModel, back: Face) -> PrintCard:
    rows = [{"icon": virtue_icon(v.id), "name": v.name, "points": signed(god.points.get(v.id, 0))} for v in model.virtues]
    front = Face(GOD_TEMPLATE, {"card": {"name": god.name, "flavour": god.flavour, "rows": rows}})
    return PrintCard(god.id, god.name, front, back)


def print_cards(game: GameData) -> list[PrintCard]:
    """Gods, then Moral Dilemmas, then Philosophers (each kind's card as many times as it has copies)."""
    model = game.model
    backs = {deck: Face(BACK_TEMPLATE, {"deck": deck, "label": label}) for deck, label in BACK_LABELS.items()}
    names = {v.id: f":{virtue_icon(v.id)}: {v.name}" for v in model.virtues}
    cards = [_god(god, model, backs[GOD_DECK]) for god in model.gods]
    for dilemma in model.dilemmas:
        options = [{"label": o.label, "consequence": consequence_text(o.consequence, names)} for o in dilemma.options]
        front = Face(DILEMMA_TEMPLATE, {"card": {"title": dilemma.title, "situation": dilemma.situation, "options": options}})
        cards.append(PrintCard(dilemma.id, dilemma.title, front, backs[DILEMMA_DECK]))
    kinds = {k.id: k for k in model.philosopher_kinds}
    for philosopher in model.philosophers:
        kind = kinds[philosopher.kind]
        context = {"kind": kind.name, "name": philosopher.name, "quote": philosopher.quote, "power": kind.text}
        cards.append(PrintCard(philosopher.id, philosopher.name, Face(PHILOSOPHER_TEMPLATE, {"card": context}), backs[PHILOSOPHER_DECK]))
    return cards
