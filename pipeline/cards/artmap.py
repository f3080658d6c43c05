"""What a face's art paints where: the colours under a box of text, and the shapes near the cut.

The design checks read the art as ``Paint``s in painting order: each filled
or stroked shape with its colour, opacity and region. The paints come
straight from the art's SVG where ``svgpaint`` reads it (all the shipped
art), else from the Drawing svglib makes of it (``paints``, below): the two
give the same paints, made by the region functions here from the same
numbers. Two questions are then answered for a box:

- ``colours_under``: the colour that covers the whole box (the background
  a text is set on: everything painted over all of it, composited onto white
  paper) and every colour that may show under some part of it (adding each
  shape that reaches only part of the box, such as a faded emblem or a
  border line running through a text);
- ``inside``: the shapes that lie wholly inside the trim, with how close each
  comes to the cut (decoration near the cut shows every cutting error).

Coordinates are points, y up, from the bleed box's bottom-left corner, like
the Drawing's and the text slots'. Regions are exact for what the templates
draw (rounded rectangles, circles, straight-edged convex shapes); any other
shape counts by its bounding box and never as covering a box, so an unknown
shape can only make a check stricter.
"""
from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Iterator, NamedTuple, Optional, Sequence

from reportlab.graphics import shapes as rl
from reportlab.pdfbase.pdfmetrics import stringWidth
from svglib.svglib import SvgRenderer

from pipeline.base.errors import UserError
from pipeline.cards import fonts
from pipeline.cards.colours import CHANNEL_MAX, RGB, WHITE, blend
from pipeline.cards.svgtemplates import SVG_NS

if TYPE_CHECKING:
    from reportlab.graphics import shapes as rl
    from reportlab.lib.colors import Color

Box = tuple[float, float, float, float]  # x0, y0, x1, y1
Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
EPSILON = 1e-6
MAX_COLOURS = 64  # colours kept per box (partial shapes multiply them; more changes no verdict)
CURVE_STEPS = 8  # straight pieces per Bezier curve when a path is flattened
ELLIPSE_STEPS = 24  # corners of the polygon standing for an ellipse
ROUNDING = 1e-9  # an outline's bounds: how much wider than its control points, for each unit of their size

logging.getLogger("svglib.svglib").setLevel(logging.ERROR)


def convert(root: Any, where: str) -> Any:
    """SVG art as a reportlab Drawing (svglib), after checking that the font has every character its text uses."""
    fonts.register_for_svg()
    for node in root.iter(f"{{{SVG_NS}}}text", f"{{{SVG_NS}}}tspan"):
        style = fonts.svg_style(node.get("font-weight"), node.get("font-style"))
        fonts.check_glyphs(node.text or "", f"{where} (template art)", style)
    try:
        return SvgRenderer("").render(root)
    except Exception as exc:  # svglib raises many kinds for malformed art
        raise UserError(f"{where}: cannot convert the template art: {type(exc).__name__}: {exc}") from None


def multiply(outer: Matrix, inner: Matrix) -> Matrix:
    """The matrix applying ``inner`` first, then ``outer`` (PDF / reportlab convention)."""
    a, b, c, d, e, f = outer
    p, q, r, s, t, u = inner
    return (a * p + c * q, b * p + d * q, a * r + c * s, b * r + d * s, a * t + c * u + e, b * t + d * u + f)


def apply(matrix: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = matrix
    return a * x + c * y + e, b * x + d * y + f


def box_of(points: Iterable[tuple[float, float]]) -> Box:
    listed = points if isinstance(points, (list, tuple)) else list(points)
    xs = [x for x, _ in listed]
    ys = [y for _, y in listed]
    return min(xs), min(ys), max(xs), max(ys)


def transform_box(matrix: Matrix, box: Box) -> Box:
    x0, y0, x1, y1 = box
    return box_of(apply(matrix, x, y) for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)))


def _corners(box: Box) -> tuple[tuple[float, float], ...]:
    x0, y0, x1, y1 = box
    return ((x0, y0), (x1, y0), (x0, y1), (x1, y1))


def intersects(a: Box, b: Box) -> bool:
    return a[0] < b[2] - EPSILON and b[0] < a[2] - EPSILON and a[1] < b[3] - EPSILON and b[1] < a[3] - EPSILON


def contains(outer: Box, inner: Box) -> bool:
    return (
        outer[0] <= inner[0] + EPSILON
        and outer[1] <= inner[1] + EPSILON
        and inner[2] <= outer[2] + EPSILON
        and inner[3] <= outer[3] + EPSILON
    )


def grow(box: Box, by: float) -> Box:
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


# -- regions ------------------------------------------------------------------
@dataclass(frozen=True)
class Region:
    """A painted area: its bounding box; ``covers`` is exact where the subclass knows the shape."""

    bounds: Box

    def covers(self, box: Box) -> bool:
        return False

    def touches(self, box: Box) -> bool:
        return intersects(self.bounds, box)

    def shrunk(self, by: float) -> Optional[Region]:
        """The region with ``by`` taken off every edge (None when nothing is left or the shape is unknown)."""
        return None

    def extent(self) -> Box:
        """The region's exact bounding box (``bounds`` is it, but for an outline's, which only holds it)."""
        return self.bounds

    def within(self, box: Box) -> bool:
        """Whether the region lies wholly inside ``box`` (its extent does)."""
        return contains(box, self.bounds)


@dataclass(frozen=True)
class RoundedRect(Region):
    radius: float = 0.0

    def covers(self, box: Box) -> bool:
        """Whether the box lies within the bounds (``contains``) and each of its corners within the radius of
        the rectangle the corners' centres span. Written out, not as calls per corner: the design checks ask
        this of every panel under every line of text."""
        x0, y0, x1, y1 = self.bounds
        left, bottom, right, top = box
        if not (x0 <= left + EPSILON and y0 <= bottom + EPSILON and right <= x1 + EPSILON and top <= y1 + EPSILON):
            return False
        r = min(self.radius, (x1 - x0) / 2, (y1 - y0) / 2)
        low_x, high_x, low_y, high_y = x0 + r, x1 - r, y0 + r, y1 - r
        limit = r * r + EPSILON
        for x in (left, right):
            across = (x - min(max(x, low_x), high_x)) ** 2
            for y in (bottom, top):
                if across + (y - min(max(y, low_y), high_y)) ** 2 > limit:
                    return False
        return True

    def shrunk(self, by: float) -> Optional[Region]:
        x0, y0, x1, y1 = self.bounds
        if x1 - x0 <= 2 * by or y1 - y0 <= 2 * by:
            return None
        return RoundedRect((x0 + by, y0 + by, x1 - by, y1 - by), max(0.0, self.radius - by))


@dataclass(frozen=True)
class Disc(Region):
    cx: float = 0.0
    cy: float = 0.0
    r: float = 0.0

    def covers(self, box: Box) -> bool:
        return contains(self.bounds, box) and all((x - self.cx) ** 2 + (y - self.cy) ** 2 <= self.r**2 + EPSILON for x, y in _corners(box))

    def shrunk(self, by: float) -> Optional[Region]:
        r = self.r - by
        return Disc((self.cx - r, self.cy - r, self.cx + r, self.cy + r), self.cx, self.cy, r) if r > 0 else None


@dataclass(frozen=True)
class ConvexPolygon(Region):
    points: tuple[tuple[float, float], ...] = ()

    def covers(self, box: Box) -> bool:
        # the bounds first: most shapes are far from most boxes, and the corner test is dear
        if not contains(self.bounds, box):
            return False
        # each corner inside: its cross products with every edge of one sign (those within EPSILON of zero
        # ignored), the four corners tested in one pass over the edges
        x0, y0, x1, y1 = box
        corners = ((x0, y0), (x1, y0), (x0, y1), (x1, y1))
        signs = [0.0, 0.0, 0.0, 0.0]  # the last sign found for each corner
        points = self.points
        ax, ay = points[-1]
        for bx, by in points:
            dx, dy = bx - ax, by - ay
            for corner, (cx, cy) in enumerate(corners):
                cross = dx * (cy - ay) - dy * (cx - ax)
                if abs(cross) > EPSILON:
                    if signs[corner] and (cross > 0) != (signs[corner] > 0):
                        return False
                    signs[corner] = cross
            ax, ay = bx, by
        return True

    def shrunk(self, by: float) -> Optional[Region]:
        """Each edge moved ``by`` inward, the corners where the moved edges meet."""
        count = len(self.points)
        orientation = 1.0 if _signed_area(self.points) > 0 else -1.0
        lines = []
        for i in range(count):
            (ax, ay), (bx, by_) = self.points[i], self.points[(i + 1) % count]
            length = math.hypot(bx - ax, by_ - ay)
            if length <= EPSILON:
                continue
            nx, ny = -(by_ - ay) / length * orientation, (bx - ax) / length * orientation  # inward normal
            lines.append(((ax + nx * by, ay + ny * by), (bx - ax, by_ - ay)))
        corners = []
        for i in range(len(lines)):
            (p, d), (q, e) = lines[i - 1], lines[i]
            cross = d[0] * e[1] - d[1] * e[0]
            if abs(cross) <= EPSILON:
                continue
            t = ((q[0] - p[0]) * e[1] - (q[1] - p[1]) * e[0]) / cross
            corners.append((p[0] + t * d[0], p[1] + t * d[1]))
        if len(corners) < 3 or _signed_area(corners) * orientation <= 0:
            return None
        return ConvexPolygon(box_of(corners), tuple(corners))


@dataclass(frozen=True)
class Outline(Region):
    """Any other shape: a path's pieces through ``matrix``, flattened into polygons (each curve as CURVE_STEPS
    straight pieces) when a question needs its points: exact for whether it reaches a box, never covering one.

    Its ``bounds`` are a box that holds it (its pieces' points, control points included, through the matrix, a
    rounding's width wider): what a box answers (whether a text box may be near it) is answered without its
    points. The exact extent is worked out where a question needs it (whether it touches a box that box reaches,
    whether it lies inside the trim when the points it passes through do): the largest outlines (a frame's
    pattern of waves, thousands of points, under a panel and across the cut) are never flattened at all."""

    pieces: tuple[Piece, ...] = ()
    matrix: Matrix = IDENTITY

    def flattened(self) -> tuple[Box, list[list[tuple[float, float]]]]:
        """The outline's extent and polygons, flattened afresh (each call)."""
        xs, ys, starts = _flattened(self.pieces, self.matrix)
        ends = [*starts[1:], len(xs)]
        rings = [list(zip(xs[start:end], ys[start:end])) for start, end in zip(starts, ends)]
        return (min(xs), min(ys), max(xs), max(ys)), rings

    def rings(self) -> list[list[tuple[float, float]]]:
        """The outline's polygons, flattened afresh (each call)."""
        return self.flattened()[1]

    def extent(self) -> Box:
        return self.flattened()[0]

    def within(self, box: Box) -> bool:
        # the points the path passes through (moves and lines) are points of its flattening: one outside the box
        # settles it without flattening a curve
        a, b, c, d, e, f = self.matrix
        for kind, args in self.pieces:
            if kind != CURVE:
                x, y = args[0], args[1]
                if not contains(box, (a * x + c * y + e, b * x + d * y + f) * 2):
                    return False
        return contains(box, self.extent())

    def touches(self, box: Box) -> bool:
        if not intersects(self.bounds, box):  # (the bounds hold the extent: no meeting there, none at all)
            return False
        extent, rings = self.flattened()
        if not intersects(extent, box):
            return False
        x0, y0, x1, y1 = box
        for ring in rings:
            if any(x0 <= x <= x1 and y0 <= y <= y1 for x, y in ring):
                return True
            if any(_crosses(ring[i - 1], ring[i], box) for i in range(len(ring))):
                return True
        return _inside_rings(rings, (x0 + x1) / 2, (y0 + y1) / 2)


@dataclass(frozen=True)
class Stroke(Region):
    """The line along an outline's polygons, ``half`` its width either side (its ``bounds``: the outline's grown
    by ``half``, so they hold the stroke as the outline's hold the outline)."""

    outline: Outline = Outline((0.0, 0.0, 0.0, 0.0))
    half: float = 0.0

    def extent(self) -> Box:
        return grow(self.outline.extent(), self.half)

    def within(self, box: Box) -> bool:
        return contains(box, self.extent())

    def touches(self, box: Box) -> bool:
        if not intersects(self.bounds, box):
            return False
        extent, rings = self.outline.flattened()
        if not intersects(grow(extent, self.half), box):
            return False
        near = grow(box, self.half)
        x0, y0, x1, y1 = near
        return any(
            any(x0 <= x <= x1 and y0 <= y <= y1 for x, y in ring) or any(_crosses(ring[i - 1], ring[i], near) for i in range(1, len(ring)))
            for ring in rings
        )


def _crosses(a: tuple[float, float], b: tuple[float, float], box: Box) -> bool:
    """Whether segment ab crosses an edge of ``box``."""
    x0, y0, x1, y1 = box
    edges = (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0)))
    return any(_segments_cross(a, b, c, d) for c, d in edges)


def _segments_cross(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float], d: tuple[float, float]) -> bool:
    def side(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float]) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


def _inside_rings(rings: Sequence[Sequence[tuple[float, float]]], x: float, y: float) -> bool:
    """Even-odd rule: whether (x, y) is inside the shape the rings make."""
    inside = False
    for ring in rings:
        for i in range(len(ring)):
            (ax, ay), (bx, by) = ring[i - 1], ring[i]
            if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
                inside = not inside
    return inside


@dataclass(frozen=True)
class Ring(Region):
    """A stroke: the band between a shape's outer and inner edges; it never covers a box."""

    inner: Optional[Region] = None

    def touches(self, box: Box) -> bool:
        return intersects(self.bounds, box) and not (self.inner is not None and self.inner.covers(box))


class Paint(NamedTuple):
    """One filled or stroked shape: its colour, opacity and region (a named tuple: one for every shape of the art)."""

    colour: RGB
    opacity: float
    region: Region
    stroke: bool = False


# -- reading Drawings (each reader imports reportlab's shapes: see ``convert``) ---------
def paints(drawings: Sequence[Any]) -> tuple[Paint, ...]:
    """The paints of drawings laid one over the other (bottom first), in painting order."""
    found: list[Paint] = []
    for drawing in drawings:
        found.extend(_walk(drawing, IDENTITY))
    return tuple(found)


def _walk(node: Any, matrix: Matrix) -> Iterator[Paint]:
    if isinstance(node, (rl.Group, rl.Drawing)):
        inner = multiply(matrix, tuple(node.transform)) if getattr(node, "transform", None) else matrix
        for child in node.contents:
            yield from _walk(child, inner)
        return
    region = _region(node, matrix)
    if region is None:
        return
    fill = _colour(getattr(node, "fillColor", None), getattr(node, "fillOpacity", None))
    stroke = _colour(getattr(node, "strokeColor", None), getattr(node, "strokeOpacity", None))
    width = float(getattr(node, "strokeWidth", 0) or 0)
    yield from shape_paints(region, matrix, None if isinstance(node, (rl.Line, rl.PolyLine)) else fill, stroke, width)


def shape_paints(region: Region, matrix: Matrix, fill: Optional[tuple[RGB, float]], stroke: Optional[tuple[RGB, float]],
                 stroke_width: float) -> Iterator[Paint]:
    """What one shape paints: its fill (colour and opacity, None for none) over ``region``, then its stroke, a
    line ``stroke_width`` wide in the shape's own units (``matrix`` takes them to the face)."""
    if fill is not None:
        yield Paint(fill[0], fill[1], region)
    width = stroke_width * _scale(matrix)
    if stroke is not None and width > 0:
        half = width / 2
        if isinstance(region, Outline):
            yield Paint(stroke[0], stroke[1], Stroke(grow(region.bounds, half), region, half), stroke=True)
        else:
            yield Paint(stroke[0], stroke[1], Ring(grow(region.bounds, half), region.shrunk(half)), stroke=True)


def _colour(colour: Optional[Color], opacity: Optional[float]) -> Optional[tuple[RGB, float]]:
    if colour is None:
        return None
    alpha = float(opacity) if opacity is not None else float(getattr(colour, "alpha", 1.0))
    if alpha <= 0:
        return None
    return (float(colour.red), float(colour.green), float(colour.blue)), min(alpha, 1.0)


def _scale(matrix: Matrix) -> float:
    a, b, c, d, _, _ = matrix
    return math.sqrt(abs(a * d - b * c))


def _axis_aligned(matrix: Matrix) -> bool:
    a, b, c, d, _, _ = matrix
    return (abs(b) < EPSILON and abs(c) < EPSILON) or (abs(a) < EPSILON and abs(d) < EPSILON)


def _region(node: Any, matrix: Matrix) -> Optional[Region]:
    """The region a shape covers on the face, or None for what paints no area of its own (text)."""
    if isinstance(node, rl.Rect):
        return rect_region(node.x, node.y, node.width, node.height, float(node.rx or 0), matrix)
    if isinstance(node, rl.Circle):
        return circle_region(node.cx, node.cy, node.r, matrix)
    if isinstance(node, rl.Polygon):
        return polygon_region(node.points, matrix)
    if isinstance(node, rl.Path):
        return path_region(_path_pieces(node), matrix)
    if isinstance(node, rl.Ellipse):
        return ellipse_region(node.cx, node.cy, node.rx, node.ry, matrix)
    if isinstance(node, rl.String):
        return None
    bounds = node.getBounds() if hasattr(node, "getBounds") else None
    return Region(transform_box(matrix, tuple(bounds))) if bounds else None


# -- regions of shapes, from their numbers (the Drawing's shapes above, or the SVG itself: svgpaint.py) ----------
def rect_region(x: float, y: float, width: float, height: float, rx: float, matrix: Matrix) -> Region:
    box = (x, y, x + width, y + height)
    if _axis_aligned(matrix):
        return RoundedRect(transform_box(matrix, box), rx * _scale(matrix))
    return _polygon([apply(matrix, x, y) for x, y in ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3]))])


def circle_region(cx: float, cy: float, r: float, matrix: Matrix) -> Region:
    cx, cy = apply(matrix, cx, cy)
    r = r * _scale(matrix)
    return Disc((cx - r, cy - r, cx + r, cy + r), cx, cy, r)


def polygon_region(flat: Sequence[float], matrix: Matrix) -> Region:
    """A polygon given as x0, y0, x1, y1, ..."""
    return _polygon([apply(matrix, flat[i], flat[i + 1]) for i in range(0, len(flat) - 1, 2)])


MOVE, LINE, CURVE = "M", "L", "C"
Piece = tuple[str, Sequence[float]]  # a path's piece: MOVE x y, LINE x y or CURVE x1 y1 x2 y2 x3 y3
# The operator codes of a reportlab Path (its public ``Path(points, operators)`` arguments, which its moveTo,
# lineTo, curveTo and closePath append): the piece each draws and how many of ``points`` it takes.
PATH_OPERATORS: dict[int, tuple[Optional[str], int]] = {0: (MOVE, 2), 1: (LINE, 2), 2: (CURVE, 6), 3: (None, 0)}


def path_region(pieces: Sequence[Piece], matrix: Matrix) -> Optional[Region]:
    """The region of a path: its subpaths as polygons, each curve as CURVE_STEPS straight pieces, through
    ``matrix``: a convex polygon when it is one subpath that turns one way, else an outline that keeps the
    pieces, not the points (see ``Outline``). A path of one subpath is flattened only as far as it turns one
    way (a wave turns back within its first curve); an outline is not flattened here at all."""
    subpaths, count = _subpaths(pieces)
    if not subpaths:
        return None
    if subpaths == 1 and count >= 3:
        ring = _convex_ring(_points(pieces, matrix))
        if ring is not None:
            xs = [x for x, _ in ring]
            ys = [y for _, y in ring]
            return ConvexPolygon((min(xs), min(ys), max(xs), max(ys)), tuple(ring))
    # the pieces as they are when they are tuples already (svgpaint's), else made so (a Drawing's list slices)
    kept = tuple(pieces) if all(type(piece[1]) is tuple for piece in pieces) else tuple(
        piece if type(piece[1]) is tuple else (piece[0], tuple(piece[1])) for piece in pieces)
    return Outline(_holding_box(kept, matrix), kept, matrix)


def _subpaths(pieces: Sequence[Piece]) -> tuple[int, int]:
    """How many subpaths ``_flattened`` finds in a path, and how many points it gives, without flattening."""
    subpaths = count = 0
    for kind, _ in pieces:
        if kind == MOVE:
            subpaths += 1
            count += 1
        elif kind == LINE:
            subpaths = subpaths or 1
            count += 1
        elif kind == CURVE and subpaths:
            count += CURVE_STEPS
    return subpaths, count


def _holding_box(pieces: Sequence[Piece], matrix: Matrix) -> Box:
    """A box holding every point ``_flattened`` gives: the box of the pieces' points (a curve lies within its
    control points' hull) through ``matrix``, grown by far more than the rounding of the flattening's sums."""
    flat = [value for _, args in pieces for value in args]  # (x, y pairs: every piece has an even count)
    xs, ys = flat[0::2], flat[1::2]
    x0, y0, x1, y1 = transform_box(matrix, (min(xs), min(ys), max(xs), max(ys)))
    return grow((x0, y0, x1, y1), ROUNDING * (1.0 + max(abs(x0), abs(y0), abs(x1), abs(y1))))


def _points(pieces: Sequence[Piece], matrix: Matrix) -> Iterator[tuple[float, float]]:
    """The points of ``_flattened`` one by one (the same arithmetic), for a question that may stop early."""
    a, b, c, d, e, f = matrix
    started = False
    x, y = 0.0, 0.0
    for kind, args in pieces:
        if kind == MOVE or kind == LINE:
            started = True
            x, y = args[0], args[1]
            yield a * x + c * y + e, b * x + d * y + f
        elif kind == CURVE and started:
            x0, y0 = x, y
            x1, y1, x2, y2, x3, y3 = args
            for w0, w1, w2, w3 in CURVE_WEIGHTS:
                x, y = w0 * x0 + w1 * x1 + w2 * x2 + w3 * x3, w0 * y0 + w1 * y1 + w2 * y2 + w3 * y3
                yield a * x + c * y + e, b * x + d * y + f


def _convex_ring(points: Iterator[tuple[float, float]]) -> Optional[list[tuple[float, float]]]:
    """The ring of ``points`` when every corner turns the same way (``_convex``'s test, its corners in its
    order), else None as soon as one turns the other way (the rest of the points are not made)."""
    ring: list[tuple[float, float]] = []
    sign: Optional[float] = 0.0
    for point in points:
        ring.append(point)
        if len(ring) >= 3:
            sign = _turn(sign, ring[-3], ring[-2], point)
            if sign is None:
                return None
    count = len(ring)
    for i in (count - 2, count - 1):  # the two corners across the ring's start
        sign = _turn(sign, ring[i], ring[(i + 1) % count], ring[(i + 2) % count])
        if sign is None:
            return None
    return ring


def _turn(sign: Optional[float], a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> Optional[float]:
    """One step of ``_one_sign`` at corner abc (``sign``: the last cross product kept)."""
    return _kept_sign(sign, _cross(a, b, c))


def _cross(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
    """How corner abc turns: the cross product of its two sides (positive: counter-clockwise)."""
    (ax, ay), (bx, by), (cx, cy) = a, b, c
    return (bx - ax) * (cy - by) - (by - ay) * (cx - bx)


def _kept_sign(sign: Optional[float], cross: float) -> Optional[float]:
    """The cross product to keep after ``cross`` (``sign`` when it is within EPSILON of zero), None when it
    turns against ``sign``."""
    if abs(cross) <= EPSILON:
        return sign
    if sign and (cross > 0) != (sign > 0):
        return None
    return cross


def _flattened(pieces: Sequence[Piece], matrix: Matrix) -> tuple[list[float], list[float], list[int]]:
    """A path's points through ``matrix``, each curve as CURVE_STEPS straight pieces: the x and the y of every
    point, and where each subpath starts among them (a move starts one, as does a line before any move; a curve
    before any point draws nothing). One pass: each point is flattened and placed as it comes (``apply`` written
    out: this runs for every point of every path, a wave pattern's hundreds of curves among them), its
    coordinates listed apart, so no pair is made for a point that is only counted in the bounds."""
    a, b, c, d, e, f = matrix
    xs: list[float] = []
    ys: list[float] = []
    starts: list[int] = []
    x, y = 0.0, 0.0  # the last point, before ``matrix``: where the next curve starts
    for kind, args in pieces:
        if kind == MOVE:
            starts.append(len(xs))
            x, y = args[0], args[1]
            xs.append(a * x + c * y + e)
            ys.append(b * x + d * y + f)
        elif kind == LINE:
            if not starts:
                starts.append(0)
            x, y = args[0], args[1]
            xs.append(a * x + c * y + e)
            ys.append(b * x + d * y + f)
        elif kind == CURVE and starts:
            x0, y0 = x, y
            x1, y1, x2, y2, x3, y3 = args
            for w0, w1, w2, w3 in CURVE_WEIGHTS:
                x, y = w0 * x0 + w1 * x1 + w2 * x2 + w3 * x3, w0 * y0 + w1 * y1 + w2 * y2 + w3 * y3
                xs.append(a * x + c * y + e)
                ys.append(b * x + d * y + f)
    return xs, ys, starts


def _path_pieces(path: rl.Path) -> list[Piece]:
    """A reportlab Path as pieces (a close draws no piece: its ring is closed all the same)."""
    pieces: list[Piece] = []
    points, at = path.points, 0
    for op in path.operators:
        kind, count = PATH_OPERATORS[op]
        if kind is not None:
            pieces.append((kind, points[at : at + count]))
        at += count
    return pieces


def _bezier_weights(steps: int) -> tuple[tuple[float, float, float, float], ...]:
    """The four Bernstein weights of each step's end point along a cubic curve (t = step / steps)."""
    weights = []
    for step in range(1, steps + 1):
        t = step / steps
        u = 1 - t
        weights.append((u**3, 3 * u * u * t, 3 * u * t * t, t**3))
    return tuple(weights)


# (``3 * u * u * t * x1`` multiplies left to right, so weight times coordinate is the same number it always was)
CURVE_WEIGHTS = _bezier_weights(CURVE_STEPS)


def ellipse_region(cx: float, cy: float, rx: float, ry: float, matrix: Matrix) -> Region:
    ring = [
        apply(
            matrix,
            cx + rx * math.cos(2 * math.pi * i / ELLIPSE_STEPS),
            cy + ry * math.sin(2 * math.pi * i / ELLIPSE_STEPS),
        )
        for i in range(ELLIPSE_STEPS)
    ]
    return ConvexPolygon(box_of(ring), tuple(ring))


def _polygon(points: list[tuple[float, float]]) -> Region:
    bounds = box_of(points)
    return ConvexPolygon(bounds, tuple(points)) if _convex(points) else Region(bounds)


def _signed_area(points: Sequence[tuple[float, float]]) -> float:
    """Twice the signed area (positive: counter-clockwise)."""
    return sum(points[i - 1][0] * points[i][1] - points[i][0] * points[i - 1][1] for i in range(len(points)))


def _convex(points: list[tuple[float, float]]) -> bool:
    """Every corner turns the same way."""
    count = len(points)
    corners = ((points[i], points[(i + 1) % count], points[(i + 2) % count]) for i in range(count))
    return _one_sign(_cross(a, b, c) for a, b, c in corners)


def _one_sign(crosses: Iterable[float]) -> bool:
    """No two of these cross products have opposite signs (those within EPSILON of zero are ignored)."""
    sign: Optional[float] = 0.0
    for cross in crosses:
        sign = _kept_sign(sign, cross)
        if sign is None:
            return False
    return True


# -- questions ---------------------------------------------------------------------
class Under(NamedTuple):
    """The colours under a box: ``base`` covers all of it; ``every`` is each colour some part may show."""

    base: str
    every: tuple[str, ...]


def colours_under(painted: Sequence[Paint], box: Box, paper: RGB = WHITE) -> Under:
    """The colours under ``box`` when ``painted`` is laid on ``paper`` in order (see :class:`Under`).

    Colours are told apart as the hex codes name them (8 bits a channel), but kept as integer triples while the
    shapes are laid: sorted, a triple orders as its hex code does, so the colours kept past MAX_COLOURS are the
    same, and a hex code is written only for the answer (the base's too, from its triple: what ``to_hex``
    writes, see ``_key``)."""
    start, covering = _top_cover(painted, box)
    base = paper
    every: dict[tuple[int, int, int], RGB] = {_key(paper): paper}
    for paint, covers in zip(painted[start:], covering):
        if covers:
            base = blend(paint.colour, paint.opacity, base)
            every = _over(paint, every.values())
        elif paint.region.touches(box):
            every.update(_over(paint, every.values()))
        if len(every) > MAX_COLOURS:
            every = dict(sorted(every.items())[:MAX_COLOURS])
    return Under("#%02x%02x%02x" % _key(base), tuple("#%02x%02x%02x" % key for key in sorted(every)))


def reaching(painted: Sequence[Paint], boxes: Sequence[Box]) -> tuple[Paint, ...]:
    """The paints that may cover or touch any of ``boxes`` (their bounds reach the boxes' union, edges
    included): ``colours_under`` of any of the boxes gives the same answer over these as over all ``painted``,
    since a paint that neither covers nor touches a box changes nothing under it."""
    if not boxes:
        return ()
    x0, y0 = min(box[0] for box in boxes) - EPSILON, min(box[1] for box in boxes) - EPSILON
    x1, y1 = max(box[2] for box in boxes) + EPSILON, max(box[3] for box in boxes) + EPSILON
    return tuple(paint for paint in painted
                 if paint.region.bounds[0] <= x1 and x0 <= paint.region.bounds[2]
                 and paint.region.bounds[1] <= y1 and y0 <= paint.region.bounds[3])


def _top_cover(painted: Sequence[Paint], box: Box) -> tuple[int, list[bool]]:
    """Where laying ``painted`` over a box may start: at the topmost opaque paint covering all of it (it
    leaves its own colour alone under the box, whatever was below: a face's art is opaque, so a text on a
    panel is not held to the frame under the panel), else at the bottom; and whether each paint from there
    up covers the box (found on the way down, so the laying does not ask again)."""
    covering: list[bool] = []
    at = len(painted) - 1
    while at >= 0:
        paint = painted[at]
        covers = paint.region.covers(box)
        covering.append(covers)
        if covers and paint.opacity == 1:
            break
        at -= 1
    covering.reverse()
    return max(at, 0), covering


def _key(colour: RGB) -> tuple[int, int, int]:
    """The 8-bit channels ``to_hex`` writes for ``colour`` (a blend of colours in 0..1 stays in 0..1, so
    the clamp ``to_hex`` applies changes no channel here)."""
    return round(colour[0] * CHANNEL_MAX), round(colour[1] * CHANNEL_MAX), round(colour[2] * CHANNEL_MAX)


def _over(paint: Paint, below: Iterable[RGB]) -> dict[tuple[int, int, int], RGB]:
    """``paint`` over each colour of ``below``, by 8-bit channels (opaque paint: its own colour, whatever is below)."""
    if paint.opacity == 1:
        return {_key(paint.colour): paint.colour}
    out: dict[tuple[int, int, int], RGB] = {}
    for colour in below:
        mixed = blend(paint.colour, paint.opacity, colour)
        out[_key(mixed)] = mixed
    return out


def inside(painted: Sequence[Paint], trim: Box) -> Iterator[tuple[Paint, float]]:
    """Each paint lying wholly inside the trim, with its distance (points) to the nearest cut line."""
    for paint in painted:
        if paint.region.within(trim):
            bounds = paint.region.extent()
            yield paint, min(bounds[0] - trim[0], bounds[1] - trim[1], trim[2] - bounds[2], trim[3] - bounds[3])


@dataclass(frozen=True)
class Letter:
    """Text drawn inside art (a letter on an icon): its box (advance width by cap height: icons print
    capitals and digits), size and colour, and what was painted before it."""

    box: Box
    size: float  # points, in the drawing's units
    colour: RGB
    below: tuple[Paint, ...]


ASCENT, DESCENT = 0.76, 0.24  # of the font size, above and below the baseline (as text.py sets lines)
CAP_HEIGHT = 0.73  # of the font size: how far a capital letter or digit reaches above the baseline (Vera)


def letters(drawing: Any) -> tuple[Letter, ...]:
    """Every piece of text in ``drawing``, with the paints under it."""
    found: list[Letter] = []
    painted: list[Paint] = []
    _letters(drawing, IDENTITY, painted, found)
    return tuple(found)


def _letters(node: Any, matrix: Matrix, painted: list[Paint], found: list[Letter]) -> None:
    if isinstance(node, (rl.Group, rl.Drawing)):
        inner = multiply(matrix, tuple(node.transform)) if getattr(node, "transform", None) else matrix
        for child in node.contents:
            _letters(child, inner, painted, found)
        return
    if isinstance(node, rl.String):
        colour = _colour(node.fillColor, getattr(node, "fillOpacity", None))
        if colour is None:
            return
        width = stringWidth(node.text, node.fontName, node.fontSize)
        start = {"middle": node.x - width / 2, "end": node.x - width}.get(node.textAnchor, node.x)
        box = transform_box(matrix, (start, node.y, start + width, node.y + CAP_HEIGHT * node.fontSize))
        # svglib flips text back upright inside a y-down group: the size is the matrix's scale times the font size
        found.append(Letter(box, node.fontSize * _scale(matrix), colour[0], tuple(painted)))
        return
    painted.extend(_walk(node, matrix))
