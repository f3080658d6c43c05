"""Checks a game declares in its spec and the core runs: required rule sections, rulings, example replays.
Each broken case is one line at the record's place and makes validate exit 1."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pipeline.checks import rulingslist
from pipeline.checks.rulecontract import ruling_problems, rulings_of, section_ids, section_problems
from pipeline.data.dataset import default_data_root, load_game
from pipeline.games import registry as games
from pipeline.games.registry import spec as spec_of


def _lines(result: Any, fragment: str) -> list[str]:
    return [row for row in (result.stdout + result.stderr).splitlines() if fragment in row]


@pytest.mark.parametrize("spec", games.REGISTERED, ids=lambda s: s.id)
def test_every_game_declares_its_rule_sections_and_its_rules_have_them(spec: games.GameSpec) -> None:
    assert spec.rule_sections, f"{spec.id}: the spec declares no rule sections"
    game = load_game(default_data_root(), spec)
    assert list(section_problems(game, spec.rule_sections)) == []
    assert set(spec.rule_sections) <= set(section_ids(game.doc("rules").data["sections"]))


def test_a_missing_rule_section_is_one_line_and_exit_1(pantheon, data_copy: Path, edit_yaml) -> None:
    rules = data_copy / "theocracy" / "rules.yaml"
    edit_yaml(rules, lambda d: d.update(sections=[s for s in d["sections"] if s["id"] != "roles"]))
    result = pantheon("validate", "theocracy", "--data", str(data_copy))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    [line] = _lines(result, "roles")  # the cause, once: what follows from it (the spec's "no section roles") is folded in
    at = load_game(data_copy, spec_of("theocracy")).doc("rules").at("sections")
    assert f'theocracy/rules.yaml:{at.line}:{at.column}: section "roles" is missing from rules.yaml (deleted or renamed?)' in line
    assert line.endswith("problems that follow from it not listed")


def test_a_ruling_without_reasoning_is_named_at_its_provenance(data_copy: Path, edit_yaml) -> None:
    def authored(data: dict[str, Any]) -> None:
        data["rulings"][1]["provenance"] = {"source": "authored"}

    edit_yaml(data_copy / "monstrous" / "rulings.yaml", authored)
    game = load_game(data_copy, spec_of("monstrous"))
    [problem] = ruling_problems(game, games.spec("monstrous").rulings)
    ruling = game.doc("rulings").data["rulings"][1]["id"]
    assert problem.message == (f"ruling {ruling}: a ruling is ours: its provenance is {{source: inferred, reasoning: "
                               "...} saying why")
    assert problem.at == game.doc("rulings").at("rulings", 1, "provenance")


def test_theocracy_rulings_must_be_listed_in_its_clarifications(data_copy: Path, edit_yaml) -> None:
    def unlist(data: dict[str, Any]) -> None:
        section = next(s for s in data["sections"] if s["id"] == "clarifications")
        section["items"] = [item for item in section["items"] if "[[rulings/fate-dice]]" not in item]

    edit_yaml(data_copy / "theocracy" / "rules.yaml", unlist)
    game = load_game(data_copy, spec_of("theocracy"))
    [problem] = ruling_problems(game, games.spec("theocracy").rulings)
    assert problem.message == "ruling fate-dice: not listed in the rules' clarifications section"
    assert problem.at.file.endswith("theocracy/rulings.yaml")


def test_a_ruling_listed_in_neither_of_two_sections_names_both(data_copy: Path, edit_yaml) -> None:
    def unlist(data: dict[str, Any]) -> None:
        section = next(s for s in data["sections"] if s["id"] == "rulings")
        section["items"] = [item for item in section["items"] if "[[rulings/empty-deck]]" not in item]

    edit_yaml(data_copy / "totems-and-taboos" / "rules.yaml", unlist)
    game = load_game(data_copy, spec_of("totems-and-taboos"))
    [problem] = ruling_problems(game, games.spec("totems-and-taboos").rulings)
    assert problem.message == "ruling empty-deck: not listed in the rules' rulings or solo-rulings section"
    index = [r["id"] for r in game.doc("rulings").data["rulings"]].index("empty-deck")
    assert problem.at == game.doc("rulings").at("rulings", index)


def test_a_ruling_kept_as_a_rules_subsection_needs_its_reasoning_too(data_copy: Path, edit_yaml) -> None:
    """Monotheism keeps its rulings as the subsections of rules.yaml's engine-rulings section."""
    def unreasoned(data: dict[str, Any]) -> None:
        section = next(s for s in data["sections"] if s["id"] == "engine-rulings")
        del section["subsections"][2]["provenance"]["reasoning"]

    edit_yaml(data_copy / "monotheism" / "rules.yaml", unreasoned)
    game = load_game(data_copy, spec_of("monotheism"))
    [problem] = ruling_problems(game, games.spec("monotheism").rulings)
    sections = game.doc("rules").data["sections"]
    at = [s["id"] for s in sections].index("engine-rulings")
    assert problem.message.startswith(f"ruling {sections[at]['subsections'][2]['id']}: a ruling is ours")
    assert problem.at == game.doc("rules").at("sections", at, "subsections", 2, "provenance")


@pytest.mark.parametrize("spec", games.REGISTERED, ids=lambda s: s.id)
def test_every_game_declares_its_rulings_each_with_a_title_text_and_reason(spec: games.GameSpec) -> None:
    assert spec.rulings is not None, f"{spec.id}: the spec declares no rulings"
    game = load_game(default_data_root(), spec)
    rulings = rulings_of(game, spec.rulings)
    assert rulings, f"{spec.id}: no rulings found where the spec says they are"
    assert list(ruling_problems(game, spec.rulings)) == []
    for ruling in rulings:
        assert ruling.title and ruling.text and ruling.reasoning, ruling


def test_docs_rulings_md_is_the_list_the_data_gives() -> None:
    """docs/rulings.md is `pantheon rulings --markdown`: an edited ruling must reach the page."""
    page = Path(__file__).resolve().parents[2] / "docs" / "rulings.md"
    assert page.read_text(encoding="utf-8") == rulingslist.markdown(default_data_root(), games.catalogue()), (
        "docs/rulings.md is stale: run `pantheon rulings --markdown > docs/rulings.md`")


def test_an_edited_ruling_reaches_the_list(data_copy: Path, edit_yaml) -> None:
    edit_yaml(data_copy / "heavenly-father" / "rulings.yaml",
              lambda d: d["rulings"][0]["provenance"].update(reasoning="Because the table said so."))
    listed = rulingslist.rulings_by_game(data_copy, games.catalogue(), ["heavenly-father"])["heavenly-father"]
    assert listed[0].reasoning == "Because the table said so."
    assert "*Why:* Because the table said so." in rulingslist.markdown(data_copy, games.catalogue())


def test_rulings_command_lists_every_game_and_refuses_a_game_with_markdown(pantheon) -> None:
    import json

    result = pantheon("rulings", "--json")
    assert result.returncode == 0, result.stderr
    listed = json.loads(result.stdout)
    assert sorted(listed) == sorted(spec.id for spec in games.REGISTERED)
    assert all(r["reasoning"] and r["ruling"] for rulings in listed.values() for r in rulings)
    refused = pantheon("rulings", "--markdown", "theocracy")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert "--markdown prints every game's rulings" in refused.stderr


def test_a_broken_example_is_one_line_naming_it_and_exit_1(pantheon, data_copy: Path, edit_yaml) -> None:
    def wrong_faith(data: dict[str, Any]) -> None:
        example = next(e for e in data["examples"] if e["id"] == "dragon-at-naxos")
        example["final"]["faith"]["blue"] = 6

    edit_yaml(data_copy / "monstrous" / "examples.yaml", wrong_faith)
    result = pantheon("validate", "monstrous", "--data", str(data_copy))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    [line] = _lines(result, "example ")
    assert "monstrous/examples.yaml:" in line
    assert line.endswith("example dragon-at-naxos: final Faith of blue is 6 but the events give 5")


def test_record_at_finds_a_record_by_id() -> None:
    doc = load_game(default_data_root(), spec_of("theocracy")).doc("rulings")
    second = doc.data["rulings"][1]["id"]
    assert doc.record_at("rulings", second, "title") == ("rulings", 1, "title")
    assert doc.record_at("rulings", "no-such-ruling") == ("rulings",)
