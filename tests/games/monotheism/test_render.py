"""Monotheism's card sheet: 29 two-way gods with the veiled back, 7 double-sided worshipers."""
from __future__ import annotations

from typing import Any

import pytest

from pipeline.games.monotheism.render import deity_half, iconize
from pipeline.games.registry import spec as spec_of


@pytest.fixture(scope="module")
def sheet(card_sheet) -> Any:
    return card_sheet("monotheism")


@pytest.fixture(scope="module")
def page_texts(sheet) -> list[list[str]]:
    """Each page's text runs, read back once for the module (reading a page back is the slow part)."""
    return [sheet.texts(i) for i in range(len(sheet.reader.pages))]


@pytest.fixture(scope="module")
def sheet_text(page_texts) -> str:
    """All text of the sheet, spaces collapsed (``CardSheet.text`` from the pages read once)."""
    return " ".join(" ".join(" ".join(texts) for texts in page_texts).split())


def test_sheet_is_print_ready(card_sheet, assert_print_ready) -> None:
    assert_print_ready(card_sheet("monotheism"))


def test_gods_have_the_veiled_back_and_worshipers_their_reverse(card_sheet) -> None:
    cards = card_sheet("monotheism").plan.cards
    gods = [c for c in cards if c.id.startswith("deity-")]
    worshipers = [c for c in cards if not c.id.startswith("deity-")]
    assert (len(gods), len(worshipers)) == (29, 7)
    assert {c.back.template for c in gods} == {"monotheism/veiled.svg.j2"}
    assert all(c.double_sided and c.back.context["card"]["side"] == "back" for c in worshipers)


def test_each_god_prints_both_halves(sheet, sheet_text: str) -> None:
    """The band names the god both ways up: once for the upright half, once for the transformed one."""
    for card in sheet.plan.cards:
        if card.id.startswith("deity-"):
            number = card.front.context["card"]["number"]
            assert sheet_text.count(f"#{number} {card.name}") == 2


def test_worshiper_reverse_lands_behind_its_front(sheet, page_texts: list[list[str]], sheet_text: str) -> None:
    worshipers = {c.name for c in sheet.plan.cards if c.double_sided}
    assert len(page_texts) % 2 == 0
    for fronts, backs in zip(page_texts[::2], page_texts[1::2]):
        front_names = [t.strip() for t in fronts if t.strip() in worshipers]
        back_names = [t.strip() for t in backs if t.strip() in worshipers]
        # each band prints the name twice (upright and turned), in the same order on both sides
        assert front_names[::2] == back_names[::2]
    assert "(reverse)" not in sheet_text


def test_aspects_named_in_text_are_drawn_as_icons() -> None:
    assert iconize("If this is next to a god with a moon aspect:") == "If this is next to a god with a :aspect-moon: moon aspect:"


def test_a_half_shows_aspects_in_fixed_order(card_sheet) -> None:
    from pipeline.games.monotheism.cards import Half

    half = deity_half(Half(numbers=(2, 5), aspects=frozenset({"death", "sun"}), act=None, essence=None))
    assert half == {"numbers": [2, 5], "marks": ["aspect-sun", "aspect-death"], "boxes": []}


def test_every_god_with_room_prints_its_flavour_line(sheet, sheet_text: str) -> None:
    """A god whose upright half holds one box prints its flavour under it; two boxes of rules text need that room."""
    from pipeline.data.dataset import default_data_root, load_game
    from pipeline.data.typography import typographic

    crowded = {c.id.removeprefix("deity-") for c in sheet.plan.cards if c.id.startswith("deity-")
               and len(c.front.context["card"]["upright"]["boxes"]) > 1}
    deities = load_game(default_data_root(), spec_of("monotheism")).doc("deities").data["deities"]
    printed = {d["id"] for d in deities if d.get("flavour") and " ".join(typographic(d["flavour"]).split()) in sheet_text}
    assert printed == {d["id"] for d in deities if d.get("flavour")} - crowded
    assert crowded and printed
