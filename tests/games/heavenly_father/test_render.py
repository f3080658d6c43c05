"""Who's Your Heavenly Father?'s card sheet: gods, dilemmas and philosophers; one back per shuffled deck."""
from __future__ import annotations

from collections import Counter

from pipeline.cards.faces import content_key
from pipeline.games.heavenly_father.text import NO_BREAK


def test_sheet_is_print_ready(card_sheet, assert_print_ready) -> None:
    assert_print_ready(card_sheet("heavenly-father"))


def test_decks_and_backs(card_sheet) -> None:
    """The 88 Mortal cards (dilemmas and philosophers) are shuffled together: one deck, one back; the
    grey and pink the rulebook gives them are on their fronts."""
    cards = card_sheet("heavenly-father").plan.cards
    assert Counter(c.deck for c in cards) == {"god": 10, "mortal": 88}
    assert Counter(c.back.context["label"] for c in cards) == {"God card": 10, "Mortal card": 88}
    assert Counter(c.front.template.rsplit("/", 1)[1] for c in cards if c.deck == "mortal") == {
        "dilemma.svg.j2": 65, "philosopher.svg.j2": 23}
    assert len({content_key(c.back) for c in cards if c.deck == "mortal"}) == 1


def test_dilemma_consequences_show_virtue_tokens(card_sheet) -> None:
    dilemmas = [c for c in card_sheet("heavenly-father").plan.cards if c.front.template.endswith("dilemma.svg.j2")]
    for card in dilemmas:
        for option in card.front.context["card"]["options"]:
            for token in (":virtue-selfishness:", ":virtue-xenophobia:", ":virtue-benevolence:", ":virtue-justice:"):
                name = token.strip(":").removeprefix("virtue-").capitalize()
                if name in option["consequence"]:
                    assert f"{token}{NO_BREAK}{name}" in option["consequence"]  # kept on one line with its amount


def test_god_cards_print_points_for_every_virtue(card_sheet) -> None:
    text = " ".join(card_sheet("heavenly-father").text().split())
    assert text.count("Points per token of each Virtue") >= 10
