"""Plain SVG art written straight as a form's PDF operators: what reportlab's renderer writes for svglib's
Drawing of the same SVG, without making the Drawing or running the renderer.

Converting art with svglib and drawing the Drawing with ``renderPDF`` was the
dearest step of a cold card build (some 400 arts, about a second of CPU),
though the art the templates write is plain: rect, circle, ellipse, line,
polygon and path, in groups, with fill, stroke and stroke width (and dashes,
line caps and joins, the fill rule) as attributes and hex colours. For that
art this module writes the very operators the two libraries would: the
renderer's opening state, one ``q ... Q`` per group and per shape with the
shape's whole state, each shape as the canvas method the renderer calls would
write it (``PDFPathObject`` for the path operators, ``fp_str`` for numbers,
``PATH_OPS`` for the painting operator). Each step follows svglib's
conversion (``svgpaint`` reads the same art for the design checks, by the
same rules) and the renderer's ``applyStateChanges``.

The stream never names a resource of its document (no text, no
transparency), so it is the self-contained content ``artcache`` keeps and
replays. ``tests/core/test_artstream.py`` holds it equal, byte for byte, to
the svglib route on every art of every shipped face; art using anything else
(text, opacity, styles, units inside the art, a colour that is not a hex
code...) gives None and is converted by svglib as before.
"""
from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from reportlab import rl_config
from reportlab.graphics.renderbase import STATE_DEFAULTS
from reportlab.graphics.shapes import mmult, scale, translate
from reportlab.lib.colors import Color
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import FILL_EVEN_ODD, FILL_NON_ZERO, PATH_OPS
from reportlab.pdfgen.pathobject import PDFPathObject
from svglib.svglib import Svg2RlgAttributeConverter

from pipeline.cards import svgpaint
from pipeline.cards.artmap import CURVE, LINE, MOVE, Matrix, Piece
from pipeline.cards.svgpaint import CLOSE, PX_TO_PT, SVG, ParsedPath, Unread

GROUP_IDENTITY: Matrix = (1, 0, 0, 1, 0, 0)  # a reportlab Group's own transform, before any is applied
STYLE = ("fill", "fill-rule", "stroke", "stroke-width", "stroke-linejoin", "stroke-linecap", "stroke-dasharray")
IGNORED = frozenset({"id", "stroke-miterlimit", "font-family", "font-weight", "font-style", "font-size", "text-anchor"})
SHAPES = {name: attributes for name, attributes in svgpaint.GEOMETRY.items() if name != "g"}
LINE_JOINS = {"miter": 0, "round": 1, "bevel": 2}
LINE_CAPS = {"butt": 0, "round": 1, "square": 2}
FILL_RULES = {"nonzero": FILL_NON_ZERO, "evenodd": FILL_EVEN_ODD}
# What svglib gives a shape whose SVG does not set these (its defaults, converted)
DEFAULT_STYLE = {"fill": "black", "stroke": "none", "stroke-width": "1", "fill-rule": "nonzero"}
# Renderer state the art never changes, and the values that write nothing (opacity 1 in a fresh form, and so on)
SILENT = {"strokeMiterLimit": None, "strokeOpacity": (None, 1.0), "fillOpacity": (None, 1.0), "fillOverprint": (False,),
          "strokeOverprint": (False,), "overprintMask": (0,), "fillMode": None, "fontSize": None, "fontName": None,
          "textAnchor": None, "textRenderMode": None}

Style = dict[str, str]
Lines = list[str]


def written(root: Any, parsed: Optional[Sequence[ParsedPath]] = None) -> Optional[tuple[float, float, str]]:
    """The width and height (points) and the content stream reportlab's renderer writes for svglib's Drawing of
    the SVG art ``root`` (an lxml element), or None when the art uses anything this module does not write.
    ``parsed``: the art's paths as ``svgpaint.paints`` read them, in document order (a path is taken from there
    when its ``d`` is the one met, else parsed here)."""
    try:
        return _drawing(root, parsed or ())
    except (Unread, ValueError, IndexError, KeyError, TypeError):  # (svglib's conversion says what is wrong)
        return None


def _drawing(root: Any, parsed: Sequence[ParsedPath] = ()) -> tuple[float, float, str]:
    """``renderPDF.draw`` of the Drawing ``svglib`` makes of ``root``, at (0, 0)."""
    if root.tag != f"{SVG}svg" or root.get("preserveAspectRatio") is not None:
        raise Unread("root")
    svgpaint.only(root, svgpaint.ROOT_ATTRIBUTES | IGNORED | set(STYLE))
    box = [float(v) for v in (root.get("viewBox") or "").replace(",", " ").split()]
    if len(box) != 4 or box[2] <= 0 or box[3] <= 0:
        raise Unread("viewBox")
    vx, vy, vw, vh = box
    width, height = svgpaint.root_length(root.get("width"), vw), svgpaint.root_length(root.get("height"), vh)
    # svglib's outermost group: centred uniform scale ("xMidYMid meet"), y flipped, then the viewBox origin
    uniform = min(width * PX_TO_PT / vw, height * PX_TO_PT / vh)
    tx, ty = (width * PX_TO_PT - vw * uniform) / 2, (height * PX_TO_PT - vh * uniform) / 2
    main = GROUP_IDENTITY
    if tx or ty:
        main = mmult(main, translate(tx, ty))
    main = mmult(main, scale(uniform, uniform * -1))
    main = mmult(main, translate(0 - vx, -vh - vy))
    writer = _Writer(parsed)
    lines = writer.lines
    lines.append("q")  # the renderer's own save, then its initial state
    lines.append(f"{fp_str(*GROUP_IDENTITY)} cm")
    writer.state({key: value for key, value in STATE_DEFAULTS.items() if key != "transform"})
    lines += ["q", f"{fp_str(*GROUP_IDENTITY)} cm"]  # the Drawing itself (a group)
    lines += ["q", f"{fp_str(*main)} cm"]
    writer.children(root, svgpaint.style(root, {}, STYLE))
    lines += ["Q", "Q", "Q"]
    return width * PX_TO_PT, height * PX_TO_PT, "\n".join(lines)


class _Writer:
    """The operators of one Drawing, in the renderer's order."""

    def __init__(self, parsed: Sequence[ParsedPath] = ()) -> None:
        self.lines: Lines = []
        self.convert = Svg2RlgAttributeConverter()  # svglib's own conversion of colours and lengths
        self._parsed = iter(parsed)  # the art's paths as read for its paints, in the order this writer meets them

    # -- groups -----------------------------------------------------------
    def children(self, node: Any, style: Style) -> None:
        for name, child in svgpaint.elements(node, svgpaint.GEOMETRY):
            svgpaint.only(child, SHAPES.get(name, frozenset()) | IGNORED | set(STYLE) | {"transform"})
            inner = svgpaint.style(child, style, STYLE)
            transform = child.get("transform")
            if name == "g":
                self._group(svgpaint.transform(transform, GROUP_IDENTITY) if transform else GROUP_IDENTITY,
                            lambda: self.children(child, inner))
            elif name == "path":  # svglib puts a path in a group of its own, the shape's transform on the group
                at = mmult(svgpaint.transform(transform, GROUP_IDENTITY), GROUP_IDENTITY) if transform else GROUP_IDENTITY
                self._path(child.get("d"), inner, at)
            elif transform:  # a shape with a transform: in a group of its own
                at = mmult(svgpaint.transform(transform, GROUP_IDENTITY), GROUP_IDENTITY)
                self._group(at, lambda: self._shape(name, child, inner))
            else:
                self._shape(name, child, inner)

    def _group(self, matrix: Matrix, inside: Callable[[], None]) -> None:
        self.lines += ["q", f"{fp_str(*matrix)} cm"]
        inside()
        self.lines.append("Q")

    # -- state --------------------------------------------------------------
    def state(self, delta: dict[str, Any]) -> tuple[int, int, int]:
        """Write ``delta`` as ``applyStateChanges`` does; (stroke, fill, fill mode) as the renderer then holds them."""
        stroke = fill = 0
        fill_mode = delta.get("fillMode", FILL_EVEN_ODD)
        lines = self.lines
        for key, value in sorted(delta.items()) if rl_config.invariant else delta.items():
            if key == "strokeColor":
                if value is not None:
                    stroke = 1
                    lines.append(f"{_rgb(value)} RG")
            elif key == "fillColor":
                if value is not None:
                    fill = 1
                    lines.append(f"{_rgb(value)} rg")
            elif key == "strokeWidth":
                lines.append(f"{fp_str(value)} w")
            elif key == "strokeLineCap":
                lines.append(f"{value:d} J")
            elif key == "strokeLineJoin":
                lines.append(f"{value:d} j")
            elif key == "strokeDashArray":
                lines.append(f"[{fp_str(value)}] 0 d" if value else "[] 0 d")
            elif key not in SILENT or (SILENT[key] is not None and value not in SILENT[key]):  # type: ignore[operator]
                raise Unread(f"state {key}")
        return stroke, fill, fill_mode

    def _shape_state(self, style: Style, *, filled: bool = True) -> dict[str, Any]:
        """The state svglib gives a shape (``applyStyleOnShape``), in the order of the shape's properties
        (``filled``: a shape that has a fill, not a line)."""
        look = {**DEFAULT_STYLE, **style}
        width = self._length(look["stroke-width"])
        delta: dict[str, Any] = {}
        if filled:
            delta["fillColor"] = self._colour(look["fill"])
            delta["fillOpacity"] = 1.0
        delta["strokeColor"] = self._colour(look["stroke"]) if width != 0 else None  # (svglib: no stroke 0 wide)
        delta["strokeWidth"] = width
        delta["strokeLineCap"] = LINE_CAPS[look["stroke-linecap"]] if "stroke-linecap" in look else 0
        delta["strokeLineJoin"] = LINE_JOINS[look["stroke-linejoin"]] if "stroke-linejoin" in look else 0
        delta["strokeMiterLimit"] = 0
        delta["strokeDashArray"] = self._dashes(look.get("stroke-dasharray", "none"))
        delta["strokeOpacity"] = 1.0
        if filled:
            delta["fillMode"] = FILL_RULES[look["fill-rule"]]
        return delta

    def _colour(self, value: str) -> Optional[Color]:
        value = value.replace("!important", "").strip()
        if value in ("currentColor", "inherit") or value.startswith("url("):
            raise Unread(f"colour {value}")
        colour = self.convert.convertColor(value)
        if value != "none" and not isinstance(colour, Color):
            raise Unread(f"colour {value}")
        if colour is not None and getattr(colour, "alpha", 1) != 1:
            raise Unread(f"colour {value}")  # (transparency names a resource of the document)
        return colour

    @staticmethod
    def _length(value: str) -> float:
        return svgpaint.length(value.replace("!important", "").strip())

    @staticmethod
    def _dashes(value: str) -> Optional[list[float]]:
        value = value.replace("!important", "").strip()
        if value == "none":
            return None
        dashes = [float(v) for v in value.replace(",", " ").split()]
        if not dashes or any(d < 0 for d in dashes) or sum(dashes) <= 0:
            raise Unread(f"stroke-dasharray {value}")  # (the canvas refuses these: svglib's route says so)
        return dashes

    # -- shapes ---------------------------------------------------------------
    def _node(self, delta: dict[str, Any], draw: Callable[[int, int, int], None]) -> None:
        """One shape as the renderer's ``drawNode`` writes it: saved, its state, drawn, restored."""
        self.lines.append("q")
        stroke, fill, fill_mode = self.state(delta)
        draw(stroke, fill, fill_mode)
        self.lines.append("Q")

    def _shape(self, name: str, node: Any, style: Style) -> None:
        number = lambda attribute: svgpaint.length(node.get(attribute))  # noqa: E731
        lines = self.lines
        if name == "rect":
            x, y, w, h, rx, ry = (number(a) for a in ("x", "y", "width", "height", "rx", "ry"))
            rx, ry = min(rx, w / 2), min(ry, h / 2)
            if rx and not ry:
                ry = rx
            elif ry and not rx:
                rx = ry

            def rect(stroke: int, fill: int, mode: int) -> None:
                if rx == ry == 0:
                    lines.append(f"n {fp_str(x, y, w, h)} re {PATH_OPS[stroke, fill, mode]}")
                else:
                    PDFPathObject(code=lines).roundRect(x, y, w, h, rx)
                    lines.append(PATH_OPS[stroke, fill, mode])

            self._node(self._shape_state(style), rect)
        elif name in ("circle", "ellipse"):
            if name == "circle":
                cx, cy, r = (number(a) for a in ("cx", "cy", "r"))
                rx = ry = r
            else:
                cx, cy, rx, ry = (number(a) for a in ("cx", "cy", "rx", "ry"))
            x1, x2, y1, y2 = cx - rx, cx + rx, cy - ry, cy + ry

            def ellipse(stroke: int, fill: int, mode: int) -> None:
                PDFPathObject(code=lines).ellipse(x1, y1, x2 - x1, y2 - y1)
                lines.append(PATH_OPS[stroke, fill, mode])

            self._node(self._shape_state(style), ellipse)
        elif name == "line":
            x1, y1, x2, y2 = svgpaint.nudged([number(a) for a in ("x1", "y1", "x2", "y2")])

            def line(stroke: int, fill: int, mode: int) -> None:
                if stroke:
                    lines.append(f"n {fp_str(x1, y1)} m {fp_str(x2, y2)} l S")

            self._node(self._shape_state(style, filled=False), line)
        else:  # polygon
            flat = [float(v) for v in (node.get("points") or "").replace(",", " ").split()]
            if not flat or len(flat) % 2:
                return  # (svglib draws no polygon of an odd count)
            flat = svgpaint.nudged(flat)

            def polygon(stroke: int, fill: int, mode: int) -> None:
                path = PDFPathObject()
                path.moveTo(flat[0], flat[1])
                for i in range(2, len(flat), 2):
                    path.lineTo(flat[i], flat[i + 1])
                path.close()
                lines.append(str(path.getCode()))
                lines.append(PATH_OPS[stroke, fill, mode])

            self._node(self._shape_state(style), polygon)

    def _path(self, d: Optional[str], style: Style, matrix: Matrix) -> None:
        """A path as svglib converts it: in a group, a closed unstroked copy first when a filled path leaves a
        subpath open (reportlab fills no open path), then the path itself (unfilled, then)."""
        if not d:
            return
        operators, unclosed = self._operators(d)
        if not operators or operators[0][0] != MOVE:
            raise Unread("a path not starting with a move")
        delta = self._shape_state(style)
        self.lines += ["q", f"{fp_str(*matrix)} cm"]
        if unclosed and delta["fillColor"] is not None:
            closed = list(operators)
            for at in reversed(unclosed):
                closed.insert(at, (CLOSE, ()))
            self._node({**delta, "strokeColor": None, "strokeWidth": 0}, lambda s, f, m: self._draw_path(closed, s, f, m))
            delta["fillColor"] = None
        self._node(delta, lambda s, f, m: self._draw_path(operators, s, f, m))
        self.lines.append("Q")

    def _operators(self, d: str) -> tuple[list[Piece], list[int]]:
        """``svgpaint.path_operators(d)``: the next path read for the art's paints when it is this one (the same
        function of the same text), else parsed now."""
        found = next(self._parsed, None)
        if found is not None and found[0] == d:
            return found[1], found[2]
        self._parsed = iter(())  # out of step: parse every path from here on
        return svgpaint.path_operators(d)

    def _draw_path(self, operators: list[Piece], stroke: int, fill: int, mode: int) -> None:
        """The renderer's ``drawPath`` of a path whose fill rule is ``mode`` (a path left open is not filled)."""
        path = PDFPathObject()
        moves = closes = 0
        for kind, args in operators:
            if kind == MOVE:
                moves += 1
                path.moveTo(*args)
            elif kind == LINE:
                path.lineTo(*args)
            elif kind == CURVE:
                path.curveTo(*args)
            else:
                closes += 1
                path.close()
        self.lines.append(str(path.getCode()))
        self.lines.append(PATH_OPS[stroke, fill if moves == closes else 0, mode])


def _rgb(colour: Color) -> str:
    return fp_str((colour.red, colour.green, colour.blue))
