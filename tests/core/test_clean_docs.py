"""Validating again in one process, as `pantheon watch` does, finds every problem an edit made since."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from pipeline.checks.validate import holds_references
from pipeline.data.problems import Problem

GAME = "theocracy"


def lines(problems: list[Problem]) -> str:
    return "\n".join(str(p) for p in problems)


def test_a_reference_into_a_record_removed_elsewhere_is_reported_from_the_unchanged_document(
        data_copy_of: Callable[..., Path], validate: Callable[..., list[Problem]], edit_yaml: Any) -> None:
    """phases.yaml is not edited: its reference breaks because bid-rules.yaml lost the record it names."""
    root = data_copy_of(GAME)
    assert validate(root, [GAME]) == []
    edit_yaml(root / GAME / "bid-rules.yaml",
              lambda data: data.update(bid_rules=[rule for rule in data["bid_rules"] if rule["id"] != "ruin"]))
    found = lines(validate(root, [GAME]))
    [cause] = found.splitlines()  # phases.yaml's dangling [[bid-rules/ruin]] is folded into the one cause line
    assert 'bid rule "ruin" is missing from bid-rules.yaml (deleted or renamed?)' in cause, found
    assert "places still name it" in cause and "problems that follow from it not listed" in cause, found


def test_a_duplicate_id_added_after_a_clean_validation_is_reported(
        data_copy_of: Callable[..., Path], validate: Callable[..., list[Problem]], edit_yaml: Any) -> None:
    root = data_copy_of(GAME)
    assert validate(root, [GAME]) == []
    edit_yaml(root / GAME / "dice.yaml", lambda data: data["dice"].append(dict(data["dice"][0])))
    assert 'id "die-1" is used twice' in lines(validate(root, [GAME]))


def test_a_name_and_markup_broken_after_a_clean_validation_are_reported(
        data_copy_of: Callable[..., Path], validate: Callable[..., list[Problem]], edit_yaml: Any) -> None:
    root = data_copy_of(GAME)
    assert validate(root, [GAME]) == []

    def break_texts(data: Any) -> None:
        data["power_cards"][0]["name"] = "Fire **Sky**"
        data["power_cards"][1]["name"] = "Wrath :no-such-icon:"

    edit_yaml(root / GAME / "power-cards.yaml", break_texts)
    found = lines(validate(root, [GAME]))
    assert "'Fire **Sky**' is not plain text" in found and "unknown icon ':no-such-icon:'" in found, found
    edit_yaml(root / GAME / "power-cards.yaml", lambda data: None)  # the same values written again: still reported
    assert lines(validate(root, [GAME])) == found


def test_holds_references_sees_any_opening_of_one() -> None:
    assert holds_references({"a": [{"b": "see [[rulings/x]]"}]})
    assert holds_references(["[[ broken"])
    assert not holds_references({"a": ["[ [", 3, None, {"b": "plain [text]"}]})
