"""The design rules every build holds card faces to: each rule has a face that breaks it and fails the build.

Faces come from tests/fixtures/render-templates/design/slot.svg.j2, one text slot whose size, colours,
place and role a test sets; decks and colour keys use the toy templates. Every error names its rule by
its key in templates/design-rules.yaml, and the card.
"""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from pipeline.base.errors import UserError
from pipeline.cards import design
from pipeline.cards.build import BuildOptions, Plan, render_pdf
from pipeline.cards.colours import contrast, parse
from pipeline.cards.design import rules_for
from pipeline.cards.plan import ColourKey, Face, PrintCard
from pipeline.cards.svgtemplates import TEMPLATE_ROOT

from .render_helpers import toy_card, toy_template_root

DESIGN_TEMPLATES = Path(__file__).resolve().parents[1] / "fixtures" / "render-templates" / "design"
GOOD_SLOT: dict[str, Any] = {
    "size": 9, "min_size": 8, "fill": "#000000", "bg": "#ffffff", "x": 10, "y": 20, "role": "text",
    "weight": "normal", "paper": "#ffffff", "art": "", "art_amount": 0, "edge": 0, "extra": "", "place_icon": "",
}


@pytest.fixture(scope="module")
def templates(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = toy_template_root(tmp_path_factory.mktemp("design"))
    shutil.copytree(DESIGN_TEMPLATES, root / "cards" / "design", ignore=shutil.ignore_patterns("*.svg"))
    for icon in DESIGN_TEMPLATES.glob("*.svg"):
        shutil.copy(icon, root / "icons" / icon.name)
    return root


def slot_card(**changes: Any) -> PrintCard:
    return PrintCard("probe-1", "Probe", Face("design/slot.svg.j2", {**GOOD_SLOT, **changes}))


def build(templates: Path, *cards: PrintCard) -> bytes:
    data, _ = render_pdf(Plan("design", "Design", list(cards)), BuildOptions(), template_root=templates)
    return data


def refused(templates: Path, *cards: PrintCard) -> str:
    with pytest.raises(UserError) as caught:
        build(templates, *cards)
    return str(caught.value)


def test_the_good_slot_passes(templates: Path) -> None:
    assert build(templates, slot_card()).startswith(b"%PDF")


@pytest.mark.parametrize(
    "changes, rule, detail",
    [
        ({"size": 6, "min_size": 6}, "min_text_pt", "size 6 pt is below 7 pt"),
        ({"size": 9, "min_size": 6.5}, "min_text_pt", "min-size 6.5 pt is below 7 pt"),
        ({"size": 7.5, "min_size": 7.5, "role": "rules"}, "min_rules_text_pt", "size 7.5 pt is below 8 pt"),
        ({"fill": "#ffffff", "bg": "#202020", "paper": "#202020"}, "min_reversed_text_pt", "must be bold"),
        ({"fill": "#c8c8c8"}, "min_contrast", "has contrast 1.6"),
        ({"fill": "#999999", "size": 14, "min_size": 14, "weight": "bold"}, "min_contrast_large", "needs 3:1"),
        ({"bg": "#ffffff", "art": "#1a1a1a"}, "background_tolerance", "declares bg #ffffff but the art under its text is #1a1a1a"),
        ({"bg": ""}, "min_contrast", 'declare the colour the text is set on (bg="#rrggbb")'),
        ({"x": 1}, "safe_margin_mm", "text slot 'probe': x 1.0-41.0 mm"),
        ({"x": -2}, "safe_margin_mm", "reaches 2.0 mm past the cut"),
        ({"edge": 1.5}, "safe_margin_mm", "comes 1.4 mm from the cut (keep decoration 3 mm inside it)"),
    ],
    ids=["6pt-slot", "shrinks-below", "small-rules-text", "thin-reversed", "pale-pair", "pale-large", "art-under-text",
         "undeclared-bg", "text-near-cut", "text-in-bleed", "border-near-cut"],
)
def test_a_face_breaking_a_rule_fails_naming_rule_card_and_slot(templates: Path, changes: dict[str, Any], rule: str, detail: str) -> None:
    message = refused(templates, slot_card(**changes))
    assert message.startswith(f"design: card probe-1 'Probe' (front): design rule {rule}: ")
    assert "design/slot.svg.j2" in message
    assert detail in message


def test_large_bold_text_needs_only_the_large_contrast(templates: Path) -> None:
    grey = "#8a8a8a"
    rules = rules_for(templates)
    assert rules.min_contrast_large <= contrast(parse(grey), parse("#ffffff")) < rules.min_contrast
    build(templates, slot_card(fill=grey, size=14, min_size=14, weight="bold"))
    assert "min_contrast" in refused(templates, slot_card(fill=grey, size=13, min_size=13, weight="bold"))


def test_the_numbers_come_from_the_rules_file(templates: Path, tmp_path: Path) -> None:
    stricter = tmp_path / "templates"
    shutil.copytree(templates, stricter)
    rules = stricter / "design-rules.yaml"
    rules.write_text(rules.read_text().replace("min_text_pt: 7 ", "min_text_pt: 10 "))
    assert "design rule min_text_pt: " in refused(stricter, slot_card())
    assert "size 9 pt is below 10 pt" in refused(stricter, slot_card())


def test_a_bad_rules_file_names_file_and_field(templates: Path, tmp_path: Path) -> None:
    broken = tmp_path / "templates"
    shutil.copytree(templates, broken)
    rules = broken / "design-rules.yaml"
    rules.write_text(rules.read_text().replace("min_contrast: 4.5", "min_contrast: lots"))
    message = refused(broken, slot_card())
    assert "design-rules.yaml:" in message and "min_contrast" in message


# -- one back per shuffled deck ------------------------------------------------------
def in_deck(card: PrintCard, deck: str, **back: Any) -> PrintCard:
    face = Face(card.back.template, {**card.back.context, **back}) if back else card.back
    return PrintCard(card.id, card.name, card.front, face, deck=deck)


def test_a_deck_with_two_backs_fails_naming_both_cards(templates: Path) -> None:
    # the toy back prints its card's name: two cards, two backs
    message = refused(templates, in_deck(toy_card(0), "draw"), in_deck(toy_card(1), "draw"))
    assert message == (
        "design rule one_back_per_deck: deck 'draw' is shuffled together but prints different backs: "
        "design: card toy-00 'Toy Card 00' (back) and design: card toy-01 'Toy Card 01' (back)"
    )


def test_a_deck_whose_backs_print_the_same_passes_however_they_were_made(templates: Path) -> None:
    # one back given by two different contexts (the second holds a value the template ignores): same bytes, one back
    same = in_deck(toy_card(1), "draw", name="Toy Card 00", unused="value")
    build(templates, in_deck(toy_card(0), "draw"), same, in_deck(toy_card(2), "other"))


# -- colour never alone ----------------------------------------------------------------
def coloured(index: int, body: str, *keys: ColourKey) -> PrintCard:
    card = toy_card(index, body=body)
    return PrintCard(card.id, card.name, card.front, card.back, colours=keys)


SUN = ColourKey("toy colour", "gold", "aspect-sun", "Sun")


def test_a_colour_printed_with_its_symbol_and_word_passes(templates: Path) -> None:
    build(templates, coloured(0, "A :aspect-sun: Sun card.", SUN))


def test_a_colour_without_its_symbol_or_word_fails(templates: Path) -> None:
    moon = ColourKey("toy colour", "blue", "aspect-moon", "Moon")
    message = refused(templates, coloured(0, "A Moon card.", moon))
    assert message == "design: card toy-00 'Toy Card 00' (front): design rule colour_never_alone: the front shows toy colour blue without its symbol 'aspect-moon'"
    message = refused(templates, coloured(0, "A card.", SUN))  # the art draws the sun, no text names it
    assert message.endswith("the front shows toy colour gold without its word 'Sun'")


def test_two_colours_whose_symbols_differ_only_in_hue_fail(templates: Path) -> None:
    red = ColourKey("toy colour", "red", "same-shape-a", "Red")
    blue = ColourKey("toy colour", "blue", "same-shape-b", "Blue")
    message = refused(templates, coloured(0, ":same-shape-a: Red", red), coloured(1, ":same-shape-b: Blue", blue))
    assert message == (
        "design rule colour_never_alone: toy colour blue and red have symbols of the same shape "
        "('same-shape-b', 'same-shape-a'): they differ by hue alone"
    )


def test_two_colours_sharing_one_symbol_fail(templates: Path) -> None:
    other = ColourKey("toy colour", "amber", "aspect-sun", "Amber")
    message = refused(templates, coloured(0, ":aspect-sun: Sun", SUN), coloured(1, ":aspect-sun: Amber", other))
    assert "toy colour amber and gold have the same symbol" in message



def test_art_ending_on_the_cut_is_called_no_bleed() -> None:
    facts = design.FaceFacts(texts=(), icons=(), edge=design.EdgeFacts(-0.0, (0.0, 0.0, 63.0, 88.0)))
    (problem,) = design.problems(facts, rules_for(TEMPLATE_ROOT), (63.0, 88.0), "toy/back.svg.j2")
    assert "stops at the cut: no bleed" in problem and "-0.0" not in problem


@pytest.mark.parametrize(
    "changes, found",
    [
        ({"extra": '<rect x="5" y="5" width="9" height="9" fill="#ff0000" fill-opacity="0.5"/>'}, "fill-opacity='0.5'"),
        ({"extra": '<line x1="5" y1="5" x2="9" y2="9" stroke="#000000" stroke-opacity=".3"/>'}, "stroke-opacity='.3'"),
        ({"extra": '<rect x="5" y="5" width="9" height="9" style="fill:#00ff00;opacity:0.25"/>'}, "opacity='0.25'"),
        ({"extra": '<g opacity="half"><rect x="5" y="5" width="9" height="9"/></g>'}, "opacity='half'"),
        ({"place_icon": "see-through"}, "fill-opacity='0.5'"),
    ],
    ids=["fill", "stroke", "style", "not-a-number", "in-an-icon"],
)
def test_see_through_art_is_refused_pointing_at_mix(templates: Path, changes: dict[str, Any], found: str) -> None:
    message = refused(templates, slot_card(**changes))
    assert message.startswith("design: card probe-1 'Probe' (front): template design/slot.svg.j2: ")
    assert found in message and "mix(colour, background, 0.4)" in message


def test_an_opacity_of_one_is_opaque_and_passes(templates: Path) -> None:
    extra = '<rect x="5" y="5" width="9" height="9" fill="#ff0000" fill-opacity="1" stroke="#000000" stroke-opacity="1.0"/>'
    assert build(templates, slot_card(extra=extra)).startswith(b"%PDF")


def test_mix_paints_a_tint_as_one_solid_colour(templates: Path) -> None:
    # half black over white is mid grey: the text check sees that very colour under the slot
    message = refused(templates, slot_card(art="#000000", art_amount=0.5))
    assert "the art under its text is #808080" in message


@pytest.mark.parametrize("changes, shown", [
    ({"fill": "#12345g"}, "#12345g"), ({"fill": "banana"}, "banana"), ({"bg": "#ffffgg"}, "#ffffgg"), ({"bg": "nocolour"}, "nocolour"),
], ids=["fill-hex", "fill-name", "bg-hex", "bg-name"])
def test_a_slot_colour_that_is_not_a_colour_is_refused_naming_the_card(templates: Path, changes: dict[str, str],
                                                                       shown: str) -> None:
    message = refused(templates, slot_card(**changes))
    assert "probe-1" in message and f"colour '{shown}' is not a colour (use #rrggbb or a name)" in message
