"""`pantheon preflight`'s checks fail naming the card: a tiny font, text in the bleed, a missing bleed,
an unembedded font; and pass on a face that keeps the rules."""
from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from pipeline.cards.build import Plan
from pipeline.cards.plan import Face, PrintCard
from pipeline.exports.preflight import Rules, check_faces, check_target, design_rules, missing_bleed
from pipeline.exports.targets import target as export_target

from .render_helpers import toy_template_root

RULES = Rules(min_text_pt=7.0, safe_margin_mm=3.0)
GOOD = """{% from "_card.svg.j2" import card, frame %}
{% call card(63, 88) %}
{{ frame(63, 88, "#f4ecd8", "#6b4f2a") }}
<pp:text name="title" x="7" y="8" width="49" height="8" size="10" min-size="8" align="center" bg="#f4ecd8">{{ name }}</pp:text>
{% endcall %}
"""
TINY = GOOD.replace('size="10" min-size="8"', 'size="5" min-size="5"')
IN_THE_BLEED = GOOD.replace('x="7" y="8" width="49"', 'x="-2" y="8" width="30"').replace('align="center"', 'align="left"')
NO_BLEED = GOOD.replace('{{ frame(63, 88, "#f4ecd8", "#6b4f2a") }}', '<rect x="0" y="0" width="63" height="88" fill="#2a3b5c"/>')


def plan_with(templates: Path, body: str) -> Plan:
    (templates / "cards" / "toy" / "check.svg.j2").write_text(body)
    card = PrintCard("check-1", "Checked Card", Face("toy/check.svg.j2", {"name": "Checked Card"}))
    return Plan("toy", "Toy", [card])


@pytest.fixture
def templates(tmp_path: Path) -> Path:
    return toy_template_root(tmp_path)


def test_a_face_that_keeps_the_rules_passes(templates: Path) -> None:
    assert check_faces(plan_with(templates, GOOD), RULES, templates) == []


def test_a_tiny_font_fails_naming_the_card(templates: Path) -> None:
    findings = check_faces(plan_with(templates, TINY), RULES, templates)
    assert findings == ["toy: card check-1 'Checked Card' (front): text 'Checked Card' is 5.0 pt, below the 7 pt minimum"]


def test_text_in_the_bleed_fails_naming_the_card(templates: Path) -> None:
    findings = check_faces(plan_with(templates, IN_THE_BLEED), RULES, templates)
    assert len(findings) == 1 and "card check-1 'Checked Card' (front): text 'Checked Card' reaches" in findings[0]
    assert "mm into the 3 mm safe margin" in findings[0]


def test_art_that_stops_at_the_cut_fails(templates: Path) -> None:
    findings = check_faces(plan_with(templates, NO_BLEED), RULES, templates)
    assert sorted(f.rsplit(": ", 2)[-2] for f in findings) == [f"no bleed on the {s} edge" for s in ("bottom", "left", "right", "top")]


def test_missing_bleed_reads_pixels() -> None:
    image = Image.new("RGB", (100, 140), (255, 255, 255))
    for x in range(10, 90):  # art reaches the trim (10 px bleed) only on the left half of the top edge...
        for y in range(10, 130):
            image.putpixel((x, y), (40, 60, 90))
    for x in range(0, 100):
        for y in range(0, 10):
            image.putpixel((x, y), (40, 60, 90))  # ...except that the top bleed is there
    assert missing_bleed(image, 10) == ["left", "right", "bottom"]


def test_design_rules_come_from_the_templates_when_present(templates: Path) -> None:
    assert design_rules(templates) == Rules(7.0, 3.0) or (templates / "design-rules.yaml").is_file()
    (templates / "design-rules.yaml").write_text("min_text_pt: 8\nsafe_margin_mm: 4\ncontrast: 4.5\n")
    assert design_rules(templates) == Rules(8.0, 4.0)


@pytest.mark.parametrize("target", ["print", "mpc", "tgc", "dtc", "tts"])
def test_the_files_of_every_target_pass(templates: Path, target: str) -> None:
    spec = None if target == "print" else export_target(target, templates)
    assert check_target(plan_with(templates, GOOD), spec, templates) == []
