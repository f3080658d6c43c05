"""Monotheism's documents: the rulebook (with its scenarios, a deck diagram and the measured difficulty
each), the one-page card reference (acts, essences, the end), the one-page cheat sheet (turn, submerge,
timing, symbols) and the puzzle sheets (one page per scenario, solution at the foot). Everything comes
from data/monotheism/."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Optional

from pipeline.documents import standard as std
from pipeline.documents import structure as m
from pipeline.documents.figures import spread
from pipeline.documents.standard import DocContext
from pipeline.games.monotheism import figures
from pipeline.games.monotheism.checks import RULEBOOK
from pipeline.games.monotheism.model import CardKind, Scenario
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
SET_UP_SYMBOLS = ("name-plate", "note-box")  # read once at set-up: the one-page cheat sheet leaves them to the rulebook
EXAMPLE_PREFIX = "Example"  # paragraphs of worked examples start so in rules.yaml
ASPECT_ICONS = {"sun": "aspect-sun", "moon": "aspect-moon", "death": "aspect-death"}
DIFFICULTY_NOTE = ("Each scenario's difficulty is measured by the project's solver, not guessed: how many of the "
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
DECK_COLUMNS = (1.0, 1.2, 4.0, 2.0)  # from top, card, name, starts




# The components spread's name for each kind of card.
SPREAD = {DEITY_TEMPLATE: "Deity cards", WORSHIPER_TEMPLATE: "Worshiper cards"}


def _worshiper_name(ctx: DocContext, worshiper_id: str) -> str:
    for wset in ctx.data("worshiper-sets")["worshiper_sets"]:
        for member in wset["worshipers"]:
            if member["id"] == worshiper_id:
                return str(member["name"])
    return worshiper_id


def _state(card: Any) -> str:
    marks = []
    if card.veiled:
        marks.append("veiled")
    if card.transformed:
        marks.append("transformed")
    if card.cursed:
        marks.append(f"cursed {card.cursed}x")
    return ", ".join(marks) or "unveiled"


def deck_diagram(ctx: DocContext, scenario: Scenario, width: Optional[float] = None) -> m.Diagram:
    """The scenario deck, top card on the left (in rows when it is wider than ``width`` mm, by default the
    text width); veiled cards dark, transformed cards upside down."""
    cards = ctx.game.model.cards
    assert cards is not None
    top_first = list(reversed(scenario.deck))
    per_row = max(1, int(((width or ctx.layout.frame[0]) + CARD_GAP) // (CARD_W + CARD_GAP)))
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
        rows.append((str(position), label, name, _state(card)))
    return m.Table(("From top", "Card", "Name", "Starts"), tuple(rows), DECK_COLUMNS)


def rating_text(scenario: Scenario) -> str:
    """The measured difficulty in a sentence (empty for an unrated scenario)."""
    rated = scenario.rating
    if rated is None:
        return ""
    wins = "still wins" if rated.winning_first_moves == 1 else "still win"
    return (f"**Difficulty: {rated.difficulty}.** {rated.winning_first_moves} of {rated.first_moves} possible first "
            f"turns {wins} ({rated.losing_share:.0%} lose). The shortest solution takes {rated.solution_turns} "
            f"turns, with {rated.branching:g} different choices a turn on average along it (at most "
            f"{rated.most_choices}). The solver decides the deck in {rated.nodes:,} positions.")


def _origin(scenario: Scenario) -> list[m.Block]:
    if scenario.source == RULEBOOK:
        return []
    return [m.Paragraph("A puzzle added to the designer's five: generated, proved winnable and rated by "
                        "the project's solver.", "note")]


def scenario_blocks(ctx: DocContext, section: Mapping[str, Any], level: int) -> list[m.Block]:
    model = ctx.game.model
    out: list[m.Block] = [m.Paragraph(ctx.text(p)) for p in model.scenario_introduction]
    out += [m.Paragraph(ctx.text(p)) for p in section.get("paragraphs", [])[1:]]
    out.append(m.Paragraph(DIFFICULTY_NOTE, "note"))
    for scenario in model.scenarios:
        parts: list[m.Block] = [m.Heading(f"Scenario {scenario.number}: {ctx.text(scenario.title)}", level + 1)]
        parts += _origin(scenario)
        parts += [m.Paragraph(ctx.text(n)) for n in scenario.notes]
        parts.append(deck_diagram(ctx, scenario, ctx.column))
        parts.append(deck_table(ctx, scenario))
        if scenario.rating is not None:
            parts.append(m.Paragraph(rating_text(scenario), "small"))
        out.append(m.Group(tuple(parts)))  # a scenario's deck drawing and its list stay on one page
    return out


def _components(ctx: DocContext, section: Mapping[str, Any], level: int) -> list[m.Block]:
    return std.components_section(ctx, section) + [spread(ctx, SPREAD)]


def rulebook(ctx: DocContext) -> m.Document:
    overrides = {"scenarios": scenario_blocks, "components": _components, **figures.sections()}
    blocks = std.rules_blocks(ctx, overrides)
    blocks += std.glossary_blocks(ctx)
    blocks += std.symbol_legend(ctx, SYMBOL_MARKS, title="Symbol legend")
    return ctx.rulebook(blocks, "aspect-sun", subtitle="A solitaire game of deck destruction")


def _summary(ctx: DocContext, section_id: str) -> list[m.Block]:
    """A section's own text for the reference sheet: worked examples stay in the rulebook."""
    return [b for b in std.section_text(ctx, section_id) if not (isinstance(b, m.Paragraph) and b.text.startswith(EXAMPLE_PREFIX))]


def _abilities(ctx: DocContext, section_id: str) -> list[str]:
    """Each ability of a rules section (the acts, the essences) as a run-in item: "**If ...:** what it does"."""
    return [f"**{ctx.text(s['title'])}:** {ctx.text(s['paragraphs'][0])}" for s in std.find_section(ctx, section_id).get("subsections", [])]


def reference(ctx: DocContext) -> m.Document:
    """One page on what the cards say: the kinds of god, each act and essence, winning and losing."""
    b = m.Blocks()
    b.h("Acts (top card only)", std.SHEET_HEADING)
    b.ul([ctx.text(i) for i in std.find_section(ctx, "act").get("items", [])])
    b.ul(_abilities(ctx, "acts"))
    b.h("Essences (wherever the card is)", std.SHEET_HEADING).add(*_summary(ctx, "essences-in-play"))
    b.ul(_abilities(ctx, "essences"))
    b.h("Winning and losing", std.SHEET_HEADING)
    for sub in std.find_section(ctx, "ending-the-game").get("subsections", []):
        b.h(ctx.text(sub["title"]), 3).add(*_summary(ctx, sub["id"]))
    return ctx.document("reference", "Card reference", std.compact(b.done()), page_budget=1)


def _run_in(title: str, blocks: list[m.Block]) -> list[m.Block]:
    """A subsection on a sheet: its title run into its first paragraph (a heading line is room the page lacks)."""
    if not blocks or not isinstance(blocks[0], m.Paragraph):
        return [m.Heading(title, 3), *blocks]
    return [replace(blocks[0], text=f"**{_sentence_end(title)}** {blocks[0].text}"), *blocks[1:]]


def _without_lead_in(text: str) -> str:
    """A paragraph without its closing lead-in to a list ("Gods come in three kinds:") when the list is not printed."""
    if not text.endswith(":"):
        return text
    cut = text.rfind(". ")
    return text[:cut + 1] if cut > 0 else text


def _sentence_end(title: str) -> str:
    return title if title[-1:] in ".?!:" else f"{title}."


def cheatsheet(ctx: DocContext) -> m.Document:
    """One page for the table: the turn with the submerge in full, the timing rules and every symbol."""
    play = std.find_section(ctx, "play")
    b = m.Blocks()
    b.h("Turn: unveil, act, submerge", std.SHEET_HEADING)
    steps = [s for s in play["subsections"] if s["id"] in ("unveil", "act", "submerge")]
    b.ul([f"**{ctx.text(s['title'])}.** {_without_lead_in(ctx.text(s['paragraphs'][0]))}" for s in steps], numbered=True)
    b.add(*_run_in("Submerging", _summary(ctx, "submerge")[1:]))
    b.add(*_run_in(ctx.text(std.find_section(ctx, "starting-over")["title"]), _summary(ctx, "starting-over")))
    b.h("Timing", std.SHEET_HEADING).add(*_summary(ctx, "timing"))
    for sub in std.find_section(ctx, "timing").get("subsections", []):
        b.add(*_run_in(ctx.text(sub["title"]), _summary(ctx, sub["id"])))
    b.add(*std.symbol_legend(ctx, SYMBOL_MARKS, std.SHEET_HEADING, title="Symbols",
                                 columns=REFERENCE_LEGEND_COLUMNS, leave_out=SET_UP_SYMBOLS))
    return ctx.document("cheatsheet", "Cheat sheet", std.compact(b.done()), page_budget=1)


def documents(ctx: DocContext) -> dict[str, m.Document]:
    """Monotheism has a rulebook, a reference sheet (acts, essences, the end), a cheat sheet (turn, timing,
    symbols) and the puzzle sheets (one page per scenario)."""
    return {"rulebook": rulebook(ctx), "reference": reference(ctx), "cheatsheet": cheatsheet(ctx),
            "puzzles": puzzle_book(ctx, deck_diagram, deck_table)}
