"""Line patterns laid over a box of card art, as SVG markup: what a template's ``pattern(...)`` draws.

A pattern is a list of kinds, each a set of lines ``pitch`` mm apart and ``line`` mm thick, every one running
from edge to edge of the box (across the cut, when the box is the bleed box) and never past it:

- ``rising`` (/) and ``falling`` (\\): 45-degree bands, each cut to the box;
- ``rows`` and ``columns``: straight bars half a line thick;
- ``waves``: horizontal waves, a half wave every pitch;
- ``zigzags``: horizontal zigzags, a turn every pitch.

The shapes are pure geometry, many per card: made here in Python, not in template loops, where they cost most
of a face's render. Numbers are written as ``str`` writes them (as a template's ``{{ }}`` printed them before),
so the markup, and every PDF drawn from it, is what the template drew.

A template's ``pattern(...)`` prints a mark, not the shapes: one ``<pp:pattern>`` element holding the call's
arguments (``marked``). The shapes (a frame's pattern is thousands of numbers) are drawn where a face is split
into art layers (``pipeline/cards/faces.py``, through ``drawn``), once for each distinct layer, not rendered,
parsed and compared again for each of the dozens of faces that share one god's frame. The layer holds what the
template would have held had it printed the shapes itself.
"""
from __future__ import annotations

import math
from typing import Callable, Mapping, Sequence, Union

from markupsafe import Markup, escape

WAVE_HEIGHT = 1.0  # mm: a wave's control point above or below its line
ZIGZAG_HEIGHT = 0.7  # mm: a zigzag's turn above or below its line


MARK = "pattern"  # the local name of the element a template's pattern(...) prints (in the pp: namespace)


def pattern(kinds: Sequence[str], x0: float, y0: float, x1: float, y1: float, colour: str, *,
            pitch: float, line: float) -> Markup:
    """The ``kinds`` of pattern in ``colour`` over the box (x0, y0)-(x1, y1) mm, as one SVG group."""
    shapes: list[str] = []
    for kind in kinds:
        shapes.extend(_drawer(kind)(x0, y0, x1, y1, pitch, line))
    return Markup(f'<g fill="{escape(colour)}" stroke="none">\n{"".join(shapes)}</g>')


def marked(kinds: Sequence[str], x0: float, y0: float, x1: float, y1: float, colour: str, *,
           pitch: float, line: float) -> Markup:
    """What a template's ``pattern(...)`` prints: the call as a ``<pp:pattern>`` element, which ``drawn`` turns
    into ``pattern``'s very markup. A kind it does not know is refused here, as the template renders."""
    for kind in kinds:
        _drawer(kind)
    numbers = " ".join(_written(v) for v in (x0, y0, x1, y1, pitch, line))
    return Markup(f'<pp:{MARK} kinds="{escape(" ".join(kinds))}" numbers="{numbers}" colour="{escape(colour)}"/>')


def drawn(mark: Mapping[str, str]) -> Markup:
    """The pattern a ``<pp:pattern>`` element's attributes ``mark`` stand for (what ``marked`` wrote), drawn
    by ``pattern``; ValueError when they are not such a call."""
    try:
        x0, y0, x1, y1, pitch, line = (_read(v) for v in mark["numbers"].split())
        return pattern(mark["kinds"].split(), x0, y0, x1, y1, mark["colour"], pitch=pitch, line=line)
    except (KeyError, ValueError):
        raise ValueError(f"not a pattern's mark: {dict(mark)}") from None


def _written(value: float) -> str:
    """A number as it reads back as the same value of the same type (an int's sums print as an int's)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"pattern: {value!r} is not a number")
    return repr(value)


def _read(text: str) -> Union[int, float]:
    return int(text) if text.lstrip("-").isdigit() else float(text)


def _drawer(kind: str) -> Callable[[float, float, float, float, float, float], list[str]]:
    draw = _DRAWERS.get(kind)
    if draw is None:
        raise ValueError(f"pattern kind {kind!r} is not one of {', '.join(KINDS)}")
    return draw


def _diagonals(x0: float, y0: float, x1: float, y1: float, pitch: float, line: float, rising: bool) -> list[str]:
    """45-degree bands over the box, each cut to it: rising (/) or falling (\\), mirrored top to bottom."""
    shapes = []
    span = int(math.ceil((x1 - x0 + y1 - y0) / pitch))
    for k in range(span + 2):
        s0 = x0 + y0 + (k - 1) * pitch  # the band between x + y = s0 and s0 + line
        a, b = max(x0, s0 - y1), min(x1, s0 - y0)
        a2, b2 = max(x0, s0 + line - y1), min(x1, s0 + line - y0)
        if not (a < b and a2 < b2):
            continue
        if rising:
            points = f"{a},{s0 - a} {b},{s0 - b} {b2},{s0 + line - b2} {a2},{s0 + line - a2}"
        else:
            points = (f"{a},{y0 + y1 - s0 + a} {b},{y0 + y1 - s0 + b} {b2},{y0 + y1 - s0 - line + b2} "
                      f"{a2},{y0 + y1 - s0 - line + a2}")
        shapes.append(f'<polygon points="{points}"/>\n')
    shapes.append("\n")  # the blank line the template's macro call left after the bands
    return shapes


def _rising(x0: float, y0: float, x1: float, y1: float, pitch: float, line: float) -> list[str]:
    return _diagonals(x0, y0, x1, y1, pitch, line, rising=True)


def _falling(x0: float, y0: float, x1: float, y1: float, pitch: float, line: float) -> list[str]:
    return _diagonals(x0, y0, x1, y1, pitch, line, rising=False)


def _rows(x0: float, y0: float, x1: float, y1: float, pitch: float, line: float) -> list[str]:
    return [f'<rect x="{x0}" y="{y0 + (r + 0.5) * pitch - line / 4}" width="{x1 - x0}" height="{line / 2}"/>\n'
            for r in range(int((y1 - y0) / pitch))]


def _columns(x0: float, y0: float, x1: float, y1: float, pitch: float, line: float) -> list[str]:
    return [f'<rect x="{x0 + (i + 0.5) * pitch - line / 4}" y="{y0}" width="{line / 2}" height="{y1 - y0}"/>\n'
            for i in range(int((x1 - x0) / pitch))]


def _waves(x0: float, y0: float, x1: float, y1: float, pitch: float, line: float) -> list[str]:
    n = int((x1 - x0) / pitch)
    ups = [WAVE_HEIGHT if i % 2 else -WAVE_HEIGHT for i in range(n)]
    top = "".join(f" q{pitch / 2} {up} {pitch} 0" for up in ups)
    bottom = "".join(f" q{-pitch / 2} {up} {-pitch} 0" for up in reversed(ups))
    shapes = []
    for r in range(int((y1 - y0) / pitch)):
        y = y0 + (r + 0.5) * pitch
        shapes.append(f'<path d="M{x0} {y - line / 2}{top} L{x1} {y - line / 2} L{x1} {y + line / 2} '
                      f'L{x0 + n * pitch} {y + line / 2}{bottom} Z"/>\n')
    return shapes


def _zigzags(x0: float, y0: float, x1: float, y1: float, pitch: float, line: float) -> list[str]:
    n = int((x1 - x0) / pitch)
    xs = [f"{x0 + i * pitch}," for i in range(n + 1)]  # each x written once, for every row
    ups = (-ZIGZAG_HEIGHT, ZIGZAG_HEIGHT)  # turn i goes to ups[i % 2]
    shapes = []
    for r in range(int((y1 - y0) / pitch)):
        y = y0 + (r + 0.5) * pitch
        # an edge's turns take two heights in turn: each written once a row, not once a turn (same numbers)
        tops = [f"{y - line / 2 + up} " for up in ups]
        bottoms = [f"{y + line / 2 + up} " for up in ups]
        top = "".join(x + tops[i % 2] for i, x in enumerate(xs))
        bottom = "".join(xs[i] + bottoms[i % 2] for i in range(n, -1, -1))
        shapes.append(f'<polygon points="{x0},{y - line / 2} {top}{x1},{y - line / 2} {x1},{y + line / 2} '
                      f'{bottom}{x0},{y + line / 2}"/>\n')
    return shapes


_DRAWERS: dict[str, Callable[[float, float, float, float, float, float], list[str]]] = {
    "rising": _rising, "falling": _falling, "rows": _rows, "columns": _columns, "waves": _waves, "zigzags": _zigzags,
}
KINDS = tuple(_DRAWERS)  # the kinds a template may name
