"""The card plan kept between builds (render/plancache.py): read back exactly, never stale, never trusted blindly."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pipeline import store as cachestore
from pipeline.cards import build, plancache
from pipeline.cards.faces import SlotError
from pipeline.data.dataset import GameData, load_game
from pipeline.games.registry import catalogue
from pipeline.games.registry import spec as spec_of

GAMES = ("monotheism", "theocracy", "monstrous", "heavenly-father", "totems-and-taboos")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PANTHEON_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


class Loads:
    """``load`` for cached_plans that counts the games it loaded."""

    def __init__(self, root: Path) -> None:
        self.root, self.loaded = root, []  # type: ignore[var-annotated]

    def __call__(self, game: str) -> GameData:
        self.loaded.append(game)
        return load_game(self.root, spec_of(game))


def test_every_games_plan_reads_back_as_made_without_loading_the_game(data_copy: Path, cache: Path) -> None:
    first = Loads(data_copy)
    made = build.cached_plans(data_copy, GAMES, first, catalogue())
    assert first.loaded == list(GAMES)
    again = Loads(data_copy)
    read = build.cached_plans(data_copy, GAMES, again, catalogue())
    assert again.loaded == []  # every plan came from the cache
    for before, after in zip(made, read):
        assert (after.game, after.title, after.cards, after.sources) == (before.game, before.title, before.cards, before.sources)
        # the same types inside every face's values (a tuple read back as a list would change the faces' keys)
        assert [repr(c.front.context) for c in after.cards] == [repr(c.front.context) for c in before.cards]
        assert [repr(c.back and c.back.context) for c in after.cards] == [repr(c.back and c.back.context) for c in before.cards]
    # the records an error points into are loaded only when asked for, and are the same records
    card = read[1].cards[0]
    assert again.loaded == []
    error = SlotError(f"{read[1].sources[card.id]}: text does not fit", slot="title", printed=card.name)
    assert read[1].blame(card, error) == made[1].blame(card, error)
    assert again.loaded == ["theocracy"]


def test_any_data_edit_makes_the_plan_again(data_copy: Path, cache: Path) -> None:
    build.cached_plans(data_copy, ["theocracy"], Loads(data_copy), catalogue())
    path = data_copy / "theocracy" / "power-cards.yaml"
    source = path.read_text(encoding="utf-8")
    assert "title: Humility" in source
    path.write_text(source.replace("title: Humility", "title: Meekness", 1), encoding="utf-8")
    loads = Loads(data_copy)
    (plan,) = build.cached_plans(data_copy, ["theocracy"], loads, catalogue())
    assert loads.loaded == ["theocracy"]
    assert "Meekness" in [card.name for card in plan.cards]
    # an edit to another game's data counts too: a card may print what another game's record says
    other = data_copy / "monstrous" / "gods.yaml"
    other.write_text(other.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    loads = Loads(data_copy)
    build.cached_plans(data_copy, ["theocracy"], loads, catalogue())
    assert loads.loaded == ["theocracy"]


def _entries(cache: Path) -> list[Path]:
    return sorted((cache / plancache.NAMESPACE).glob(f"*{cachestore.ENTRY_SUFFIX}"))


def _rewrite(entry: Path, change: Any) -> None:
    """Give ``entry`` a new payload (``change(plain)``), sealed properly: only its shape can make it a miss."""
    header, _, payload = entry.read_bytes().partition(b"\n")
    plain = change(json.loads(payload))
    new = json.dumps(plain, separators=(",", ":")).encode()
    entry.write_bytes(cachestore.sealed(plancache.NAMESPACE, entry.name[: -len(cachestore.ENTRY_SUFFIX)], new))


@pytest.mark.parametrize("change", [
    lambda p: {**p, "cards": []},                                           # no cards
    lambda p: {**p, "cards": [[*p["cards"][0][:5], 0, *p["cards"][0][6:]]]},  # copies 0
    lambda p: {**p, "cards": [[*p["cards"][0][:5], True, *p["cards"][0][6:]]]},  # copies not a number
    lambda p: {**p, "cards": [p["cards"][0][:8]]},                          # a field missing
    lambda p: {**p, "cards": [[*p["cards"][0][:2], ["front", {"x": 1}], *p["cards"][0][3:]]]},  # an untagged value
    lambda p: {**p, "cards": [[*p["cards"][0][:2], ["front", {"d": [[[1], 2]]}], *p["cards"][0][3:]]]},  # a list as key
    lambda p: {**p, "sources": {"a": 1}},                                  # a source that is not text
    lambda p: {**p, "title": None},
    lambda p: [p],
], ids=["no-cards", "copies-0", "copies-bool", "short-card", "untagged", "list-key", "source", "title", "not-a-plan"])
def test_a_sealed_entry_of_the_wrong_shape_is_a_miss(data_copy: Path, cache: Path, change: Any) -> None:
    (made,) = build.cached_plans(data_copy, ["theocracy"], Loads(data_copy), catalogue())
    (entry,) = _entries(cache)
    _rewrite(entry, change)
    loads = Loads(data_copy)
    (plan,) = build.cached_plans(data_copy, ["theocracy"], loads, catalogue())
    assert loads.loaded == ["theocracy"]
    assert plan.cards == made.cards


def test_a_sealed_entry_of_the_right_shape_reads_back(data_copy: Path, cache: Path) -> None:
    """The miss above is the shape check's doing, not the rewrite's: an unchanged payload, sealed again, is read."""
    build.cached_plans(data_copy, ["theocracy"], Loads(data_copy), catalogue())
    (entry,) = _entries(cache)
    _rewrite(entry, lambda plain: plain)
    loads = Loads(data_copy)
    build.cached_plans(data_copy, ["theocracy"], loads, catalogue())
    assert loads.loaded == []


def test_values_of_a_subclass_are_never_kept(cache: Path) -> None:
    """A str that is jinja's Markup, or an int that is an enum, would read back as its base type and could
    print otherwise: a plan holding one is not kept (the same plan with plain values is, and reads back equal)."""
    import enum

    from markupsafe import Markup

    from pipeline.cards.plan import Face, PrintCard

    class Count(enum.IntEnum):
        TWO = 2

    def plan_with(value: object) -> plancache.Stored:
        face = Face("toy/front.svg.j2", {"name": value, "nested": [(1, 2.5), {"k": True}]})
        return plancache.Stored("Toy", [PrintCard("a", "A", face)], {"a": "cards.yaml:3:5"})

    for odd in (Markup("<b>bold</b>"), Count.TWO):
        plancache.keep("odd", plan_with(odd))
        assert plancache.read("odd") is None
    plain = plan_with("<b>bold</b>")
    plancache.keep("plain", plain)
    assert plancache.read("plain") == plain
