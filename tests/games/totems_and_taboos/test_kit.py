"""The Totems + Taboos print-and-play kit counts its tokens and die faces from the data."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from pipeline.documents import structure as m
from tests.core.docs_helpers import documents_of

GAME = "totems-and-taboos"


def _extras(root: Path) -> m.Document:
    return documents_of(root, GAME)["extras"]


def _section(doc: m.Document, title: str) -> list[m.Diagram]:
    """The diagrams under heading ``title`` (up to the next level-1 heading)."""
    out: list[m.Diagram] = []
    inside = False
    for block in doc.blocks:
        if isinstance(block, m.Heading) and block.level == 1:
            inside = block.text == title
        elif inside and isinstance(block, m.Diagram):
            out.append(block)
    return out


def _tokens(diagrams: list[m.Diagram]) -> list[m.Circle]:
    return [s for d in diagrams for s in d.shapes if isinstance(s, m.Circle) and s.line == "cut"]


def test_kit_counts_follow_the_data(data_copy: Path, edit_yaml: Callable[..., Any]) -> None:
    doc = _extras(data_copy)
    assert len(_tokens(_section(doc, "Soul tokens"))) == 60
    totems = [s for d in _section(doc, "Totem tokens") for s in d.shapes if isinstance(s, m.Label)]
    assert sorted({t.text for t in totems}) == ["Blue", "Green", "Orange", "Purple", "Red", "Yellow"]
    assert all(sum(t.text == c for t in totems) == 6 for c in {t.text for t in totems})

    def fewer(data: Any) -> None:
        next(c for c in data["components"] if c["id"] == "soul-cubes")["count"] = 42

    def smaller_supply(data: Any) -> None:
        data["supply"]["blocks_per_colour"] = 4

    edit_yaml(data_copy / GAME / "components.yaml", fewer)
    edit_yaml(data_copy / GAME / "tower.yaml", smaller_supply)
    doc = _extras(data_copy)
    assert len(_tokens(_section(doc, "Soul tokens"))) == 42
    totems = [s for d in _section(doc, "Totem tokens") for s in d.shapes if isinstance(s, m.Label)]
    assert len(totems) == 4 * 6


def test_soul_die_net_prints_the_data_faces(data_copy: Path, edit_yaml: Callable[..., Any]) -> None:
    def faces(data: Any) -> None:
        next(d for d in data["dice"] if d["id"] == "soul-cube")["faces"] = ["cleric", "servant", "servant", "servant", "shrine", "shrine"]

    edit_yaml(data_copy / GAME / "dice.yaml", faces)
    (net,) = [d for d in _section(_extras(data_copy), "Soul cube") if any(a.startswith("face") for a in d.alt)]
    assert [a for a in net.alt if a.startswith("face")] == [
        "face 1: cleric", "face 2: servant", "face 3: servant", "face 4: servant", "face 5: shrine", "face 6: shrine"]
    labels = [s.text for s in net.shapes if isinstance(s, m.Label) and s.size == 10]
    assert labels == ["Cleric", "Servant", "Servant", "Servant", "Shrine", "Shrine"]
