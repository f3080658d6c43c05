"""Hostile YAML is refused: one line with file:line:column, exit 1, no traceback, no hang.

One test per attack class (nesting, alias bombs, tags, anchors, files that are
not regular files, oversized files, control characters, ids that end in a
newline), each in several shapes. Every class is refused through the CLI,
which runs in a subprocess with a generous timeout (a hang fails the test) and
a cap on its address space (a parser that expanded an alias bomb or recursed
into deep nesting would die of it); no test measures time. The shapes that
cannot hang or blow up even if the loader regressed are checked in this
process, through the validation the CLI runs (its problems are the lines the
CLI prints); the rest (alias bombs, the deepest nesting, pipes and devices)
each start the CLI.
"""
from __future__ import annotations

import os
import resource
import shutil
import subprocess
from pathlib import Path
from typing import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.checks.validate import validate
from pipeline.data.dataset import default_data_root
from pipeline.data.schemas import SchemaValidator
from pipeline.data.yamlmarks import MAX_FILE_BYTES, MAX_NESTING
from pipeline.games.registry import catalogue
from tests.core.cli_helpers import copy_toy, run_cli

CLI_TIMEOUT_S = 120  # far above a normal run: only a hang reaches it
ADDRESS_SPACE_BYTES = 512 << 20  # the CLI validates the toy data in about 45 MB


def cards(root: Path) -> Path:
    return root / "toy" / "cards.yaml"


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_BYTES, ADDRESS_SPACE_BYTES))


def validate_cli(root: Path) -> subprocess.CompletedProcess[str]:
    return run_cli("validate", "--data", str(root), timeout=CLI_TIMEOUT_S, preexec_fn=_capped)


def problem_lines(root: Path, *games: str) -> list[str]:
    """What `pantheon validate [GAMES] --data ROOT` prints for each problem, found in this process."""
    return [str(p) for p in validate(root, catalogue(), games or None).problems]


def refused_here(root: Path, path: Path) -> str:
    """The one problem validation finds (in this process), after checking it is the only one, about ``path``,
    and not a check that failed inside."""
    lines = problem_lines(root)
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"{path}:") and "internal error" not in lines[0], lines
    return lines[0]


def refused(root: Path, path: Path) -> str:
    """The one problem line `pantheon validate` prints, after checking exit 1, no traceback and nothing else wrong."""
    result = validate_cli(root)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "Traceback" not in output and "internal error" not in output, output
    lines = result.stdout.splitlines()
    assert len(lines) == 1, output
    assert lines[0].startswith(f"{path}:"), output
    return lines[0]


def write(root: Path, text: str) -> Path:
    cards(root).write_text(text, encoding="utf-8")
    return cards(root)


def record(name_line: str) -> str:
    """A one-card file whose third line is ``name_line`` (the rest of the card is valid)."""
    return "cards:\n  - id: owl\n" + name_line + "    cost: 1\n    provenance: {source: authored}\n"


# --------------------------------------------------------------------------- nesting


def _block_nesting(depth: int) -> str:
    # 'a:' is the root mapping (level 1) and its value a list; "- - - x" nests one list per dash
    return "a:\n  " + "- " * (depth - 1) + "x\n"


def _flow_nesting(depth: int) -> str:
    return "a: " + "[" * (depth - 1) + "]" * (depth - 1) + "\n"


def _flow_mapping_nesting(depth: int) -> str:
    return "a: " + "{b: " * (depth - 1) + "1" + "}" * (depth - 1) + "\n"


DEEPEST = 30_000  # nested far past what a recursive parser survives: only in a capped CLI


@pytest.mark.parametrize("depth", [MAX_NESTING + 1, 600, DEEPEST])
@pytest.mark.parametrize("shape", [_block_nesting, _flow_nesting, _flow_mapping_nesting])
def test_nesting_deeper_than_the_limit_is_refused_where_it_passes_the_limit(
    toy: Path, depth: int, shape: Callable[[int], str]
) -> None:
    text = shape(depth)
    line = (refused if depth == DEEPEST else refused_here)(toy, write(toy, text))
    # the collection at level MAX_NESTING + 1 starts at the (MAX_NESTING)th opener after 'a:'
    if shape is _block_nesting:
        where = f":2:{3 + 2 * (MAX_NESTING - 1)}:"
    else:
        opener = "[" if shape is _flow_nesting else "{b: "
        where = f":1:{4 + len(opener) * (MAX_NESTING - 1)}:"
    assert where in line and f"nesting deeper than {MAX_NESTING} levels is not allowed" in line


def test_nesting_up_to_the_limit_is_read(toy: Path) -> None:
    write(toy, _flow_nesting(MAX_NESTING))
    lines = problem_lines(toy)
    assert not [line for line in lines if "nesting deeper" in line or "internal error" in line], lines
    assert any("cards" in line for line in lines), lines  # it loaded, and the schema then says what is wrong with it


# --------------------------------------------------------------------------- anchors and aliases


def _billion_laughs(width: int, levels: int) -> str:
    lines = ["l0: &l0 [lol, lol]"]
    for level in range(1, levels):
        lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def _mapping_bomb(width: int, levels: int) -> str:
    lines = ["m0: &m0 {a: x, b: x}"]
    for level in range(1, levels):
        lines.append(f"m{level}: &m{level} {{" + ", ".join(f"k{i}: *m{level - 1}" for i in range(width)) + "}")
    return "\n".join(lines) + "\n"


def _block_bomb(width: int, levels: int) -> str:
    lines = ["b0: &b0", "  - x", "  - x"]
    for level in range(1, levels):
        lines.append(f"b{level}: &b{level}")
        lines += [f"  - *b{level - 1}"] * width
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "text",
    [_billion_laughs(9, 9), _billion_laughs(5, 8), _mapping_bomb(9, 9), _block_bomb(9, 9)],
    ids=["laughs-9^9", "laughs-5^8", "mapping-9^9", "block-9^9"],
)
def test_alias_bombs_are_refused_at_their_first_anchor(toy: Path, text: str) -> None:
    line = refused(toy, write(toy, text))
    assert ":1:5:" in line and "anchors ('&" in line and "are not allowed" in line


@pytest.mark.parametrize(
    "text, where, what",
    [
        (record("    name: &n Owl\n"), ":3:11:", "anchors ('&n')"),
        (record("    name: Owl\n    tags: &t [a, b]\n"), ":4:11:", "anchors ('&t')"),
        ("cards: &all\n  - id: owl\n", ":1:8:", "anchors ('&all')"),
        (record("    name: *nowhere\n"), ":3:11:", "aliases ('*nowhere')"),
    ],
    ids=["anchor-on-value", "anchor-on-list", "anchor-on-root-value", "alias-without-anchor"],
)
def test_anchors_and_aliases_are_refused_even_alone(toy: Path, text: str, where: str, what: str) -> None:
    line = refused_here(toy, write(toy, text))
    assert where in line and what in line


# --------------------------------------------------------------------------- tags


@pytest.mark.parametrize(
    "value, shown",
    [
        ("!!python/object:os.system {}", "!!python/object:os.system"),
        ('!!python/object/apply:os.system ["echo owned"]', "!!python/object/apply:os.system"),
        ("!!python/name:os.system ''", "!!python/name:os.system"),
        ("!!str 1", "!!str"),
        ("!!int '1'", "!!int"),
        ("!!binary aGk=", "!!binary"),
        ("!foo x", "!foo"),
        ("! x", "!"),
        ("!<tag:yaml.org,2002:str> x", "!!str"),
        ("!!map {a: 1}", "!!map"),
        ("!!seq [1]", "!!seq"),
        ("!!set {a, b}", "!!set"),
        ("!!omap [a: 1]", "!!omap"),
    ],
)
def test_every_tag_form_is_refused(toy: Path, value: str, shown: str) -> None:
    line = refused_here(toy, write(toy, record(f"    name: {value}\n")))
    assert ":3:11:" in line and f"tags ('{shown}') are not allowed" in line


def test_a_tag_handle_from_a_directive_is_refused(toy: Path) -> None:
    text = "%TAG !e! tag:example.com,2000:\n---\n" + record("    name: !e!thing x\n")
    line = refused_here(toy, write(toy, text))
    assert ":5:11:" in line and "tags ('tag:example.com,2000:thing') are not allowed" in line


# --------------------------------------------------------------------------- files that are not regular files


def test_a_named_pipe_is_refused_without_blocking(toy: Path) -> None:
    cards(toy).unlink()
    os.mkfifo(cards(toy))
    line = refused(toy, cards(toy))
    assert line.endswith(":1:1: cannot read file: it is a named pipe, not a regular file")


def test_a_directory_named_yaml_is_refused(toy: Path) -> None:
    cards(toy).unlink()
    cards(toy).mkdir()
    line = refused_here(toy, cards(toy))
    assert line.endswith(":1:1: cannot read file: it is a directory, not a regular file")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/urandom"])
def test_a_link_to_a_device_is_refused(toy: Path, device: str) -> None:
    cards(toy).unlink()
    cards(toy).symlink_to(device)
    line = refused(toy, cards(toy))
    assert line.endswith(":1:1: cannot read file: it is a character device, not a regular file")


def test_a_file_larger_than_the_limit_is_refused_unread(toy: Path) -> None:
    with cards(toy).open("w") as handle:
        handle.write("cards: []\n")
        handle.truncate(MAX_FILE_BYTES + 1)  # a sparse file: no need to write megabytes
    line = refused_here(toy, cards(toy))
    assert f":1:1: file is too large: {MAX_FILE_BYTES + 1} bytes (at most {MAX_FILE_BYTES})" in line


def test_a_named_pipe_called_schema_json_is_refused(toy: Path) -> None:
    schema = toy / "schemas" / "toy" / "cards.schema.json"
    schema.unlink()
    os.mkfifo(schema)
    result = validate_cli(toy)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "cards.schema.json: cannot read schema: cannot read file: it is a named pipe" in result.stderr


# --------------------------------------------------------------------------- control characters

CONTROLS = {
    "NUL": "\\0", "BEL": "\\a", "backspace": "\\b", "vertical tab": "\\v", "form feed": "\\f", "CR": "\\r",
    "ESC": "\\e", "unit separator": "\\x1f", "DEL": "\\x7f", "C1 CSI": "\\x9b", "NEL U+0085": "\\N",
    "line separator U+2028": "\\L", "paragraph separator U+2029": "\\P", "right-to-left override": "\\u202e",
    "isolate": "\\u2066",
}
CODE_POINTS = {
    "NUL": "U+0000", "BEL": "U+0007", "backspace": "U+0008", "vertical tab": "U+000B", "form feed": "U+000C",
    "CR": "U+000D", "ESC": "U+001B", "unit separator": "U+001F", "DEL": "U+007F", "C1 CSI": "U+009B",
    "NEL U+0085": "U+0085", "line separator U+2028": "U+2028", "paragraph separator U+2029": "U+2029",
    "right-to-left override": "U+202E", "isolate": "U+2066",
}


@pytest.mark.parametrize("name", list(CONTROLS))
def test_a_control_character_in_a_value_is_refused(toy: Path, name: str) -> None:
    line = refused_here(toy, write(toy, record(f'    name: "Owl{CONTROLS[name]}s"\n')))
    assert f":3:11: control character {CODE_POINTS[name]} in a value (character 4)" in line


@pytest.mark.parametrize("name", list(CONTROLS) + ["tab", "newline"])
def test_a_control_character_in_a_key_is_refused(toy: Path, name: str) -> None:
    escape, code = {"tab": ("\\t", "U+0009"), "newline": ("\\n", "U+000A")}.get(name, (CONTROLS.get(name), CODE_POINTS.get(name)))
    line = refused_here(toy, write(toy, record(f'    name: Owl\n    "na{escape}me": Owl\n')))
    assert f":4:5: control character {code} in a key (character 3)" in line


@pytest.mark.parametrize("raw, code", [("\x7f", "U+007F"), ("\x9b", "U+009B"), ("\x1b", "U+001B"), ("\x00", "U+0000")])
def test_a_raw_control_character_in_the_file_is_refused_where_it_is(toy: Path, raw: str, code: str) -> None:
    line = refused_here(toy, write(toy, record(f"    name: Ow{raw}l\n")))
    assert f":3:13: malformed YAML: character {code} is not allowed" in line


def test_tabs_and_line_breaks_are_text(toy: Path) -> None:
    """In prose they are text; names refuse line breaks, but that is the names check (tests/core/test_names.py)."""
    cards(toy).write_text(cards(toy).read_text().replace("text: Shines on [[cards/owl]].", 'text: "Shines\\ton\\nthe night on [[cards/owl]]."'))
    assert "Shines\\ton" in cards(toy).read_text()
    assert problem_lines(toy) == []


# --------------------------------------------------------------------------- ids and other patterns


@pytest.mark.parametrize("value", ["skull\\n", "skull\\r\\n", "\\nskull", "sk ull", "Skull"])
def test_an_id_must_be_a_whole_slug(toy: Path, value: str) -> None:
    cards(toy).write_text(cards(toy).read_text().replace("id: skull", f'id: "{value}"'))
    lines = [refused_here(toy, cards(toy))]
    assert lines[0].startswith(f"{cards(toy)}:14:9: ")
    if "\\r" in value:  # a carriage return is refused as the file is read
        assert "control character U+000D in a value" in lines[0]
    else:
        assert "card " in lines[0] and "does not match '^[a-z0-9]+(-[a-z0-9]+)*$'" in lines[0]


def _schema_patterns() -> list[str]:
    import json

    found: list[str] = []

    def collect(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "pattern" and isinstance(value, str):
                    found.append(value)
                collect(value)
        elif isinstance(node, list):
            for value in node:
                collect(value)

    for path in sorted((default_data_root() / "schemas").rglob("*.schema.json")):
        collect(json.loads(path.read_text(encoding="utf-8")))
    return sorted(set(found))


@pytest.mark.parametrize("pattern", _schema_patterns())
def test_every_schema_pattern_matches_whole_texts_only(pattern: str) -> None:
    """For each pattern in data/schemas: a text it matches passes, the same text with a newline (or any
    other character) before or after it does not, as ECMA-262 (and check-jsonschema) say."""
    validator = SchemaValidator({"pattern": pattern})

    @settings(max_examples=40, deadline=None)
    @given(st.from_regex(pattern.removeprefix("^").removesuffix("$"), fullmatch=True, alphabet=st.characters(codec="ascii")))
    def check(text: str) -> None:
        assert validator.is_valid(text)
        for extra in ("\n", "\r\n", " "):
            assert not validator.is_valid(text + extra)
            assert not validator.is_valid(extra + text)

    check()


def test_pattern_properties_match_whole_keys_the_ecma_way() -> None:
    validator = SchemaValidator(
        {"type": "object", "patternProperties": {"^[a-z]+$": {"type": "integer"}}, "additionalProperties": False}
    )
    assert validator.is_valid({"abc": 1})
    assert not validator.is_valid({"abc": "x"})
    assert [e.message for e in validator.iter_errors({"abc\n": 1})] == [
        "Additional properties are not allowed ('abc\\n' was unexpected)"
    ]


def test_an_id_with_a_trailing_newline_in_real_data_is_one_line(data_copy: Path) -> None:
    deities = data_copy / "monotheism" / "deities.yaml"
    text = deities.read_text(encoding="utf-8")
    assert "  - id: '07'\n" in text or '  - id: "07"\n' in text
    deities.write_text(text.replace("  - id: '07'\n", '  - id: "07\\n"\n', 1).replace('  - id: "07"\n', '  - id: "07\\n"\n', 1))
    lines = problem_lines(data_copy, "monotheism")
    about = [line for line in lines if "07\\n" in line]
    assert len(about) == 1 and "does not match '^[0-9]{2}$'" in about[0], lines
    assert all(line.startswith(str(data_copy)) and "\n" not in line for line in lines)


# --------------------------------------------------------------------------- values the safe loader cannot build


@pytest.mark.parametrize(
    "value, message",
    [
        ("1" * 5000, "number too large"),
        ("0x" + "f" * 5000, "number too large"),
        ("0b" + "1" * 20_000, "number too large"),
        (str(2**63), "number too large"),
        ("-0x8000000000000001", "number too large"),
        ("2001-13-45", "bad value: month must be in 1..12"),
        ("2001-02-29", "bad value: day is out of range for month"),
    ],
)
def test_a_value_python_cannot_build_or_print_is_refused(toy: Path, value: str, message: str) -> None:
    line = refused_here(toy, write(toy, record(f"    name: {value}\n")))
    assert f":3:11: {message}" in line


def test_the_largest_whole_number_is_read(toy: Path) -> None:
    write(toy, record("    name: Owl\n").replace("cost: 1", f"cost: {2**63 - 1}"))
    assert problem_lines(toy) == []


# --------------------------------------------------------------------------- each class through the CLI


def _writes(text: str) -> Callable[[Path], object]:
    return lambda root: write(root, text)


def _id_with_a_newline(root: Path) -> None:
    cards(root).write_text(cards(root).read_text().replace("id: skull", 'id: "skull\\n"'))


# One shape of each class the tests above check in this process (pipes and devices, the class of files that are
# not regular files, and the deepest nesting go through the CLI already): `pantheon validate` prints each problem
# as one line of its own, exits 1, no traceback. One run for all: each shape in a file of its own.
THROUGH_THE_CLI = {
    "anchor": (_writes(record("    name: &n Owl\n")), ":3:11:", "anchors ('&n') are not allowed"),
    "tag": (_writes(record('    name: !!python/object/apply:os.system ["echo owned"]\n')), ":3:11:",
            "tags ('!!python/object/apply:os.system') are not allowed"),
    "control-in-value": (_writes(record('    name: "Owl\\es"\n')), ":3:11:", "control character U+001B in a value"),
    "raw-control": (_writes(record("    name: Ow\x1bl\n")), ":3:13:", "malformed YAML: character U+001B is not allowed"),
    "id-with-a-newline": (_id_with_a_newline, ":14:9:", "does not match '^[a-z0-9]+(-[a-z0-9]+)*$'"),
    "number-too-large": (_writes(record(f"    name: {2**63}\n")), ":3:11:", "number too large"),
}


def test_each_attack_class_is_refused_through_the_cli(toy: Path, tmp_path: Path) -> None:
    """Each shape made in a scratch copy's cards file, which joins the toy game as ``<attack>.yaml`` (with a copy
    of the cards schema); the game's own cards file stays good, so every line is one attack's."""
    schema = toy / "schemas" / "toy" / "cards.schema.json"
    files: dict[str, Path] = {}
    for attack, (make, _, _) in THROUGH_THE_CLI.items():
        scratch = copy_toy(tmp_path / attack)
        make(scratch)
        files[attack] = toy / "toy" / f"{attack}.yaml"
        shutil.copy(cards(scratch), files[attack])
        shutil.copy(schema, schema.with_name(f"{attack}.schema.json"))
    result = validate_cli(toy)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "Traceback" not in output and "internal error" not in output, output
    lines = result.stdout.splitlines()
    assert len(lines) == len(THROUGH_THE_CLI), output
    for attack, (_, where, what) in THROUGH_THE_CLI.items():
        [line] = [line for line in lines if line.startswith(f"{files[attack]}:")]
        assert where in line and what in line, line


# --------------------------------------------------------------------------- every message is one line


def test_a_file_name_with_a_line_break_stays_on_one_line(toy: Path) -> None:
    (toy / "toy" / "two\nlines\u2028here.yaml").write_text("things: []\n", encoding="utf-8")
    result = validate_cli(toy)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    [line] = result.stdout.splitlines()
    assert line == f"{toy}/toy/two\\nlines\\u2028here.yaml:1:1: no schema for this file " \
                   f"(expected {toy}/schemas/toy/two\\nlines\\u2028here.schema.json)"


@pytest.mark.parametrize("argument", ["no\nsuch", "bell\x07game", "line\u2028separator", "back\x1b[2Jspace"])
def test_an_error_quoting_a_command_line_value_stays_on_one_line(toy: Path, argument: str) -> None:
    result = run_cli("validate", argument, "--data", str(toy), timeout=CLI_TIMEOUT_S)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    [line] = result.stderr.splitlines()
    assert line.startswith("error: unknown game ") and "\x07" not in line and "\x1b" not in line
