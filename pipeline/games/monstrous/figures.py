"""Monstrous' rulebook figures: the anatomy of a monster card and a location card."""
from __future__ import annotations

import math
from typing import Any, Mapping

from pipeline.documents import structure as m
from pipeline.documents.figures import Kind, Part, anatomy, inserted
from pipeline.documents.setup import SETUP_CAPTION, Pile, setup_figure
from pipeline.documents.standard import DocContext, SectionOverride
from pipeline.games.monstrous.model import Example
from pipeline.games.monstrous.palette import FRAME, PALETTE, TEXT, TINT
from pipeline.games.monstrous.render import AID_TEMPLATE, BOARD_TEMPLATE, LOCATION_TEMPLATE, MONSTER_TEMPLATE

BOARD_WIDTH, AID_WIDTH = 104.0, 60.0  # mm: the large cards drawn larger than a poker card
AREA_ORDER = ("left", "centre", "right")  # the board template draws its areas in this order

MONSTER = Kind(
    MONSTER_TEMPLATE,
    "A monster, its unique side",
    (
        Part("name", "Name", "the monster's name."),
        Part("trap", "Trap", "a trap monster's power works when a thrown monster hits it."),
        Part("powers", "Powers", "what the monster does when it hits (its keywords are explained on the player aid)."),
        Part("footer", "God", "the god whose deck the monster belongs to: pattern symbol, name and colour."),
    ),
    pick=lambda card: bool(card.front.context["card"].get("trap")),
)
LOCATION = Kind(
    LOCATION_TEMPLATE,
    "A location",
    (
        Part("name", "Name", "the location's name."),
        Part("faith", "Faith", "what the thrower gains each time a thrown monster hits the location (Throw Step 5)."),
        Part("power", "Power", "what the location does for the god who hits it."),
    ),
)



AID = Kind(
    AID_TEMPLATE,
    "A player aid",
    (
        Part("title", "Title", "the side's subject: the Throw Steps on one side, the power keywords on the other."),
        Part("entries", "Steps", "the seven Throw Steps of a turn, in order."),
        Part("footer", "God", "the god whose colour the aid is in."),
    ),
    width=AID_WIDTH,
)


def board(ctx: DocContext) -> Kind:
    """The God Board, its areas named and explained as the data has them (gods.yaml)."""
    areas = {a["placement"]: a for a in ctx.data("gods")["god_board"]["areas"]}
    parts = [
        Part("title", "Side", "the God Board's side: Locations face up at set-up, Monsters on the other."),
        Part("note", "Note", "when to read the board instead of the cards."),
        Part("entry", "Entries", "each card's name and power, repeated for when the card is buried."),
    ]
    parts += [Part(f"area#{i}" if i else "area", areas[p]["label"], ctx.text(areas[p]["text"]))
              for i, p in enumerate(AREA_ORDER) if p in areas]
    return Kind(BOARD_TEMPLATE, "A God Board", tuple(parts), width=BOARD_WIDTH)


def sections() -> dict[str, SectionOverride]:
    """The rulebook sections that carry a figure, as overrides of their body."""
    return inserted({
        "monsters": lambda ctx: anatomy(ctx, (MONSTER,)),
        "locations": lambda ctx: anatomy(ctx, (LOCATION,)),
        "god-boards-and-aids": lambda ctx: anatomy(ctx, (board(ctx), AID)),
        "setup": lambda ctx: [setup_picture(ctx)],
    })




# ---------------------------------------------------------------------------- hits in pictures

LOC_W, LOC_H, LOC_X, LOC_Y = 62.0, 44.0, 10.0, 6.0  # mm: the Location card the picture centres on
MON_W, MON_H = 15.0, 21.0  # a Monster card, drawn at a third of its size
SPREAD_X = 19.0  # between two table cards' centres
THROWN_TILT = 24.0  # degrees the thrown card lies turned
PICTURE_W, PICTURE_H = 84.0, 60.0
NAME_PT, MARK_PT = 7.0, 7.0
NAME_RISE = 5.0  # a table card's name above its centre, clear of the thrown card lying across its lower half
THROWN_DROP = 10.0  # the thrown card's centre below the Location's middle
HIT_MARK, MISS_MARK = "hit", "not hit"


def _card_polygon(cx: float, cy: float, angle: float) -> tuple[tuple[float, float], ...]:
    """The corners of a Monster card centred on (cx, cy), turned ``angle`` degrees."""
    a = math.radians(angle)
    corners = ((-MON_W / 2, -MON_H / 2), (MON_W / 2, -MON_H / 2), (MON_W / 2, MON_H / 2), (-MON_W / 2, MON_H / 2))
    return tuple((cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a)) for x, y in corners)


def throw_picture(ctx: DocContext, example: Example, throw: Mapping[str, Any], caption: str) -> m.Diagram:
    """Where a throw of a worked example lands: the Location, the Monsters already lying on it (those the
    thrown card hits under it, the others clear of it) and the thrown card on top, outlined in the accent
    colour. What it hits comes from the example's steps (a hit is a fact of the table, given by the data)."""
    cards = {c["id"]: c for c in ctx.data("monster-cards")["cards"]}
    hits = list(dict.fromkeys(h for step in throw["steps"] for h in step.get("hits", [])))
    on_location = bool(next((s for s in throw["steps"] if s.get("locations_hit")), None))
    table = [t["card"] for t in example.initial.get("table", [])]
    hit_cards = [c for c in table if c in hits]
    clear_cards = [c for c in table if c not in hits]
    location = example.initial["locations"][0]
    shapes: list[m.Shape] = [
        m.Rect(LOC_X, LOC_Y, LOC_W, LOC_H, fill="#f3ead2", stroke="#8a6d2f", radius=2.0),
        m.Label(LOC_X + LOC_W - 2.0, LOC_Y + LOC_H - 2.5, ctx.name("locations", location), size=NAME_PT, bold=True, anchor="end",
                colour="#5a4520"),
    ]
    alt = [f"The {ctx.name('locations', location)} Location card."]
    order = hit_cards + clear_cards
    first_x = LOC_X + 10.0
    centres = {}
    for n, card_id in enumerate(order):
        clear = card_id in clear_cards
        cx = first_x + n * SPREAD_X + (6.0 if clear else 0.0)
        cy = LOC_Y + LOC_H / 2 - 2.0
        centres[card_id] = (cx, cy)
        god = cards[card_id]["god"]
        shapes += [m.Polygon(_card_polygon(cx, cy, -8.0 + 8.0 * n), fill=PALETTE[god][TINT], stroke=PALETTE[god][FRAME]),
                   m.Label(cx, cy - NAME_RISE, ctx.name("monsters", cards[card_id]["monster"]), size=NAME_PT, bold=True,
                           colour=PALETTE[god][TEXT])]
        alt.append(f"{ctx.name('gods', god)}'s {ctx.name('monsters', cards[card_id]['monster'])} lies on it: "
                   f"{HIT_MARK if not clear else MISS_MARK}.")
    if hit_cards:
        tx = sum(centres[c][0] for c in hit_cards) / len(hit_cards) + 4.0
    else:
        tx = LOC_X + LOC_W / 2 if on_location else LOC_X + LOC_W + 4.0
    ty = LOC_Y + LOC_H / 2 + THROWN_DROP
    thrown = cards[throw["card"]]
    shapes += [m.Polygon(_card_polygon(tx, ty, THROWN_TILT), fill=PALETTE[thrown["god"]][TINT], stroke="accent", line="arrow"),
               m.Label(tx, ty + 1.0, ctx.name("monsters", thrown["monster"]), size=NAME_PT, bold=True, colour="accent"),
               m.Line(tx - 30.0, PICTURE_H - 1.0, tx - 6.0, ty + MON_H / 2, stroke="accent", line="thin", arrow=True)]
    for card_id in order:
        cx, cy = centres[card_id]
        hit = card_id in hit_cards
        shapes.append(m.Label(cx, cy - MON_H / 2 - 1.2, HIT_MARK if hit else MISS_MARK, size=MARK_PT, bold=hit,
                              colour="accent" if hit else "muted"))
    alt.append(f"The thrown {ctx.name('monsters', thrown['monster'])} lies across "
               + (", ".join(ctx.name("monsters", cards[c]["monster"]) for c in hit_cards) or "no Monster")
               + (f" on {ctx.name('locations', location)}." if on_location else ", off the Location."))
    return m.Diagram(PICTURE_W, PICTURE_H, tuple(shapes), tuple(alt), caption=caption)


def setup_picture(ctx: DocContext) -> m.OnPaper:
    """The table after set-up: the Locations and the Faith pool in the middle; each god's board, Monster deck,
    hand and player aid in front of them."""
    middle = [Pile("Locations", 5), Pile("Faith pool", 20)]
    seat = [Pile("God Board", 1), Pile("Monster deck", 9, face_down=True), Pile("Hand", 3), Pile("Player aid", 1)]
    return setup_figure(middle, seat, "Each player", SETUP_CAPTION)
