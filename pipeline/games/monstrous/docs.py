"""Monstrous's documents: rulebook, player aids (the seven Throw Steps, one per god colour, and the
scenario layouts drawn centre plus four) and the Faith tokens to print."""
from __future__ import annotations

from typing import Any, Mapping

from pipeline.core.documents import model as m
from pipeline.core.documents import standard as std
from pipeline.core.documents.sheets import Token, cut_fold_legend, cut_line, side_by_side, token_pages
from pipeline.core.documents.standard import DocContext
from pipeline.games.monstrous.model import MonstrousModel, Scenario, build
from pipeline.games.monstrous.palette import FRAME, INK, PALETTE

# Faith token fills, smallest denomination first (god frame colours, so the tokens match the cards' palette).
DENOMINATION_COLOURS = ("orange", "green", "blue", "purple")
# Scenario layout geometry (mm): location card (88.9 x 127 scaled down), spacing.
LOC_W, LOC_H, LAYOUT_GAP_X, LAYOUT_GAP_Y = 22.0, 31.0, 8.0, 4.0
POSITIONS = {"top-left": (0, 0), "top-right": (2, 0), "centre": (1, 1), "bottom-left": (0, 2), "bottom-right": (2, 2)}
BANNER_H, BANNER_ICON = 12.0, 8.0
TOKEN_MM, TOKEN_GAP_MM = 22.0, 2.0
LAYOUTS_GAP_MM = 10.0


def _counts(model: MonstrousModel, ctx: DocContext) -> dict[str, int]:
    return {
        "monster-cards": len(model.cards),
        "location-cards": len(model.locations),
        "god-boards": len(model.gods),
        "player-aids": len(ctx.data("player-aids")["aids"]),
        "faith-tokens": sum(t.count for t in model.faith_tokens),
    }


def layout_diagram(ctx: DocContext, scenario: Scenario, model: MonstrousModel) -> m.Diagram:
    """A centre Location and four around it, each with its Faith value."""
    shapes: list[m.Shape] = []
    alt = []
    for position, location_id in scenario.layout.items():
        col, row = POSITIONS[position]
        x = col * (LOC_W + LAYOUT_GAP_X)
        y = row * (LOC_H / 2 + LAYOUT_GAP_Y)
        location = model.location(location_id)
        fill = "fill_light" if position != "centre" else "table_header"
        shapes += [m.Rect(x, y, LOC_W, LOC_H, fill=fill, radius=1.5),
                   m.Label(x + LOC_W / 2, y + LOC_H / 2, location.name, size=7.5, bold=True),
                   m.Label(x + LOC_W / 2, y + LOC_H / 2 + 4.5, f"Faith {location.faith}", size=6.5, colour="muted")]
        alt.append(f"{position}: {location.name} (Faith {location.faith})")
    width = 2 * (LOC_W + LAYOUT_GAP_X) + LOC_W
    height = 2 * (LOC_H / 2 + LAYOUT_GAP_Y) + LOC_H
    return m.Diagram(width, height, tuple(shapes), tuple(alt), caption=f"{scenario.name}")


def _scenario_layouts(ctx: DocContext, model: MonstrousModel, level: int) -> list[m.Block]:
    out: list[m.Block] = []
    names = {d["id"]: d["name"] for d in ctx.data("scenarios")["difficulties"]}
    for difficulty in names:
        out.append(m.Heading(f"{names[difficulty]} scenarios", level))
        diagrams = [layout_diagram(ctx, s, model) for s in model.scenarios if s.difficulty == difficulty]
        out += side_by_side(diagrams, ctx.layout.frame[0], LAYOUTS_GAP_MM)
    return out


def _faq(ctx: DocContext, section: Mapping[str, Any], level: int) -> list[m.Block]:
    out: list[m.Block] = []
    for ruling in ctx.data("faq")["rulings"]:
        out.append(m.Paragraph(f"**{ctx.text(ruling['question'])}** {ctx.text(ruling['answer'])}"))
    return out


def _components(ctx: DocContext, section: Mapping[str, Any], level: int) -> list[m.Block]:
    return std.components_section(ctx, section, _counts(build(ctx.game), ctx))


def _scenarios(ctx: DocContext, section: Mapping[str, Any], level: int) -> list[m.Block]:
    return std.section_text(ctx, section["id"]) + _scenario_layouts(ctx, build(ctx.game), level + 1)


def gods_legend(ctx: DocContext, model: MonstrousModel) -> list[m.Block]:
    entries = [m.LegendEntry(g.pattern, f"{g.name} ({g.colour})", f"Frame pattern of the {g.colour} god's twelve Monsters, God Board and player aid.", PALETTE[g.colour][FRAME]) for g in model.gods]
    keywords = [m.LegendEntry(None, k["label"], ctx.text(k["meaning"]), "fill_light", "!") for k in ctx.data("player-aids")["keywords"]]
    return [m.Heading("Symbols and keywords", 1), m.Legend(tuple(entries + keywords))]


def rulebook(ctx: DocContext) -> m.Document:
    model = build(ctx.game)
    blocks = std.rules_blocks(ctx, {"components": _components, "rulings": _faq, "scenarios": _scenarios})
    blocks += std.glossary_blocks(ctx)
    blocks += gods_legend(ctx, model)
    return ctx.document("rulebook", "Rulebook", blocks, subtitle="Throw your Monsters, win back the mortals' Faith", toc=True)


def _banner(god: Any, width: float) -> m.Diagram:
    frame, ink = PALETTE[god.colour][FRAME], PALETTE[god.colour][INK]
    title = f"Player aid: {god.name} ({god.colour})"
    shapes = (m.Rect(0, 0, width, BANNER_H, fill=frame, stroke=None, radius=2),
              m.IconShape(god.pattern, BANNER_ICON / 2 + 2, BANNER_H / 2, BANNER_ICON, colour=ink),
              m.Label(BANNER_ICON + 5, BANNER_H * 0.66, title, size=12, bold=True, anchor="start", colour=ink),
              m.Label(width - 3, BANNER_H * 0.66, "The seven Throw Steps", size=9, anchor="end", colour=ink))
    return m.Diagram(width, BANNER_H, shapes, (title,))


def _sentence(name: str) -> str:
    """A step name as a run-in heading: ends with a full stop unless it already ends with punctuation."""
    return name if name[-1:] in ".?!" else f"{name}."


def _aid(ctx: DocContext, god: Any, aid: Mapping[str, Any], steps: Mapping[str, Any], keywords: tuple[tuple[str, str], ...]) -> m.Group:
    """One player aid, printed whole: the god's banner, the seven Throw Steps and the power keywords."""
    return m.Group((
        _banner(god, ctx.layout.frame[0]),
        m.ListBlock(tuple(f"**{_sentence(steps[s]['name'])}** {ctx.text(steps[s]['aid_text'])}" for s in aid["steps"]), numbered=True),
        m.Heading("Power keywords", 3),
        m.Table(("Keyword", "When"), keywords, (1.0, 3.0)),
    ))


def reference(ctx: DocContext) -> m.Document:
    model = build(ctx.game)
    steps = {s["id"]: s for s in ctx.data("throw-steps")["steps"]}
    keywords = tuple((f"**{k['label']}**", ctx.text(k["meaning"])) for k in ctx.data("player-aids")["keywords"])
    gods = {g.id: g for g in model.gods}
    aids = ctx.data("player-aids")["aids"]
    b = m.Blocks()
    b.p(f"{len(aids)} player aids, one per god colour, as many to a page as fit (two on A4): cut along the solid lines.", "small")
    for aid in aids:  # each aid stays whole; they flow on, so the paper size decides how many share a page
        b.add(_aid(ctx, gods[aid["god"]], aid, steps, keywords), cut_line(ctx.layout.frame[0]))
    b.h("Scenario layouts")
    b.add(*_scenario_layouts(ctx, model, 2))
    return ctx.document("reference", "Player aids", b.done())


def extras(ctx: DocContext) -> m.Document:
    model = build(ctx.game)
    values = sorted(t.value for t in model.faith_tokens)
    fill = {v: PALETTE[DENOMINATION_COLOURS[min(i, len(DENOMINATION_COLOURS) - 1)]][FRAME] for i, v in enumerate(values)}
    tokens = [Token(str(t.value), fill[t.value], sublabel="Faith") for t in model.faith_tokens for _ in range(t.count)]
    counts = ", ".join(f"{t.count} x {t.value}" for t in model.faith_tokens)
    blocks: list[m.Block] = [m.Heading("Faith tokens", 1), m.Paragraph(f"{len(tokens)} Faith tokens ({counts}). Cut along the circles."), cut_fold_legend(fold=False)]
    blocks += token_pages(tokens, ctx.layout.frame, TOKEN_MM, TOKEN_GAP_MM, "Faith tokens")
    return ctx.document("extras", "Faith tokens", blocks)


def documents(ctx: DocContext) -> dict[str, m.Document]:
    return {"rulebook": rulebook(ctx), "reference": reference(ctx), "extras": extras(ctx)}
