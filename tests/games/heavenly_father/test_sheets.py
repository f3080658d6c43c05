"""Who's Your Heavenly Father?'s sheets as printed: the God cards never share a sheet with Mortal cards
(a duplex shift would show a plum Mortal back at the edge of a tan God back and mark that god among the
face-down False Gods), and no consequence line breaks between an amount and its Virtue."""
from __future__ import annotations

import re
from collections import defaultdict

from pipeline.cards.build import open_document
from pipeline.cards.faces import TextSlot
from pipeline.cards.svgtemplates import TEMPLATE_ROOT

GAME = "heavenly-father"
VIRTUES = ("Selfishness", "Xenophobia", "Benevolence", "Justice")
# a line that ends with an amount ("+1", "-2", "draw 2") whose Virtue or cards went to the next line
AMOUNT_AT_END = re.compile(r"(?:^|[\s,])(?:[+\-\u2212]\d+|(?:draw|lose) \d+)$")


def test_no_sheet_mixes_god_cards_and_mortal_cards(card_sheet) -> None:
    sheet = card_sheet(GAME)
    deck_of = {card.name: card.deck for card in sheet.plan.cards}
    seen: dict[str, set[int]] = defaultdict(set)
    for page in range(0, sheet.pages, 2):  # the fronts; each back page mirrors its front page
        decks = {deck_of[run] for run in sheet.texts(page) if run in deck_of}
        assert len(decks) == 1, f"sheet {page // 2 + 1} mixes the decks {sorted(decks)}"
        seen[decks.pop()].add(page)
    assert set(seen) == {"god", "mortal"}
    referee = next(card for card in sheet.plan.cards if card.id == "referee-god")
    assert referee.deck == "god"


def lines(slot: TextSlot) -> list[str]:
    """A text slot's lines as printed (runs on one baseline, joined)."""
    by_baseline: dict[float, list[str]] = defaultdict(list)
    for _, _, baseline, _, chars in slot.setting.runs:
        by_baseline[round(baseline, 2)].append(chars)
    return [" ".join(" ".join(parts).split()) for _, parts in sorted(by_baseline.items(), reverse=True)]


def test_no_consequence_line_breaks_between_amount_and_virtue(card_sheet) -> None:
    plan = card_sheet(GAME).plan
    doc = open_document(TEMPLATE_ROOT, "consequences", GAME, {})
    checked = broken = 0
    for card in plan.cards:
        if not card.front.template.endswith("dilemma.svg.j2"):
            continue
        face = doc.forms.face(card.front, plan.label(card, "front"))
        for slot in face.record.slots:
            if not isinstance(slot, TextSlot):
                continue
            printed = lines(slot)
            if not any(name in line for line in printed for name in VIRTUES):
                continue
            checked += 1
            for first, second in zip(printed, printed[1:]):
                if AMOUNT_AT_END.search(first):
                    broken += 1
                    assert False, f"{card.id}: a consequence breaks after its amount: {first!r} / {second!r}"
    assert checked >= 2 * 65 and broken == 0
