"""Monstrous's cards tell their Monsters and Locations apart by picture as well as by name: each of a god's
twelve Monsters prints a silhouette of its own on its unique side, each Location an icon of its own, and no
two of those pictures have the same shape (compared with every colour taken out, as colour-never-alone
compares symbols)."""
from __future__ import annotations

from collections import defaultdict

from pipeline.cards.build import open_document
from pipeline.cards.colourkeys import shape_of
from pipeline.cards.plan import PrintCard
from pipeline.cards.svgtemplates import TEMPLATE_ROOT

GAME = "monstrous"


def pictures(card_sheet, kind: str, side: str = "front") -> dict[str, dict[str, set[str]]]:
    """For the cards of template ``kind``: by deck, each card's name and the icons its ``side`` prints in its art."""
    plan = card_sheet(GAME).plan
    doc = open_document(TEMPLATE_ROOT, "emblems", GAME, {})
    found: dict[str, dict[str, set[str]]] = defaultdict(dict)
    for card in plan.cards:
        if not card.front.template.endswith(f"/{kind}.svg.j2"):
            continue
        face = card.front if side == "front" else card.back
        assert face is not None
        record = doc.forms.face(face, plan.label(card, side)).record
        found[str(card.deck)][card.name] = {icon.name for icon in record.facts.icons}
    return found


def distinct_shapes(names: set[str]) -> int:
    icons = open_document(TEMPLATE_ROOT, "emblems", GAME, {}).forms.templates.icons
    return len({shape_of(icons.get(name)) for name in names})


def only_picture(printed: set[str], prefix: str, card: str) -> str:
    (picture,) = [name for name in printed if name.startswith(prefix)] or [""]
    assert picture, f"{card}: no {prefix}* picture printed"
    return picture


def test_every_monster_of_a_god_has_an_emblem_of_its_own(card_sheet) -> None:
    decks = pictures(card_sheet, "monster")
    assert len(decks) == 5
    for deck, cards in decks.items():
        emblems = {name: only_picture(printed, "monster-", name) for name, printed in cards.items()}
        assert len(emblems) == 12, deck
        assert len(set(emblems.values())) == 12, f"{deck}: Monsters share an emblem: {emblems}"
        assert distinct_shapes(set(emblems.values())) == 12, f"{deck}: two Monster emblems have the same shape"


def test_a_decks_common_sides_stay_one_and_the_same(card_sheet) -> None:
    """The common side is the deck's face-down side: it shows the god's emblem, never the Monster's."""
    for deck, cards in pictures(card_sheet, "monster", side="back").items():
        assert all(not any(n.startswith("monster-") for n in printed) for printed in cards.values()), deck
        assert len({frozenset(printed) for printed in cards.values()}) == 1, deck


def test_every_location_has_an_icon_of_its_own(card_sheet) -> None:
    (cards,) = pictures(card_sheet, "location").values()
    icons = {name: only_picture(printed, "location-", name) for name, printed in cards.items()}
    assert len(icons) == 11
    assert len(set(icons.values())) == 11 and distinct_shapes(set(icons.values())) == 11


def test_the_check_tells_when_two_monsters_share_an_emblem(card_sheet) -> None:
    """The premise of the checks above: the same icon twice gives one shape."""
    assert distinct_shapes({"monster-gorgon"}) == 1
    cards: list[PrintCard] = [c for c in card_sheet(GAME).plan.cards if c.front.template.endswith("/monster.svg.j2")]
    assert len({c.front.context["card"]["emblem"] for c in cards}) == 12  # one per Monster design, not per card
