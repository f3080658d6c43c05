"""Words the data gives as the rulebook's are the rulebook's (issue 29 item 2).

The misattribution this check was written for: Totems + Taboos' rules.yaml gave "sending your own servants to
their deaths to refill the pile" as the rulebook's '8.5 Alternate difficulties', whose words are "Few have
succeeded in this challenging mode. Try every dirty trick and search for hidden combos across the different
colors to win this mode. Sometimes counterintuitive actions can have incredible results."
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from pipeline.checks.rulebook_quotes import RULEBOOK_FILE, contains, normalised, quotations, quote_problems
from pipeline.data.dataset import default_data_root, game_ids, load_game
from pipeline.games.registry import spec as spec_of

GAME = "totems-and-taboos"
FALSE_85 = "sending your own servants to their deaths to refill the pile"
TRUE_85 = "Few have succeeded in this challenging mode"


def _problems(root: Path, game: str = GAME) -> list[str]:
    return [str(p) for p in quote_problems(load_game(root, spec_of(game)))]


def _set_hard_item(text: str) -> Callable[[Any], None]:
    """An edit of rules.yaml: the solo difficulties' hard item (provenance rulebook, 8.5) reads ``text``."""
    def edit(data: Any) -> None:
        solo = next(s for s in data["sections"] if s["id"] == "solo")
        difficulties = next(s for s in solo["subsections"] if s["id"] == "difficulties")
        assert difficulties["provenance"] == {"source": "rulebook", "section": "8.5 Alternate difficulties"}
        difficulties["items"][2] = text
    return edit


@pytest.mark.parametrize("game", game_ids(default_data_root()))
def test_every_shipped_game_quotes_its_rulebook_verbatim(game: str) -> None:
    root = default_data_root()
    assert (root / game / RULEBOOK_FILE).is_file()  # the text the check reads ships with the data
    assert _problems(root, game) == []


def test_a_misattributed_quote_is_refused_naming_file_line_and_record(data_copy_of, edit_yaml) -> None:
    root = data_copy_of(GAME)
    edit_yaml(root / GAME / "rules.yaml", _set_hard_item(f"Highway to hell - as the rulebook says, '{FALSE_85}'."))
    problems = _problems(root)
    assert len(problems) == 1
    assert problems[0].startswith(f"{root / GAME / 'rules.yaml'}:")  # file:line:column
    assert "subsection difficulties" in problems[0] and FALSE_85 in problems[0]
    assert "\n" not in problems[0]


def test_a_misattribution_in_a_reasoning_is_refused(data_copy_of, edit_yaml) -> None:
    """An inferred record's reasoning citing the rulebook's words for what it does not say (the old solo ruling)."""
    root = data_copy_of(GAME)

    def edit(data: Any) -> None:
        data["passive_miracles"]["provenance"]["reasoning"] += f" '8.5' says hard mode needs '{FALSE_85}'."
    edit_yaml(root / GAME / "solo.yaml", edit)
    problems = _problems(root)
    assert len(problems) == 1 and "solo.yaml:" in problems[0] and "passive_miracles" in problems[0]


def test_a_verbatim_quote_is_accepted_whatever_its_quotes_dashes_case_and_spacing(data_copy_of, edit_yaml) -> None:
    root = data_copy_of(GAME)
    edit_yaml(root / GAME / "rules.yaml", _set_hard_item(
        "Highway to hell: \u201cfew have  succeeded in this challenging mode. Try every dirty trick ... "
        "Sometimes counterintuitive actions can have incredible results.\u201d"))
    assert _problems(root) == []


def test_a_paraphrase_in_quotation_marks_is_refused_and_accepted_without_them(data_copy_of, edit_yaml) -> None:
    root = data_copy_of(GAME)
    paraphrase = "Few players ever win this hard mode"
    edit_yaml(root / GAME / "rules.yaml", _set_hard_item(f"Highway to hell: '{paraphrase}'."))
    assert [paraphrase in p for p in _problems(root)] == [True]
    edit_yaml(root / GAME / "rules.yaml", _set_hard_item(f"Highway to hell: {paraphrase}."))
    assert _problems(root) == []


def test_validate_refuses_a_misattribution_in_one_line_with_a_non_zero_exit(data_copy_of, edit_yaml) -> None:
    root = data_copy_of(GAME)
    edit_yaml(root / GAME / "rules.yaml", _set_hard_item(f"Highway to hell: '{FALSE_85}'."))
    run = subprocess.run([sys.executable, "-m", "pipeline", "validate", GAME, "--data", str(root)],
                         capture_output=True, text=True, check=False)
    assert run.returncode != 0 and "Traceback" not in run.stderr + run.stdout
    lines = [line for line in (run.stdout + run.stderr).splitlines() if FALSE_85 in line]
    assert len(lines) == 1 and "rules.yaml:" in lines[0]


def test_a_game_without_its_rulebook_cannot_vouch_for_its_quotes(data_copy_of) -> None:
    root = data_copy_of(GAME)
    (root / GAME / RULEBOOK_FILE).unlink()
    problems = _problems(root)
    assert len(problems) == 1 and f"ships no {RULEBOOK_FILE}" in problems[0]


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
