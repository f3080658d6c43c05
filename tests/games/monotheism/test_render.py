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
    sheet = card_sheet("monotheism")
    text = sheet.text()
    for card in sheet.plan.cards:
        if card.id.startswith("deity-"):
            number = card.front.context["card"]["number"]
            assert f"#{number}  {card.name} (transformed)" in text or f"#{number} {card.name} (transformed)" in text


def test_worshiper_reverse_lands_behind_its_front(card_sheet, sheet_pairs) -> None:
    sheet = card_sheet("monotheism")
    worshipers = {c.name for c in sheet.plan.cards if c.double_sided}
    for fronts, backs in sheet_pairs(sheet):
        front_names = [t.strip() for t in fronts if t.strip() in worshipers]
        back_names = [t.strip().removesuffix(" (reverse)") for t in backs if t.strip().endswith("(reverse)")]
        # each band prints the name twice (upright and turned), in the same order on both sides
        assert front_names[::2] == back_names[::2]


def test_aspects_named_in_text_are_drawn_as_icons() -> None:
    assert iconize("If this is next to a god with a moon aspect:") == "If this is next to a god with a :aspect-moon: moon aspect:"


def test_a_half_shows_aspects_in_fixed_order(card_sheet) -> None:
    from pipeline.games.monotheism.cards import Half

    half = deity_half(Half(numbers=(2, 5), aspects=frozenset({"death", "sun"}), act=None, essence=None))
    assert half == {"numbers": [2, 5], "marks": ["aspect-sun", "aspect-death"], "boxes": []}


def test_every_god_prints_its_flavour_line(card_sheet) -> None:
    from pipeline.core.dataset import default_data_root, load_game

    text = " ".join(card_sheet("monotheism").text().split())
    deities = load_game(default_data_root(), "monotheism").doc("deities").data["deities"]
    missing = [d["id"] for d in deities if d.get("flavour") and " ".join(d["flavour"].split()) not in text]
    assert not missing, f"flavour lines not printed: {missing}"
