"""monstrous documents, read back from the PDFs: glossary terms, referenced names, the sheets there are."""
from __future__ import annotations

from functools import lru_cache

import yaml

from pipeline.core.dataset import default_data_root
from pipeline.core.references import References
from pipeline.core.validate import walk
from tests.core.docs_helpers import page_texts, render_game, squash

GAME = "monstrous"
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


def test_one_aid_per_god_and_faith_tokens() -> None:
    reference = texts()["reference"]
    for god in _yaml("gods")["gods"]:
        assert f"Player aid: {god['name']} ({god['colour']})" in reference
    for scenario in _yaml("scenarios")["scenarios"]:
        assert scenario["name"] in reference
    assert "56 Faith tokens" in texts()["extras"]
