"""Totems + Taboos's card sheet: six 27-card colour decks and six spiritual guides."""
from __future__ import annotations

from collections import Counter

from pipeline.games.totems_and_taboos.render import cost_parts, iconize


def test_sheet_is_print_ready(card_sheet, assert_print_ready) -> None:
    assert_print_ready(card_sheet("totems-and-taboos"))


def test_six_decks_of_27_and_six_guides(card_sheet) -> None:
    cards = card_sheet("totems-and-taboos").plan.cards
    decks = Counter(c.front.context["colour"]["id"] for c in cards if "commandment" in c.front.template for _ in range(c.copies))
    assert decks == {colour: 27 for colour in ("yellow", "green", "blue", "purple", "red", "orange")}
    assert sum(1 for c in cards if "guide" in c.front.template) == 6
    assert card_sheet("totems-and-taboos").plan.card_count == 168


def test_cards_show_type_level_cost_and_bonus(card_sheet) -> None:
    cards = [c for c in card_sheet("totems-and-taboos").plan.cards if "commandment" in c.front.template]
    for card in cards:
        face = card.front.context["card"]
        assert face["type_icon"].startswith("type-")
        if face["type_icon"] != "type-miracle":
            assert face["level"] in ("I", "II", "III") and face["cost"]
    text = card_sheet("totems-and-taboos").text()
    assert "MIRACLE" in text and "bonus:" in text


def test_roles_and_blocks_named_in_text_become_icons() -> None:
    assert iconize("Gain 2 servants and 1 cleric per yellow block.", {"yellow": "colour-yellow"}) == (
        "Gain 2 :servant: servants and 1 :cleric: cleric per :colour-yellow: yellow block."
    )


def test_a_free_card_still_shows_its_cost() -> None:
    assert cost_parts(None) == []
