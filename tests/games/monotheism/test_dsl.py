"""The effects language: one handler and one phrase per word, a generated schema, rendered text."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.data.dataset import default_data_root
from pipeline.data.effects import Effect
from pipeline.games.monotheism import dsl, engine  # noqa: F401  (engine attaches the handlers)
from pipeline.games.monotheism.text import act_text, essence_text


def test_every_word_has_a_handler_and_a_phrase() -> None:
    assert list(dsl.REGISTRY.problems()) == []


def test_schema_file_is_generated_from_the_registry() -> None:
    path = default_data_root() / "schemas" / "monotheism" / "deities.schema.json"
    assert json.loads(path.read_text(encoding="utf-8")) == dsl.deities_schema()


@pytest.mark.usefixtures("small_budgets")  # no need for the scenarios' full proofs and #21 deals
@pytest.mark.parametrize("missing", ["handler", "phrase"])
def test_validate_reports_an_op_without_handler_or_phrase(missing: str, monkeypatch, data_copy: Path,
                                                          validate) -> None:
    entry = Effect("smite", {"const": True}, phrase=lambda p, c: "Smite.", handler=lambda *a: None)
    setattr(entry, missing, None)
    monkeypatch.setitem(dsl.REGISTRY.entries[dsl.OP], "smite", entry)
    # a cache of its own: the data is unchanged and the broken entry lives only in memory, so a clean result
    # kept for the real registry (core/validcache.py) would rightly skip the checks
    monkeypatch.setenv("PANTHEON_CACHE", str(data_copy.parent / "cache"))
    messages = [p.message for p in validate(data_copy, ["monotheism"])]
    assert f"effects language: op 'smite' has no {'engine handler' if missing == 'handler' else 'phrase for printed text'}" in messages


def test_a_word_cannot_get_two_handlers() -> None:
    with pytest.raises(ValueError, match="two handlers"):
        dsl.handler(dsl.OP, "consume")(lambda *a: None)


def test_rulebook_wordings_render_from_structure() -> None:
    may_eat = {"do": [{"consume": {"target": {"choose": {"count": 1, "among_top": 4, "kind": "god"}},
                                   "optional": True, "if_so": [{"transform": {"target": {"this": True}}}]}}]}
    assert act_text(may_eat) == ("This may consume any god from among the top four cards. "
                                 "If so: Transform this.")
    assert act_text({"do": [{"consume": {"target": {"nearest": 4}}}]}) == "This consumes the four cards nearest itself."
    grant = {"do": [{"grant": {"grantee": {"choose": {"count": 1, "among_top": 4, "kind": "god"}},
                               "consume": {"neighbours": True}}}]}
    assert act_text(grant) == ("This grants any god from among the top four cards the power to consume "
                               "everything next to itself.")
    bottom = {"when": "attempted", "do": [{"void": {"target": {"bottom": 3}}}]}
    assert essence_text(bottom) == "When a god attempts to consume this: instead, the void consumes the bottom three cards."
    began = {"if": {"began_unveiled": True}, "do": [{"veil": {"target": {"next": True}}}]}
    assert act_text(began) == "If this began unveiled: Veil the card beneath this."
