"""Card anatomy figures: a real card face with numbered callouts to its parts and a key to them.

A game names the parts it wants explained by slot (see
:meth:`pipeline.documents.facedraw.FaceSlots.find`); where each callout
points comes from the face's own slot geometry, so a template that moves or
adds a box moves its callout too, and a part the card does not print is left
out. Callouts are numbered top to bottom; each sits in the margin on the side
of its part, its leader line ending on the part.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence

from pipeline.base.errors import UserError
from pipeline.cards import colours, design
from pipeline.cards.faces import content_key
from pipeline.cards.plan import Face, PrintCard
from pipeline.cards.svgtemplates import TEMPLATE_ROOT, Templates
from pipeline.documents import standard as std
from pipeline.documents import structure as m
from pipeline.documents.facedraw import SlotBox, face_slots
from pipeline.documents.standard import DocContext, FaceLookup, SectionOverride

CALLOUT_R = 2.4  # mm: the radius of a numbered circle
CALLOUT_GAP = 1.0  # mm between two circles on one side
CALLOUT_PT = 7.5
CALLOUT_BASELINE = 0.125  # a callout number's baseline below its circle's centre, in its size (centres the digits)
MARGIN = 9.0  # mm either side of the card for the circles
ANCHOR_R = 0.6  # mm: the dot where a leader line meets its part
CARD_WIDTH = 52.0  # mm a poker card is drawn in a figure (its key takes the rest of the text width)
# An icon a rendered face prints: an art layer (pp:icon="name") or an icon slot (<pp:icon name="name">).
ICON_MARK = re.compile(r'pp:icon="([^"]+)"|<pp:icon\b[^>]*\bname="([^"]+)"')
ANCHOR_INSET = 0.0  # mm into the part from its edge on the callout's side (left-aligned text starts at the edge)


@dataclass(frozen=True)
class Part:
    """A part of a card to point at: a slot selector, its name in the key and what it tells a player."""

    slot: str
    name: str
    meaning: str


def figure(
    face: Face,
    parts: Sequence[Part],
    *,
    width: float,
    where: str,
    templates: Templates,
    caption: str = "",
    card: str = "",
    unlisted: Optional[Callable[[str], Part]] = None,
) -> m.CardFigure:
    """The anatomy figure of ``face``, ``width`` mm wide (the card; the callouts take ``MARGIN`` each side), its
    slots read from the face as ``templates`` render it.

    ``card`` names the card for Markdown (default: ``where``). ``unlisted`` (when given) makes a part of
    every other filled text slot of the face, so a box a template gains is explained too. A figure with
    no part the face prints is an error naming ``where``.
    """
    slots = face_slots(face, where, templates)
    found: list[tuple[Part, SlotBox]] = []
    for part in parts:
        slot = slots.find(part.slot)
        if slot is not None:
            found.append((part, slot))
    if unlisted is not None:
        listed = {p.slot for p in parts}
        for name in slots.text_names():
            slot = slots.find(name)
            if name not in listed and slot is not None:
                found.append((unlisted(name), slot))
    if not found:
        raise UserError(f"{where}: the anatomy figure finds none of its parts ({', '.join(p.slot for p in parts)}) on the card")
    found.sort(key=lambda item: (item[1].centre[1], item[1].centre[0]))
    callouts = tuple(
        m.Callout(number, *_anchor(slot, slots.trim), f"**{part.name}**: {part.meaning}")
        for number, (part, slot) in enumerate(found, start=1)
    )
    alt = (f"Card: {card or where}",) + tuple(f"({c.number}) {c.key}" for c in callouts)
    return m.CardFigure(face, slots.trim, width, callouts, alt, caption)


def _anchor(slot: SlotBox, trim: tuple[float, float]) -> tuple[float, float]:
    """Where the leader line ends: just inside the part, on the side its circle sits."""
    x0, y0, x1, y1 = slot.box
    cx, cy = slot.centre
    inset = min(ANCHOR_INSET, (x1 - x0) / 2)
    return (x0 + inset if cx < trim[0] / 2 else x1 - inset), cy


def left_side(callout: m.Callout, trim: tuple[float, float]) -> bool:
    return callout.x < trim[0] / 2


def layout(fig: m.CardFigure) -> tuple[float, float, list[m.Shape]]:
    """The figure's width and height (mm) and its callout shapes, the card at (``MARGIN``, 0)."""
    scale = fig.width / fig.trim[0]
    height = fig.trim[1] * scale
    shapes: list[m.Shape] = []
    for left in (True, False):
        side = [c for c in fig.callouts if left_side(c, fig.trim) is left]
        ys = _spread([c.y * scale for c in side], height)
        cx = MARGIN / 2 if left else MARGIN + fig.width + MARGIN / 2
        for callout, y in zip(side, ys):
            ax, ay = MARGIN + callout.x * scale, callout.y * scale
            edge = cx + (CALLOUT_R if left else -CALLOUT_R)
            shapes += [
                m.Line(edge, y, ax, ay, stroke="accent", line="thin"),
                m.Circle(ax, ay, ANCHOR_R, fill="accent", stroke="#ffffff", line="thin"),
                m.Circle(cx, y, CALLOUT_R, fill="accent", stroke="#ffffff", line="thin"),
                m.Label(cx, y + CALLOUT_PT * CALLOUT_BASELINE, str(callout.number), size=CALLOUT_PT, bold=True, colour="#ffffff"),
            ]
    return fig.width + 2 * MARGIN, height, shapes


def _spread(wanted: list[float], height: float) -> list[float]:
    """Circle centres as near ``wanted`` (sorted) as keeps them ``2r + gap`` apart and inside 0..height."""
    step = 2 * CALLOUT_R + CALLOUT_GAP
    ys: list[float] = []
    for y in wanted:
        ys.append(max(y, CALLOUT_R, ys[-1] + step if ys else CALLOUT_R))
    overflow = (ys[-1] + CALLOUT_R - height) if ys else 0.0
    if overflow > 0:  # pushed past the bottom: pull back up, keeping the spacing
        for i in range(len(ys) - 1, -1, -1):
            limit = height - CALLOUT_R - (len(ys) - 1 - i) * step
            ys[i] = min(ys[i], limit)
    return ys


Extra = Callable[[DocContext], list[m.Block]]


def inserted(extras: Mapping[str, Extra]) -> dict[str, SectionOverride]:
    """Section overrides that print a rules section as usual with blocks added after its own text
    (before its subsections): ``extras`` maps a section id to what it adds (a figure, a diagram)."""
    overrides: dict[str, SectionOverride] = {}

    def override(extra: Extra) -> SectionOverride:
        def body(ctx: DocContext, section: Mapping[str, Any], level: int) -> list[m.Block]:
            own = {k: v for k, v in section.items() if k != "subsections"}
            out = std.section_blocks(ctx, own, level)[1:] + extra(ctx)
            for sub in section.get("subsections", []):
                out += std.section_blocks(ctx, sub, level + 1, overrides)
            return out

        return body

    overrides.update({section: override(extra) for section, extra in extras.items()})
    return overrides


def anatomy(ctx: DocContext, kinds: Sequence["Kind"], width: float = CARD_WIDTH) -> list[m.Block]:
    """One anatomy figure per kind of card, each drawn from the first card of the game's card plan that
    ``kind.pick`` accepts (the very faces the card sheets print)."""
    if ctx.game.spec.cards is None:
        raise ctx.game.spec.missing("cards")
    cards = list(ctx.game.spec.cards(ctx.game))
    out: list[m.Block] = []
    for kind in kinds:
        card = next((c for c in cards if c.front.template == kind.template and kind.pick(c)), None)
        if card is None:
            raise UserError(f"{ctx.game.game}: no card printed with {kind.template} for the '{kind.title}' anatomy figure")
        out.append(figure(card.front, kind.parts, width=kind.width or width, where=f"{ctx.game.game}: card {card.id} '{card.name}'",
                          templates=ctx.templates,
                          caption=f"{kind.title}: {card.name}", card=f"{card.name} ({kind.title.lower()})", unlisted=kind.unlisted))
    return out


def _any(card: PrintCard) -> bool:
    return True


@dataclass(frozen=True)
class Kind:
    """A kind of card to show: its front template, a title for the caption, the parts to point at, which
    card of that kind to show (``pick``), how to name slots the parts do not list (None: leave them
    out) and, for a large card, how wide to draw it."""

    template: str
    title: str
    parts: tuple[Part, ...]
    pick: Callable[[PrintCard], bool] = _any
    unlisted: Optional[Callable[[str], Part]] = None
    width: Optional[float] = None  # mm the card is drawn (None: anatomy's default, for a poker card)


def ink_on(fill: str) -> str:
    """Label colour for text on ``fill`` (a '#rrggbb' hex): white where it reads, else a dark shade of the
    fill, by the design rules' contrast for bold labels (as the cards' own coloured bands do)."""
    ratio = design.rules_for(TEMPLATE_ROOT).min_contrast_large
    return colours.to_hex(colours.ink_on(colours.parse(fill), ratio))


def min_card_text_pt() -> float:
    """The smallest text any card prints at its true size: the design rules' minimum, which every face meets."""
    return design.rules_for(TEMPLATE_ROOT).min_text_pt


SPREAD_SCALE = 0.42  # the components spread draws each card at this share of its true size
SPREAD_CAPTION = "One card of each kind, front and back, with how many the box holds."


def spread(ctx: DocContext, labels: Mapping[str, str], caption: str = SPREAD_CAPTION) -> m.CardSpread:
    """The components spread: one card of each front template of the game's card plan (the very faces the
    sheets print), front and back, with how many cards of that kind the box holds. ``labels`` names each
    template's kind; every template the plan prints must be named (a new kind of card is not left out)."""
    if ctx.game.spec.cards is None:
        raise ctx.game.spec.missing("cards")
    kinds: dict[str, list[PrintCard]] = {}
    for card in ctx.game.spec.cards(ctx.game):
        kinds.setdefault(card.front.template, []).append(card)
    unnamed = [t for t in kinds if t not in labels]
    if unnamed:
        raise UserError(f"{ctx.game.game}: the components spread has no name for the cards printed with {', '.join(unnamed)}")
    records = ctx.faces()
    entries = []
    for template, cards in kinds.items():
        first = cards[0]
        entries.append(m.SpreadEntry(labels[template], sum(c.copies for c in cards), first.front, first.back,
                                     _trim(first.front, records, f"{ctx.game.game}: card {first.id}", ctx.templates)))
    return m.CardSpread(tuple(entries), SPREAD_SCALE, caption)


def _trim(face: Face, records: FaceLookup, where: str, templates: Templates) -> tuple[float, float]:
    """The trim size (mm) of ``face``: from its kept record when the card check or the card build laid it out,
    else from its template rendered by ``templates``."""
    key = content_key(face)
    record = records.get(key) if key is not None else None
    return (record.trim_w, record.trim_h) if record is not None else face_slots(face, where, templates).trim


def printed_icons(ctx: DocContext) -> frozenset[str]:
    """Every icon of templates/icons the game's cards print (fronts and backs, art layers, icon slots and
    icons inside text): what a player aid must explain. A face the card check or the card build laid out is
    read from its kept record (the icons it placed); any other face is rendered and its icon marks read."""
    if ctx.game.spec.cards is None:
        raise ctx.game.spec.missing("cards")
    records = ctx.faces()
    seen: set[str] = set()
    done: set[str] = set()
    for card in ctx.game.spec.cards(ctx.game):
        for face in (card.front, card.back):
            if face is None:
                continue
            key = content_key(face)
            if key is not None and key in done:
                continue
            record = records.get(key) if key is not None else None
            if record is not None:
                seen.update(icon.name for icon in record.facts.icons)
            else:
                svg = ctx.templates.render(face.template, face.context, f"{ctx.game.game}: card {card.id}")
                seen.update(layer or slot for layer, slot in ICON_MARK.findall(svg))
            if key is not None:
                done.add(key)
    return frozenset(seen)
