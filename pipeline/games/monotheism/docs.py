"""Monotheism's documents: the rulebook (with its scenarios, a deck diagram and the measured difficulty
each), the one-page player aid (the turn, acts, essences, timing, the end and every printed symbol) and
the puzzle book (puzzlebook.py). Everything comes from data/monotheism/."""
from __future__ import annotations

from typing import Any, Mapping

from pipeline.documents import standard as std
from pipeline.documents import structure as m
from pipeline.documents.figures import printed_icons, spread
from pipeline.documents.standard import DocContext
from pipeline.games.monotheism import figures
from pipeline.games.monotheism.checks import RULEBOOK
from pipeline.games.monotheism.model import CardKind, Scenario, ScenarioRating
from pipeline.games.monotheism.puzzlebook import puzzle_book
from pipeline.games.monotheism.render import DEITY_TEMPLATE, WORSHIPER_TEMPLATE

# Swatch colours of the card boxes, as templates/cards/monotheism/_layout.svg.j2 fills them (act, note, essence,
# an always-acting god's result and otherwise).
PINK, LAVENDER, GREEN, PLATE, NUMBERS = "#f8d7e2", "#ece6f5", "#d9eed2", "#4b8a3f", "#f6f0e3"
BLUE, GREY = "#d6e4f5", "#e6e1ea"
VEILED_FILL = "#1d1727"
SYMBOL_MARKS: Mapping[str, m.LegendEntry] = {
    "curse-void": m.LegendEntry("curse-void", "", ""),
    "curse-rotate": m.LegendEntry("curse-rotate", "", ""),
    "bless-rotate": m.LegendEntry("bless-rotate", "", ""),
    "curse-flip": m.LegendEntry("curse-flip", "", ""),
    "bless-flip": m.LegendEntry("bless-flip", "", ""),
    "death": m.LegendEntry("aspect-death", "", ""),
    "sun": m.LegendEntry("aspect-sun", "", ""),
    "moon": m.LegendEntry("aspect-moon", "", ""),
    "act-box": m.LegendEntry(None, "", "", PINK, "If"),
    "result-box": m.LegendEntry(None, "", "", BLUE, "Then"),
    "otherwise-box": m.LegendEntry(None, "", "", GREY, "Else"),
    "essence-box": m.LegendEntry(None, "", "", GREEN, "When"),
    "note-box": m.LegendEntry(None, "", "", LAVENDER, "Note"),
    "numbers": m.LegendEntry(None, "", "", NUMBERS, "2 5"),
    "name-plate": m.LegendEntry(None, "", "", PLATE, ""),
}
REFERENCE_LEGEND_COLUMNS = 2
TURN_STEPS = ("unveil", "act", "submerge")  # the rules sections of a turn's three steps, in order
SET_UP_SYMBOLS = ("name-plate", "note-box")  # read once at set-up: the one-page cheat sheet leaves them to the rulebook
EXAMPLE_PREFIX = "Example"  # paragraphs of worked examples start so in rules.yaml
ASPECT_ICONS = {"sun": "aspect-sun", "moon": "aspect-moon", "death": "aspect-death"}
DIFFICULTY_NOTE = ("Each scenario's difficulty is measured by playing out every line, not guessed: how many of the "
                   "possible first turns can still win, the fewest turns that win, and how many different choices "
                   "each turn of that solution offers. A puzzle where few first turns win and the solution takes "
                   "several turns through many choices is hard.")
# Deck diagram geometry (mm): card size, gap, room for labels.
CARD_W, CARD_H, CARD_GAP, LABEL_ROOM, ICON = 12.0, 17.0, 1.6, 9.0, 3.6
# A scenario's deck drawing (mm unless _PT):
CARD_RADIUS = 1.2
CARD_LABEL_PT, CARD_LABEL_DROP = 9, 1.2  # a card's number (or W), its baseline off the card's middle (centres it)
ICON_GAP = 0.4  # between a god's aspect icons
ICON_LIFT = 1.2  # the icons' centre line above the card's bottom edge, beyond half an icon
CURSE_PT, CURSE_LIFT = 7.0, 1.8  # "curse xN", its baseline above the card's bottom edge
END_LABEL_PT, END_LABEL_LIFT = 7, 1.2  # "top" and "bottom" over the ends of the deck, baseline above the cards
ARROW_LIFT = 2.2  # the arrow from top to bottom, above the cards
DECK_COLUMNS = (1.0, 1.7, 3.7, 1.8)  # from top, card ("worshiper" on one line), name, starts




# The components spread's name for each kind of card.
SPREAD = {DEITY_TEMPLATE: "Deity cards", WORSHIPER_TEMPLATE: "Worshiper cards"}


def _worshiper_name(ctx: DocContext, worshiper_id: str) -> str:
    for wset in ctx.data("worshiper-sets")["worshiper_sets"]:
        for member in wset["worshipers"]:
            if member["id"] == worshiper_id:
                return str(member["name"])
    return worshiper_id


def _state(card: Any, is_deity: bool) -> str:
    """How a card starts, in the rulebook's words: only a god can be veiled or unveiled; a worshiper starts on its
    starting side unless cursed."""
    marks = []
    if card.veiled:
        marks.append("veiled")
    if card.transformed:
        marks.append("transformed")
    if card.cursed:
        marks.append(f"cursed {card.cursed}x")
    return ", ".join(marks) or ("unveiled" if is_deity else "starting side")


def column_deck(ctx: DocContext, scenario: Scenario) -> m.OnPaper:
    """The scenario deck a rulebook column wide, on whichever paper."""
    return m.OnPaper(lambda layout: (deck_diagram(ctx, scenario, std.rulebook_column(layout)),))


def page_deck(ctx: DocContext, scenario: Scenario) -> m.OnPaper:
    """The scenario deck as wide as the page's text, on whichever paper."""
    return m.OnPaper(lambda layout: (deck_diagram(ctx, scenario, layout.frame[0]),))


def deck_diagram(ctx: DocContext, scenario: Scenario, width: float) -> m.Diagram:
    """The scenario deck, top card on the left (in rows when it is wider than ``width`` mm);
    veiled cards dark, transformed cards upside down."""
    cards = ctx.game.model.cards
    assert cards is not None
    top_first = list(reversed(scenario.deck))
    per_row = max(1, int((width + CARD_GAP) // (CARD_W + CARD_GAP)))
    row_height = CARD_H + LABEL_ROOM / 2
    shapes: list[m.Shape] = []
    for position, card in enumerate(top_first):
        row, column = divmod(position, per_row)
        x, top = column * (CARD_W + CARD_GAP), LABEL_ROOM / 2 + row * row_height
        is_deity = card.kind is CardKind.DEITY
        fill = VEILED_FILL if card.veiled else (NUMBERS if is_deity else "#e9dfc4")
        ink = "#ffffff" if card.veiled else "text"
        shapes.append(m.Rect(x, top, CARD_W, CARD_H, fill=fill, radius=CARD_RADIUS))
        short = f"#{card.ref}" if is_deity else "W"
        angle = 180.0 if card.transformed else 0.0
        mid_y = top + CARD_H / 2
        label_y = mid_y + (-CARD_LABEL_DROP if card.transformed else CARD_LABEL_DROP)
        shapes.append(m.Label(x + CARD_W / 2, label_y, short, size=CARD_LABEL_PT, bold=True, colour=ink, angle=angle))
        if is_deity and not card.veiled:
            half = cards.deities[card.ref].halves[1 if card.transformed else 0]
            for i, aspect in enumerate(sorted(half.aspects)):
                icon_x = x + CARD_W / 2 + (i - (len(half.aspects) - 1) / 2) * (ICON + ICON_GAP)
                shapes.append(m.IconShape(ASPECT_ICONS[aspect], icon_x, top + CARD_H - ICON / 2 - ICON_LIFT, ICON))
        if card.cursed:
            shapes.append(m.Label(x + CARD_W / 2, top + CARD_H - CURSE_LIFT, f"curse x{card.cursed}", size=CURSE_PT, colour=ink))
    rows = -(-len(top_first) // per_row)
    width = min(len(top_first), per_row) * (CARD_W + CARD_GAP) - CARD_GAP
    last_x = ((len(top_first) - 1) % per_row + 1) * (CARD_W + CARD_GAP) - CARD_GAP
    last_top = LABEL_ROOM / 2 + (rows - 1) * row_height
    shapes.append(m.Label(0, LABEL_ROOM / 2 - END_LABEL_LIFT, "top", size=END_LABEL_PT, anchor="start", colour="muted"))
    shapes.append(m.Label(last_x, last_top - END_LABEL_LIFT, "bottom", size=END_LABEL_PT, anchor="end", colour="muted"))
    shapes.append(m.Line(CARD_W, LABEL_ROOM / 2 - ARROW_LIFT, width - CARD_W, LABEL_ROOM / 2 - ARROW_LIFT, stroke="muted", line="thin",
                         arrow=True))
    height = CARD_H + LABEL_ROOM + (rows - 1) * row_height
    caption = f"Scenario {scenario.number}: {scenario.card_count} cards, from the top (left) to the bottom (right) of the deck."
    # Markdown gets a pointer, not the card list: the deck table printed under every drawing lists each card
    listed = (f"The {scenario.card_count} cards as drawn; the table below lists each, top first, with the state it starts in.",)
    return m.Diagram(width, height, tuple(shapes), listed, caption=caption)


def deck_table(ctx: DocContext, scenario: Scenario) -> m.Table:
    """The scenario's cards from the top, with the state each starts in."""
    rows = []
    for position, card in enumerate(reversed(scenario.deck), start=1):
        is_deity = card.kind is CardKind.DEITY
        label = f"#{card.ref}" if is_deity else "worshiper"
        name = ctx.name("deities", card.ref) if is_deity else _worshiper_name(ctx, card.ref)
        rows.append((str(position), label, name, _state(card, is_deity)))
    return m.Table(("From top", "Card", "Name", "Starts"), tuple(rows), DECK_COLUMNS)


def rating_text(scenario: Scenario) -> str:
    """The measured difficulty in a sentence (empty for an unrated scenario)."""
    rated = scenario.rating
    if rated is None:
        return ""
    wins = "still wins" if rated.winning_first_moves == 1 else "still win"
    return (f"**Difficulty: {rated.difficulty}.** {rated.winning_first_moves} of {rated.first_moves} possible first "
            f"turns {wins} ({rated.losing_share:.0%} lose). {_solution_length(rated)}, with {rated.branching:g} "
            f"different choices a turn on average along it (at most {rated.most_choices}).")


def _solution_length(rated: ScenarioRating) -> str:
    if rated.no_win_within + 1 == rated.solution_turns:
        return f"The shortest solution takes {rated.solution_turns} turns"
    return (f"The shortest solution found takes {rated.solution_turns} turns (none takes {rated.no_win_within} "
            f"or fewer)")


def _origin(scenario: Scenario) -> list[m.Block]:
    if scenario.source == RULEBOOK:
        return []
    return [m.Paragraph("A puzzle added to the designer's five for this edition: proved winnable and rated "
                        "like the others.", "note")]


def scenario_blocks(ctx: DocContext, section: Mapping[str, Any], level: int) -> list[m.Block]:
    model = ctx.game.model
    out: list[m.Block] = [m.Paragraph(ctx.text(p)) for p in model.scenario_introduction]
    out += [m.Paragraph(ctx.text(p)) for p in section.get("paragraphs", [])[1:]]
    out.append(m.Paragraph(DIFFICULTY_NOTE, "note"))
    for scenario in model.scenarios:
        parts: list[m.Block] = [m.Heading(f"Scenario {scenario.number}: {ctx.text(scenario.title)}", level + 1)]
        parts += _origin(scenario)
        parts += [m.Paragraph(ctx.text(n)) for n in scenario.notes]
        parts.append(column_deck(ctx, scenario))
        # the heading stays with the deck drawing; the deck list may run on into the next column (its header
        # row repeated), so a scenario that does not fit under the one before never leaves a column half empty
        out.append(m.Group(tuple(parts)))
        out.append(deck_table(ctx, scenario))
        if scenario.rating is not None:
            out.append(m.Paragraph(rating_text(scenario), "small"))
    return out


def _components(ctx: DocContext, section: Mapping[str, Any], level: int) -> list[m.Block]:
    return std.components_section(ctx, section) + [spread(ctx, SPREAD)]


def rulebook(ctx: DocContext) -> m.Document:
    overrides = {"scenarios": scenario_blocks, "components": _components, **figures.sections()}
    blocks = std.rules_blocks(ctx, overrides)
    blocks += std.glossary_blocks(ctx)
    blocks += std.symbol_legend(ctx, SYMBOL_MARKS, title="Symbol legend")
    return ctx.rulebook(blocks, "aspect-sun", subtitle="A solitaire game of deck destruction")


def symbol_entries(ctx: DocContext) -> list[m.LegendEntry]:
    """The glossary's symbols as legend entries, each with its mark (icon or coloured box)."""
    entries = []
    for symbol in ctx.data("glossary").get("symbols", []):
        mark = SYMBOL_MARKS[symbol["id"]]
        entries.append(m.LegendEntry(mark.icon, ctx.text(symbol["name"]), ctx.text(symbol["meaning"]), mark.colour, mark.label))
    return entries


def player_aid(ctx: DocContext) -> m.Document:
    """One page at the table: the turn as numbered steps, what the acts and essences ask, timing, the end,
    then every icon and coloured box the cards print, with its meaning. Each line is the rules section's
    aid line (rules.yaml), not its rulebook paragraph."""
    b = m.Blocks()
    b.h("Your turn", std.SHEET_HEADING)
    b.ul(std.aid_items(ctx, TURN_STEPS), numbered=True)
    b.ul(std.aid_items(ctx, ("starting-over", "essences-in-play")))
    b.h("Acts: pink \u201cIf\u201d boxes, top card only", std.SHEET_HEADING)
    b.ul(std.aid_items(ctx, [s["id"] for s in std.find_section(ctx, "acts").get("subsections", [])]))
    b.h("Essences: green \u201cWhen\u201d boxes, anywhere in the deck", std.SHEET_HEADING)
    b.ul(std.aid_items(ctx, [s["id"] for s in std.find_section(ctx, "essences").get("subsections", [])]))
    b.h("Timing", std.SHEET_HEADING)
    b.ul(std.aid_items(ctx, [s["id"] for s in std.find_section(ctx, "timing").get("subsections", [])]))
    b.h("Winning and losing", std.SHEET_HEADING)
    b.ul(std.aid_items(ctx, [s["id"] for s in std.find_section(ctx, "ending-the-game").get("subsections", [])]))
    entries = symbol_entries(ctx)
    icons = {e.icon: e for e in entries if e.icon}
    boxes = tuple(e for e, s in zip(entries, ctx.data("glossary").get("symbols", [])) if not e.icon and s["id"] not in SET_UP_SYMBOLS)
    legend = std.printed_icon_legend(ctx, icons, printed_icons(ctx), REFERENCE_LEGEND_COLUMNS)
    b.h("On the cards", std.SHEET_HEADING).add(m.Legend(legend.entries + boxes))
    return ctx.document("reference", "Player aid", std.compact(b.done()), page_budget=1, columns=std.AID_COLUMNS)


def documents(ctx: DocContext) -> dict[str, m.Document]:
    """Monotheism has a rulebook, one player aid (the reference and the cheat sheet of earlier editions, made
    one) and the puzzle book."""
    return {"rulebook": rulebook(ctx), "reference": player_aid(ctx), "puzzles": puzzle_book(ctx, page_deck, deck_table)}
