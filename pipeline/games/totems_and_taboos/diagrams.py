"""Totems + Taboos' drawings that several documents share: the colour wheel, the solo die's cube net and how
to assemble it, and the colours they are printed in."""
from __future__ import annotations

import math
from typing import Mapping

from pipeline.documents import structure as m
from pipeline.documents.sheets import flap
from pipeline.games.totems_and_taboos.model import TotemsModel

COLOUR_HEX = {"yellow": "#e0b422", "green": "#3f8a3c", "blue": "#2f62a8", "purple": "#6b3d8c", "red": "#b8322e", "orange": "#d8711f"}
WHEEL_R, WHEEL_NODE, WHEEL_SIZE = 30.0, 9.0, 84.0
DIE_FACE = 30.0  # mm: one face of the printed solo die
# Cube net: face positions (column, row) of a cross-shaped net.
NET = ((1, 0), (0, 1), (1, 1), (2, 1), (3, 1), (1, 2))
GLUE_TAB = 6.0
NET_COLUMNS, NET_ROWS = 1 + max(c for c, _ in NET), 1 + max(r for _, r in NET)
FACE_LABEL_PT, FACE_LABEL_DROP = 10, 2  # a die face's colour name, its baseline below the face's middle (mm)
WHEEL_START_DEG = -90  # the first colour of the wheel sits at the top
NAME_PT, NAME_RISE = 7, 0.5  # a wheel colour's name, its baseline above the node's centre (mm)
PRINCIPLE_PT, PRINCIPLE_DROP = 7.0, 3.5  # its principle, its baseline below the node's centre (mm)
# A cube net has 14 free edges that meet in 7 seams: one glue tab per seam (face, side).
TABS = (((0, 1), "top"), ((2, 1), "top"), ((3, 1), "top"), ((0, 1), "bottom"), ((2, 1), "bottom"), ((3, 1), "bottom"), ((3, 1), "right"))
SIDES = {"top": (0, -1), "right": (1, 0), "bottom": (0, 1), "left": (-1, 0)}
OUTWARD = {side: (float(dc), float(dr)) for side, (dc, dr) in SIDES.items()}


ASSEMBLY = (
    f"Print at 100% (no fit-to-page) on card stock; each face comes out {DIE_FACE:g} mm square.",
    "Cut along the solid outline, around the tabs.",
    "Crease every dashed line, folding away from the printed side.",
    "Close the cube one face at a time, gluing each shaded tab inside the face it meets; the right-hand tab closes the ring of four faces.",
)


def wheel_diagram(model: TotemsModel, size: float = WHEEL_SIZE) -> m.Diagram:
    """The six colours around the wheel, ``size`` mm square; solid links join adjacent colours, dashed ones opposites."""
    scale = size / WHEEL_SIZE
    centre = size / 2
    points = {}
    for i, cid in enumerate(model.wheel.order):
        angle = math.radians(WHEEL_START_DEG + 360 * i / len(model.wheel.order))  # a full turn over the colours
        points[cid] = (centre + WHEEL_R * scale * math.cos(angle), centre + WHEEL_R * scale * math.sin(angle))
    colours = {c.id: c for c in model.colours}
    shapes: list[m.Shape] = []
    for c in model.colours:
        for other in c.adjacent:
            if c.id < other:
                shapes.append(m.Line(*points[c.id], *points[other], line="outline"))
        if c.id < c.opposite:
            shapes.append(m.Line(*points[c.id], *points[c.opposite], stroke="rule", line="fold"))
    for cid, (x, y) in points.items():
        shapes += [m.Circle(x, y, WHEEL_NODE * scale, fill=COLOUR_HEX[cid]),
                   m.Label(x, y - NAME_RISE, colours[cid].name, size=NAME_PT, bold=True, colour="#ffffff"),
                   m.Label(x, y + PRINCIPLE_DROP, colours[cid].principle, size=PRINCIPLE_PT, colour="#ffffff")]
    alt = tuple(
        f"{colours[c].name} ({colours[c].principle}): adjacent {', '.join(colours[a].name for a in colours[c].adjacent)}; "
        f"opposite {colours[colours[c].opposite].name}"
        for c in model.wheel.order
    )
    return m.Diagram(
        size,
        size,
        tuple(shapes),
        alt,
        caption="The colour wheel: solid lines join adjacent colours (you may stack them), dashed lines join opposites.",
    )


def _edge(face: tuple[int, int], side: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two corners (mm) of one side of a net face, in clockwise order around the face."""
    col, row = face
    x, y = GLUE_TAB + col * DIE_FACE, GLUE_TAB + row * DIE_FACE
    corners = {"top": ((x, y), (x + DIE_FACE, y)), "right": ((x + DIE_FACE, y), (x + DIE_FACE, y + DIE_FACE)),
               "bottom": ((x + DIE_FACE, y + DIE_FACE), (x, y + DIE_FACE)), "left": ((x, y + DIE_FACE), (x, y))}
    return corners[side]


def die_net(faces: list[str], fills: Mapping[str, str] = COLOUR_HEX, name: str = "Single-player die") -> m.Diagram:
    """The single-player die as a cube net: six coloured faces and seven glue tabs.

    Edges between two faces, and where a tab meets its face, are folds (dashed); every
    outer edge is a cut (solid).
    """
    shapes: list[m.Shape] = []
    for (col, row), colour in zip(NET, faces):
        x, y = GLUE_TAB + col * DIE_FACE, GLUE_TAB + row * DIE_FACE
        shapes += [m.Rect(x, y, DIE_FACE, DIE_FACE, fill=fills[colour], stroke=None),
                   m.Label(x + DIE_FACE / 2, y + DIE_FACE / 2 + FACE_LABEL_DROP, colour.capitalize(), size=FACE_LABEL_PT, bold=True,
                           colour="#ffffff")]
    cells = set(NET)
    tabs = {(face, side) for face, side in TABS}
    for face in NET:
        for side, (dc, dr) in SIDES.items():
            neighbour = (face[0] + dc, face[1] + dr)
            if neighbour in cells:
                if (dc, dr) in ((1, 0), (0, 1)):  # each shared edge once
                    a, b = _edge(face, side)
                    shapes.append(m.Line(*a, *b, stroke="fold", line="fold"))
            elif (face, side) in tabs:
                a, b = _edge(face, side)
                shapes += flap(a, b, OUTWARD[side], GLUE_TAB, GLUE_TAB / 2)
            else:
                a, b = _edge(face, side)
                shapes.append(m.Line(*a, *b, stroke="cut", line="cut"))
    width, height = 2 * GLUE_TAB + NET_COLUMNS * DIE_FACE, 2 * GLUE_TAB + NET_ROWS * DIE_FACE
    alt = tuple(f"face {i + 1}: {c}" for i, c in enumerate(faces)) + ("solid lines: cut; dashed lines: fold; shaded tabs: glue",)
    return m.Diagram(
        width,
        height,
        tuple(shapes),
        alt,
        caption=f"{name}, {DIE_FACE:g} mm faces: cut the solid lines, fold the dashed ones, glue the shaded tabs.",
    )
