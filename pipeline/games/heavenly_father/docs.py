"""Who's Your Heavenly Father's documents: rulebook, turn/philosopher reference, the god cheat
sheets (as many as the box holds) and the extras (virtue tokens, Prayer Beads, Judgment Day envelope)."""
from __future__ import annotations

from typing import Any, Mapping

from pipeline.core.documents import model as m
from pipeline.core.documents import standard as std
from pipeline.core.documents.sheets import Token, token_pages
from pipeline.core.documents.standard import DocContext
from pipeline.games.heavenly_father.checks import _data_counts
from pipeline.games.heavenly_father.model import HeavenlyFatherModel, build

# Token fills by virtue colour name (virtues.yaml gives the colour names).
COLOUR_HEX = {"green": "#3f7d3a", "yellow": "#d9b21f", "blue": "#2f5f9e", "red": "#b8322e"}
BACK_HEX = {"beige-back": "#d9c9a3", "grey-back": "#9a9a9a", "pink-back": "#e7a9bf"}
SHEETS_PER_PAGE = 2
ROW_MM, NAME_COL_MM, HEAD_MM = 8.0, 46.0, 12.0
TOKEN_MM, TOKEN_GAP_MM, BEADS_MM = 16.0, 1.5, 30.0
# Envelope net (mm): the pocket holding one poker card (63 x 88) with room, flaps around it.
POCKET_W, POCKET_H, FLAP, SIDE_FLAP = 72.0, 97.0, 18.0, 14.0


def _counts(ctx: DocContext, model: HeavenlyFatherModel) -> dict[str, int]:
    return {cid: found for cid, (found, _where) in _data_counts(ctx.game, model).items()}


def _symbol_marks(ctx: DocContext) -> dict[str, m.LegendEntry]:
    virtues = {v["colour"]: v["id"] for v in ctx.data("virtues")["virtues"]}
    marks = {f"{colour}-token": m.LegendEntry(f"virtue-{vid}", "", "") for colour, vid in virtues.items()}
    marks.update({bid: m.LegendEntry(None, "", "", hex_) for bid, hex_ in BACK_HEX.items()})
    return marks


def _components(ctx: DocContext, section: Mapping[str, Any], level: int) -> list[m.Block]:
    return std.components_section(ctx, section, _counts(ctx, build(ctx.game)))


def rulebook(ctx: DocContext) -> m.Document:
    blocks = std.rules_blocks(ctx, {"components": _components})
    blocks += std.glossary_blocks(ctx)
    blocks += std.symbol_legend(ctx, _symbol_marks(ctx), title="Tokens and card backs")
    return ctx.document("rulebook", "Rulebook", blocks, subtitle="A party game of moral dilemmas", toc=True)


def reference(ctx: DocContext) -> m.Document:
    b = m.Blocks()
    b.h("On your turn: do one thing")
    b.ul([f"**{a['name']}.** {ctx.text(a['summary'])}" for a in ctx.data("turn-actions")["turn_actions"]], numbered=True)
    b.h("Philosophers")
    rows = [(f"**{k['name']}**", str(k["copies"]["count"]), ctx.text(k["text"])) for k in ctx.data("philosopher-kinds")["philosopher_kinds"]]
    b.table(("Kind", "Cards", "Power"), rows, (1.2, 0.6, 6.0))
    b.h("Virtues")
    b.add(std.legend((f"virtue-{v['id']}", f"{v['name']} ({v['colour']})", ctx.text(v["meaning"]), "text") for v in ctx.data("virtues")["virtues"]))
    return ctx.document("reference", "Turn and Philosopher summary", b.done())


def cheat_sheet(ctx: DocContext, model: HeavenlyFatherModel, sheet: Mapping[str, Any], copy: int, total: int) -> m.Diagram:
    """One cheat sheet: a row per possible god with its points per virtue and boxes to mark."""
    width, _ = ctx.layout.frame
    virtues = sorted(model.virtues, key=lambda v: v.position)
    marks = sheet["mark_columns"]
    point_col = 12.0
    mark_col = (width - NAME_COL_MM - point_col * len(virtues)) / len(marks)
    rows = [model.god(g) for g in sheet["rows"]]
    height = HEAD_MM + ROW_MM * len(rows) + 8
    shapes: list[m.Shape] = [m.Label(0, -1.5 + 4, f"{sheet['heading']}  ({copy} of {total})", size=10, bold=True, anchor="start")]
    top = 6.0
    x = NAME_COL_MM
    for v in virtues:
        shapes += [m.Rect(x, top, point_col, HEAD_MM, fill=COLOUR_HEX[v.colour], line="thin"),
                   m.IconShape(f"virtue-{v.id}", x + point_col / 2, top + HEAD_MM / 2, HEAD_MM * 0.7)]
        x += point_col
    for mark in marks:
        shapes += [m.Rect(x, top, mark_col, HEAD_MM, fill="table_header", line="thin"),
                   m.Label(x + mark_col / 2, top + HEAD_MM * 0.62, mark["label"], size=8, bold=True)]
        x += mark_col
    for r, god in enumerate(rows):
        y = top + HEAD_MM + r * ROW_MM
        shapes += [m.Rect(0, y, width, ROW_MM, fill="table_stripe" if r % 2 else None, line="thin"),
                   m.Label(2, y + ROW_MM * 0.65, god.name, size=8.5, anchor="start", bold=True)]
        x = NAME_COL_MM
        for v in virtues:
            points = god.points[v.id]
            shapes.append(m.Label(x + point_col / 2, y + ROW_MM * 0.65, f"{points:+d}" if points else "0", size=8.5))
            x += point_col
        for _ in marks:
            box = ROW_MM * 0.6
            shapes.append(m.Rect(x + (mark_col - box) / 2, y + (ROW_MM - box) / 2, box, box, line="thin"))
            x += mark_col
    footer_y = top + HEAD_MM + len(rows) * ROW_MM + 4.5
    shapes.append(m.Label(0, footer_y, ctx.text(sheet["footer"]), size=7, anchor="start", colour="muted"))
    alt = tuple(f"{g.name}: " + ", ".join(f"{v.abbreviation} {g.points[v.id]:+d}" for v in virtues) for g in rows)
    return m.Diagram(width, height + 2, tuple(shapes), alt + ("Mark columns: " + ", ".join(mk["label"] for mk in marks),))


def cheatsheet(ctx: DocContext) -> m.Document:
    model = build(ctx.game)
    blocks: list[m.Block] = []
    for sheet in ctx.data("cheat-sheets")["cheat_sheets"]:
        hints = "; ".join(f"**{mk['label']}**: {ctx.text(mk['hint'])}" for mk in sheet["mark_columns"])
        blocks.append(m.Paragraph(f"{sheet['count']} copies, {SHEETS_PER_PAGE} to a page: cut along the middle. {hints}", "small"))
        for copy in range(1, sheet["count"] + 1):
            blocks.append(cheat_sheet(ctx, model, sheet, copy, sheet["count"]))
            if copy % SHEETS_PER_PAGE == 0 and copy < sheet["count"]:
                blocks.append(m.PageBreak())
    return ctx.document("cheatsheet", "Cheat sheets", blocks)


def envelope(ctx: DocContext) -> m.Diagram:
    """The Judgment Day envelope as a net: pocket, a closing flap, side and bottom flaps; solid = cut, dashed = fold."""
    record = ctx.data("envelope")["envelopes"][0]
    sealed, judgment = record["sides"][0], record["sides"][1]
    x0, y0 = SIDE_FLAP, FLAP
    w = POCKET_W + 2 * SIDE_FLAP
    h = FLAP + 2 * POCKET_H + FLAP * 0.8
    shapes: list[m.Shape] = [
        # front panel (sealed side) and back panel (Judgment Day side)
        m.Rect(x0, y0, POCKET_W, POCKET_H, fill="fill_light", stroke=None),
        m.Rect(x0, y0 + POCKET_H, POCKET_W, POCKET_H, fill="table_header", stroke=None),
        m.Polygon(((x0, y0), (x0 + 6, 0), (x0 + POCKET_W - 6, 0), (x0 + POCKET_W, y0)), stroke="cut", line="cut"),
        m.Polygon(((x0, y0 + POCKET_H), (0, y0 + POCKET_H + 8), (0, y0 + 2 * POCKET_H - 8), (x0, y0 + 2 * POCKET_H)), stroke="cut", line="cut"),
        m.Polygon(((x0 + POCKET_W, y0 + POCKET_H), (w, y0 + POCKET_H + 8), (w, y0 + 2 * POCKET_H - 8), (x0 + POCKET_W, y0 + 2 * POCKET_H)), stroke="cut", line="cut"),
        m.Polygon(((x0, y0 + 2 * POCKET_H), (x0 + 8, h), (x0 + POCKET_W - 8, h), (x0 + POCKET_W, y0 + 2 * POCKET_H)), stroke="cut", line="cut"),
        m.Line(x0, y0, x0, y0 + POCKET_H, stroke="cut", line="cut"),
        m.Line(x0 + POCKET_W, y0, x0 + POCKET_W, y0 + POCKET_H, stroke="cut", line="cut"),
        m.Line(x0, y0, x0 + POCKET_W, y0, stroke="fold", line="fold"),
        m.Line(x0, y0 + POCKET_H, x0 + POCKET_W, y0 + POCKET_H, stroke="fold", line="fold"),
        m.Line(x0, y0 + POCKET_H, x0, y0 + 2 * POCKET_H, stroke="fold", line="fold"),
        m.Line(x0 + POCKET_W, y0 + POCKET_H, x0 + POCKET_W, y0 + 2 * POCKET_H, stroke="fold", line="fold"),
        m.Line(x0, y0 + 2 * POCKET_H, x0 + POCKET_W, y0 + 2 * POCKET_H, stroke="fold", line="fold"),
        m.Label(x0 + POCKET_W / 2, y0 + POCKET_H * 0.4, sealed["heading"], size=13, bold=True),
        m.Label(x0 + POCKET_W / 2, y0 + POCKET_H + POCKET_H * 0.4, judgment["heading"], size=15, bold=True, colour="accent"),
        m.Label(x0 + POCKET_W / 2, FLAP * 0.6, "closing flap: tuck in", size=6.5, colour="muted"),
        m.Label(SIDE_FLAP / 2 + 1, y0 + 1.5 * POCKET_H, "glue", size=6.5, colour="muted", angle=90),
        m.Label(w - SIDE_FLAP / 2 + 1, y0 + 1.5 * POCKET_H, "glue", size=6.5, colour="muted", angle=90),
        m.Label(x0 + POCKET_W / 2, h - FLAP * 0.35, "glue", size=6.5, colour="muted"),
    ]
    shapes += _wrapped(sealed["text"], x0 + POCKET_W / 2, y0 + POCKET_H * 0.52)
    shapes += _wrapped(judgment["text"], x0 + POCKET_W / 2, y0 + POCKET_H * 1.52)
    alt = (f"Front panel: {sealed['heading']} - {sealed['text']}", f"Back panel: {judgment['heading']} - {judgment['text']}",
           "Solid lines: cut. Dashed lines: fold. Fold the back panel up behind the front, glue the side and bottom flaps, tuck the closing flap.")
    return m.Diagram(w, h, tuple(shapes), alt, caption="Judgment Day envelope: cut the solid lines, fold the dashed ones; glue the side and bottom flaps behind the front.")


def _wrapped(text: str, cx: float, y: float, width_chars: int = 40, line_mm: float = 4.0) -> list[m.Shape]:
    words, lines, line = text.split(), [], ""
    for word in words:
        if len(line) + len(word) + 1 > width_chars:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    return [m.Label(cx, y + i * line_mm, ln, size=7.5) for i, ln in enumerate(lines)]


def extras(ctx: DocContext) -> m.Document:
    model = build(ctx.game)
    virtues = {v.id: v for v in model.virtues}
    tokens = [Token("", COLOUR_HEX[virtues[t.virtue].colour], icon=f"virtue-{t.virtue}")
              for t in model.tokens if t.virtue for _ in range(t.count)]
    counts = ", ".join(f"{t.count} {virtues[t.virtue].name}" for t in model.tokens if t.virtue)
    blocks: list[m.Block] = [m.Heading("Virtue tokens", 1), m.Paragraph(f"{len(tokens)} tokens: {counts}. Cut along the circles.")]
    blocks += token_pages(tokens, ctx.layout.frame, TOKEN_MM, TOKEN_GAP_MM, "Virtue tokens")
    beads = [t for t in model.tokens if not t.virtue]
    blocks += [m.PageBreak(), m.Heading("Prayer Beads", 1)]
    blocks += [m.Paragraph(ctx.text(t["purpose"])) for t in ctx.data("tokens")["tokens"] if "virtue" not in t]
    blocks += token_pages([Token("Prayer Beads", "#5b2a4e", icon="laurel") for t in beads for _ in range(t.count)], ctx.layout.frame, BEADS_MM, TOKEN_GAP_MM, "Prayer Beads token")
    blocks += [m.PageBreak(), envelope(ctx)]
    return ctx.document("extras", "Tokens and envelope", blocks)


def documents(ctx: DocContext) -> dict[str, m.Document]:
    return {"rulebook": rulebook(ctx), "reference": reference(ctx), "cheatsheet": cheatsheet(ctx), "extras": extras(ctx)}
