"""Every kind of bad input gets one clear line with file:line:column, exit 1, no traceback."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.checks.validate import validate
from pipeline.games.registry import catalogue


def cards(root: Path) -> Path:
    return root / "toy" / "cards.yaml"


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"fixture text {old!r} not found"
    path.write_text(text.replace(old, new, 1))


def messages(root: Path) -> list[str]:
    return [str(p) for p in validate(root, catalogue()).problems]


def test_toy_data_is_clean(toy: Path) -> None:
    assert messages(toy) == []


def test_malformed_yaml_names_line_and_column(toy: Path) -> None:
    replace(cards(toy), "    cost: 2\n", "    cost: [2\n")
    [line] = messages(toy)
    assert line.startswith(f"{cards(toy)}:")
    assert "malformed YAML" in line
    assert ":11:11:" in line  # where the '[' was opened, not the next line where the parser gave up


def test_wrong_type(toy: Path) -> None:
    replace(cards(toy), "cost: 2", "cost: two")
    [line] = messages(toy)
    assert line.endswith(":11:11: card owl: cost: 'two' is not of type 'integer'")


def test_unknown_key_points_at_the_key(toy: Path) -> None:
    replace(cards(toy), "    cost: 0\n", "    cost: 0\n    colour: red\n")
    [line] = messages(toy)
    assert ":17:5: card skull: unknown key 'colour'" in line


def test_enum_lists_the_options(toy: Path) -> None:
    replace(cards(toy), "aspect: sun", "aspect: solar")
    [line] = messages(toy)
    assert ":6:13: card lantern: aspect: 'solar' is not one of sun, moon, death" in line


def test_missing_required_field(toy: Path) -> None:
    replace(cards(toy), "    name: Owl\n", "")
    [line] = messages(toy)
    assert "card owl: 'name' is required but missing" in line
    assert ":9:" in line


def test_provenance_needs_its_citation(toy: Path) -> None:
    replace(cards(toy), "{source: rulebook, section: Components}", "{source: rulebook}")
    [line] = messages(toy)
    assert "card owl: provenance: 'section' is required but missing" in line


def test_duplicate_id(toy: Path) -> None:
    replace(cards(toy), "id: skull", "id: owl")
    [line] = messages(toy)
    assert line.endswith(f':14:9: id "owl" is used twice (also at {cards(toy)}:9)')


def test_duplicate_key(toy: Path) -> None:
    replace(cards(toy), "    cost: 0\n", "    cost: 0\n    cost: 1\n")
    [line] = messages(toy)
    assert ":17:5: duplicate key 'cost' (first at line 16)" in line


def test_dangling_reference(toy: Path) -> None:
    replace(cards(toy), "[[cards/owl]]", "[[cards/bat]]")
    [line] = messages(toy)
    assert "card lantern: reference [[cards/bat]] names no record (toy/cards/bat)" in line


def test_malformed_reference(toy: Path) -> None:
    replace(cards(toy), "[[cards/owl]]", "[[owl]]")
    [line] = messages(toy)
    assert "malformed reference" in line


def test_empty_file(toy: Path) -> None:
    cards(toy).write_text("# nothing here\n")
    [line] = messages(toy)
    assert line.endswith(":1:1: file is empty: expected a mapping of records")


def test_top_level_list(toy: Path) -> None:
    cards(toy).write_text("- 1\n- 2\n")
    [line] = messages(toy)
    assert "top level must be a mapping" in line


def test_unreadable_file(toy: Path) -> None:
    cards(toy).unlink()
    cards(toy).symlink_to(toy / "nowhere.yaml")
    [line] = messages(toy)
    assert ":1:1: cannot read file" in line


def test_not_utf8(toy: Path) -> None:
    cards(toy).write_bytes(b"cards:\n  - id: \xff\n")
    [line] = messages(toy)
    assert "not UTF-8" in line


def test_data_file_without_schema(toy: Path) -> None:
    (toy / "toy" / "extras.yaml").write_text("things: []\n")
    [line] = messages(toy)
    assert "extras.yaml:1:1: no schema for this file" in line


def test_schema_without_data_file(toy: Path) -> None:
    cards(toy).unlink()
    [line] = messages(toy)
    assert "cards.schema.json:1:1: data file" in line and "is missing" in line


def test_every_problem_is_listed_not_only_the_first(toy: Path) -> None:
    replace(cards(toy), "cost: 2", "cost: two")
    replace(cards(toy), "aspect: sun", "aspect: solar")
    replace(cards(toy), "id: skull", "id: owl")
    assert len(messages(toy)) == 3


def test_cli_reports_and_exits_1_without_traceback(pantheon, toy: Path) -> None:
    replace(cards(toy), "cost: 2", "cost: two")
    result = pantheon("validate", "--data", str(toy))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr + result.stdout
    assert "card owl: cost: 'two' is not of type 'integer'" in result.stdout


def test_cli_clean_data_exits_0(pantheon, toy: Path) -> None:
    result = pantheon("validate", "--data", str(toy))
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    "args, expected",
    [
        (["validate", "nosuchgame"], "unknown game nosuchgame"),
        (["validate", "--data", "/nonexistent/data"], "data folder not found"),
        (["provenance", "--data", "/nonexistent/data"], "data folder not found"),
    ],
)
def test_cli_bad_requests(pantheon, toy: Path, args: list[str], expected: str) -> None:
    if "--data" not in args:
        args = [*args, "--data", str(toy)]
    result = pantheon(*args)
    assert result.returncode == 1
    assert expected in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_broken_schema_is_a_clear_error(pantheon, toy: Path) -> None:
    (toy / "schemas" / "toy" / "cards.schema.json").write_text("{ not json")
    result = pantheon("validate", "--data", str(toy))
    assert result.returncode == 1
    assert "cards.schema.json: cannot read schema" in result.stderr
    assert "Traceback" not in result.stderr


def test_provenance_counts(pantheon, toy: Path) -> None:
    result = pantheon("provenance", "--json", "--data", str(toy))
    assert result.returncode == 0
    import json

    assert json.loads(result.stdout) == {"toy": {"rulebook": 1, "inferred": 1, "authored": 1, "total": 3}}


def test_hash_after_plain_value_is_refused(toy: Path) -> None:
    replace(cards(toy), "    name: Owl\n", "    name: Owl #2 of the set\n")
    [line] = messages(toy)
    assert ":10:15: '#' after an unquoted value starts a comment" in line


def test_hash_inside_quoted_value_is_fine(toy: Path) -> None:
    replace(cards(toy), "    name: Owl\n", '    name: "Owl #2"\n')
    assert messages(toy) == []


def test_a_file_found_valid_is_refused_once_its_values_or_schemas_change(toy: Path) -> None:
    assert messages(toy) == []
    replace(cards(toy), "cost: 2", "cost: two")
    assert any("cost" in m for m in messages(toy))
    replace(cards(toy), "cost: two", "cost: 2")
    schema = toy / "schemas" / "toy" / "cards.schema.json"
    replace(schema, '"required": [', '"required": ["colour", ')
    assert any("'colour' is required but missing" in m for m in messages(toy))


@pytest.mark.parametrize("typed, line, column", [
    ("    nmae: Owl\n", 10, 5),  # letters swapped
    ("    Name: Owl\n", 10, 5),  # a capital
    ("    names: Owl\n", 10, 5),  # a plural
])
def test_a_misspelt_required_key_is_one_line_at_the_key_with_the_right_one(toy: Path, typed: str, line: int,
                                                                           column: int) -> None:
    """One mistake, one line: at the key as typed, naming the key meant; not first 'name is missing' at the record."""
    replace(cards(toy), "    name: Owl\n", typed)
    [found] = messages(toy)
    key = typed.strip().split(":")[0]
    assert f":{line}:{column}: card owl: unknown key '{key}'" in found, found
    assert found.endswith("did you mean 'name'? (it is required and missing)")


def test_a_misspelt_optional_key_gets_the_nearest_and_each_unknown_key_its_own_line(toy: Path) -> None:
    replace(cards(toy), "    aspect: moon\n", "    aspcet: moon\n    zzz: 1\n")
    found = messages(toy)
    assert len(found) == 2, found
    assert ":12:5: card owl: unknown key 'aspcet'" in found[0] and found[0].endswith("did you mean 'aspect'?")
    assert ":13:5: card owl: unknown key 'zzz'" in found[1] and "did you mean" not in found[1]


@pytest.mark.parametrize("old, new, where, words", [
    ("    name: Owl\n", "    name: [Owl\n", ":10:11:", "the '[' opened here is never closed: end it with ]"),
    ("    name: Owl\n", "    name: {first: Owl\n", ":10:11:", "the '{' opened here is never closed: end it with }"),
    ("    name: Owl\n", '    name: "Owl\n', ":10:11:", "the quote \" opened here is never closed"),
    ("    name: Owl\n", "    name: 'Owl\n", ":10:11:", "the quote ' opened here is never closed"),
    ("    name: Owl\n", "\tname: Owl\n", ":10:1:", "a tab is used for indentation: indent with spaces"),
    ("    name: Owl\n", "    name: Owl\n\t\n", ":11:1:", "a tab is used for indentation"),
    ("  - id: owl\n    name: Owl\n", '  - id: "owl"\n\tname: Owl\n', ":10:1:", "a tab is used for indentation"),
    ("    cost: 2\n", "    cost: 2\n    sides:\n\t- front\n", ":13:1:", "a tab is used for indentation"),
    ("    name: Owl\n", "    name: Owl: the :moon: bird\n", ":10:14:",
     "a colon followed by a space inside unquoted text: put the text in quotes"),
    ("    name: Owl\n", "    name: Owl sees: all\n", ":10:19:", "a colon followed by a space inside unquoted text"),
])
def test_yaml_syntax_is_said_in_a_designers_words_where_the_mistake_is(toy: Path, old: str, new: str, where: str,
                                                                       words: str) -> None:
    replace(cards(toy), old, new)
    [line] = messages(toy)
    assert f"{where} malformed YAML: {words}" in line, line


@pytest.mark.parametrize("old, new, later, where, ends", [
    ("    name: Lantern\n", '    name: "Lantern\n', '  - id: "skull"\n', ":4:11:", "runs on to line 14"),
    ("    name: Owl\n", "    name: 'Owl\n", "  - id: 'skull'\n", ":10:11:", "runs on to line 14"),
    ("    text: Shines on [[cards/owl]].\n", '    text: "Shines on [[cards/owl]].\n', '    name: "Skull"\n', ":7:11:",
     "runs on to line 15"),
])
def test_a_quote_left_open_mid_file_is_blamed_where_it_opened_not_where_the_parser_gave_up(
        toy: Path, old: str, new: str, later: str, where: str, ends: str) -> None:
    replace(cards(toy), later.replace('"', "").replace("'", ""), later)  # a quoted value further down closes it
    replace(cards(toy), old, new)
    [line] = messages(toy)
    assert f"{where} malformed YAML: the quote" in line and "opened here is not closed on its line" in line, line
    assert ends in line, line


@pytest.mark.parametrize("tail, where, words", [
    ("  - id: bat\n    name: [\n", ":LINE1:11:", "the '[' opened here is never closed: end it with ]"),
    ("  - id: bat\n    name: {first: Bat,\n", ":LINE1:11:", "the '{' opened here is never closed: end it with }"),
    ("  - id: bat\n    sides: [front, [back,\n", ":LINE1:20:", "the '[' opened here is never closed"),
    ("  # a [note\n  - id: bat\n    name: 'Bat [x'\n    text: [\n", ":LINE3:11:", "the '[' opened here is never closed"),
])
def test_a_bracket_left_open_at_the_end_of_the_file_is_blamed_where_it_opened(toy: Path, tail: str, where: str,
                                                                             words: str) -> None:
    path = cards(toy)
    text = path.read_text(encoding="utf-8")
    last = text.count("\n")  # the tail's first line is the file's line last + 1
    path.write_text(text + tail, encoding="utf-8")
    where = where.replace("LINE1", str(last + 2)).replace("LINE3", str(last + 4))
    [line] = messages(toy)
    assert f"{where} malformed YAML: {words}" in line, line
