"""Monstrous's print sheets: 60 two-sided Monster cards, 11 large Locations, 5 two-sided God Boards, 5 player aids.

Colours, plates and layout live in ``templates/cards/monstrous/``; here the
model is turned into what each face shows. Power text is printed as the data
words it (checked there against the structured effects), with the trigger
keyword set in bold. A god's cards show its colour, the pattern of its frame,
its emblem (distinct for each god) and its name; each god's twelve Monsters are
one shuffled deck, so their common sides are one and the same (the god's
emblem), while each unique side shows its Monster's own silhouette
(``templates/icons/monster-<id>.svg``). Each Location shows an icon of its own
(``templates/icons/location-<id>.svg``).
"""
from __future__ import annotations

import re
from functools import partial
from typing import Any, Callable

from pipeline.cards.plan import ColourKey, Face, PrintCard
from pipeline.checks.references import References
from pipeline.checks.validate import RecordCatalogue
from pipeline.data.dataset import GameData
from pipeline.data.gamespec import Specs
from pipeline.games.monstrous.model import God, MonsterDesign, MonstrousModel, Side
from pipeline.games.monstrous.palette import PALETTE

MONSTER_TEMPLATE = "monstrous/monster.svg.j2"
LOCATION_TEMPLATE = "monstrous/location.svg.j2"
LOCATION_BACK_TEMPLATE = "monstrous/location-back.svg.j2"
BOARD_TEMPLATE = "monstrous/board.svg.j2"
AID_TEMPLATE = "monstrous/aid.svg.j2"
UNIQUE, COMMON = "unique", "common"
MONSTER_EMBLEM, LOCATION_EMBLEM = "monster-{}", "location-{}"  # icons of templates/icons/, by Monster or Location id
STEPS_TITLE, KEYWORDS_TITLE = "Throw Steps", "Power keywords"
LOCATIONS_LIST, MONSTERS_LIST = "locations", "monsters"
COMMON_ENTRY = "Every Monster (common side)"
TRAP_MARK = " (Trap)"
GOD_FAMILY = "god"
Plain = Callable[[str], str]  # prose with [[kind/id]] references resolved to names
KEYWORD = re.compile(r"^([A-Z][A-Z ]+:)")


def god_context(god: God) -> dict[str, str]:
    frame, ink, pale, text, emblem = PALETTE[god.colour]
    return {
        "name": god.name, "colour_name": god.colour, "colour": frame, "ink": ink, "pale": pale, "text": text,
        "emblem": emblem, "pattern": god.pattern,
    }


def god_key(god: God) -> ColourKey:
    """A god's cards are told apart by its colour, its emblem and its name."""
    return ColourKey(GOD_FAMILY, god.colour, god.pattern, god.name)


def power_text(text: str) -> str:
    """The printed power with its trigger keyword in bold."""
    return KEYWORD.sub(r"**\1**", text)


def side_context(design: MonsterDesign, side: Side) -> dict[str, Any]:
    return {
        "name": design.name,
        "emblem": MONSTER_EMBLEM.format(design.id),
        "side": side.kind,
        "trap": design.trap,
        "plate": side.plate,
        "powers": [power_text(p.text) for p in side.powers],
    }


def _monster_cards(model: MonstrousModel) -> list[PrintCard]:
    cards = []
    for card in model.cards:
        god = god_context(card.god)
        front = Face(MONSTER_TEMPLATE, {"god": god, "card": side_context(card.design, card.design.unique_side)})
        common = {**side_context(card.design, card.common_side), "name": "Monster", "trap": False, "emblem": card.god.pattern}
        back = Face(MONSTER_TEMPLATE, {"god": god, "card": common})
        cards.append(
            PrintCard(card.id, card.name, front, back, double_sided=True, deck=f"{card.god.id}-monsters", colours=(god_key(card.god),))
        )
    return cards


def _locations(model: MonstrousModel) -> list[PrintCard]:
    back = Face(LOCATION_BACK_TEMPLATE, {})
    return [
        PrintCard(
            loc.id,
            loc.name,
            Face(LOCATION_TEMPLATE, {"card": {"name": loc.name, "faith": loc.faith, "power": power_text(loc.power.text),
                                              "emblem": LOCATION_EMBLEM.format(loc.id)}}),
            back,
            deck=LOCATIONS_LIST,
        )
        for loc in model.locations
    ]


def _board_entries(model: MonstrousModel, lists: str) -> list[dict[str, str]]:
    if lists == LOCATIONS_LIST:
        return [{"label": f"{loc.name} ({loc.faith} Faith)", "text": power_text(loc.power.text)} for loc in model.locations]
    entries = [
        {"label": design.name + (TRAP_MARK if design.trap else ""), "text": " ".join(power_text(p.text) for p in design.unique_side.powers)}
        for design in model.designs
    ]
    entries.append({"label": COMMON_ENTRY, "text": " ".join(power_text(p.text) for p in model.common_side.powers)})
    return entries


def _boards(game: GameData[MonstrousModel], model: MonstrousModel, plain: Plain) -> list[PrintCard]:
    board = game.doc("gods").data["god_board"]
    areas = {a["placement"]: {"label": a["label"], "text": plain(a["text"])} for a in board["areas"]}
    cards = []
    for god in model.gods:
        faces = [
            Face(BOARD_TEMPLATE, {"god": god_context(god), "board": {
                "name": board["name"], "title": side["title"], "note": plain(side["text"]),
                "entries": _board_entries(model, side["lists"]), "areas": areas}})
            for side in sorted(board["sides"], key=lambda s: not s["face_up_at_setup"])
        ]
        name = f"{god.name} {board['name']}"
        cards.append(
            PrintCard(f"{god.id}-board", name, faces[0], faces[1], double_sided=True, record=f"gods/{god.id}", colours=(god_key(god),))
        )
    return cards


def _aids(game: GameData[MonstrousModel], model: MonstrousModel, plain: Plain) -> list[PrintCard]:
    aids = game.doc("player-aids").data
    steps = {s["id"]: s for s in game.doc("throw-steps").data["steps"]}
    gods = {g.id: g for g in model.gods}
    keywords = [{"label": k["label"], "text": plain(k["meaning"])} for k in aids["keywords"]]
    cards = []
    for aid in aids["aids"]:
        god = gods[aid["god"]]
        entries = [{"label": f"{steps[s]['number']}. {steps[s]['name']}", "text": plain(steps[s]["aid_text"])} for s in aid["steps"]]
        front = Face(AID_TEMPLATE, {"god": god_context(god), "aid": {"title": STEPS_TITLE, "entries": entries}})
        back = Face(AID_TEMPLATE, {"god": god_context(god), "aid": {"title": KEYWORDS_TITLE, "entries": keywords}})
        cards.append(
            PrintCard(aid["id"], f"{god.name} · {god.colour} · player aid", front, back, double_sided=True, colours=(god_key(god),))
        )
    return cards


def print_cards(game: GameData[MonstrousModel]) -> list[PrintCard]:
    """Monsters (by god), player aids, Locations, then the God Boards on their own pages."""
    model = game.model
    # (the records this game's own text names: monsters' powers never name another game's records)
    plain: Plain = partial(References(RecordCatalogue(game.root.parent, Specs([game.spec]))).resolve, game=game.game)
    return [*_monster_cards(model), *_aids(game, model, plain), *_locations(model), *_boards(game, model, plain)]
