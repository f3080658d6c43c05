"""Who's Your Heavenly Father's documents: rulebook, turn/philosopher reference, the god cheat
sheets (as many as the box holds) and the extras (virtue tokens, Prayer Beads, Judgment Day envelope)."""
from __future__ import annotations

from typing import Any, Mapping

from pipeline.documents import standard as std
from pipeline.documents import structure as m
from pipeline.documents.figures import printed_icons, spread
from pipeline.documents.layout import Layout
from pipeline.documents.sheets import CUT_LINE_ROOM_MM, Token, cut_fold_legend, cut_line, flap, token_pages
from pipeline.documents.standard import DocContext
from pipeline.games.heavenly_father import figures
from pipeline.games.heavenly_father.model import HeavenlyFatherModel
from pipeline.games.heavenly_father.render import DILEMMA_TEMPLATE, GOD_TEMPLATE, PHILOSOPHER_TEMPLATE

# Token fills by virtue colour name (virtues.yaml gives the colour names).
COLOUR_HEX = {"green": "#3f7d3a", "yellow": "#d9b21f", "blue": "#2f5f9e", "red": "#b8322e"}
BACK_HEX = {"beige-back": "#d9c9a3", "grey-back": "#9a9a9a", "pink-back": "#e7a9bf"}
SHEETS_PER_PAGE = 2
REFERENCE_LEGEND_COLUMNS = 2
# The paragraphs of rules.yaml the one-page reference prints on the end of the game (section id, paragraph indexes):
# calling Judgment Day is the turn list's last item, so the sheet adds the other way it comes, and the scoring.
END_SECTIONS = ("judgment-day", "empty-draw-pile", "scoring")  # the end of the game, as the aid tells it
NAME_COL_MM, HEAD_MM, SHEET_TOP_MM, SHEET_FOOT_MM = 46.0, 12.0, 6.0, 8.0
MIN_ROW_MM, MAX_ROW_MM, MARK_BOX_MM = 6.5, 9.5, 5.0
FIRST_PAGE_ROOM_MM = 38.0  # the title and the note above the first two sheets
# 15 mm virtue tokens: all 120 fit one page under the title and note, on A4 and on Letter.
TOKEN_MM, TOKEN_GAP_MM, BEADS_MM = 15.0, 1.5, 30.0
TOKEN_PAGE_RESERVE_MM = 45.0  # the title, heading and note above the first page of tokens
BEADS_HEX = "#5b2a4e"
# Envelope net (mm): each panel of the pocket holds one poker card (63 x 88) with room; flap depths.
POCKET_W, POCKET_H, FLAP, SIDE_FLAP = 72.0, 97.0, 15.0, 12.0
TUCK_FLAP_TAPER = 3  # the tuck flap's far edge is FLAP / this shorter at each end (the glue flaps: half their depth)
PANEL_TITLE_PT, PANEL_TITLE_AT = 13, 0.42  # a panel's heading, its baseline as a share of the panel's height
PANEL_TEXT_GAP_MM, PANEL_TEXT_PT, PANEL_TEXT_LINE_MM, PANEL_TEXT_CHARS = 8, 7.5, 4.0, 40  # the text under the heading
SIDE_LABEL_PT, SIDE_LABEL_INSET_MM = 6, 2  # "front" and "back" in the panels' bottom corners
REFERENCE_COLUMNS = (1.7, 0.6, 6.0)  # philosopher kind, cards, power
# A cheat sheet (mm unless _PT):
POINT_COL_MM = 12.0  # a virtue's points column
HEADING_PT, HEADING_RISE_MM = 10, 2.0  # the sheet's heading, its baseline above the sheet
VIRTUE_ICON_SHARE = 0.7  # a virtue's icon, as a share of the header row's height
MARK_LABEL_PT, MARK_LABEL_AT = 8, 0.62  # a mark column's name, its baseline as a share of the header row's height
ROW_PT, ROW_BASELINE_MM, NAME_INSET_MM = 8.5, 1.1, 2  # a god's row: its text, baseline below the row's middle, name inset
MARK_BOX_SHARE = 0.6  # a mark box is at most this share of its row's height
FOOTER_PT, FOOTER_DROP_MM = 7, 4.5  # the sheet's footnote, its baseline below the last row




# The components spread's name for each kind of card.
SPREAD = {GOD_TEMPLATE: "God cards", DILEMMA_TEMPLATE: "Moral Dilemmas", PHILOSOPHER_TEMPLATE: "Philosophers"}


def _symbol_marks(ctx: DocContext) -> dict[str, m.LegendEntry]:
    virtues = {v["colour"]: v["id"] for v in ctx.data("virtues")["virtues"]}
    marks = {f"{colour}-token": m.LegendEntry(f"virtue-{vid}", "", "") for colour, vid in virtues.items()}
    marks.update({bid: m.LegendEntry(None, "", "", hex_) for bid, hex_ in BACK_HEX.items()})
    return marks


def _components(ctx: DocContext, section: Mapping[str, Any], level: int) -> list[m.Block]:
    return std.components_section(ctx, section) + [spread(ctx, SPREAD)]


def rulebook(ctx: DocContext) -> m.Document:
    blocks = std.rules_blocks(ctx, {"components": _components, "clarifications": std.rulings_section, **figures.sections()})
    blocks += std.glossary_blocks(ctx)
    blocks += std.symbol_legend(ctx, _symbol_marks(ctx), title="Tokens and card colours")
    return ctx.rulebook(blocks, "sun", subtitle="A party game of moral dilemmas")


def reference(ctx: DocContext) -> m.Document:
    """One page at the table: the six things a turn may be, the Philosophers, the Virtues, and how the game ends and scores."""
    b = m.Blocks()
    b.h("On your turn: do one thing", std.SHEET_HEADING)
    b.ul([f"**{a['name']}.** {ctx.text(a['summary'])}" for a in ctx.data("turn-actions")["turn_actions"]], numbered=True)
    b.h("Philosophers", std.SHEET_HEADING)
    rows = [
        (f"**{k['name']}**", str(k["copies"]["count"]), ctx.text(k["text"])) for k in ctx.data("philosopher-kinds")["philosopher_kinds"]
    ]
    b.table(("Kind", "Cards", "Power"), rows, REFERENCE_COLUMNS)
    b.h("Virtues: the icons on the cards", std.SHEET_HEADING)
    virtues = {f"virtue-{v['id']}": m.LegendEntry(f"virtue-{v['id']}", f"{v['name']} ({v['colour']})", ctx.text(v["meaning"]))
               for v in ctx.data("virtues")["virtues"]}
    b.add(std.printed_icon_legend(ctx, virtues, printed_icons(ctx), columns=REFERENCE_LEGEND_COLUMNS))
    b.h("Judgment Day and scoring", std.SHEET_HEADING)
    b.ul(std.aid_items(ctx, END_SECTIONS))
    return ctx.document("reference", "Turn and Philosopher summary", std.compact(b.done()), page_budget=1)


def _row_height(layout: Layout, rows: int) -> float:
    """Rows as tall as two sheets and a cut line on a page allow (the first page also holds the title)."""
    spacing = (2 * SHEETS_PER_PAGE - 1) * layout.get("diagram", "space_after_mm")
    sheet = (layout.frame[1] - FIRST_PAGE_ROOM_MM - CUT_LINE_ROOM_MM - spacing) / SHEETS_PER_PAGE
    return max(MIN_ROW_MM, min(MAX_ROW_MM, (sheet - SHEET_TOP_MM - HEAD_MM - SHEET_FOOT_MM) / rows))


def cheat_sheet(ctx: DocContext, layout: Layout, model: HeavenlyFatherModel, sheet: Mapping[str, Any]) -> m.Diagram:
    """One cheat sheet as wide as the page of ``layout``: a row per possible god with its points per virtue and boxes to mark."""
    width, _ = layout.frame
    virtues = sorted(model.virtues, key=lambda v: v.position)
    marks = sheet["mark_columns"]
    point_col = POINT_COL_MM
    mark_col = (width - NAME_COL_MM - point_col * len(virtues)) / len(marks)
    rows = [model.god(g) for g in sheet["rows"]]
    row_mm = _row_height(layout, len(rows))
    top = SHEET_TOP_MM
    shapes: list[m.Shape] = [m.Label(0, top - HEADING_RISE_MM, sheet["heading"], size=HEADING_PT, bold=True, anchor="start")]
    x = NAME_COL_MM
    for v in virtues:
        shapes += [m.Rect(x, top, point_col, HEAD_MM, fill=COLOUR_HEX[v.colour], line="thin"),
                   m.IconShape(f"virtue-{v.id}", x + point_col / 2, top + HEAD_MM / 2, HEAD_MM * VIRTUE_ICON_SHARE)]
        x += point_col
    for mark in marks:
        shapes += [m.Rect(x, top, mark_col, HEAD_MM, fill="table_header", line="thin"),
                   m.Label(x + mark_col / 2, top + HEAD_MM * MARK_LABEL_AT, mark["label"], size=MARK_LABEL_PT, bold=True)]
        x += mark_col
    for r, god in enumerate(rows):
        y = top + HEAD_MM + r * row_mm
        baseline = y + row_mm / 2 + ROW_BASELINE_MM
        shapes += [m.Rect(0, y, width, row_mm, fill="table_stripe" if r % 2 else None, line="thin"),
                   m.Label(NAME_INSET_MM, baseline, god.name, size=ROW_PT, anchor="start", bold=True)]
        x = NAME_COL_MM
        for v in virtues:
            points = god.points[v.id]
            shapes.append(m.Label(x + point_col / 2, baseline, f"{points:+d}" if points else "0", size=ROW_PT))
            x += point_col
        for _ in marks:
            box = min(row_mm * MARK_BOX_SHARE, MARK_BOX_MM)
            shapes.append(m.Rect(x + (mark_col - box) / 2, y + (row_mm - box) / 2, box, box, line="thin"))
            x += mark_col
    footer_y = top + HEAD_MM + len(rows) * row_mm + FOOTER_DROP_MM
    shapes.append(m.Label(0, footer_y, ctx.text(sheet["footer"]), size=FOOTER_PT, anchor="start", colour="muted"))
    alt = tuple(f"{g.name}: " + ", ".join(f"{v.abbreviation} {g.points[v.id]:+d}" for v in virtues) for g in rows)
    height = top + HEAD_MM + len(rows) * row_mm + SHEET_FOOT_MM
    return m.Diagram(width, height, tuple(shapes), alt + ("Mark columns: " + ", ".join(mk["label"] for mk in marks),))


def cheatsheet(ctx: DocContext) -> m.Document:
    """One page, two identical sheets: the game needs ``count`` of them, so the page says how often to print it."""
    model = ctx.game.model
    blocks: list[m.Block] = []
    for sheet in ctx.data("cheat-sheets")["cheat_sheets"]:
        prints = -(-sheet["count"] // SHEETS_PER_PAGE)
        hints = " ".join(f"**{mk['label']}:** {ctx.text(mk['hint'])}" for mk in sheet["mark_columns"])
        blocks.append(m.Paragraph(f"The game needs {sheet['count']} sheets, {SHEETS_PER_PAGE} to a page: print this page "
                                  f"{prints} times and cut along the solid line. {hints}", "small"))
        blocks.append(_sheets_on_page(ctx, model, sheet))
    return ctx.document("cheatsheet", "Cheat sheets", blocks, page_budget=1)


def _sheets_on_page(ctx: DocContext, model: HeavenlyFatherModel, sheet: Mapping[str, Any]) -> m.OnPaper:
    """A page of identical cheat sheets, cut lines between them, as wide and tall as the paper allows."""
    def on(layout: Layout) -> tuple[m.Block, ...]:
        drawn = cheat_sheet(ctx, layout, model, sheet)
        blocks: list[m.Block] = [drawn]
        for _ in range(SHEETS_PER_PAGE - 1):  # Markdown names the copy rather than listing the sheet again
            blocks += [cut_line(layout.frame[0]), drawn._replace(alt=("The same sheet again, to cut off.",))]
        return tuple(blocks)
    return m.OnPaper(on)


def envelope(ctx: DocContext) -> m.Diagram:
    """The Judgment Day envelope as a net: front and back panels side by side, glue flaps and a tuck flap on the back.

    Front and back share a vertical fold, so turning the envelope over sideways (like a page)
    shows the back upright; both panels are therefore printed upright. Every fold goes away
    from the printed side; the glue flaps end up inside the pocket.
    """
    record = ctx.data("envelope")["envelopes"][0]
    sealed, judgment = record["sides"][0], record["sides"][1]
    top, front_x, back_x = FLAP, 0.0, POCKET_W
    right, bottom = 2 * POCKET_W, FLAP + POCKET_H
    shapes: list[m.Shape] = [
        m.Rect(front_x, top, POCKET_W, POCKET_H, fill="fill_light", stroke=None),
        m.Rect(back_x, top, POCKET_W, POCKET_H, fill="table_header", stroke=None),
        # outer cut lines of the front panel, the fold between the panels
        m.Line(front_x, top, back_x, top, stroke="cut", line="cut"),
        m.Line(front_x, top, front_x, bottom, stroke="cut", line="cut"),
        m.Line(front_x, bottom, back_x, bottom, stroke="cut", line="cut"),
        m.Line(back_x, top, back_x, bottom, stroke="fold", line="fold"),
    ]
    shapes += flap((back_x, top), (right, top), (0.0, -1.0), FLAP, FLAP / TUCK_FLAP_TAPER, "tuck flap: tuck inside", fill="#ffffff")
    shapes += flap((right, top), (right, bottom), (1.0, 0.0), SIDE_FLAP, SIDE_FLAP / 2, "glue")
    shapes += flap((right, bottom), (back_x, bottom), (0.0, 1.0), SIDE_FLAP, SIDE_FLAP / 2, "glue")
    for side, x, colour in ((sealed, front_x, "text"), (judgment, back_x, "accent")):
        shapes.append(m.Label(x + POCKET_W / 2, top + POCKET_H * PANEL_TITLE_AT, side["heading"], size=PANEL_TITLE_PT, bold=True,
                              colour=colour))
        shapes += _wrapped(side["text"], x + POCKET_W / 2, top + POCKET_H * PANEL_TITLE_AT + PANEL_TEXT_GAP_MM)
    shapes += [m.Label(front_x + SIDE_LABEL_INSET_MM, bottom - SIDE_LABEL_INSET_MM, "front", size=SIDE_LABEL_PT, anchor="start",
                       colour="muted"),
               m.Label(right - SIDE_LABEL_INSET_MM, bottom - SIDE_LABEL_INSET_MM, "back", size=SIDE_LABEL_PT, anchor="end",
                       colour="muted")]
    alt = (f"Front panel (left): {sealed['heading']} - {sealed['text']}",
           f"Back panel (right, joined to the front by a vertical fold): {judgment['heading']} - {judgment['text']}",
           "Glue flaps on the back panel's outer side and bottom; a tuck flap on its top edge.")
    return m.Diagram(right + SIDE_FLAP, bottom + SIDE_FLAP, tuple(shapes), alt)


ENVELOPE_STEPS = (
    f"Print at 100% (no fit-to-page): the pocket comes out {POCKET_W:g} x {POCKET_H:g} mm, room for one God card. "
    "Cut along the solid lines.",
    "Crease every dashed line backward, away from the printed side.",
    "Fold the two shaded glue flaps back, then put glue on them.",
    "Fold the Judgment Day panel behind the front panel along the middle fold and press: the glue flaps hold the far side "
    "and the bottom shut from inside, and the top stays open.",
    "Slide the One True God in and tuck the flap inside. Both faces read upright: turn the envelope over sideways, like the "
    "page of a book, and Judgment Day shows the right way up.",
)


def _wrapped(text: str, cx: float, y: float, width_chars: int = PANEL_TEXT_CHARS, line_mm: float = PANEL_TEXT_LINE_MM) -> list[m.Shape]:
    words, lines, line = text.split(), [], ""
    for word in words:
        if len(line) + len(word) + 1 > width_chars:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    return [m.Label(cx, y + i * line_mm, ln, size=PANEL_TEXT_PT) for i, ln in enumerate(lines)]


def extras(ctx: DocContext) -> m.Document:
    model = ctx.game.model
    virtues = {v.id: v for v in model.virtues}
    tokens = [Token("", COLOUR_HEX[virtues[t.virtue].colour], icon=f"virtue-{t.virtue}")
              for t in model.tokens if t.virtue for _ in range(t.count)]
    counts = ", ".join(f"{t.count} {virtues[t.virtue].name}" for t in model.tokens if t.virtue)
    blocks: list[m.Block] = [m.Heading("Virtue tokens", 1), m.Paragraph(f"{len(tokens)} tokens: {counts}. Cut along the grid lines.")]
    blocks.append(m.OnPaper(lambda layout: tuple(token_pages(tokens, layout.frame, TOKEN_MM, TOKEN_GAP_MM, "Virtue tokens",
                                                             TOKEN_PAGE_RESERVE_MM))))
    beads = [Token("Prayer Beads", BEADS_HEX, icon="laurel") for t in model.tokens if not t.virtue for _ in range(t.count)]
    # no page break: on Letter the last row of tokens shares its page with the envelope
    blocks += [m.Heading("Judgment Day envelope", 1), cut_fold_legend(glue=True), envelope(ctx),
               m.ListBlock(ENVELOPE_STEPS, numbered=True)]
    purpose = [m.Paragraph(ctx.text(t["purpose"])) for t in ctx.data("tokens")["tokens"] if "virtue" not in t]
    bead_pages = m.OnPaper(lambda layout: tuple(token_pages(beads, layout.frame, BEADS_MM, TOKEN_GAP_MM, "")))
    blocks.append(m.Group((m.Heading("Prayer Beads", 1), *purpose, bead_pages)))
    return ctx.document("extras", "Tokens and envelope", blocks)


def documents(ctx: DocContext) -> dict[str, m.Document]:
    return {"rulebook": rulebook(ctx), "reference": reference(ctx), "cheatsheet": cheatsheet(ctx), "extras": extras(ctx)}
