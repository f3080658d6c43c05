"""Totems + Taboos' print-and-play kit: printable stand-ins for the soul cubes and totem blocks, and the
soul cube as a foldable die, all counted from the data.

A soul cube shows its role by the face turned up; its token stand-in shows the die's roles round its
rim and is turned so the role in play reads upright. Totem tokens come in each colour, as many as the
tower supply holds, each with its colour's symbol and name (never hue alone).
"""
from __future__ import annotations

import math

from pipeline.documents import structure as m
from pipeline.documents.layout import Layout
from pipeline.documents.sheets import Token, cut_fold_legend, token_pages
from pipeline.documents.standard import DocContext
from pipeline.games.totems_and_taboos.checks import SOUL_CUBES
from pipeline.games.totems_and_taboos.diagrams import ASSEMBLY, COLOUR_HEX, die_net
from pipeline.games.totems_and_taboos.model import Die, TotemsModel

SOUL_TOKEN, TOTEM_TOKEN, TOKEN_GAP = 18.0, 18.0, 2.0  # mm
ROLE_LABEL_PT, ROLE_RADIUS = 6.0, 0.52  # role words, and their distance from the centre as a share of the radius
ROLE_LABEL_DROP = 0.12  # a role word's baseline below its point on the rim, in its size (centres the capitals)
ROLE_FILL = {"cleric": "#5b2a4e", "servant": "#2f6b8a", "shrine": "#6b6560"}
PAGE_RESERVE = 40.0  # mm of a page left for the headings and captions around a token sheet


def soul_die(model: TotemsModel) -> Die:
    return next(d for d in model.dice if d.face_kind == "role")


def roles(die: Die) -> tuple[str, ...]:
    """The soul cube's roles, each once, in the order of its faces."""
    return tuple(dict.fromkeys(die.faces))


def soul_tokens(count: int, rim: tuple[str, ...], per_row: int) -> m.Diagram:
    """``count`` round soul tokens, each naming every role round its rim, the first at the top."""
    shapes: list[m.Shape] = []
    step = SOUL_TOKEN + TOKEN_GAP
    r = SOUL_TOKEN / 2
    for i in range(count):
        cx, cy = (i % per_row) * step + r, (i // per_row) * step + r
        shapes.append(m.Circle(cx, cy, r, fill="fill_light", stroke="cut", line="cut"))
        for k, role in enumerate(rim):
            turn = 2 * math.pi * k / len(rim)
            x, y = cx + r * ROLE_RADIUS * math.sin(turn), cy - r * ROLE_RADIUS * math.cos(turn)
            shapes.append(m.Label(x, y + ROLE_LABEL_PT * ROLE_LABEL_DROP, role.upper(), size=ROLE_LABEL_PT, bold=True,
                                  colour=ROLE_FILL.get(role, "text"), angle=-math.degrees(turn)))
    rows = math.ceil(count / per_row)
    alt = (f"{count} soul tokens, each reading {', '.join(rim)} round its rim: turn the role in play upright",)
    return m.Diagram(min(count, per_row) * step - TOKEN_GAP, rows * step - TOKEN_GAP, tuple(shapes), alt,
                     caption=f"{count} soul tokens (one per soul cube): turn a token so the role it plays reads upright.")


def blocks(ctx: DocContext) -> list[m.Block]:
    """The kit's pages: soul tokens, totem tokens and the soul cube's die net (their tokens fill the paper's pages)."""
    return [m.OnPaper(lambda layout: tuple(_kit(ctx, layout)))]


def _kit(ctx: DocContext, layout: Layout) -> list[m.Block]:
    model: TotemsModel = ctx.game.model
    width, height = layout.frame
    die = soul_die(model)
    record = next(d for d in ctx.data("dice")["dice"] if d["id"] == die.id)
    souls = model.components[SOUL_CUBES]
    per_row = int((width + TOKEN_GAP) // (SOUL_TOKEN + TOKEN_GAP))
    per_page = per_row * int((height - PAGE_RESERVE + TOKEN_GAP) // (SOUL_TOKEN + TOKEN_GAP))
    out: list[m.Block] = [m.PageBreak(), m.Heading("Soul tokens", 1),
                          m.Paragraph(f"Stand-ins for the {souls} soul cubes. {ctx.text(record['use'])}"), cut_fold_legend(fold=False)]
    for start in range(0, souls, per_page):
        if start:
            out.append(m.PageBreak())
        out.append(soul_tokens(min(per_page, souls - start), roles(die), per_row))
    colours = [c for cid in model.wheel.order for c in model.colours if c.id == cid]
    totems = [Token(c.name, COLOUR_HEX[c.id], icon=c.symbol) for c in colours for _ in range(model.tower.blocks_per_colour)]
    out += [m.PageBreak(), m.Heading("Totem tokens", 1),
            m.Paragraph(f"Stand-ins for the {len(totems)} totem blocks: {model.tower.blocks_per_colour} of each colour. "
                        "Stack them as you would the blocks.")]
    out += token_pages(totems, (width, height), TOTEM_TOKEN, TOKEN_GAP, "Totem tokens: cut along the grid lines.", PAGE_RESERVE)
    out += [m.PageBreak(), m.Heading(record["name"], 1),
            m.Paragraph(f"The soul cube as a die, for rolling souls ({', '.join(die.faces)})."),
            cut_fold_legend(glue=True), die_net(list(die.faces), ROLE_FILL, record["name"]), m.ListBlock(ASSEMBLY, numbered=True)]
    return out

