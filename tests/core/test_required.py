"""What the rulebook fixes stays in the data (pipeline/checks/required.py): a required record deleted, a
fixed value changed, a numbered list renumbered or a stored measurement gone stale is a validate error."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from pipeline.data.problems import Problem
from tests.core.data_edits import edit

Validate = Callable[..., list[Problem]]
EditYaml = Callable[[Path, Callable[[Any], Any]], None]

# (game, file, list key, record id, its address in required.yaml): the deletions the attack of
# 2026-12-06 found accepted.
DELETIONS = [
    ("monstrous", "faq.yaml", "rulings", "gorgon-hits-gorgon", "faq/rulings/gorgon-hits-gorgon"),
    ("monstrous", "faq.yaml", "rulings", "cyclops-off-table", "faq/rulings/cyclops-off-table"),
    ("monstrous", "faq.yaml", "rulings", "underworld-location-vs-pile", "faq/rulings/underworld-location-vs-pile"),
    ("monstrous", "glossary.yaml", "terms", "faith", "glossary/terms/faith"),
    ("monstrous", "glossary.yaml", "terms", "hit-location", "glossary/terms/hit-location"),
    ("monotheism", "glossary.yaml", "terms", "turn", "glossary/terms/turn"),
    ("totems-and-taboos", "glossary.yaml", "terms", "hand-limit", "glossary/terms/hand-limit"),
    ("heavenly-father", "glossary.yaml", "symbols", "green-token", "glossary/symbols/green-token"),
    ("heavenly-father", "glossary.yaml", "symbols", "pink-back", "glossary/symbols/pink-back"),
]


def messages(problems: list[Problem]) -> str:
    return "\n".join(map(str, problems))


def line_of(path: Path, text: str, whole: bool = False) -> int:
    """The 1-based number of the one line of ``path`` that contains ``text`` (is ``text``, when ``whole``)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    hits = [number for number, line in enumerate(lines, 1) if (line == text if whole else text in line)]
    assert len(hits) == 1, f"{text!r} is on {len(hits)} lines of {path}"
    return hits[0]


@pytest.mark.parametrize("game, file, key, record_id, address", DELETIONS, ids=[d[3] for d in DELETIONS])
def test_deleting_a_rulebook_record_is_refused_naming_it(data_copy: Path, validate: Validate, edit_yaml: EditYaml,
                                                         game: str, file: str, key: str, record_id: str,
                                                         address: str) -> None:
    required = data_copy / game / "required.yaml"
    listed = line_of(required, f"  - {address}", whole=True)

    def delete(data: dict[str, Any]) -> None:
        kept = [record for record in data[key] if record.get("id") != record_id]
        assert len(kept) == len(data[key]) - 1
        data[key] = kept

    edit_yaml(data_copy / game / file, delete)
    found = messages(validate(data_copy, [game]))
    [cause] = found.splitlines()  # the deletion is one line, its consequences folded in
    label = f'"{record_id}" is missing from {file} (deleted or renamed?); the rulebook states it ({required}:{listed})'
    assert cause.startswith(f"{data_copy / game / file}:") and label in cause, found


@pytest.mark.parametrize("file, old, new, section, sentence", [
    ("turn.yaml", "start-of-turn\n  choose: 1\n", "start-of-turn\n  choose: 2\n", "7.5 Skipping a turn", "do one of the following"),
    ("solo.yaml", "  per_block: true\n", "  per_block: false\n", "8.2 Your turn", "equal to the number of totem blocks"),
], ids=["skip-choose", "passive-miracles-per-block"])
def test_changing_a_value_the_rulebook_fixes_is_refused_at_its_line(data_copy: Path, validate: Validate, file: str,
                                                                     old: str, new: str, section: str,
                                                                     sentence: str) -> None:
    path = data_copy / "totems-and-taboos" / file
    edit(path, old, new)
    line = line_of(path, new.splitlines()[-1], whole=True)
    found = [str(p) for p in validate(data_copy, ["totems-and-taboos"]) if str(p).startswith(f"{path}:{line}:")]
    assert len(found) == 1 and section in found[0] and sentence in found[0], found


def test_a_renumbered_list_is_refused(data_copy: Path, validate: Validate) -> None:
    path = data_copy / "monstrous" / "variants.yaml"
    edit(path, "number: 3\n        text: Teammates throw", "number: 2\n        text: Teammates throw")
    line = line_of(path, "text: Teammates throw") - 1
    found = messages(validate(data_copy, ["monstrous"]))
    assert f"{path}:{line}:17: numbered list: entry 3 is numbered 2" in found, found


def test_a_stale_solution_turns_is_refused(data_copy: Path, validate: Validate) -> None:
    path = data_copy / "monotheism" / "scenarios.yaml"
    edit(path, "solution_turns: 7\n      no_win_within: 6", "solution_turns: 8\n      no_win_within: 6")
    text = path.read_text(encoding="utf-8")
    line = text[:text.index("solution_turns: 8\n      no_win_within: 6")].count("\n") + 1  # scenario 2's rating
    found = messages(validate(data_copy, ["monotheism"]))
    assert (f"{path}:{line}:23: scenario 2 (A Friendly Game of Leap-frog): rating: solution_turns 8 is stale: "
            "the stored winning line wins in 7 turns") in found, found

