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
    houses = {f"{c.back.context['player']['name']} · {c.back.context['player']['lineage']}" for c in sheet.plan.cards}
    for fronts, backs in sheet_pairs(sheet):  # one back behind every front, each naming the house
        front_count = sum(t.strip() in houses for t in fronts)
        assert sum(t.strip() == "THEOCRACY" for t in backs) == front_count == sum(t.strip() in houses for t in backs) > 0
    text = sheet.text()
    assert "Power card" in text and "Believer card" in text


def test_a_players_power_cards_are_one_deck(card_sheet) -> None:
    """Power cards are bid face down from the hand: a player's five must not be told apart by their backs."""
    cards = card_sheet("theocracy").plan.cards
    decks = Counter(card.deck for card in cards)
    assert decks == {f"{p}-{kind}": count for p in ("gold", "crimson", "azure", "jade") for kind, count in (("power", 5), ("believers", 4))}
