"""Totems + Taboos's print sheet: the six 27-card colour decks (commandments and miracles) and the six spiritual guides.

Every face shows what the rulebook says a card carries: type, name, cost,
level, effect and bonus colour. Effect and bonus wording comes from the data
(checked there against the ops); clerics, servants and coloured blocks named
in it are drawn as their symbols.
"""
from __future__ import annotations

import re
from typing import Any, Mapping, Optional

from pipeline.core.dataset import GameData
from pipeline.core.render.model import Face, PrintCard
from pipeline.games.totems_and_taboos.model import MIRACLE, REACTION, Card, Colour, Cost, Guide

COMMANDMENT_TEMPLATE = "totems-and-taboos/commandment.svg.j2"
GUIDE_TEMPLATE = "totems-and-taboos/guide.svg.j2"
BACK_TEMPLATE = "totems-and-taboos/back.svg.j2"
# colour id -> card colour, ink on it, pale tint
PALETTE: Mapping[str, tuple[str, str, str]] = {
    "yellow": ("#e3b521", "#2a2208", "#fbf1cf"),
    "green": ("#3f8a3c", "#ffffff", "#e0efdc"),
    "blue": ("#2c63a8", "#ffffff", "#dde7f5"),
    "purple": ("#6b3c8f", "#ffffff", "#ece1f3"),
    "red": ("#b3302c", "#ffffff", "#f6dedd"),
    "orange": ("#dc7323", "#2a1606", "#fae6d5"),
}
TYPE_LABELS = {"self": "Self", "target": "Target", "all": "All players", MIRACLE: "Miracle"}
ROMAN = {1: "I", 2: "II", 3: "III"}
ROLE_ICONS = {"cleric": "cleric", "servant": "servant"}
GUIDE_BACK_LABEL = "Spiritual guide"
ROLE_WORDS = re.compile(r"\b(\d+) (clerics?|servants?)\b")
BLOCK_WORDS = re.compile(r"\b(yellow|green|blue|purple|red|orange) (blocks?)\b")
BONUS_LEAD = re.compile(r"^(\w+) bonus:")


def iconize(text: str) -> str:
    """Draw the clerics, servants and coloured blocks that text names as their symbols."""
    text = ROLE_WORDS.sub(lambda m: f"{m[1]} :{ROLE_ICONS[m[2].rstrip('s')]}: {m[2]}", text)
    return BLOCK_WORDS.sub(lambda m: f":block-{m[1]}: {m[1]} {m[2]}", text)


def colour_context(colour: Colour) -> dict[str, str]:
    hex_colour, ink, pale = PALETTE[colour.id]
    return {"id": colour.id, "name": colour.name, "principle": colour.principle, "hex": hex_colour, "ink": ink, "pale": pale}


def cost_parts(cost: Optional[Cost]) -> list[dict[str, Any]]:
    if cost is None:
        return []
    parts = [{"count": n, "icon": icon} for n, icon in ((cost.clerics, "cleric"), (cost.servants, "servant")) if n]
    if cost.sacrifice:
        role, count = cost.sacrifice
        parts.append({"count": f"+ sacrifice {count}", "icon": ROLE_ICONS[role]})
    if not parts:
        parts.append({"count": 0, "icon": "cleric"})
    return parts


def _bonus(card: Card) -> Optional[dict[str, str]]:
    if card.bonus is None:
        return None
    text = BONUS_LEAD.sub(lambda m: f":block-{card.bonus.colour}: **{m[0]}**", card.bonus.text)  # type: ignore[union-attr]
    return {"text": iconize(text), "hex": PALETTE[card.bonus.colour][0]}


def card_context(card: Card) -> dict[str, Any]:
    type_label = TYPE_LABELS[card.type]
    if card.timing == REACTION:
        type_label = f"Reaction · {type_label}"
    return {
        "name": card.name,
        "type_icon": f"type-{card.type}",
        "type_label": type_label.upper(),
        "level": ROMAN.get(card.level) if card.level else None,
        "cost": cost_parts(card.cost),
        "effect": iconize(card.text),
        "bonus": _bonus(card),
        "flavour": card.flavour,
    }


def _guide(guide: Guide, colour: dict[str, str], back: Face, description: str) -> PrintCard:
    summon = f"Summoned by playing {guide.summon_cards} :block-{guide.summon_colour}: {guide.summon_colour} cards in one turn"
    context = {"name": guide.name, "summon": summon, "ability": iconize(guide.text), "description": description}
    front = Face(GUIDE_TEMPLATE, {"colour": colour, "card": context})
    return PrintCard(f"guide-{guide.id}", guide.name, front, back, record=f"guides/{guide.id}")


def print_cards(game: GameData) -> list[PrintCard]:
    """Deck by deck in wheel order: its commandments and miracle (each design as often as it has copies), then the guides."""
    model = game.model
    colours = {c.id: colour_context(c) for c in model.colours}
    backs = {cid: Face(BACK_TEMPLATE, {"colour": ctx, "label": f"{ctx['name']} deck · {ctx['principle']}"}) for cid, ctx in colours.items()}
    cards = []
    for colour_id in model.wheel.order:
        for card in model.cards_of(colour_id):
            front = Face(COMMANDMENT_TEMPLATE, {"colour": colours[colour_id], "card": card_context(card)})
            cards.append(PrintCard(card.id, card.name, front, backs[colour_id], copies=card.copies))
    descriptions = {g["id"]: g.get("description", "") for g in game.doc("guides").data["guides"]}  # not in the model
    for guide in model.guides:
        back = Face(BACK_TEMPLATE, {"colour": colours[guide.colour], "label": GUIDE_BACK_LABEL})
        cards.append(_guide(guide, colours[guide.colour], back, descriptions.get(guide.id, "")))
    return cards
