"""Totems + Taboos's print sheet: the six 27-card colour decks (commandments and miracles) and the six spiritual guides.

Every face shows what the rulebook says a card carries: type, name, cost,
level, effect and bonus colour. Effect and bonus wording comes from the data
(checked there against the ops); clerics, servants and coloured blocks named
in it are drawn as their symbols. A colour is never shown by hue alone: its
symbol (``symbol`` in colours.yaml) and name are printed on every front, with
every block of that colour and in every bonus line. Each colour deck is
shuffled on its own, so its 27 cards share one back.
"""
from __future__ import annotations

import re
from typing import Any, Mapping, Optional

from pipeline.cards.plan import ColourKey, Face, PrintCard
from pipeline.data.dataset import GameData
from pipeline.games.totems_and_taboos.model import REACTION, TYPE_LABELS, Card, Colour, Cost, Guide, TotemsModel

COMMANDMENT_TEMPLATE = "totems-and-taboos/commandment.svg.j2"
GUIDE_TEMPLATE = "totems-and-taboos/guide.svg.j2"
BACK_TEMPLATE = "totems-and-taboos/back.svg.j2"
# colour id -> card colour, ink on it, pale tint
PALETTE: Mapping[str, tuple[str, str, str]] = {
    "yellow": ("#e3b521", "#2a2208", "#fbf1cf"),
    "green": ("#37803a", "#ffffff", "#e0efdc"),
    "blue": ("#2c63a8", "#ffffff", "#dde7f5"),
    "purple": ("#6b3c8f", "#ffffff", "#ece1f3"),
    "red": ("#b3302c", "#ffffff", "#f6dedd"),
    "orange": ("#dc7323", "#2a1606", "#fae6d5"),
}
ROMAN = {1: "I", 2: "II", 3: "III"}
ROLE_ICONS = {"cleric": "cleric", "servant": "servant", "shrine": "temple"}
GUIDE_BACK_LABEL = "Spiritual guide"
ROLE_WORDS = re.compile(r"\b(\d+) (clerics?|servants?)\b")
BONUS_LEAD = re.compile(r"^\w+ bonus\b[^:]*:")  # "Red bonus:", "Red bonus instead:"
COLOUR_FAMILY = "deck colour"
Symbols = Mapping[str, str]  # colour id -> its symbol icon


def iconize(text: str, symbols: Symbols) -> str:
    """Draw the clerics, servants and coloured blocks that text names as their symbols."""
    text = ROLE_WORDS.sub(lambda m: f"{m[1]} :{ROLE_ICONS[m[2].rstrip('s')]}: {m[2]}", text)
    if not symbols:
        return text
    blocks = re.compile(rf"\b({'|'.join(map(re.escape, symbols))}) (blocks?)\b")
    return blocks.sub(lambda m: f":{symbols[m[1]]}: {m[1]} {m[2]}", text)


def colour_key(colour: Colour) -> ColourKey:
    return ColourKey(COLOUR_FAMILY, colour.id, colour.symbol, colour.name)


def colour_context(colour: Colour) -> dict[str, str]:
    hex_colour, ink, pale = PALETTE[colour.id]
    return {
        "id": colour.id, "name": colour.name, "symbol": colour.symbol, "principle": colour.principle,
        "hex": hex_colour, "ink": ink, "pale": pale,
    }


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


def _bonus(card: Card, symbols: Symbols) -> Optional[dict[str, str]]:
    if card.bonus is None:
        return None
    colour = card.bonus.colour
    text = BONUS_LEAD.sub(lambda m: f":{symbols[colour]}: **{m[0]}**", card.bonus.text)
    return {"text": iconize(text, symbols), "hex": PALETTE[colour][0], "pale": PALETTE[colour][2]}


def card_context(card: Card, symbols: Symbols) -> dict[str, Any]:
    type_label = TYPE_LABELS[card.type]
    if card.timing == REACTION:
        type_label = f"Reaction · {type_label}"
    return {
        "name": card.name,
        "type_icon": f"type-{card.type}",
        "type_label": type_label.upper(),
        "level": ROMAN.get(card.level) if card.level else None,
        "cost": cost_parts(card.cost),
        "effect": iconize(card.text, symbols),
        "bonus": _bonus(card, symbols),
        "flavour": card.flavour,
    }


def _guide(guide: Guide, colour: dict[str, str], back: Face, description: str, symbols: Symbols, keys: tuple[ColourKey, ...]) -> PrintCard:
    summon_colour = guide.summon_colour
    summon = f"Summoned by playing {guide.summon_cards} :{symbols[summon_colour]}: {summon_colour} cards in one turn"
    context = {"name": guide.name, "summon": summon, "ability": iconize(guide.text, symbols), "description": description}
    front = Face(GUIDE_TEMPLATE, {"colour": colour, "card": context})
    return PrintCard(f"guide-{guide.id}", guide.name, front, back, record=f"guides/{guide.id}", colours=keys)


def print_cards(game: GameData[TotemsModel]) -> list[PrintCard]:
    """Deck by deck in wheel order: its commandments and miracle (each design as often as it has copies), then the guides."""
    model = game.model
    colours = {c.id: colour_context(c) for c in model.colours}
    keys = {c.id: colour_key(c) for c in model.colours}
    symbols = {c.id: c.symbol for c in model.colours}
    backs = {cid: Face(BACK_TEMPLATE, {"colour": ctx, "label": f"{ctx['name']} deck · {ctx['principle']}"}) for cid, ctx in colours.items()}
    cards = []
    for colour_id in model.wheel.order:
        for card in model.cards_of(colour_id):
            front = Face(COMMANDMENT_TEMPLATE, {"colour": colours[colour_id], "card": card_context(card, symbols)})
            shown = (keys[colour_id],) + ((keys[card.bonus.colour],) if card.bonus and card.bonus.colour != colour_id else ())
            cards.append(PrintCard(card.id, card.name, front, backs[colour_id], copies=card.copies, deck=colour_id, colours=shown))
    descriptions = {g["id"]: g.get("description", "") for g in game.doc("guides").data["guides"]}  # not in the model
    for guide in model.guides:  # guides lie open beside the decks: never shuffled
        back = Face(BACK_TEMPLATE, {"colour": colours[guide.colour], "label": GUIDE_BACK_LABEL})
        shown = tuple(dict.fromkeys((keys[guide.colour], keys[guide.summon_colour])))
        cards.append(_guide(guide, colours[guide.colour], back, descriptions.get(guide.id, ""), symbols, shown))
    return cards
