"""Words the data gives as the rulebook's are the rulebook's (issue 29 item 2): every text of a record marked
provenance rulebook, and every quotation in a reasoning or note.

The misattribution this check was written for: Totems + Taboos' rules.yaml gave "sending your own servants to
their deaths to refill the pile" as the rulebook's '8.5 Alternate difficulties', whose words are "Few have
succeeded in this challenging mode. Try every dirty trick and search for hidden combos across the different
colors to win this mode. Sometimes counterintuitive actions can have incredible results."
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Optional

import pytest

from pipeline.checks.rulebook_quotes import (
    RULEBOOK_FILE,
    contains,
    is_text,
    normalised,
    quotations,
    quote_problems,
)
from pipeline.data.dataset import default_data_root, game_ids, load_game
from pipeline.games.registry import spec as spec_of

GAME = "totems-and-taboos"
FALSE_85 = "sending your own servants to their deaths to refill the pile"


def _problems(root: Path, game: str = GAME) -> list[str]:
    return [str(p) for p in quote_problems(load_game(root, spec_of(game)))]


def _set_hard(name: str, provenance: Optional[dict[str, Any]] = None) -> Callable[[Any], None]:
    """An edit of solo.yaml: the hard difficulty (provenance rulebook, 8.5) is named ``name`` (and given
    ``provenance``)."""
    def edit(data: Any) -> None:
        hard = next(d for d in data["difficulties"] if d["id"] == "hard")
        hard["name"] = name
        if provenance is None:
            assert hard["provenance"] == {"source": "rulebook", "section": "8.5 Alternate difficulties"}
        else:
            hard["provenance"] = provenance
    return edit


@pytest.mark.parametrize("game", game_ids(default_data_root()))
def test_every_shipped_game_quotes_its_rulebook_verbatim(game: str) -> None:
    root = default_data_root()
    assert (root / game / RULEBOOK_FILE).is_file()  # the text the check reads ships with the data
    assert _problems(root, game) == []


# ------------------------------------------------------------------ one test per kind of failure
def test_a_rulebook_text_the_rulebook_does_not_contain_is_refused_naming_file_line_and_record(
        data_copy_of, edit_yaml) -> None:
    """Item 5 of the issue: our words given as the rulebook's. A text of a rulebook record must be verbatim."""
    root = data_copy_of(GAME)
    edit_yaml(root / GAME / "solo.yaml", _set_hard(FALSE_85))
    problems = _problems(root)
    assert len(problems) == 1
    assert problems[0].startswith(f"{root / GAME / 'solo.yaml'}:")  # file:line:column
    assert "difficulty hard: name" in problems[0] and "does not contain" in problems[0]
    assert "\n" not in problems[0]


def test_a_short_rulebook_text_with_a_word_the_rulebook_never_uses_is_refused(data_copy_of, edit_yaml) -> None:
    """A name or term need not be a phrase of the rulebook, but its words must be the rulebook's."""
    root = data_copy_of(GAME)
    edit_yaml(root / GAME / "solo.yaml", _set_hard("Inferno mode"))
    [problem] = _problems(root)
    assert "solo.yaml:" in problem and "never uses 'inferno'" in problem
    edit_yaml(root / GAME / "solo.yaml", _set_hard("Hell mode"))  # both words are the rulebook's
    assert _problems(root) == []


def test_a_misattributed_quote_in_a_reasoning_is_refused(data_copy_of, edit_yaml) -> None:
    """An inferred record's reasoning citing the rulebook's words for what it does not say (the old solo ruling)."""
    root = data_copy_of(GAME)

    def edit(data: Any) -> None:
        data["passive_miracles"]["provenance"]["reasoning"] += f" '8.5' says hard mode needs '{FALSE_85}'."
    edit_yaml(root / GAME / "solo.yaml", edit)
    problems = _problems(root)
    assert len(problems) == 1 and "solo.yaml:" in problems[0] and "passive_miracles" in problems[0]
    assert f"quotes \"{FALSE_85}\"" in problems[0]


def test_a_paraphrased_field_the_record_lacks_is_refused(data_copy_of, edit_yaml) -> None:
    root = data_copy_of(GAME)
    edit_yaml(root / GAME / "solo.yaml", _set_hard("Highway to hell", {
        "source": "rulebook", "section": "8.5 Alternate difficulties", "paraphrased": ["title"]}))
    [problem] = _problems(root)
    assert "solo.yaml:" in problem and "field 'title' is paraphrased, but the record has no such field" in problem


def test_a_game_without_its_rulebook_cannot_vouch_for_its_texts(data_copy_of) -> None:
    root = data_copy_of(GAME)
    (root / GAME / RULEBOOK_FILE).unlink()
    problems = _problems(root)
    assert len(problems) == 1 and f"ships no {RULEBOOK_FILE}" in problems[0]


def test_validate_refuses_a_misattribution_in_one_line_with_a_non_zero_exit(data_copy_of, edit_yaml) -> None:
    root = data_copy_of(GAME)
    edit_yaml(root / GAME / "solo.yaml", _set_hard(FALSE_85))
    run = subprocess.run([sys.executable, "-m", "pipeline", "validate", GAME, "--data", str(root)],
                         capture_output=True, text=True, check=False)
    assert run.returncode != 0 and "Traceback" not in run.stderr + run.stdout
    lines = [line for line in (run.stdout + run.stderr).splitlines() if "does not contain" in line]
    assert len(lines) == 1 and "solo.yaml:" in lines[0] and "difficulty hard" in lines[0]


# ------------------------------------------------------------------ what is accepted
def test_a_verbatim_text_is_accepted_whatever_its_quotes_case_spacing_and_final_stop(data_copy_of, edit_yaml) -> None:
    root = data_copy_of(GAME)
    edit_yaml(root / GAME / "solo.yaml", _set_hard(
        "\u201cFew have  succeeded in this challenging mode. Try every dirty trick ... "
        "Sometimes counterintuitive actions can have incredible results.\u201d"))
    assert _problems(root) == []
    edit_yaml(root / GAME / "solo.yaml", _set_hard("the passive religions start with 6 totem blocks."))
    assert _problems(root) == []  # the rulebook goes on ("... and 10 shrines each"): a final stop is ours


def test_a_paraphrase_is_accepted_once_marked_inferred_or_its_field_paraphrased(data_copy_of, edit_yaml) -> None:
    root = data_copy_of(GAME)
    paraphrase = "Few players ever win this hard mode"
    edit_yaml(root / GAME / "solo.yaml", _set_hard(paraphrase, {
        "source": "inferred", "reasoning": "Our wording of 8.5 Alternate difficulties."}))
    assert _problems(root) == []
    edit_yaml(root / GAME / "solo.yaml", _set_hard(paraphrase, {
        "source": "rulebook", "section": "8.5 Alternate difficulties", "paraphrased": ["name"]}))
    assert _problems(root) == []


def test_identifiers_are_not_text() -> None:
    assert not is_text("difficulty", "passive-religion") and not is_text("winning_line", "pick 14")
    assert is_text("name", "Highway to hell") and is_text("name", "Owl")


# ------------------------------------------------------------------ the matching itself
def test_normalising_makes_markup_quotes_dashes_and_spacing_uniform() -> None:
    assert normalised("**Few** have\n succeeded \u2013 \u2018here\u2019") == normalised("few have succeeded - 'here'")
    assert normalised("2.Souls, servants") == normalised("2. Souls , servants")


@pytest.mark.parametrize("quoted, found", [
    ("draw 3 cards of that color", True),
    ("draw 3 cards ... as your starting hand", True),     # an ellipsis leaves words out, in order
    ("as your starting hand ... draw 3 cards", False),    # but not out of order
    ("draw three cards of that colour", False),           # a paraphrase is not a quotation
])
def test_contains(quoted: str, found: bool) -> None:
    rulebook = normalised("When everyone has their starting block, reveal it, place it at your end of the table "
                          "and **draw 3 cards of that color** as your starting hand.")
    assert contains(rulebook, quoted) is found


def test_short_quotes_and_apostrophes_are_not_quotations() -> None:
    text = "The players' 'Solo rulings' and the rulebook's 'roll 3 soul cubes' (7.2)"
    assert list(quotations(text)) == ["roll 3 soul cubes"]
