"""Monotheism's card sheet: 29 two-way gods with the veiled back, 7 double-sided worshipers."""
from __future__ import annotations

from pipeline.games.monotheism.render import deity_half, iconize


def test_sheet_is_print_ready(card_sheet, assert_print_ready) -> None:
    assert_print_ready(card_sheet("monotheism"))


def test_gods_have_the_veiled_back_and_worshipers_their_reverse(card_sheet) -> None:
    cards = card_sheet("monotheism").plan.cards
    gods = [c for c in cards if c.id.startswith("deity-")]
    worshipers = [c for c in cards if not c.id.startswith("deity-")]
    assert (len(gods), len(worshipers)) == (29, 7)
    assert {c.back.template for c in gods} == {"monotheism/veiled.svg.j2"}
    assert all(c.double_sided and c.back.context["card"]["side"] == "back" for c in worshipers)


def test_each_god_prints_both_halves(card_sheet) -> None:
    """The band names the god both ways up: once for the upright half, once for the transformed one."""
    sheet = card_sheet("monotheism")
    text = " ".join(sheet.text().split())
    for card in sheet.plan.cards:
        if card.id.startswith("deity-"):
            number = card.front.context["card"]["number"]
            assert text.count(f"#{number} {card.name}") == 2


def test_worshiper_reverse_lands_behind_its_front(card_sheet, sheet_pairs) -> None:
    sheet = card_sheet("monotheism")
    worshipers = {c.name for c in sheet.plan.cards if c.double_sided}
    for fronts, backs in sheet_pairs(sheet):
        front_names = [t.strip() for t in fronts if t.strip() in worshipers]
        back_names = [t.strip() for t in backs if t.strip() in worshipers]
        # each band prints the name twice (upright and turned), in the same order on both sides
        assert front_names[::2] == back_names[::2]
    assert "(reverse)" not in sheet.text()


def test_aspects_named_in_text_are_drawn_as_icons() -> None:
    assert iconize("If this is next to a god with a moon aspect:") == "If this is next to a god with a :aspect-moon: moon aspect:"


def test_a_half_shows_aspects_in_fixed_order(card_sheet) -> None:
    from pipeline.games.monotheism.cards import Half

    half = deity_half(Half(numbers=(2, 5), aspects=frozenset({"death", "sun"}), act=None, essence=None))
    assert half == {"numbers": [2, 5], "marks": ["aspect-sun", "aspect-death"], "boxes": []}


def test_every_god_with_room_prints_its_flavour_line(card_sheet) -> None:
    """A god whose upright half holds one box prints its flavour under it; two boxes of rules text need that room."""
    from pipeline.core.dataset import default_data_root, load_game
    from pipeline.core.typography import typographic

    sheet = card_sheet("monotheism")
    text = " ".join(sheet.text().split())
    crowded = {c.id.removeprefix("deity-") for c in sheet.plan.cards if c.id.startswith("deity-")
               and len(c.front.context["card"]["upright"]["boxes"]) > 1}
    deities = load_game(default_data_root(), "monotheism").doc("deities").data["deities"]
    printed = {d["id"] for d in deities if d.get("flavour") and " ".join(typographic(d["flavour"]).split()) in text}
    assert printed == {d["id"] for d in deities if d.get("flavour")} - crowded
    assert crowded and printed
