"""Card anatomy figures: every rulebook draws real card faces of its game with numbered callouts whose
numbers and names are in the text key, pointing at the slots the face really has."""
from __future__ import annotations

from typing import Any

import pytest

from pipeline.app.documents import game_documents
from pipeline.base.errors import UserError
from pipeline.cards.faces import Splitter, TextSlot
from pipeline.checks.references import References
from pipeline.checks.validate import RecordCatalogue
from pipeline.data.dataset import default_data_root, game_ids
from pipeline.documents import structure as m
from pipeline.documents.facedraw import card_templates, face_slots
from pipeline.documents.figures import CALLOUT_GAP, CALLOUT_R, Part, _spread, figure
from pipeline.games.registry import catalogue
from tests.core.docs_helpers import page_texts, project_documents

ROOT = default_data_root()


def _figures(blocks: tuple[m.Block, ...]) -> list[m.CardFigure]:
    out: list[m.CardFigure] = []
    for block in blocks:
        if isinstance(block, m.CardFigure):
            out.append(block)
        elif isinstance(block, m.Group):
            out += _figures(block.blocks)
    return out


@pytest.mark.parametrize("game", game_ids(ROOT))
def test_rulebook_shows_card_faces_of_the_card_plan_with_a_numbered_key(game: str) -> None:
    refs = References(RecordCatalogue(ROOT, catalogue()))
    rulebook = game_documents(game, "a4", refs)["rulebook"]
    figures = _figures(rulebook.blocks)
    assert figures, f"{game}: the rulebook has no anatomy figure"
    loaded = refs.catalogue.game(game)
    faces = [side for card in print_cards_of(loaded) for side in (card.front, card.back) if side is not None]
    pages = page_texts(project_documents(game)["rulebook"][0])
    for fig in figures:
        assert fig.face in faces, f"{game}: {fig.caption} is not a face the card sheets print"
        assert [c.number for c in fig.callouts] == list(range(1, len(fig.callouts) + 1))
        assert len(fig.callouts) >= 3
        page = next((p for p in pages if fig.caption in p), None)
        assert page is not None, f"{game}: caption {fig.caption!r} not printed"
        for callout in fig.callouts:
            name = callout.key.split("**")[1]
            assert f"{callout.number}. {name}" in page, f"{game}: key entry {callout.number} ({name}) not beside its figure"
        # spaces compared as spaces: a card keeps "+1 Justice" together with a no-break space
        drawn = [" ".join(run[4].split()) for run in _face_runs(fig) if len(run[4]) > 3]
        printed = " ".join(page.split())
        found = sum(words in printed for words in drawn)
        assert drawn and found >= len(drawn) * 0.8, f"{game}: {fig.caption}: the card's text is not drawn"


def _face_runs(fig: m.CardFigure) -> list[tuple[str, float, float, float, str]]:
    """The text runs the card build sets on the figure's face (its words as the card sheets print them)."""
    templates = card_templates()
    svg = templates.render(fig.face.template, fig.face.context, "test")
    record, _ = Splitter(templates).split(svg, fig.face.template, "test")
    return [run for slot in record.slots if isinstance(slot, TextSlot) and not slot.turned for run in slot.setting.runs]


def test_callouts_point_inside_the_slots_of_the_face() -> None:
    refs = References(RecordCatalogue(ROOT, catalogue()))
    loaded = refs.catalogue.game("totems-and-taboos")
    card = next(c for c in print_cards_of(loaded) if c.front.template.endswith("guide.svg.j2"))
    parts = (Part("name", "Name", "n."), Part("ability", "Ability", "a."), Part("no-such-slot", "Missing", "left out."))
    templates = card_templates()
    fig = figure(card.front, parts, width=50, where="test", templates=templates)
    slots = face_slots(card.front, "test", templates)
    assert [c.key.split("**")[1] for c in fig.callouts] == ["Name", "Ability"]  # top to bottom; a missing slot is left out
    for callout, selector in zip(fig.callouts, ("name", "ability")):
        x0, y0, x1, y1 = slots.find(selector).box  # type: ignore[union-attr]
        assert x0 <= callout.x <= x1 and y0 <= callout.y <= y1
    with pytest.raises(UserError, match="finds none of its parts"):
        figure(card.front, (Part("nothing", "Nothing", "none."),), width=50, where="test", templates=templates)


def test_callout_circles_keep_apart_and_inside_the_card() -> None:
    ys = _spread([10.0, 10.5, 11.0, 79.0, 80.0], 80.0)
    assert all(b - a >= 2 * CALLOUT_R + CALLOUT_GAP - 1e-9 for a, b in zip(ys, ys[1:]))
    assert ys[0] >= CALLOUT_R and ys[-1] <= 80.0 - CALLOUT_R + 1e-9


def test_unlisted_slots_get_callouts_so_new_template_boxes_are_explained() -> None:
    refs = References(RecordCatalogue(ROOT, catalogue()))
    loaded = refs.catalogue.game("monotheism")
    card = next(c for c in print_cards_of(loaded) if c.front.template.endswith("deity.svg.j2"))
    templates = card_templates()
    names = face_slots(card.front, "test", templates).text_names()
    fig = figure(card.front, (Part("band", "Band", "b."),), width=50, where="test", templates=templates,
                 unlisted=lambda n: Part(n, f"Slot {n}", "x."))
    keyed = {c.key.split("**")[1] for c in fig.callouts}
    assert keyed == {"Band"} | {f"Slot {n}" for n in names if n != "band"}
    assert len(fig.callouts) == len(names)


def print_cards_of(loaded: Any) -> list[Any]:
    """The game's card plan (every game in these tests has one)."""
    assert loaded.spec.cards is not None
    return list(loaded.spec.cards(loaded))
