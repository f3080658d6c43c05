"""Monstrous's card sheets: two-sided Monsters, large Locations, God Boards on pages of their own, player aids."""
from __future__ import annotations

from pipeline.cards.faces import content_key
from pipeline.games.monstrous.render import power_text


def test_sheet_is_print_ready(card_sheet, assert_print_ready) -> None:
    assert_print_ready(card_sheet("monstrous"))


def test_every_component_is_printed(card_sheet) -> None:
    cards = card_sheet("monstrous").plan.cards
    by_template = {}
    for card in cards:
        by_template.setdefault(card.front.template.rsplit("/", 1)[1], []).append(card)
    assert {k: len(v) for k, v in by_template.items()} == {
        "monster.svg.j2": 60, "aid.svg.j2": 5, "location.svg.j2": 11, "board.svg.j2": 5}
    assert all(c.double_sided for c in by_template["monster.svg.j2"] + by_template["board.svg.j2"])


def test_each_gods_monsters_are_one_deck_with_one_common_side(card_sheet) -> None:
    cards = [c for c in card_sheet("monstrous").plan.cards if c.front.template.endswith("monster.svg.j2")]
    decks: dict[str, set] = {}
    for card in cards:
        decks.setdefault(card.deck, set()).add(content_key(card.back))
    assert len(decks) == 5 and all(len(backs) == 1 for backs in decks.values())
    text = card_sheet("monstrous").text()
    assert "unique side" not in text and "common side ·" not in text


def test_large_cards_and_boards_get_pages_of_their_own(card_sheet) -> None:
    sheet = card_sheet("monstrous")
    sizes = {sheet.page_size_mm(i) for i in range(sheet.pages)}
    assert sizes <= {(297.0, 210.0), (210.0, 297.0)}
    location_pages = [i for i in range(0, sheet.pages, 2) if any("FAITH" in t for t in sheet.texts(i))]
    board_pages = [i for i in range(0, sheet.pages, 2) if any("God Board" in t or " · Locations" in t for t in sheet.texts(i))]
    assert location_pages and board_pages and not set(location_pages) & set(board_pages)
    monsters = {card.front.context["card"]["name"] for card in sheet.plan.cards if card.front.template.endswith("monster.svg.j2")}
    for index in location_pages:  # no poker-size monster shares a page with a Location
        assert not any(t.strip() in monsters for t in sheet.texts(index))


def test_trigger_keywords_are_bold() -> None:
    assert power_text("WHEN HIT: Gain 1 Faith.") == "**WHEN HIT:** Gain 1 Faith."
