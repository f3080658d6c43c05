"""A card named as the user writes it: the YAML's id, the renderer's id or the card's name; game ids completed."""
from __future__ import annotations

import json

import pytest

from pipeline.base.errors import UserError
from pipeline.base.options import complete_games
from pipeline.cards.build import find_card, plan
from pipeline.data.dataset import default_data_root, load_game
from pipeline.games.registry import spec
from tests.core.cli_helpers import run_cli


def _plan(game: str):
    root = default_data_root()
    return plan(root, game, load_game(root, spec(game)))


@pytest.mark.parametrize("wanted", ["deity-02", "02", '"02"', "'02'", "deities/02", "The Leaping Hare", "the leaping hare"])
def test_a_monotheism_card_by_yaml_id_renderer_id_or_name(wanted: str) -> None:
    assert find_card(_plan("monotheism"), wanted).id == "deity-02"


def test_a_name_shared_by_several_cards_asks_for_the_id_and_a_typo_gets_the_nearest() -> None:
    theocracy = _plan("theocracy")
    assert find_card(theocracy, "gold-power-1").name == find_card(theocracy, "crimson-power-1").name
    with pytest.raises(UserError, match="names 4 cards"):
        find_card(theocracy, find_card(theocracy, "gold-power-1").name)
    with pytest.raises(UserError, match="did you mean 'gold-power-1'"):
        find_card(theocracy, "gold-powr-1")


def test_game_ids_complete_from_the_data_folders() -> None:
    assert complete_games("mono") == ["monotheism"]
    assert "schemas" not in complete_games("")
    assert len(complete_games("")) == 5


@pytest.mark.parametrize("wanted", ["country-club-god", '"country-club-god"', "gods/country-club-god",
                                    "Country Club God", "country club god"])
def test_heavenly_father_score_takes_the_god_by_yaml_id_or_name(wanted: str) -> None:
    result = run_cli("heavenly-father", "score", wanted, "Ann=1,2,3,4", "Bob=4,3,2,1", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["god"] == "country-club-god"


def test_an_unknown_god_is_one_line_with_the_nearest() -> None:
    result = run_cli("heavenly-father", "score", "country-clb-god", "Ann=1,2,3,4", "Bob=4,3,2,1")
    assert result.returncode != 0 and "Traceback" not in result.stderr
    [line] = result.stderr.splitlines()
    assert "no god 'country-clb-god'" in line and "did you mean 'country-club-god'?" in line
