"""Monotheism's print sheet: 29 gods with the veiled back, then the 7 double-sided worshipers.

Each god card shows its upright half on top (with the god's flavour line under
its text) and its transformed half turned below; each worshiper side shows its upright state on top and its rotated
state turned below, with the curse and bless symbols of each state and, under
them, what they do in words (turn upside down: the other half of the same face
becomes active; turn over sideways, the top edge staying on top: the other
face). The side and way up a worshiper starts on carries its name on the green
name plate. The card text is rendered from the effect structure (``text.py``),
never typed twice. The 29 gods are one shuffled deck with one (veiled) back.
"""
from __future__ import annotations

import re
from typing import Any, Mapping, Optional

from pipeline.cards.plan import Face, PrintCard
from pipeline.data.dataset import GameData
from pipeline.games.monotheism.cards import Deity, Half, Worshiper, WorshiperState, cards_from
from pipeline.games.monotheism.model import MonotheismModel
from pipeline.games.monotheism.text import act_parts, act_text, essence_text

DEITY_TEMPLATE = "monotheism/deity.svg.j2"
WORSHIPER_TEMPLATE = "monotheism/worshiper.svg.j2"
VEILED_TEMPLATE = "monotheism/veiled.svg.j2"
ASPECT_ORDER = ("sun", "moon", "death")
SIDES = ("front", "back")
UPRIGHT, ROTATED = "upright", "rotated"
ACT, ESSENCE, NOTE = "act", "essence", "note"
RESULT, OTHERWISE = "result", "otherwise"  # the blue and bottom boxes of an always-acting act
LINE_CHARS = 34  # characters of rules text a box's line holds at its smallest size (8 pt across 51 mm)
SHARE_PAD = 0.3  # lines' worth of height a shared-out box gets besides its text (its padding)
ASPECT_WORDS = re.compile(r"\b(an?) (sun|moon|death) aspect\b")
GODS_DECK = "gods"
# What a worshiper's curse or bless symbol does to the card, in words under the symbols.
TURN_WORDS = {"rotate": "turn upside down", "flip": "turn over sideways", "void": "consumed by the void"}
PLATE_HALVES = {UPRIGHT: "upright", ROTATED: "turned"}


def iconize(text: str) -> str:
    """Card text with each aspect it names drawn as its symbol: 'a moon aspect' -> 'a (moon icon) moon aspect'."""
    return ASPECT_WORDS.sub(lambda m: f"{m[1]} :aspect-{m[2]}: {m[2]} aspect", text)


def _box(kind: str, text: str) -> dict[str, Any]:
    return {"kind": kind, "text": iconize(text), "plain": text}


def act_boxes(act: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One pink box for a conditional act or a choice; an always-acting act prints as the rulebook shows it:
    the condition in the pink box, its act in the blue box under it, and the "otherwise" act in the bottom box."""
    condition, body, otherwise = act_parts(act)
    if otherwise is None:
        return [_box(ACT, act_text(act))]
    return [_box(ACT, condition or ""), _box(RESULT, body), _box(OTHERWISE, otherwise)]


def _shared_out(boxes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Boxes of a half with an always-acting act share its height by the lines their text needs (three or
    four boxes of very different lengths); every other half keeps equal boxes."""
    if any(box["kind"] == OTHERWISE for box in boxes):
        for box in boxes:
            box["share"] = -(-len(box.pop("plain")) // LINE_CHARS) + SHARE_PAD
    else:
        for box in boxes:
            del box["plain"]
    return boxes


def deity_half(half: Half) -> dict[str, Any]:
    boxes = []
    if half.act:
        boxes.extend(act_boxes(half.act))
    if half.essence:
        boxes.append(_box(ESSENCE, essence_text(half.essence)))
    boxes = _shared_out(boxes)
    marks = [f"aspect-{a}" for a in ASPECT_ORDER if a in half.aspects]
    return {"numbers": list(half.numbers), "marks": marks, "boxes": boxes}


def worshiper_half(state: Optional[WorshiperState], note: Optional[str] = None) -> Optional[dict[str, Any]]:
    if state is None:
        return None
    marks = [f"curse-{state.curse}"] + ([f"bless-{state.bless}"] if state.bless else [])
    captions = [f"**Curse:** {TURN_WORDS[state.curse]}"] + ([f"**Bless:** {TURN_WORDS[state.bless]}"] if state.bless else [])
    boxes = act_boxes(state.act) if state.act else []
    if note:
        boxes.append(_box(NOTE, note))
    boxes = _shared_out(boxes)
    return {"numbers": list(state.numbers), "marks": marks, "captions": captions, "boxes": boxes}


def _deity_card(deity: Deity, flavour: Optional[str], veiled: Face) -> PrintCard:
    upright, transformed = deity.halves
    context = {
        "number": deity.id,
        "name": deity.name,
        "flavour": flavour,
        "upright": deity_half(upright),
        "transformed": deity_half(transformed),
    }
    front = Face(DEITY_TEMPLATE, {"card": context})
    return PrintCard(f"deity-{deity.id}", deity.name, front, veiled, record=f"deities/{deity.id}", deck=GODS_DECK)


def _state(worshiper: Worshiper, side: str, orientation: str) -> Optional[WorshiperState]:
    return next((s for s in worshiper.states if s.face == side and s.orientation == orientation), None)


def _worshiper_side(worshiper: Worshiper, set_name: str, side: str, note: Optional[str]) -> Face:
    first = worshiper.states[0]
    upright, rotated = _state(worshiper, side, UPRIGHT), _state(worshiper, side, ROTATED)
    context = {
        "name": worshiper.name,
        "set_name": set_name,
        "side": side,
        "plate": PLATE_HALVES[first.orientation] if first.face == side else None,
        "upright": worshiper_half(upright, note if upright is first else None),
        "rotated": worshiper_half(rotated, note if rotated is first else None),
    }
    return Face(WORSHIPER_TEMPLATE, {"card": context})


def print_cards(game: GameData[MonotheismModel]) -> list[PrintCard]:
    """Gods #01-#29 (veiled backs), then each worshiper with its two sides paired front to back."""
    model = game.model
    data: Mapping[str, Any] = {kind: game.doc(kind).data if game.has(kind) else {kind: []} for kind in ("deities", "worshipers")}
    cards = cards_from(data["deities"], data["worshipers"], game.doc("worshiper-sets").data)
    veiled = Face(VEILED_TEMPLATE, {})
    flavours = {record["id"]: record.get("flavour") for record in data["deities"].get("deities", [])}
    printed = [_deity_card(cards.deities[key], flavours.get(key), veiled) for key in sorted(cards.deities)]
    for worshiper_set in model.worshiper_sets:
        note = worshiper_set.victory_note if worshiper_set.zero_gods_victory else None
        for member in worshiper_set.worshipers:
            worshiper = cards.worshipers.get(member.id)
            if worshiper is None:
                continue
            front, back = (_worshiper_side(worshiper, worshiper_set.name, side, note) for side in SIDES)
            printed.append(PrintCard(member.id, member.name, front, back, double_sided=True, record=f"worshipers/{member.id}"))
    return printed
