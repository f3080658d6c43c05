"""A game's card plan kept between builds: cards drawn again from unchanged data need no YAML read or game code.

The card plan (``build.plan``: each card's faces, the template of each and
the values it is rendered with) is a function of the data folder, the game's
spec and code, and the pipeline's code. A build that draws cards again from
the same data (``--force``, another paper, layout or output folder, a
template or sheet edit) reads the plan back from the results cache instead
of loading the game's YAML, importing its modules and building its model.

The key hashes the whole data folder (a card may print what another game's
record says), the game's spec and any module it names outside the pipeline,
the pipeline's code and the installed libraries. The entry is plain JSON
(``cachestore``), every field checked by type when read back; values are
tagged so tuples, lists and dicts come back as they went in (the faces'
content keys, and so the cached faces, stay the same: a test holds every
game's plan to that). Where a card
record is in its YAML (``Plan.sources``) is kept with it; the records
themselves, which only an error message pointing into a field needs, are
loaded when asked for.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple, Optional

from pipeline import store as cachestore
from pipeline.base import shape
from pipeline.base.shape import ShapeError
from pipeline.cards.plan import ColourKey, Face, PrintCard
from pipeline.checks.validcache import CODE, folder_digest, spec_digest
from pipeline.data import resultcache
from pipeline.data.gamespec import GameSpec

NAMESPACE = "plans"
FORMAT = "card-plan 1"


def data_key(data_root: Path) -> str:
    """What of the data and code a plan depends on (take it once for all the games a command plans)."""
    return cachestore.key_of([FORMAT, folder_digest(data_root), resultcache.source_hash(CODE), cachestore.installed_libraries()])


def entry_name(data: str, game: str, spec: GameSpec) -> str:
    """The entry of ``game``'s plan made from ``data`` (``data_key``) with ``spec``."""
    return cachestore.key_of([data, game, spec_digest(spec)])


class Stored(NamedTuple):
    """What an entry holds: the plan's title, cards and card sources."""

    title: str
    cards: list[PrintCard]
    sources: dict[str, str]


def read(name: str) -> Optional[Stored]:
    """The plan kept under ``name``, or None when there is none that passes every check."""
    return cachestore.read(NAMESPACE, name, _plan_from_plain)


def keep(name: str, plan: Stored) -> None:
    """Keep ``plan`` under ``name`` (not when a face's values are not plain data)."""
    plain = _plan_plain(plan)
    if plain is not None:
        cachestore.write(NAMESPACE, name, plain)


# -- values, tagged so they come back with their types ---------------------------------------------------
def _tagged(value: Any) -> Any:
    """``value`` as JSON, tuples and dicts tagged. Exact types only: a subclass (a str that is jinja's
    Markup, an int that is an enum) would come back as its base type and could print otherwise."""
    kind = type(value)
    if value is None or kind in (bool, int, float, str):
        return value
    if kind is list:
        return [_tagged(v) for v in value]
    if kind is tuple:
        return {"t": [_tagged(v) for v in value]}
    if kind is dict:
        return {"d": [[_tagged(k), _tagged(v)] for k, v in value.items()]}
    raise TypeError(f"not plain data: {kind.__name__}")


def _untagged(plain: Any) -> Any:
    if plain is None or isinstance(plain, (bool, int, float, str)):
        return plain
    if isinstance(plain, list):
        return [_untagged(v) for v in plain]
    if isinstance(plain, dict) and len(plain) == 1:
        if "t" in plain:
            return tuple(_untagged(v) for v in shape.sequence(plain["t"]))
        if "d" in plain:
            pairs = [shape.sequence(pair, 2) for pair in shape.sequence(plain["d"])]
            found = {}
            for key, value in pairs:
                key = _untagged(key)
                if isinstance(key, (list, dict)):
                    raise ShapeError("a dict key that cannot be one")
                found[key] = _untagged(value)
            return found
    raise ShapeError("not a tagged value")


# -- the plan --------------------------------------------------------------------------------------------
def _face_plain(face: Optional[Face]) -> Any:
    return None if face is None else [face.template, _tagged(face.context)]


def _face(plain: Any) -> Optional[Face]:
    if plain is None:
        return None
    template, context = shape.sequence(plain, 2)
    values = _untagged(context)
    if not isinstance(values, dict):
        raise ShapeError("a face's values are not a mapping")
    return Face(shape.text(template), values)


def _card_plain(card: PrintCard) -> list[Any]:
    colours = [[c.family, c.colour, c.symbol, c.word] for c in card.colours]
    return [card.id, card.name, _face_plain(card.front), _face_plain(card.back), card.double_sided, card.copies,
            card.record, card.deck, colours]


def _optional_text(value: Any) -> Optional[str]:
    return None if value is None else shape.text(value)


def _card(plain: Any) -> PrintCard:
    card_id, name, front, back, double_sided, copies, record, deck, colours = shape.sequence(plain, 9)
    front_face = _face(front)
    if front_face is None:
        raise ShapeError("a card without a front")
    keys = tuple(ColourKey(*(shape.text(word) for word in shape.sequence(key, 4))) for key in shape.sequence(colours))
    return PrintCard(shape.text(card_id), shape.text(name), front_face, _face(back), shape.boolean(double_sided),
                     shape.integer(copies),
                     _optional_text(record), _optional_text(deck), keys)


def _plan_plain(plan: Stored) -> Optional[dict[str, Any]]:
    """The entry for a plan, or None when a value is not plain data. The tags make reading it back give
    exactly these values (lists, tuples, dicts and their keys, and scalars keep their types; floats survive
    JSON exactly); a value JSON cannot hold (NaN) makes ``cachestore.write`` skip the entry."""
    try:
        return {"title": plan.title, "cards": [_card_plain(card) for card in plan.cards], "sources": dict(plan.sources)}
    except TypeError:
        return None


def _plan_from_plain(plain: Any) -> Stored:
    if not isinstance(plain, dict) or set(plain) != {"title", "cards", "sources"}:
        raise ShapeError("not a card plan")
    sources = plain["sources"]
    if not isinstance(sources, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in sources.items()):
        raise ShapeError("card sources are not text by card id")
    cards = [_card(card) for card in shape.sequence(plain["cards"])]
    if not cards:
        raise ShapeError("a plan without cards")
    return Stored(shape.text(plain["title"]), cards, dict(sources))
