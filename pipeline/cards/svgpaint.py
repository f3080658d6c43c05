"""A face's art read as paints straight from its SVG, without converting it to a Drawing (svglib).

The design checks need to know what the art paints where (``artmap.Paint``),
not a Drawing: converting every art layer with svglib was the dearest part
of validate's card check, and a layer's Drawing is needed only when a PDF
is drawn. So the art the templates write (plain shapes: rect, circle,
ellipse, line, polygon, path, in groups, with fill, stroke and stroke
width given as attributes, colours as hex codes, transforms translate,
scale, rotate and matrix) is read here directly.

"Exactly enough" means exactly: for the art it reads, ``paints`` gives the
very paints ``artmap.paints`` reads off svglib's Drawing of the same SVG,
the same shapes in the same order with the same colours and regions. Each
step follows svglib's own (the root's viewBox to points, each group's and
shape's transform composed in svglib's order by reportlab's own matrix
functions, lengths, rounded-corner limits, path commands through svglib's
public path helpers, attribute inheritance), and the regions are made by
the same code in ``artmap`` from the same numbers. ``tests/core/
test_svgpaint.py`` holds the two routes equal on every art layer of every
shipped face.

Art using anything else (text, style sheets, ``style=``, opacity, units
inside the art, ``use``, gradients, clipping, skew, named colours other
than black and white...) is not read here: ``paints`` returns None and the
caller converts the art with svglib as before, so an unusual template is
checked as strictly as ever, only more slowly.
"""
from __future__ import annotations

import re
from typing import Any, Collection, Iterator, Optional, Sequence

from reportlab.graphics.shapes import mmult, rotate, scale, translate
from reportlab.lib.units import toLength
from svglib.utils import bezier_arc_from_end_points, convert_quadratic_to_cubic_path, normalise_svg_path

from pipeline.cards import artmap
from pipeline.cards.artmap import CURVE, IDENTITY, LINE, MOVE, Matrix, Paint, Piece
from pipeline.cards.colours import RGB
from pipeline.cards.svgtemplates import SVG_NS

CLOSE = "Z"  # a path operator closing its subpath (svglib's Path holds these too)
PX_TO_PT = 0.75  # svglib's user unit (a CSS pixel) in points
SVG = f"{{{SVG_NS}}}"
INHERITED = ("fill", "stroke", "stroke-width")  # the presentation attributes the paints depend on
IGNORED = frozenset({  # attributes that change no paint's colour or region (or only text, which is not read here)
    "id", "fill-rule", "stroke-linecap", "stroke-linejoin", "stroke-dasharray", "stroke-miterlimit",
    "font-family", "font-weight", "font-style", "font-size", "text-anchor",
})
GEOMETRY = {
    "g": frozenset(),
    "rect": frozenset({"x", "y", "width", "height", "rx", "ry"}),
    "circle": frozenset({"cx", "cy", "r"}),
    "ellipse": frozenset({"cx", "cy", "rx", "ry"}),
    "line": frozenset({"x1", "y1", "x2", "y2"}),
    "polygon": frozenset({"points"}),
    "path": frozenset({"d"}),
}
ROOT_ATTRIBUTES = frozenset({"width", "height", "viewBox"})
USER_UNITS = {"pc": 16.0, "pt": 96 / 72, "px": 1.0}  # the units svglib converts by its own factor (user units per unit)
RELATIVE_UNITS = ("%", "em", "ex", "ch", "vw", "vh", "vmin", "vmax", "q")  # units of a box or font: not read here
NAMED = {"black": (0.0, 0.0, 0.0), "white": (1.0, 1.0, 1.0)}
HEX = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
TRANSFORM = re.compile(r"\s*(translate|scale|rotate|matrix)\s*\(([^)]*)\)\s*,?")
ARC_FLAT = 1e-10  # svglib draws an arc with a radius this small as a straight line


class Unread(Exception):
    """The art uses something this reader does not read (svglib converts it instead)."""


Style = dict[str, str]
# A path as read: its ``d`` and what ``path_operators`` made of it (the operators and where subpaths are left open)
ParsedPath = tuple[str, list[Piece], list[int]]


def paints(root: Any, parsed: Optional[list[ParsedPath]] = None) -> Optional[tuple[Paint, ...]]:
    """The paints of the SVG art ``root`` (an lxml element), as ``artmap.paints`` reads them off svglib's
    Drawing of it, or None when the art uses anything this module does not read (see the module's text).
    ``parsed``: where each path read is appended, in document order, parsed (the art's writer, ``artstream``,
    takes them from there instead of parsing the same paths again)."""
    try:
        return tuple(_svg(root, parsed))
    except (Unread, ValueError, IndexError):  # (a malformed number or path: svglib's conversion says what is wrong)
        return None


def _svg(root: Any, parsed: Optional[list[ParsedPath]] = None) -> Iterator[Paint]:
    if root.tag != f"{SVG}svg" or root.get("preserveAspectRatio") is not None:
        raise Unread("root")
    only(root, ROOT_ATTRIBUTES | IGNORED | set(INHERITED))
    box = [float(v) for v in (root.get("viewBox") or "").replace(",", " ").split()]
    if len(box) != 4 or box[2] <= 0 or box[3] <= 0:
        raise Unread("viewBox")
    vx, vy, vw, vh = box
    width, height = root_length(root.get("width"), vw), root_length(root.get("height"), vh)
    # svglib's outermost <svg>: centred uniform scale ("xMidYMid meet"), y flipped, then the viewBox origin
    uniform = min(width * PX_TO_PT / vw, height * PX_TO_PT / vh)
    tx, ty = (width * PX_TO_PT - vw * uniform) / 2, (height * PX_TO_PT - vh * uniform) / 2
    matrix = IDENTITY
    if tx or ty:
        matrix = mmult(matrix, translate(tx, ty))
    matrix = mmult(matrix, scale(uniform, -uniform))
    matrix = mmult(matrix, translate(0 - vx, -vh - vy))
    yield from _children(root, matrix, style(root, {}), parsed)


def elements(node: Any, read: Collection[str]) -> Iterator[tuple[str, Any]]:
    """Each SVG element under ``node`` with its name (comments and processing instructions skipped); Unread at
    the first element of another namespace or not in ``read``."""
    for child in node:
        if not isinstance(child.tag, str):
            continue  # a comment or processing instruction
        if not child.tag.startswith(SVG):
            raise Unread(child.tag)
        name = child.tag[len(SVG):]
        if name not in read:
            raise Unread(name)
        yield name, child


def _children(node: Any, matrix: Matrix, inherited: Style, parsed: Optional[list[ParsedPath]] = None) -> Iterator[Paint]:
    for name, child in elements(node, GEOMETRY):
        only(child, GEOMETRY[name] | IGNORED | set(INHERITED) | {"transform"})
        inner = style(child, inherited)
        given = child.get("transform")
        at = artmap.multiply(matrix, transform(given)) if given else matrix
        if name == "g":
            yield from _children(child, at, inner, parsed)
        else:
            yield from _shape(name, child, at, inner, parsed)


def _shape(name: str, node: Any, matrix: Matrix, look: Style, parsed: Optional[list[ParsedPath]] = None) -> Iterator[Paint]:
    fill, stroke = _colour(look.get("fill", "black")), _colour(look.get("stroke", "none"))
    width = length(look.get("stroke-width", "1"))
    if name == "rect":
        x, y, w, h, rx, ry = (length(node.get(a)) for a in ("x", "y", "width", "height", "rx", "ry"))
        rx = min(rx, w / 2)
        if ry and not rx:
            rx = min(ry, h / 2)
        yield from artmap.shape_paints(artmap.rect_region(x, y, w, h, rx, matrix), matrix, fill, stroke, width)
    elif name == "circle":
        cx, cy, r = (length(node.get(a)) for a in ("cx", "cy", "r"))
        yield from artmap.shape_paints(artmap.circle_region(cx, cy, r, matrix), matrix, fill, stroke, width)
    elif name == "ellipse":
        cx, cy, rx, ry = (length(node.get(a)) for a in ("cx", "cy", "rx", "ry"))
        yield from artmap.shape_paints(artmap.ellipse_region(cx, cy, rx, ry, matrix), matrix, fill, stroke, width)
    elif name == "line":
        flat = nudged([length(node.get(a)) for a in ("x1", "y1", "x2", "y2")])
        bounds = (min(flat[0], flat[2]), min(flat[1], flat[3]), max(flat[0], flat[2]), max(flat[1], flat[3]))
        yield from artmap.shape_paints(artmap.Region(artmap.transform_box(matrix, bounds)), matrix, None, stroke, width)
    elif name == "polygon":
        flat = [float(v) for v in (node.get("points") or "").replace(",", " ").split()]
        if flat and len(flat) % 2 == 0:  # (svglib draws no polygon of an odd count)
            yield from artmap.shape_paints(artmap.polygon_region(nudged(flat), matrix), matrix, fill, stroke, width)
    else:
        yield from _path(node.get("d"), matrix, fill, stroke, width, parsed)


def _path(d: Optional[str], matrix: Matrix, fill: Optional[tuple[RGB, float]], stroke: Optional[tuple[RGB, float]],
          width: float, parsed: Optional[list[ParsedPath]] = None) -> Iterator[Paint]:
    if not d:
        return
    operators, open_at = path_operators(d)
    if parsed is not None:
        parsed.append((d, operators, open_at))
    pieces, unclosed = [piece for piece in operators if piece[0] != CLOSE], bool(open_at)
    region = artmap.path_region(pieces, matrix)
    if region is None:
        return
    if unclosed and fill is not None:
        # svglib fills a path with an open subpath through a closed copy that keeps the path's stroke
        # settings, and strokes the path itself unfilled: the Drawing holds the stroke twice
        yield from artmap.shape_paints(region, matrix, fill, stroke, width)
        yield from artmap.shape_paints(region, matrix, None, stroke, width)
    else:
        yield from artmap.shape_paints(region, matrix, fill, stroke, width)


def path_operators(d: str) -> tuple[list[Piece], list[int]]:
    """A path's ``d`` as the operators of svglib's Path of it (MOVE, LINE, CURVE in absolute coordinates, and
    CLOSE), and where svglib closes the subpaths it leaves open when it fills a copy of the path (the index of
    each operator following an open subpath, and the end when the last is open)."""
    if WAVE_LETTERS.issuperset(LETTER.findall(d)):
        return _wave_operators(d)
    norm = normalise_svg_path(d)
    operators: list[Piece] = []
    points: list[float] = []  # every point set so far, flat (as a reportlab Path holds them)
    unclosed: list[int] = []
    start: list[float] = []
    last_op = ""
    last_quadratic: Optional[tuple[float, float]] = None

    def add(kind: str, *args: float) -> None:
        operators.append((kind, args))
        points.extend(args)

    for i in range(0, len(norm), 2):
        op, nums = norm[i], norm[i + 1]
        assert isinstance(op, str) and isinstance(nums, list)
        if op in ("m", "M") and i > 0 and operators[-1][0] != CLOSE:
            unclosed.append(len(operators))
        if op == "M":
            add(MOVE, *nums)
            start = points[-2:]
        elif op == "L":
            add(LINE, *nums)
        elif op == "m":
            if len(points) >= 2:
                base = start if last_op in ("Z", "z") else points[-2:]
                add(MOVE, base[0] + nums[0], base[1] + nums[1])
            else:
                add(MOVE, *nums)
            start = points[-2:]
        elif op == "l":
            add(LINE, points[-2] + nums[0], points[-1] + nums[1])
        elif op == "H":
            add(LINE, nums[0], points[-1])
        elif op == "V":
            add(LINE, points[-2], nums[0])
        elif op == "h":
            add(LINE, points[-2] + nums[0], points[-1])
        elif op == "v":
            add(LINE, points[-2], points[-1] + nums[0])
        elif op == "C":
            add(CURVE, *nums)
        elif op in ("S", "s"):
            x2, y2, xn, yn = nums
            if len(points) < 4 or last_op not in {"c", "C", "s", "S"}:
                xp, yp, x0, y0 = points[-2:] * 2
            else:
                xp, yp, x0, y0 = points[-4:]
            xi, yi = x0 + (x0 - xp), y0 + (y0 - yp)
            if op == "S":
                add(CURVE, xi, yi, x2, y2, xn, yn)
            else:
                add(CURVE, xi, yi, x0 + x2, y0 + y2, x0 + xn, y0 + yn)
        elif op == "c":
            xp, yp = points[-2:]
            x1, y1, x2, y2, xn, yn = nums
            add(CURVE, xp + x1, yp + y1, xp + x2, yp + y2, xp + xn, yp + yn)
        elif op in ("Q", "q"):
            x0, y0 = points[-2:]
            x1, y1, xn, yn = nums
            if op == "q":
                x1, y1, xn, yn = x0 + x1, y0 + y1, x0 + xn, y0 + yn
            last_quadratic = (x1, y1)
            _, (c1x, c1y), (c2x, c2y), _ = convert_quadratic_to_cubic_path((x0, y0), (x1, y1), (xn, yn))
            add(CURVE, c1x, c1y, c2x, c2y, xn, yn)
        elif op in ("T", "t"):
            xp, yp = last_quadratic if last_quadratic is not None else points[-2:]
            x0, y0 = points[-2:]
            xn, yn = nums
            if op == "t":
                xn, yn = x0 + xn, y0 + yn
            xi, yi = x0 + (x0 - xp), y0 + (y0 - yp)
            last_quadratic = (xi, yi)
            _, (c1x, c1y), (c2x, c2y), _ = convert_quadratic_to_cubic_path((x0, y0), (xi, yi), (xn, yn))
            add(CURVE, c1x, c1y, c2x, c2y, xn, yn)
        elif op in ("A", "a"):
            rx, ry, phi, large, sweep, x2, y2 = nums
            x1, y1 = points[-2:]
            if op == "a":
                x2 += x1
                y2 += y1
            if abs(rx) <= ARC_FLAT or abs(ry) <= ARC_FLAT:
                add(LINE, x2, y2)
            else:
                for _, _, c1x, c1y, c2x, c2y, xn, yn in bezier_arc_from_end_points(x1, y1, rx, ry, phi, int(large), int(sweep), x2, y2):
                    add(CURVE, c1x, c1y, c2x, c2y, xn, yn)
        elif op in ("Z", "z"):
            operators.append((CLOSE, ()))
        else:
            raise Unread(f"path operator {op}")
        if op not in ("Q", "q", "T", "t"):
            last_quadratic = None
        last_op = op
    if not operators:
        raise Unread("empty path")
    if operators[-1][0] != CLOSE:
        unclosed.append(len(operators))
    return operators, unclosed


# A path of moves, lines, relative quadratic curves and closes only: a pattern's waves, nearly all the path text
# of the shipped art (hundreds of curves a path). Read in one pass by _wave_operators, with the very numbers and
# arithmetic of svglib's normalise_svg_path and convert_quadratic_to_cubic_path.
WAVE_LETTERS = frozenset("MLqZ")
LETTER = re.compile(r"[a-zA-Z]")  # (an exponent's e or E among them: not a wave letter, so the general reading)
SVG_OPERATOR = re.compile("([achlmqstvz])", re.I)  # how svglib cuts a path into operators and their numbers
SVG_NUMBER = re.compile(r"(-?\d*\.?\d*(?:[eE][+-]?\d+)?)")  # and how it reads the numbers of one operator
WAVE_ARGUMENTS = {"M": 2, "L": 2, "q": 4, "Z": 0}


def _wave_operators(d: str) -> tuple[list[Piece], list[int]]:
    """:func:`path_operators` of a path whose letters are all M, L, q and Z: the same operators, the same numbers."""
    operators: list[Piece] = []
    unclosed: list[int] = []
    x = y = 0.0  # the last point set (svglib's Path: its points' last two)
    moved = False  # a point was set
    op = ""
    read: dict[str, list[float]] = {}  # each run of numbers read once a path: a wave's two half waves recur all along it
    for item in SVG_OPERATOR.split(d.strip()):
        if item in WAVE_ARGUMENTS:  # (an operator letter: half the items)
            op = item
            if op == CLOSE:
                operators.append((CLOSE, ()))
            continue
        if not item.strip():
            continue
        if op in ("", CLOSE):
            raise Unread("numbers before any operator or after a close")  # (svglib's reading of it is left to svglib)
        size = WAVE_ARGUMENTS[op]
        numbers = read.get(item)
        if numbers is None:
            numbers = read[item] = [float(text) for text in SVG_NUMBER.findall(item) if text]
        if not numbers or len(numbers) % size:
            raise Unread("path numbers")
        for at in range(0, len(numbers), size):
            if op == "M" and at:
                op = "L"  # (svglib: further pairs after a move are lines)
            if op == "M":
                if operators and operators[-1][0] != CLOSE:
                    unclosed.append(len(operators))
                x, y = numbers[at], numbers[at + 1]
                operators.append((MOVE, (x, y)))
                moved = True
            elif op == "L":
                x, y = numbers[at], numbers[at + 1]
                operators.append((LINE, (x, y)))
                moved = True
            else:  # q: relative to the last point, made cubic as svglib makes it
                if not moved:
                    raise Unread("a curve before any point")
                x1, y1, xn, yn = x + numbers[at], y + numbers[at + 1], x + numbers[at + 2], y + numbers[at + 3]
                c1x, c1y = x + 2 / 3 * (x1 - x), y + 2 / 3 * (y1 - y)
                c2x, c2y = c1x + 1 / 3 * (xn - x), c1y + 1 / 3 * (yn - y)
                operators.append((CURVE, (c1x, c1y, c2x, c2y, xn, yn)))
                x, y = xn, yn
    if not operators:
        raise Unread("empty path")
    if operators[-1][0] != CLOSE:
        unclosed.append(len(operators))
    return operators, unclosed


def only(node: Any, allowed: frozenset[str] | set[str]) -> None:
    """Refuse (Unread) an element with an attribute that may change its paints and is not read here."""
    for name in node.attrib:
        if not name.startswith("{") and name not in allowed:  # (namespaced: pp: marks, read by faces.py)
            raise Unread(name)


def style(node: Any, parent: Style, names: Sequence[str] = INHERITED) -> Style:
    """The presentation attributes ``names`` in force on ``node``: its own, else its nearest ancestor's (as
    svglib looks them up: an empty value or ``inherit`` looks further up)."""
    own = {name: value.strip() for name in names if (value := node.get(name)) is not None and value.strip() not in ("", "inherit")}
    return {**parent, **own} if own else parent


def _colour(value: str) -> Optional[tuple[RGB, float]]:
    """A fill or stroke as svglib reads it (opaque: opacity is never read here), None for ``none``."""
    value = value.replace("!important", "").strip()
    if value == "none":
        return None
    if value in NAMED:
        return NAMED[value], 1.0
    if not HEX.fullmatch(value):
        raise Unread(f"colour {value}")
    digits = value[1:] if len(value) == 7 else "".join(2 * c for c in value[1:])
    number = int(digits, 16)
    return ((number >> 16 & 0xFF) / 255.0, (number >> 8 & 0xFF) / 255.0, (number & 0xFF) / 255.0), 1.0


def length(value: Optional[str]) -> float:
    """A length inside the art: a plain number of user units (0 when absent)."""
    text = (value or "").replace(",", " ").strip()
    if not text:
        return 0.0
    return float(text)  # a unit or a list: ValueError, and svglib converts the art


def root_length(value: Optional[str], default: float) -> float:
    """The root's width or height in user units, as svglib converts it (a unit through reportlab's toLength)."""
    text = (value or "").strip()
    if not text:
        return default
    try:
        return float(text)
    except ValueError:
        pass
    for unit, factor in USER_UNITS.items():
        if text.endswith(unit):
            return float(text[: -len(unit)]) * factor
    if text.endswith(RELATIVE_UNITS):
        raise Unread(f"root length {text}")
    return float(toLength(text)) / PX_TO_PT  # mm, cm, in


def transform(text: str, start: Matrix = IDENTITY) -> Matrix:
    """An SVG transform list as svglib applies it to a group whose transform is ``start`` (each in turn,
    reportlab's matrices)."""
    matrix: Matrix = start
    at = 0
    while at < len(text):
        found = TRANSFORM.match(text, at)
        if found is None:
            if text[at:].strip():
                raise Unread(f"transform {text}")
            break
        at = found.end()
        op, values = found[1], [float(v) for v in found[2].replace(",", " ").split()]
        if op == "translate" and len(values) in (1, 2):
            matrix = mmult(matrix, translate(values[0], values[1] if len(values) == 2 else 0))
        elif op == "scale" and len(values) in (1, 2):
            matrix = mmult(matrix, scale(values[0], values[-1]))
        elif op == "rotate" and len(values) == 1:
            matrix = mmult(matrix, rotate(values[0]))
        elif op == "rotate" and len(values) == 3:
            angle, cx, cy = values
            matrix = mmult(mmult(mmult(matrix, translate(cx, cy)), rotate(angle)), translate(-cx, -cy))
        elif op == "matrix" and len(values) == 6:
            matrix = mmult(matrix, tuple(values))
        else:
            raise Unread(f"transform {text}")
    return matrix


def nudged(flat: list[float]) -> list[float]:
    """svglib's nudge: a shape whose points are all one point has its first x moved by a ten-millionth."""
    if len(flat) >= 4 and all(flat[i] == flat[0] and flat[i + 1] == flat[1] for i in range(2, len(flat) - 1, 2)):
        flat = [flat[0] * 1.0000001, *flat[1:]]
    return flat

