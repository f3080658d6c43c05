"""Theocracy's documents: rulebook, the one-page player aid (phases, the numbered Grace steps, bid
rules, end of a round and of the game) and a score sheet headed by the houses the cards name."""
from __future__ import annotations

from typing import Any, Mapping

from pipeline.documents import standard as std
from pipeline.documents import structure as m
from pipeline.documents.figures import printed_icons, spread
from pipeline.documents.layout import Layout
from pipeline.documents.standard import DocContext
from pipeline.games.theocracy import figures
from pipeline.games.theocracy.engine import resolve_bid
from pipeline.games.theocracy.model import TheocracyModel
from pipeline.games.theocracy.render import BELIEVER_TEMPLATE, POWER_TEMPLATE

SCORE_ROUNDS = 12  # rows on the score sheet: more rounds than a game of Theocracy usually lasts
SCORE_ROW_MM, SCORE_HEAD_MM, SCORE_LABEL_MM = 9.0, 14.0, 22.0
HOUSE_PT = 8.5  # a house's name ("House of the Dawn") across its column
SCORE_TITLE_ROOM_MM = 40.0  # title and caption above and below the grid
HOUSE_AT = 0.45  # a house's name: its baseline as a share of the header's height
SUBHEAD_PT, SUBHEAD_AT = 6.5, 0.85  # "round" and "memory" over the two halves of a house's column
ROW_LABEL_PT, ROW_LABEL_AT, ROW_LABEL_INSET_MM = 8, 0.65, 2  # "Round N": size, baseline as a share of the row, inset
PHASE_COLUMNS = (0.4, 1.2, 1.0, 6.0)  # number, phase, who, what happens
BID_RULE_COLUMNS = (1.4, 0.8, 6.0)  # rule, players, effect
BID_EXAMPLE_COLUMNS = (1.2, 3.8)  # cards, result




# The components spread's name for each kind of card.
SPREAD = {POWER_TEMPLATE: "Power cards", BELIEVER_TEMPLATE: "Believer cards"}


def _rule_names(ctx: DocContext) -> dict[str, str]:
    return {r["id"]: r["name"] for r in ctx.data("bid-rules")["bid_rules"]}


def bid_outcome(values: tuple[int, ...], names: Mapping[str, str], model: TheocracyModel) -> str:
    """What a bid of these card values comes to, in words, as resolve_bid decides it."""
    result = resolve_bid(values, model.upset)
    ruined = sorted({values[s] for s in result.ruined})
    prefix = f"{', '.join(str(v) for v in ruined)} ruined; " if ruined else ""
    if result.winner is None:
        return f"{prefix}draw ({names[result.rule]})"
    return f"{prefix}**{values[result.winner]} wins** ({names[result.rule]})"


def _phases(ctx: DocContext) -> list[m.Block]:
    phases = sorted(ctx.data("phases")["phases"], key=lambda p: p["order"])
    roles = {r["id"]: r["name"] for r in ctx.data("roles")["roles"]}
    rows = [(str(p["order"]), f"**{p['name']}**", roles.get(p["actor"], "Everyone"), ctx.text(p["summary"])) for p in phases]
    return [m.Table(("#", "Phase", "Who", "What happens"), tuple(rows), PHASE_COLUMNS)]


def _grace(ctx: DocContext) -> list[m.Block]:
    steps = sorted(ctx.data("phases")["grace_steps"], key=lambda s: s["order"])
    return [m.ListBlock(tuple(ctx.text(s["text"]) for s in steps), numbered=True)]  # numbered as the rulebook's Grace list


def _bid_rules(ctx: DocContext) -> list[m.Block]:
    rules = ctx.data("bid-rules")["bid_rules"]
    rows = [(f"**{r['name']}**", ", ".join(str(p) for p in r["players"]), ctx.text(r["text"])) for r in rules]
    return [m.Table(("Rule", "Players", "Effect"), tuple(rows), BID_RULE_COLUMNS)]


def _end(ctx: DocContext) -> list[m.Block]:
    data = ctx.data("round-end")
    items = [ctx.text(data["scoring"]["text"])] + [f"**{c['name']}:** {ctx.text(c['text'])}" for c in data["end_conditions"]]
    return [m.ListBlock(tuple(items + [ctx.text(data["winner"]["text"])]))]


def _components(ctx: DocContext, section: Mapping[str, Any], level: int) -> list[m.Block]:
    return std.components_section(ctx, section) + [spread(ctx, SPREAD)]


def _bid_examples(ctx: DocContext, model: TheocracyModel) -> list[m.Block]:
    examples = ctx.data("bid-examples")["bid_examples"]
    names = _rule_names(ctx)
    rows = []
    for ex in examples:
        values = tuple(int(v) for v in ex["bids"])
        rows.append((" vs ".join(str(v) for v in values), bid_outcome(values, names, model)))
    if not rows:
        return []
    return [m.Heading("Bid examples", 2), m.Table(("Cards (seat order)", "Result"), tuple(rows), BID_EXAMPLE_COLUMNS)]


def rulebook(ctx: DocContext) -> m.Document:
    model = ctx.game.model
    blocks = std.rules_blocks(ctx, {"components": _components, "clarifications": std.rulings_section, **figures.sections()})
    blocks += [m.Heading("Resolving bids", 1), *_bid_rules(ctx), *_bid_examples(ctx, model)]
    blocks += std.glossary_blocks(ctx)
    return ctx.rulebook(blocks, "die", subtitle="Priest-kings bid for the believers' memory")


def reference(ctx: DocContext) -> m.Document:
    """One page at the table: the turn, Grace in its numbered order, the bid rules, and how rounds and the game end."""
    b = m.Blocks()
    b.h("A turn: four phases", std.SHEET_HEADING).add(*_phases(ctx))
    b.h("Grace, in this order", std.SHEET_HEADING).add(*_grace(ctx))
    b.h("Bid rules", std.SHEET_HEADING).add(*_bid_rules(ctx))
    b.h("End of a round and of the game", std.SHEET_HEADING).add(*_end(ctx))
    emblems = {p.emblem: m.LegendEntry(p.emblem, p.lineage, f"The emblem on every card of the {p.name.lower()} house.")
               for p in ctx.game.model.players}
    b.h("On the cards", std.SHEET_HEADING).add(std.printed_icon_legend(ctx, emblems, printed_icons(ctx), columns=2))
    return ctx.document("reference", "Player aid", std.compact(b.done()), page_budget=1)


def score_sheet(layout: Layout, model: TheocracyModel) -> m.Diagram:
    """A grid as wide as the page of ``layout``: one row per round (as many as the page holds, up to a game's
    worth), one column pair (round, total) per house, named as its cards name it."""
    width, _ = layout.frame
    players = model.players
    col = (width - SCORE_LABEL_MM) / len(players)
    rows = min(SCORE_ROUNDS, int((layout.frame[1] - SCORE_TITLE_ROOM_MM - SCORE_HEAD_MM) // SCORE_ROW_MM) - 1)
    height = SCORE_HEAD_MM + (rows + 1) * SCORE_ROW_MM
    shapes: list[m.Shape] = [m.Rect(0, 0, width, height, line="outline")]
    for i, player in enumerate(players):
        x = SCORE_LABEL_MM + i * col
        shapes += [
            m.Rect(x, 0, col, SCORE_HEAD_MM, fill=player.colour, line="thin"),
            m.Label(x + col / 2, SCORE_HEAD_MM * HOUSE_AT, player.lineage, size=HOUSE_PT, bold=True, colour="#ffffff"),
            m.Label(x + col / 4, SCORE_HEAD_MM * SUBHEAD_AT, "round", size=SUBHEAD_PT, colour="#ffffff"),
            m.Label(x + 3 * col / 4, SCORE_HEAD_MM * SUBHEAD_AT, "memory", size=SUBHEAD_PT, colour="#ffffff"),
            m.Line(x, 0, x, height, line="thin"),
            m.Line(x + col / 2, SCORE_HEAD_MM, x + col / 2, height, line="thin", stroke="rule"),
        ]
    for r in range(rows + 1):
        y = SCORE_HEAD_MM + r * SCORE_ROW_MM
        shapes.append(m.Line(0, y, width, y, line="thin"))
        label = f"Round {r + 1}" if r < rows else "Final"
        shapes.append(m.Label(ROW_LABEL_INSET_MM, y + SCORE_ROW_MM * ROW_LABEL_AT, label, size=ROW_LABEL_PT, anchor="start",
                              bold=r == rows))
    threshold = model.transcendence_threshold
    return m.Diagram(
        width,
        height,
        tuple(shapes),
        (f"Score sheet: {rows} rounds x {len(players)} houses ({', '.join(p.lineage for p in players)}): round score, eternal memory.",),
        caption=f"Add each round's dice to your eternal memory. {threshold} or more ends the game (Transcendence); "
        "otherwise Last rolls for Fate.",
    )


def extras(ctx: DocContext) -> m.Document:
    model = ctx.game.model
    blocks = [m.OnPaper(lambda layout: (score_sheet(layout, model),))]
    return ctx.document("extras", "Score sheet", blocks)


def documents(ctx: DocContext) -> dict[str, m.Document]:
    return {"rulebook": rulebook(ctx), "reference": reference(ctx), "extras": extras(ctx)}
