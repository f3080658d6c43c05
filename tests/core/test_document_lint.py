"""The document lint and the documents' layout run in validation: each class of copy fault the publisher
found, put back into the data, is a validate problem at the data file and line it came from; and whatever
would make a document refuse or overflow in the build is found by validate first (validate = build)."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from pipeline.checks.references import References
from pipeline.checks.validate import RecordCatalogue, validate
from pipeline.data.dataset import game_ids
from pipeline.data.problems import Problem
from pipeline.documents import copylint
from pipeline.documents.docscheck import document_problems
from pipeline.documents.glossary import combined_glossary
from pipeline.games.registry import catalogue
from tests.conftest import REPO_DATA
from tests.core.cli_helpers import run_cli


def problems(root: Path, game: str) -> list[Problem]:
    """What `pantheon validate` finds (its documents check included) in ``game`` of ``root``."""
    return validate(root, catalogue(), [game], documents=document_problems).problems


def put_back(root: Path, relative: str, old: str, new: str) -> int:
    """Replace ``old`` (once) by ``new`` in a data file, keeping every line where it is; the line edited."""
    path = root / relative
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return text[: text.index(old)].count("\n") + 1


def found_at(found: list[Problem], root: Path, relative: str, line: int, words: str) -> bool:
    """A problem names ``relative`` at ``line``, or at the line above it where a folded text's value starts."""
    return any(p.at.file.endswith(relative) and line - 1 <= p.at.line <= line and words in p.message for p in found)


def lines(found: list[Problem]) -> str:
    return "\n".join(str(p) for p in found)


# --------------------------------------------------------------------------- one test per lint class


# (class, game, file, the shipped words, the reviewer's example put back, what the problem says)
PUT_BACK = [
    ("identifier", "heavenly-father", "rules.yaml", "than reward Selfishness or Xenophobia.",
     "than reward Selfishness or Xenophobia ([[balance/gods-prefer-benevolence-or-justice]]).",
     "internal identifier 'gods-prefer-benevolence-or-justice'"),
    ("development", "theocracy", "rulings.yaml", "choose the first round's First at random.",
     "choose the first round's First at random. The reference engine numbers seats from 0.", "development vocabulary 'engine'"),
    ("seats-from-0", "theocracy", "rulings.yaml", "choose the first round's First at random.",
     "choose the first round's First at random. The reference engine numbers seats from 0.", "development vocabulary 'from 0'"),
    ("doubled", "totems-and-taboos", "rules.yaml", "[[guides/purple]], [[guides/red]]", "[[guides/purple]], the [[guides/red]]",
     "doubled word 'the The'"),
    ("cover", "monstrous", "rules.yaml", "choose one of the layouts under Scenarios (Basic",
     "choose one of the layouts on the back cover (Basic", "'back cover'"),
    ("picture", "monstrous", "rules.yaml", "      - Some hits, in words - a", "      - Hits in pictures - a",
     "'in pictures' but this section has no picture"),
]


@pytest.mark.parametrize(("game", "file", "old", "new", "words"), [case[1:] for case in PUT_BACK], ids=[case[0] for case in PUT_BACK])
def test_a_fault_put_back_is_found_at_its_data_line(data_copy_of: Callable[..., Path], game: str, file: str, old: str,
                                                    new: str, words: str) -> None:
    root = data_copy_of(game)
    line = put_back(root, f"{game}/{file}", old, new)
    found = problems(root, game)
    assert found_at(found, root, f"{game}/{file}", line, words), lines(found)


# (case, the shipped words on a later line of a folded paragraph, the fault put back, where in it the fault starts,
#  what the problem says)
DEEP_IN_A_PARAGRAPH = [
    ("on-its-line", "using the gods' own powers, you trick", "using the the gods' own powers, you trick", "the the",
     "doubled word 'the the'"),
    ("over-a-fold", "building patterns and\n        using the gods'", "building patterns the\n        The gods'",
     "the\n", "doubled word 'the The'"),
    ("vocabulary", "you trick those gods into devouring one", "you trick those gods (the solver agrees) into devouring one",
     "solver", "development vocabulary 'solver'"),
]


@pytest.mark.parametrize(("old", "new", "fault", "words"), [case[1:] for case in DEEP_IN_A_PARAGRAPH],
                         ids=[case[0] for case in DEEP_IN_A_PARAGRAPH])
def test_a_fault_deep_in_a_folded_paragraph_is_found_at_its_own_line_and_column(
        data_copy_of: Callable[..., Path], old: str, new: str, fault: str, words: str) -> None:
    root = data_copy_of("monotheism")
    relative = "monotheism/rules.yaml"
    put_back(root, relative, old, new)
    text = (root / relative).read_text(encoding="utf-8")
    offset = text.index(new) + new.index(fault)
    line, column = text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1
    found = [p for p in problems(root, "monotheism") if words in p.message]
    assert [(p.at.file.endswith(relative), p.at.line, p.at.column) for p in found] == [(True, line, column)], lines(found)


def test_a_data_address_and_a_file_path_are_identifiers() -> None:
    words = copylint.Vocabulary(frozenset(), frozenset({"colours"}), frozenset({"principle"}))
    found = list(copylint.text_findings("Orange (Totems + Taboos, colours: principle Faith); see rules.yaml", words))
    assert {(f.kind, f.words) for f in found} == {(copylint.IDENTIFIER, "colours: principle"), (copylint.IDENTIFIER, "rules.yaml")}


def test_a_see_pointing_out_of_the_aid_is_found(data_copy_of: Callable[..., Path]) -> None:
    """The reference sheet prints the winner text; its "see" names a ruling only the rulebook holds."""
    root = data_copy_of("theocracy")
    line = put_back(root, "theocracy/round-end.yaml", "share the\n    victory.", "share the\n    victory (see [[rulings/shared-victory]]).")
    found = problems(root, "theocracy")
    assert found_at(found, root, "theocracy/round-end.yaml", line - 1, "'see Tied for the most memory' points at something"), lines(found)


def test_a_listed_component_the_edition_does_not_produce_is_found(data_copy_of: Callable[..., Path]) -> None:
    root = data_copy_of("heavenly-father")
    line = put_back(root, "heavenly-father/components.yaml",
                    "description: 'Not included: one marker or pen per player, for filling in the cheat sheets.'",
                    "description: For filling in the cheat sheets.")
    found = problems(root, "heavenly-father")
    assert found_at(found, root, "heavenly-father/components.yaml", line - 1, "component 'Markers'"), lines(found)


def test_the_shipped_documents_pass_the_lint_and_the_layout(data_copy_of: Callable[..., Path]) -> None:
    root = data_copy_of()
    assert validate(root, catalogue(), documents=document_problems).problems == []


# --------------------------------------------------------------------------- validate = build


def test_a_footer_too_long_for_its_sheet_is_refused_by_validate_and_never_cut_off(
        data_copy_of: Callable[..., Path], tmp_path: Path) -> None:
    root = data_copy_of("heavenly-father")
    line = put_back(root, "heavenly-father/cheat-sheets.yaml", "each token of a Virtue is worth the number in its column.",
                    "each token of a Virtue is worth the number in its column, " + "and so on " * 30 + "to the end.")
    found = problems(root, "heavenly-father")
    assert found_at(found, root, "heavenly-father/cheat-sheets.yaml", line, "runs"), lines(found)
    built = run_cli("docs", "heavenly-father", "--data", str(root), "--out", str(tmp_path / "out"))
    assert built.returncode == 1 and "cheat-sheets.yaml" in built.stdout + built.stderr, built.stdout + built.stderr
    assert not (tmp_path / "out" / "heavenly-father" / "cheatsheet-a4.pdf").exists()


def test_a_cheat_sheet_too_long_for_its_page_is_refused_by_validate(data_copy_of: Callable[..., Path]) -> None:
    root = data_copy_of("heavenly-father")
    line = put_back(root, "heavenly-father/cheat-sheets.yaml", "hint: The god you were dealt. It is not in the envelope.",
                    "hint: " + "The god you were dealt, and it is not in the envelope. " * 25)
    found = problems(root, "heavenly-father")
    assert any("cheat-sheets.yaml" in p.at.file and "budget is 1" in p.message for p in found), lines(found)
    assert line > 0


def test_a_glossary_definition_too_long_for_a_page_is_refused_with_its_line(data_copy_of: Callable[..., Path]) -> None:
    root = data_copy_of("heavenly-father")
    line = put_back(root, "heavenly-father/glossary.yaml", "definition: A Mortal card with a grey front,",
                    "definition: A Mortal card with a grey front, " + "a very long definition indeed " * 270 + "and")
    found = problems(root, "heavenly-father")
    assert found_at(found, root, "heavenly-father/glossary.yaml", line, "a table cell of"), lines(found)


def test_a_rules_section_a_document_looks_up_is_required(data_copy_of: Callable[..., Path], edit_yaml: Callable) -> None:
    root = data_copy_of("monotheism")

    def drop(data: dict) -> None:
        for section in data["sections"]:
            if any(s["id"] == "starting-over" for s in section.get("subsections", [])):
                section["subsections"] = [s for s in section["subsections"] if s["id"] != "starting-over"]

    edit_yaml(root / "monotheism" / "rules.yaml", drop)
    found = problems(root, "monotheism")
    assert any("no section starting-over" in p.message and p.at.file.endswith("rules.yaml") for p in found), lines(found)


def test_the_combined_glossary_of_every_game_passes_the_lint() -> None:
    """The glossary's see-alsos across games are composed by code: 'Orange (Totems + Taboos), whose principle is
    Faith', never a data address such as 'colours: principle Faith'."""
    refs = References(RecordCatalogue(REPO_DATA, catalogue()))
    glossary = combined_glossary(game_ids(REPO_DATA), refs)
    games = [refs.catalogue.game(game) for game in game_ids(REPO_DATA)]
    words = copylint.vocabulary([{kind: doc.data for kind, doc in game.docs.items()} for game in games])
    assert list(copylint.documents_findings([glossary], words)) == []
    assert "whose principle is Faith" in "\n".join(copylint.document_texts(glossary))
