"""Who's Your Heavenly Father?'s card sheet: gods, dilemmas and philosophers with their coloured backs."""
from __future__ import annotations

from collections import Counter


def test_sheet_is_print_ready(card_sheet, assert_print_ready) -> None:
    assert_print_ready(card_sheet("heavenly-father"))


def test_decks_and_backs(card_sheet) -> None:
    cards = card_sheet("heavenly-father").plan.cards
    assert Counter(c.back.context["label"] for c in cards) == {"God": 10, "Moral Dilemma": 65, "Philosopher": 23}


def test_dilemma_consequences_show_virtue_tokens(card_sheet) -> None:
    dilemmas = [c for c in card_sheet("heavenly-father").plan.cards if c.back.context["label"] == "Moral Dilemma"]
    for card in dilemmas:
        for option in card.front.context["card"]["options"]:
            for token in (":virtue-selfishness:", ":virtue-xenophobia:", ":virtue-benevolence:", ":virtue-justice:"):
                name = token.strip(":").removeprefix("virtue-").capitalize()
                if name in option["consequence"]:
                    assert f"{token} {name}" in option["consequence"]


def test_god_cards_print_points_for_every_virtue(card_sheet) -> None:
    text = card_sheet("heavenly-father").text()
    assert text.count("Points per token of each Virtue") >= 10
