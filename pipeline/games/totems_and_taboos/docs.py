"""Totems + Taboos' documents: rulebook, turn/skip/end-of-turn reference, the cheat sheet (tower
costs, colour wheel with adjacency, card types, starting resources, guides) and the solo die net."""
from __future__ import annotations

from typing import Any, Mapping

from pipeline.base.errors import UserError
from pipeline.documents import standard as std
from pipeline.documents import structure as m
from pipeline.documents.figures import printed_icons, spread
from pipeline.documents.sheets import cut_fold_legend
from pipeline.documents.standard import DocContext
from pipeline.games.totems_and_taboos import assembly, figures
from pipeline.games.totems_and_taboos.diagrams import ASSEMBLY, die_net, wheel_diagram
from pipeline.games.totems_and_taboos.model import TYPE_LABELS, TotemsModel
from pipeline.games.totems_and_taboos.render import COMMANDMENT_TEMPLATE, GUIDE_TEMPLATE

CHEAT_WHEEL_MM = 66.0  # the wheel on the one-page cheat sheet
OPTION_COLUMNS = (1.2, 4.0)  # option, what it does
TOWER_FIRST_COLUMN = 3.0  # the row names of the tower cost table, against 1 for each level's column
GUIDE_COLUMNS = (1.0, 2.0, 5.0)  # colour, guide, sacrifice to
TURN_STEPS = ("skipping", "turn", "guides", "ending")  # the rules sections a turn runs through, in order
TYPE_ICON_PREFIX = "type-"  # a card type's icon: templates/icons/type-<type>.svg
PIECES = (  # the pieces' symbols: icon, name, meaning, colour
    ("cleric", "Cleric", "A soul cube showing its cleric face.", "text"),
    ("servant", "Servant", "A soul cube showing its servant face.", "text"),
    ("temple", "Shrine", "A soul cube showing its shrine face.", "text"),
    ("totem", "Totem block", "One level of your tower, in one of the six colours.", "text"),
    ("die", "Single-player die", "Rolled between solo turns to pick a passive religion.", "text"),
)



# The components spread's name for each kind of card.
SPREAD = {COMMANDMENT_TEMPLATE: "Commandment cards", GUIDE_TEMPLATE: "Spiritual guides"}


def _components(ctx: DocContext, section: Mapping[str, Any], level: int) -> list[m.Block]:
    return std.components_section(ctx, section) + [spread(ctx, SPREAD)]


def _plural(count: int, word: str, plural: str = "") -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


def deck_sentence(model: TotemsModel) -> str:
    """What one colour's deck holds, counted from the cards, so the parts always add up to the total.

    "Every colour has a deck of 27 cards: 15 commandments at level I (3 designs, 5 copies each), ... and 1 miracle."
    Colours whose decks differ get a sentence each.
    """
    numerals = {level.level: level.numeral for level in model.tower.levels}
    by_colour: dict[str, str] = {}
    for colour in model.wheel.order:
        cards = [c for c in model.cards if c.colour == colour]
        parts = []
        for level in sorted({c.level for c in cards if not c.is_miracle and c.level is not None}):
            designs = [c for c in cards if not c.is_miracle and c.level == level]
            copies = sorted({c.copies for c in designs})
            each = f", {_plural(copies[0], 'copy', 'copies')} each" if len(copies) == 1 else ""
            parts.append(f"{_plural(sum(c.copies for c in designs), 'commandment')} at level {numerals[level]} "
                         f"({_plural(len(designs), 'design')}{each})")
        miracles = sum(c.copies for c in cards if c.is_miracle)
        parts.append(_plural(miracles, "miracle"))
        by_colour[colour] = f"a deck of {_plural(sum(c.copies for c in cards), 'card')}: {', '.join(parts[:-1])} and {parts[-1]}"
    names = {c.id: c.name for c in model.colours}
    if len(set(by_colour.values())) == 1:
        return f"Every colour has {next(iter(by_colour.values()))}."
    return " ".join(f"{names[colour]} has {text}." for colour, text in by_colour.items())


def _cards(ctx: DocContext, section: Mapping[str, Any], level: int) -> list[m.Block]:
    """Playing your cards: the deck's make-up counted from the card data, the section's own text, then the
    anatomy figures of a commandment card and a spiritual guide."""
    out: list[m.Block] = [m.Paragraph(deck_sentence(ctx.game.model))]
    out += std.section_text(ctx, section["id"]) + figures.card_anatomy(ctx)
    return out + [b for sub in section.get("subsections", []) for b in std.section_blocks(ctx, sub, level + 1)]


def rulebook(ctx: DocContext) -> m.Document:
    blocks = std.rules_blocks(ctx, {"components": _components, **figures.sections(), "cards": _cards,
                                   "rulings": std.rulings_section, "solo-rulings": std.rulings_section})
    blocks += std.glossary_blocks(ctx)
    blocks += [m.Heading("Symbols", 1), std.legend(PIECES)]
    return ctx.rulebook(blocks, "totem", subtitle="Build a tower of beliefs")


def icon_meanings(ctx: DocContext) -> dict[str, m.LegendEntry]:
    """What each icon the cards may print means: the soul cube faces, a totem block, the card types (their
    rules lines) and the colours (name and principle)."""
    model = ctx.game.model
    items = [ctx.text(i) for i in std.find_section(ctx, "cards").get("items", [])]
    out = {icon: m.LegendEntry(icon, name, meaning) for icon, name, meaning, _ in PIECES}
    for kind, label in TYPE_LABELS.items():
        first = label.split()[0]
        meaning = next((i for i in items if i.startswith(first)), None)
        if meaning is None:
            raise UserError(f"{ctx.game.game}: rules section 'cards' has no line for {label} cards (the player aid explains each type)")
        out[f"{TYPE_ICON_PREFIX}{kind}"] = m.LegendEntry(f"{TYPE_ICON_PREFIX}{kind}", label, meaning)
    for colour in model.colours:
        out[colour.symbol] = m.LegendEntry(colour.symbol, colour.name, f"Its principle: {colour.principle}.")
    return out


def reference(ctx: DocContext) -> m.Document:
    """One page at the table: the turn as numbered steps, the skip and end-of-turn options, what a tower level
    costs, what a card's level asks, and every icon the cards print."""
    model = ctx.game.model
    turn = ctx.data("turn")
    b = m.Blocks()
    b.h("Your turn", std.SHEET_HEADING)
    b.ul(std.aid_items(ctx, TURN_STEPS), numbered=True)
    b.h("Skipping a turn: choose one", std.SHEET_HEADING)
    b.table(("Option", "Effect"), [(f"**{o['name']}**", ctx.text(o["text"])) for o in turn["skip"]["options"]], OPTION_COLUMNS)
    b.h("Ending your turn: choose one", std.SHEET_HEADING)
    rows = []
    for o in turn["end_of_turn"]["options"]:
        what = (("Discard your hand, then draw " if o["discard_hand"] else "Draw ") + f"{o['draw']}"
                + (" (only with an empty hand)" if o["requires_empty_hand"] else ""))
        rows.append((f"**{o['name']}**", what))
    b.table(("Option", "What you do"), rows, OPTION_COLUMNS)
    b.h("Tower costs", std.SHEET_HEADING)
    levels = model.tower.levels
    b.table(("Level", "Shrines needed", "Servants used"), [(f"**{lv.numeral}**", str(lv.shrines), str(lv.servants)) for lv in levels])
    b.p(f"{std.aid_line(ctx, 'tower')} Level {model.tower.win_level} wins at once.", "compact")
    b.h("Card levels", std.SHEET_HEADING)
    numerals = {lv.level: lv.numeral for lv in levels}
    card_levels = sorted({c.level for c in model.cards if c.level is not None})
    b.table(("Card level", "Blocks of the card's colour in your tower"), [(f"**{numerals[n]}**", str(n)) for n in card_levels])
    b.p(std.aid_line(ctx, "cards"), "compact")
    b.h("On the cards", std.SHEET_HEADING)
    b.add(std.printed_icon_legend(ctx, icon_meanings(ctx), printed_icons(ctx), columns=1))
    return ctx.document("reference", "Turn summary", b.done(), page_budget=1, columns=std.AID_COLUMNS)


def cheatsheet(ctx: DocContext) -> m.Document:
    """One page: what a tower level costs, the colour wheel, and per colour its cards, starting resources and guide."""
    model = ctx.game.model
    colours = {c.id: c for c in model.colours}
    kinds = sorted({c.type for c in model.cards})
    resources = {r.colour: r for r in model.setup.resources}
    b = m.Blocks()
    b.h("Tower costs", std.SHEET_HEADING)
    levels = model.tower.levels
    b.table(  # levels across, so the costs take three rows
        ("Level", *(level.numeral for level in levels)),
        [("Shrines needed", *(str(level.shrines) for level in levels)),
         ("Available servants used", *(str(level.servants) for level in levels))],
        (TOWER_FIRST_COLUMN, *(1.0 for _ in levels)),
    )
    b.p(f"Reach level {model.tower.win_level} and you win at once. A new block goes on a block of the same or an adjacent colour.", "note")
    b.h("Colour wheel", std.SHEET_HEADING).add(wheel_diagram(model, CHEAT_WHEEL_MM))
    b.h("Each colour: its cards and starting resources", std.SHEET_HEADING)
    rows = []
    for cid in model.wheel.order:
        copies = [sum(c.copies for c in model.cards if c.colour == cid and c.type == k) for k in kinds]
        start = resources[cid]
        rows.append((f"**{colours[cid].name}**", *(str(n) for n in copies),
                     str(start.clerics), str(start.servants), str(start.shrines), str(start.rolled_souls)))
    b.table(("Colour", *(f"{TYPE_LABELS[k]} cards" for k in kinds), "Clerics", "Servants", "Shrines", "Souls rolled"), rows)
    b.h("Spiritual guides", std.SHEET_HEADING)
    b.table(
        ("Colour", "Guide", "Sacrifice to"),
        [(colours[g.colour].name, f"**{g.name}**", ctx.text(g.text)) for g in model.guides],
        GUIDE_COLUMNS,
    )
    return ctx.document("cheatsheet", "Cheat sheet", b.done(), page_budget=1)


def extras(ctx: DocContext) -> m.Document:
    die = next(d for d in ctx.data("dice")["dice"] if d["face_kind"] == "colour")
    blocks: list[m.Block] = [
        m.Heading(die["name"], 1),
        m.Paragraph(ctx.text(die["use"])),
        cut_fold_legend(glue=True),
        die_net(list(die["faces"])),
        m.ListBlock(ASSEMBLY, numbered=True),
        *assembly.blocks(ctx),
    ]
    return ctx.document("extras", "Print-and-play kit", blocks)


def documents(ctx: DocContext) -> dict[str, m.Document]:
    return {"rulebook": rulebook(ctx), "reference": reference(ctx), "cheatsheet": cheatsheet(ctx), "extras": extras(ctx)}
