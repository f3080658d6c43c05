"""What every game's rulebook must hold, read back from its PDF: glossary terms and every referenced name."""
from __future__ import annotations

import pytest

from pipeline.checks.references import References
from pipeline.checks.validate import RecordCatalogue, walk
from pipeline.data.dataset import default_data_root, game_ids
from pipeline.games.registry import catalogue
from tests.core.docs_helpers import project_documents, project_texts, project_yaml, squash
from tests.core.render_helpers import fonts_not_embedded, reader

GAMES = game_ids(default_data_root())


@pytest.mark.parametrize("game", GAMES)
def test_rulebook_and_reference_are_written(game: str) -> None:
    assert {"rulebook", "reference"} <= set(project_texts(game))


@pytest.mark.parametrize("game", GAMES)
def test_every_document_embeds_every_font_it_uses(game: str) -> None:
    """A pre-press check refuses a PDF that names a font without embedding it (reportlab's default Helvetica:
    list bullets, table cells). Read from the documents these tests render anyway; the combined glossary is
    checked in test_fonts_embedded.py."""
    documents = project_documents(game)
    assert documents
    for kind, (pdf, _) in documents.items():
        assert fonts_not_embedded(reader(pdf)) == set(), kind


@pytest.mark.parametrize("game", GAMES)
def test_every_glossary_term_is_in_the_rulebook(game: str) -> None:
    rulebook = project_texts(game)["rulebook"]
    for term in project_yaml(game, "glossary")["terms"]:
        assert squash(term["term"]) in rulebook, term["term"]


@pytest.mark.parametrize("game", GAMES)
def test_every_name_the_rules_refer_to_is_in_the_rulebook(game: str) -> None:
    refs = References(RecordCatalogue(default_data_root(), catalogue()))
    rulebook = project_texts(game)["rulebook"]
    for _, node in walk(project_yaml(game, "rules")):
        if isinstance(node, str):
            for target_game, kind, record_id in refs.targets(node, game):
                assert squash(refs.name(target_game, kind, record_id)) in rulebook, (kind, record_id)
