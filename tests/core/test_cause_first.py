"""One mistake, one line, at the line that holds it, naming the cause (issue #30): tried as classes, with
variants in every game. Each edit is made on the text, so the line the cause must be told at is known."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

import pytest

from pipeline.data.problems import Problem

Validate = Callable[..., list[Problem]]

# (game, file, the id whose record is copied over the next one's id): deities, worshipers, monsters, locations,
# gods, dilemmas, philosophers, T+T cards, glossary terms, rule sections.
DUPLICATES = [
    ("monotheism", "deities.yaml", "02", "03"),
    ("monotheism", "worshipers.yaml", "mizaru", "haruspex"),
    ("monstrous", "monsters.yaml", "gorgon", "siren"),
    ("monstrous", "locations.yaml", "athens", "naxos"),
    ("heavenly-father", "gods.yaml", "country-club-god", "flower-child-god"),
    ("heavenly-father", "dilemmas.yaml", "traffic-light-trouble", "office-lasagna"),
    ("heavenly-father", "philosophers.yaml", "prophet-madame-zelda", "prophet-platform-nine-seer"),
    ("totems-and-taboos", "commandments.yaml", "yellow-call-to-the-light", "yellow-blessed-birth"),
    ("theocracy", "believers.yaml", "gold-lamp-keeper", "gold-dawn-singer"),
    ("theocracy", "glossary.yaml", "eternal-memory", "believer"),
    ("totems-and-taboos", "rules.yaml", "aim", "components"),
    ("theocracy", "phases.yaml", "tribulation", "omen"),  # its schema reads a phase by its id: the copy is judged by none
]


def id_line(path: Path, record_id: str) -> tuple[int, str]:
    """The 1-based line of ``path`` that writes ``id: record_id`` (quoted or not), and that line."""
    pattern = re.compile(r"^\s*(- )?id: ['\"]?" + re.escape(record_id) + r"['\"]?\s*$")
    hits = [(number, line) for number, line in enumerate(path.read_text().splitlines(), 1) if pattern.match(line)]
    assert len(hits) == 1, f"id {record_id} is on {len(hits)} lines of {path}"
    return hits[0]


@pytest.mark.parametrize("game, file, kept, copied", DUPLICATES, ids=[f"{d[0]}-{d[2]}" for d in DUPLICATES])
def test_a_duplicate_id_is_one_line_at_the_copy(data_copy_of: Callable[..., Path], validate: Validate,
                                                game: str, file: str, kept: str, copied: str) -> None:
    root = data_copy_of(game)
    path = root / game / file
    kept_at, _ = id_line(path, kept)
    copied_at, text = id_line(path, copied)
    lines = path.read_text().splitlines(keepends=True)
    lines[copied_at - 1] = text.replace(copied, kept) + "\n"
    path.write_text("".join(lines))
    problems = validate(root, [game])
    assert len(problems) == 1, "\n".join(map(str, problems))
    [problem] = problems
    first, second = sorted((kept_at, copied_at))  # told at the later use, naming the earlier
    assert problem.at.file == str(path) and problem.at.line == second, problem
    assert problem.message == f'id "{kept}" is used twice (also at {path}:{first})'


def test_an_id_used_three_times_is_one_line_naming_the_other_two(data_copy_of: Callable[..., Path],
                                                                 validate: Validate) -> None:
    root = data_copy_of("monotheism")
    path = root / "monotheism" / "deities.yaml"
    lines = path.read_text().splitlines(keepends=True)
    at = {record_id: id_line(path, record_id)[0] for record_id in ("01", "02", "03")}
    for record_id in ("02", "03"):
        lines[at[record_id] - 1] = lines[at[record_id] - 1].replace(record_id, "01")
    path.write_text("".join(lines))
    [problem] = validate(root, ["monotheism"])
    assert problem.at.line == at["02"]
    assert problem.message == f'id "01" is used 3 times (also at {path}:{at["01"]}, {path}:{at["03"]})'


def delete_record(path: Path, record_id: str) -> None:
    """Delete the record whose ``- id:`` line writes ``record_id``, up to the next record of its list."""
    start, text = id_line(path, record_id)
    indent = len(text) - len(text.lstrip())
    lines = path.read_text().splitlines(keepends=True)
    end = next((number for number in range(start, len(lines))
                if lines[number].strip() and len(lines[number]) - len(lines[number].lstrip()) <= indent),
               len(lines))
    path.write_text("".join(lines[:start - 1] + lines[end:]))


@pytest.mark.parametrize("deity", ["02", "22", "29"])
def test_a_deleted_deity_is_one_line_where_it_belongs(data_copy_of: Callable[..., Path], validate: Validate,
                                                      deity: str) -> None:
    root = data_copy_of("monotheism")
    path = root / "monotheism" / "deities.yaml"
    delete_record(path, deity)
    [problem] = validate(root, ["monotheism"])
    assert problem.message == f"deity {deity} is missing (the deck is #01..#29)"
    following = f"{int(deity) + 1:02d}"
    expected = id_line(path, following)[0] if deity != "29" else None
    if expected is not None:
        assert problem.at.line == expected, problem  # at the card after the gap


# (game, file, id, a place that still names it): records the rest of the data leans on.
DELETIONS = [
    ("monstrous", "locations.yaml", "naxos", "examples.yaml"),
    ("monstrous", "monsters.yaml", "siren", "monster-cards.yaml"),
    ("theocracy", "bid-rules.yaml", "one-beats-five", "bid-examples.yaml"),
    ("theocracy", "phases.yaml", "omen", "glossary.yaml"),
    ("heavenly-father", "virtues.yaml", "xenophobia", "balance.yaml"),
    ("heavenly-father", "philosopher-kinds.yaml", "skeptic", "philosophers.yaml"),
    ("monotheism", "worshiper-sets.yaml", "three-monks", "glossary.yaml"),
    ("theocracy", "rulings.yaml", "role-rotation", "rules.yaml"),  # not required: named by two [[references]]
    ("monstrous", "gods.yaml", "blue", "monster-cards.yaml"),  # not required: named by id fields (god: blue)
]


@pytest.mark.parametrize("game, file, record_id, named_in", DELETIONS, ids=[d[2] for d in DELETIONS])
def test_a_deleted_record_leads_with_the_cause(data_copy_of: Callable[..., Path], validate: Validate,
                                               game: str, file: str, record_id: str, named_in: str) -> None:
    root = data_copy_of(game)
    path = root / game / file
    delete_record(path, record_id)
    problems = validate(root, [game])
    first = problems[0]
    assert first.at.file == str(path), problems
    assert f'"{record_id}" is missing from {file} (deleted or renamed?)' in first.message, problems
    assert f"{root / game / named_in}:" in first.message  # where the data still names it
    others = [problem for problem in problems[1:] if record_id in str(problem)]
    assert others == [], "consequences are folded into the cause, not listed"


def test_a_single_dangling_reference_is_blamed_at_its_own_line(data_copy_of: Callable[..., Path],
                                                               validate: Validate) -> None:
    """One [[reference]] to no record is a typo in that reference, not a deleted record."""
    root = data_copy_of("theocracy")
    path = root / "theocracy" / "rules.yaml"
    text = path.read_text()
    assert text.count("[[rulings/role-rotation]]") == 2
    path.write_text(text.replace("[[rulings/role-rotation]]", "[[rulings/role-rotatoin]]", 1))
    line = next(number for number, row in enumerate(path.read_text().splitlines(), 1) if "role-rotatoin" in row)
    [problem] = validate(root, ["theocracy"])
    assert problem.at.line == line and "reference [[rulings/role-rotatoin]] names no record" in problem.message


GAMES = ["heavenly-father", "monotheism", "monstrous", "theocracy", "totems-and-taboos"]


def fold_first_definition(path: Path, *more: str) -> int:
    """Make the first one-line glossary definition of ``path`` a folded paragraph: its text, then the lines
    ``more``, one a line. Returns the 0-based index of its ``definition:`` line (the text is on the next)."""
    lines = path.read_text().splitlines(keepends=True)
    at = next(index for index, line in enumerate(lines) if re.match(r"^\s+definition: [A-Za-z]", line))
    indent = " " * (len(lines[at]) - len(lines[at].lstrip()) + 2)
    text = lines[at].split("definition: ", 1)[1].strip()
    lines[at:at + 1] = [lines[at].split("definition:")[0] + "definition: >-\n",
                        *(f"{indent}{line}\n" for line in (text, *more))]
    path.write_text("".join(lines))
    return at


@pytest.mark.parametrize("game", GAMES)
def test_a_dangling_reference_in_a_folded_paragraph_is_blamed_at_its_own_line(
        data_copy_of: Callable[..., Path], validate: Validate, game: str) -> None:
    """A glossary definition made a folded paragraph whose third line holds a reference to no record."""
    root = data_copy_of(game)
    path = root / game / "glossary.yaml"
    at = fold_first_definition(path, "and more, as the rules say", "(see [[rules/no-such-section]]).")
    [problem] = validate(root, [game])
    assert problem.at.line == at + 4, problem  # the third line of the paragraph, not its first
    assert "reference [[rules/no-such-section]] names no record" in problem.message


def test_the_same_dangling_reference_twice_is_blamed_at_each_line(data_copy_of: Callable[..., Path],
                                                                  validate: Validate) -> None:
    """Two uses of one missing [[reference]] in a folded paragraph: each is told at its own line."""
    root = data_copy_of("theocracy")
    path = root / "theocracy" / "glossary.yaml"
    at = fold_first_definition(path, "(see [[rules/no-such-section]])", "and again [[rules/no-such-section]].")
    # two places name the missing section: told as one deleted record, each use listed after it when not folded
    found = [p for p in validate(root, ["theocracy"], fold=False) if "[[rules/no-such-section]] names no record" in p.message]
    assert [(problem.at.file, problem.at.line) for problem in found] == [(str(path), at + 3), (str(path), at + 4)], found


@pytest.mark.parametrize("god", ["green", "blue", "white"])
def test_a_deleted_record_named_by_id_fields_is_one_line(data_copy_of: Callable[..., Path], validate: Validate,
                                                         god: str) -> None:
    """Twelve cards say ``god: blue``: deleting the god is one line at its list, and the fields that hold
    other lists' ids under the same name (a ruling's ``steps: [game-end]``) are not taken for deletions."""
    root = data_copy_of("monstrous")
    path = root / "monstrous" / "gods.yaml"
    delete_record(path, god)
    [problem] = validate(root, ["monstrous"])
    assert problem.at.file == str(path)
    assert problem.message.startswith(f'god "{god}" is missing from gods.yaml (deleted or renamed?)'), problem
    assert f"{root / 'monstrous' / 'monster-cards.yaml'}:" in problem.message


@pytest.mark.parametrize("game, file", [("monstrous", "setup.yaml"), ("theocracy", "roles.yaml"),
                                        ("monotheism", "worshipers.yaml"), ("heavenly-father", "virtues.yaml"),
                                        ("totems-and-taboos", "commandments.yaml")])
def test_a_file_that_cannot_be_read_is_one_line_not_its_records_missing(
        data_copy_of: Callable[..., Path], validate: Validate, game: str, file: str) -> None:
    """An unclosed bracket in a file whose records required.yaml lists: the syntax is the one line, not a
    dozen "required record is missing" lines for the records the unread file holds."""
    root = data_copy_of(game)
    path = root / game / file
    path.write_text(path.read_text() + "unclosed: [a, b\n")
    [problem] = validate(root, [game])
    assert problem.at.file == str(path) and "malformed YAML" in problem.message, problem


# (game, file, a card, whether one [[reference]] names it): the box contents and the rulebook agree on the count.
DELETED_CARDS = [
    ("theocracy", "power-cards.yaml", "gold-power-2", False),
    ("heavenly-father", "philosophers.yaml", "prophet-madame-zelda", False),
    ("heavenly-father", "dilemmas.yaml", "traffic-light-trouble", True),
    ("totems-and-taboos", "commandments.yaml", "yellow-blessed-birth", False),
]


@pytest.mark.parametrize("game, file, card, named", DELETED_CARDS, ids=[c[2] for c in DELETED_CARDS])
def test_a_deleted_card_is_one_line_in_its_own_file(data_copy_of: Callable[..., Path], validate: Validate,
                                                   game: str, file: str, card: str, named: bool) -> None:
    """components.yaml says what the rulebook says, so the file one card short holds the mistake: the one
    line is there, not at components.yaml. The counts per colour, level, player or in all that fail with it are
    folded in; a card one reference still names is named (one dangling reference is a deletion when its list is
    short, not a typo)."""
    root = data_copy_of(game)
    path = root / game / file
    delete_record(path, card)
    [only] = validate(root, [game])
    assert only.at.file == str(path), only
    if named:
        assert f'"{card}" is missing from {file}' in only.message, only
    else:
        assert f"{file} holds " in only.message and "as the rulebook does" in only.message and " short" in only.message


# (game, file, record): records other data leans on without naming them in a field of the list's own name
# (``centre: olympia``), whose list a count finds short, that hold nested records others name, or whose
# neighbours in a numbered list are numbered one too high once they are gone.
DELETED_RECORDS = [
    ("monstrous", "locations.yaml", "olympia"),
    ("monstrous", "faith-tokens.yaml", "faith-10"),
    ("monstrous", "throw-steps.yaml", "location-powers"),
    ("monstrous", "setup.yaml", "fill-underworlds"),
    ("monstrous", "variants.yaml", "wars"),
    ("theocracy", "roles.yaml", "three-players"),
    ("theocracy", "dice.yaml", "die-3"),
    ("theocracy", "believers.yaml", "azure-net-caster"),
    ("heavenly-father", "turn-actions.yaml", "play-philosopher"),
    ("heavenly-father", "virtues.yaml", "benevolence"),
    ("totems-and-taboos", "setup.yaml", "purple"),
    ("monotheism", "worshipers.yaml", "iwazaru"),
]


@pytest.mark.parametrize("game, file, record", DELETED_RECORDS, ids=[f"{c[0]}-{c[2]}" for c in DELETED_RECORDS])
def test_a_deleted_record_is_one_line_at_its_own_file(data_copy_of: Callable[..., Path], validate: Validate,
                                                     game: str, file: str, record: str) -> None:
    root = data_copy_of(game)
    path = root / game / file
    delete_record(path, record)
    [only] = validate(root, [game])
    assert only.at.file == str(path), only
    assert record in only.message or " short" in only.message, only
