"""Record names are plain text and unique in their list, except twins a game declares."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.checks.names import PLAIN_TEXT_RULE
from pipeline.checks.validate import validate
from pipeline.games.registry import catalogue
from tests.core.data_edits import edit, validate_cli


def messages(root: Path, game: str) -> list[str]:
    return [str(p) for p in validate(root, catalogue(), [game]).problems]


# The rules are the core's (pipeline/checks/names.py), the same for every game; a renamed Monotheism card keeps
# validate's scenario proofs and #21 tally (they are keyed by what play reads, pipeline/games/monotheism/playkey.py),
# so its cases cost a validation, not a search.
TWINS = {  # (file, the line edited, its new text, the one problem validate reports)
    "theocracy": ("believers.yaml", "    name: Dawn Singer\n", "    name: lamp  KEEPER\n",
                  "14:11: believer gold-dawn-singer: name 'lamp  KEEPER' is also the name of believer gold-lamp-keeper "
                  "(line 6): names are unique among the believers"),
    "monotheism": ("deities.yaml", "    name: The Leaping Hare\n", "    name: the eldest  EMBER\n",
                   "29:11: deity 02: name 'the eldest  EMBER' is also the name of deity 01 (line 11): "
                   "names are unique among the deities"),
}
REFERENCES = {
    "theocracy": ("believers.yaml", "    name: Lamp Keeper\n", '    name: "[[believers/gold-dawn-singer]]"\n',
                  f"6:11: believer gold-lamp-keeper: name '[[believers/gold-dawn-singer]]' is not plain text: {PLAIN_TEXT_RULE}"),
    "monotheism": ("deities.yaml", "    name: The Eldest Ember\n", '    name: "[[deities/02]]"\n',
                   f"11:11: deity 01: name '[[deities/02]]' is not plain text: {PLAIN_TEXT_RULE}"),
}
GAMES = ["theocracy", "monotheism"]


def refused_alike(data_copy: Path, game: str, case: tuple[str, str, str, str]) -> None:
    """The edit ``case`` (file, the line edited, its new text, the problem) gives that one problem both in
    process and through the CLI (exit 1, no traceback)."""
    file, old, new, problem = case
    records = data_copy / game / file
    edit(records, old, new)
    expected = f"{records}:{problem}"
    assert messages(data_copy, game) == [expected]
    done = validate_cli(data_copy, game)
    assert (done.returncode, done.stdout.splitlines()) == (1, [expected])
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("game", GAMES)
def test_two_records_with_one_name(data_copy: Path, game: str) -> None:
    refused_alike(data_copy, game, TWINS[game])


@pytest.mark.parametrize("game", GAMES)
def test_a_reference_as_a_card_name(data_copy: Path, game: str) -> None:
    """validate used to accept it, and build then refused the card."""
    refused_alike(data_copy, game, REFERENCES[game])


MARKUP_NAMES = ["**Bold** Ember", "The _Eldest_ Ember", "The :sun: Ember", "Ember\\", "Ember [1]"]
NAMED_RECORDS = {
    "theocracy": ("believers.yaml", "    name: Lamp Keeper\n", "6:11: believer gold-lamp-keeper"),
    "monotheism": ("deities.yaml", "    name: The Eldest Ember\n", "11:11: deity 01"),
}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", MARKUP_NAMES)
def test_markup_in_a_name(data_copy: Path, game: str, name: str) -> None:
    file, name_line, where = NAMED_RECORDS[game]
    records = data_copy / game / file
    edit(records, name_line, f"    name: {json.dumps(name)}\n")  # JSON strings are YAML
    [line] = messages(data_copy, game)
    assert line.startswith(f"{records}:{where}: name ") and line.endswith(f"is not plain text: {PLAIN_TEXT_RULE}")


def test_plain_punctuation_is_fine(data_copy: Path) -> None:
    deities = data_copy / "monotheism" / "deities.yaml"
    # short enough for the card's name band, which validate now lays out as the build does
    edit(deities, "    name: The Eldest Ember\n", "    name: \"Ember: 10:30, Salt & <Ash>\"\n")
    assert messages(data_copy, "monotheism") == []


def test_theocracy_power_cards_repeat_per_player_only(data_copy: Path) -> None:
    """Each player holds the same five titles (declared twins), but not one title twice."""
    assert messages(data_copy, "theocracy") == []
    cards = data_copy / "theocracy" / "power-cards.yaml"
    edit(cards, "    title: Devotion\n    flavour: We rise", "    title: Humility\n    flavour: We rise")
    assert (f"{cards}:15:12: power card gold-power-2: title 'Humility' is also the title of power card gold-power-1 "
            "(line 6): names are unique among the power cards of one player") in messages(data_copy, "theocracy")


def test_names_of_nested_records_are_unique_within_their_list(data_copy: Path) -> None:
    """Two options of one dilemma: the same label cannot tell them apart (other dilemmas may reuse it)."""
    dilemmas = data_copy / "heavenly-father" / "dilemmas.yaml"
    text = dilemmas.read_text(encoding="utf-8")
    first, second = [line for line in text.splitlines() if line.strip().startswith("label:")][:2]
    lines = text.splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.rstrip("\n") == second)
    lines[at] = first + "\n"
    dilemmas.write_text("".join(lines), encoding="utf-8")
    [line] = messages(data_copy, "heavenly-father")
    assert line.startswith(f"{dilemmas}:{at + 1}:") and "is also the label of option" in line
    assert line.endswith("names are unique among the options")


def test_declared_prose_titles_may_name_records_but_stay_unique(data_copy: Path) -> None:
    """Monstrous's worked examples are headed by prose naming their cards, so a renamed card is renamed there."""
    examples = data_copy / "monstrous" / "examples.yaml"
    assert "[[monsters/dragon]]" in examples.read_text(encoding="utf-8")
    assert messages(data_copy, "monstrous") == []
    edit(examples, "    title: Turn example 1 - the [[monsters/dragon]] at [[locations/naxos]]\n",
         "    title: Turn examples 2a and 2b - the [[monsters/phoenix]], then the [[monsters/cyclops]], at [[locations/athens]]\n")
    [line] = messages(data_copy, "monstrous")
    assert line.startswith(f"{examples}:102:12: example phoenix-then-cyclops-at-athens: title ")
    assert line.endswith("is also the title of example dragon-at-naxos (line 9): names are unique among the examples")
    locations = data_copy / "monstrous" / "locations.yaml"
    edit(locations, "    name: Athens\n", "    name: Athens of [[monsters/dragon]]\n")
    assert f"{locations}:8:11: location athens: name 'Athens of [[monsters/dragon]]' is not plain text: " \
           f"{PLAIN_TEXT_RULE}" in messages(data_copy, "monstrous")
