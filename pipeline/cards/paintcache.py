"""What each art paints where, kept between builds: a text edit converts no art to check its colours.

Holding a face to the design rules needs the colours the art paints under
each run of its text (``artmap.colours_under``), read from the art converted
by svglib, the dearest step of a build. When only a card's text changed, its
art is the same as last build, while the boxes to answer are new. So what
the answers come from, the art's ``Paint``s (colour, opacity and region of
each shape, all numbers), is kept per art on disk through ``cachestore``:
sealed JSON, plain data, keyed by the art's key (a digest of its SVG), the
libraries that convert it and the render code. Any box is then answered from
the paints without converting the art again.

An entry that fails any check is a miss: the art is converted and the entry
rewritten. Floats survive JSON exactly, so paints read back answer exactly
as the ones worked out.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional

from pipeline import store as cachestore
from pipeline.base import shape
from pipeline.base.shape import ShapeError
from pipeline.cards import artmap
from pipeline.cards.artmap import Box, ConvexPolygon, Disc, Outline, Paint, Region, Ring, RoundedRect, Stroke
from pipeline.data.resultcache import source_hash

PAINT_DIR = "paints"
PAINT_LIBRARIES = ("reportlab", "svglib", "lxml")
RENDER_CODE = Path(__file__).resolve().parent

Point = tuple[float, float]


class PaintCache:
    """Paints by art key: in memory for this process, on disk across builds."""

    def __init__(self, root: Optional[Path] = None) -> None:
        self.root = root
        self._made_by: Optional[str] = None
        self._memory: dict[str, tuple[Paint, ...]] = {}

    def paints(self, key: str, convert: Callable[[], Any]) -> tuple[Paint, ...]:
        """The paints of art ``key``; ``convert`` (its svglib Drawing) is called only when no build kept them."""
        found = self._memory.get(key)
        if found is None:
            name = self._name(key)
            found = cachestore.read(PAINT_DIR, name, _paints_from_plain, root=self.root)
            if found is None:
                found = artmap.paints([convert()])
                cachestore.write(PAINT_DIR, name, [_paint_plain(paint) for paint in found], root=self.root)
            self._memory[key] = found
        return found

    def _name(self, key: str) -> str:
        if self._made_by is None:
            self._made_by = cachestore.library_versions(*PAINT_LIBRARIES) + source_hash(RENDER_CODE)
        return cachestore.key_of([key, self._made_by])


# -- plain data ---------------------------------------------------------------------
def _paint_plain(paint: Paint) -> list[Any]:
    return [list(paint.colour), paint.opacity, _region_plain(paint.region), paint.stroke]


def _region_plain(region: Optional[Region]) -> Any:
    if region is None:
        return None
    bounds = list(region.bounds)
    if isinstance(region, RoundedRect):
        return ["rounded", bounds, region.radius]
    if isinstance(region, Disc):
        return ["disc", bounds, region.cx, region.cy, region.r]
    if isinstance(region, ConvexPolygon):
        return ["convex", bounds, [list(p) for p in region.points]]
    if isinstance(region, Outline):
        return ["outline", bounds, [[list(p) for p in ring] for ring in region.rings]]
    if isinstance(region, Stroke):
        return ["stroke", bounds, [[list(p) for p in ring] for ring in region.rings], region.half]
    if isinstance(region, Ring):
        return ["ring", bounds, _region_plain(region.inner)]
    if type(region) is Region:
        return ["box", bounds]
    raise TypeError(f"no plain form for {type(region).__name__}")  # a new Region kind must be added here


def _paints_from_plain(plain: Any) -> tuple[Paint, ...]:
    """The paints a stored entry holds; ShapeError unless every part has its type."""
    found = []
    for entry in shape.sequence(plain):
        colour, opacity, region, stroke = shape.sequence(entry, 4)
        red, green, blue = (shape.number(c) for c in shape.sequence(colour, 3))
        decoded = _region_from_plain(region)
        if decoded is None:
            raise ShapeError("a paint without a region")
        found.append(Paint((red, green, blue), shape.number(opacity), decoded, shape.boolean(stroke)))
    return tuple(found)


def _box(values: Any) -> Box:
    x0, y0, x1, y1 = (shape.number(v) for v in shape.sequence(values, 4))
    return x0, y0, x1, y1


def _point(values: Any) -> Point:
    x, y = (shape.number(v) for v in shape.sequence(values, 2))
    return x, y


def _ring(values: Any) -> tuple[Point, ...]:
    return tuple(_point(p) for p in shape.sequence(values))


def _region_from_plain(plain: Any) -> Optional[Region]:
    if plain is None:
        return None
    kind, *rest = shape.sequence(plain)
    kind = shape.text(kind)
    bounds = _box(rest[0]) if rest else _box(None)
    if kind == "rounded" and len(rest) == 2:
        return RoundedRect(bounds, shape.number(rest[1]))
    if kind == "disc" and len(rest) == 4:
        return Disc(bounds, shape.number(rest[1]), shape.number(rest[2]), shape.number(rest[3]))
    if kind == "convex" and len(rest) == 2:
        return ConvexPolygon(bounds, _ring(rest[1]))
    if kind == "outline" and len(rest) == 2:
        return Outline(bounds, tuple(_ring(r) for r in shape.sequence(rest[1])))
    if kind == "stroke" and len(rest) == 3:
        return Stroke(bounds, tuple(_ring(r) for r in shape.sequence(rest[1])), shape.number(rest[2]))
    if kind == "ring" and len(rest) == 2:
        return Ring(bounds, _region_from_plain(rest[1]))
    if kind == "box" and len(rest) == 1:
        return Region(bounds)
    raise ShapeError(f"not a region: {kind}")


_shared: dict[Path, PaintCache] = {}


def shared() -> PaintCache:
    """The paint cache of the current cache root (one per process)."""
    root = cachestore.cache_root()
    if root not in _shared:
        _shared[root] = PaintCache(root)
    return _shared[root]


def drop_memory() -> None:
    """Forget the paints this process holds in memory; what is on disk stays. The next build reads it back
    from disk as a new process would (a long-lived process may call this to let the memory go)."""
    _shared.clear()
