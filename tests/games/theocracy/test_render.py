"""Theocracy's card sheet: every power card and believer, backs in the owner's colour."""
from __future__ import annotations

from collections import Counter


def test_sheet_is_print_ready(card_sheet, assert_print_ready) -> None:
    assert_print_ready(card_sheet("theocracy"))


def test_five_powers_and_four_believers_per_player(card_sheet) -> None:
    sheet = card_sheet("theocracy")
    templates = Counter(card.front.template.rsplit("/", 1)[1] for card in sheet.plan.cards)
    assert templates == {"power.svg.j2": 20, "believer.svg.j2": 16}
    backs = {(card.back.context["player"]["name"], card.back.context["kind"]) for card in sheet.plan.cards}
    assert len(backs) == 8  # four colours x (power, believer)


def test_backs_say_whose_card_it_is(card_sheet, sheet_pairs) -> None:
    sheet = card_sheet("theocracy")
    for fronts, backs in sheet_pairs(sheet):  # one back behind every front
        front_count = sum(t.strip().endswith(("· Power", "· Believer")) for t in fronts)
        assert sum(t.strip() == "THEOCRACY" for t in backs) == front_count > 0
    text = sheet.text()
    for lineage in {card.back.context["player"]["lineage"] for card in sheet.plan.cards}:
        assert f"{lineage} · Power" in text and f"{lineage} · Believer" in text
