"""totems-and-taboos documents, read back from the PDFs: glossary terms, referenced names, the sheets there are."""
from __future__ import annotations

from functools import lru_cache

import yaml

from pipeline.core.dataset import default_data_root
from pipeline.core.references import References
from pipeline.core.validate import walk
from tests.core.docs_helpers import page_texts, render_game, squash

GAME = "totems-and-taboos"
ROOT = default_data_root()


@lru_cache(maxsize=None)
def texts() -> dict[str, str]:
    return {kind: " ".join(page_texts(pdf)) for kind, (pdf, _) in render_game(ROOT, GAME).items()}


def _yaml(kind: str):  # type: ignore[no-untyped-def]
    return yaml.safe_load((ROOT / GAME / f"{kind}.yaml").read_text(encoding="utf-8"))


def test_every_glossary_term_is_in_the_rulebook() -> None:
    rulebook = texts()["rulebook"]
    for term in _yaml("glossary")["terms"]:
        assert squash(term["term"]) in rulebook, term["term"]


def test_every_name_the_rules_refer_to_is_in_the_rulebook() -> None:
    refs = References(ROOT)
    rulebook = texts()["rulebook"]
    for _, node in walk(_yaml("rules")):
        if isinstance(node, str):
            for game, kind, record_id in refs.targets(node, GAME):
                assert squash(refs.name(game, kind, record_id)) in rulebook, (kind, record_id)


def test_documents_present() -> None:
    assert {"rulebook", "reference"} <= set(texts())


def test_cheat_sheet_and_die() -> None:
    sheet = texts()["cheatsheet"]
    for colour in _yaml("colours")["colours"]:
        assert colour["principle"] in sheet
    for guide in _yaml("guides")["guides"]:
        assert guide["name"] in sheet
    assert "Yellow" in texts()["extras"] and "Orange" in texts()["extras"]
