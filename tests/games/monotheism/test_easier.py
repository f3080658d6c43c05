"""The rulebook's easier-game options (Advice): "Two changes you might consider to make the game easier would
be to bless your worshiper at the beginning of the game, or, as a really drastic measure, perhaps even to
remove card #21 from the deck." """
from __future__ import annotations

import json

from typer.testing import CliRunner

from pipeline.cli.main import app
from pipeline.data.dataset import default_data_root, load_game
from pipeline.games.monotheism.easier import RISKY_GOD, Easier, easier_game, easier_scenario
from pipeline.games.monotheism.engine import PLAYER
from pipeline.games.monotheism.model import CardKind, ScenarioCard
from pipeline.games.monotheism.play import Loaded, deal, load
from pipeline.games.registry import spec as spec_of

from .helpers import deity, game, half, start, worshiper

BLESS = Easier(bless_at_start=True)
WITHOUT_21 = Easier(without_21=True)


def _submerges_survived(options: Easier, cursed: int = 0) -> int:
    """Submerge the whole three-card deck each turn (the worshiper is cursed every time) until it is lost."""
    g = easier_game(game([deity("01", half((3, 3))), deity("02", half((3, 3)))], [worshiper("w")]), options)
    state = start(g, ["01", "02", f"w:{cursed}"], track_history=False)
    turns = 0
    while not state.is_terminal():
        state = state.apply_action("submerge 3")
        if state.legal_actions() and state.legal_actions()[0].startswith("place"):
            state = state.apply_action("place 1")
        turns += 1
    assert not state.outcome().won_by(PLAYER)
    return turns


def test_a_blessing_at_the_start_is_kept_and_spent_by_the_next_curse() -> None:
    """A starting side has no bless symbol, so the kept blessing buys exactly one more curse."""
    assert _submerges_survived(BLESS) == _submerges_survived(Easier()) + 1


def test_a_worshiper_that_starts_cursed_is_blessed_back_one_state() -> None:
    assert _submerges_survived(BLESS, cursed=1) == _submerges_survived(Easier(), cursed=0)


def test_without_21_a_dealt_game_has_no_21() -> None:
    loaded = load(load_game(default_data_root(), spec_of("monotheism")))
    easier = Loaded(loaded.model, easier_game(loaded.game, WITHOUT_21))
    labels = [card[0] for card in deal(easier, "haruspex-of-scriptures", 3).deck]
    assert RISKY_GOD not in labels and RISKY_GOD in [card[0] for card in deal(loaded, "haruspex-of-scriptures", 3).deck]
    assert len(labels) == len(deal(loaded, "haruspex-of-scriptures", 3).deck) - 1


def test_without_21_a_scenario_loses_its_21() -> None:
    scenario = load(load_game(default_data_root(), spec_of("monotheism"))).model.scenario(2)
    with_21 = type(scenario)(scenario.id, scenario.title, scenario.card_count + 1,
                             (ScenarioCard(CardKind.DEITY, RISKY_GOD), *scenario.deck))
    assert easier_scenario(with_21, WITHOUT_21).deck == scenario.deck
    assert easier_scenario(scenario, WITHOUT_21) is scenario


def test_solve_takes_the_easier_options() -> None:
    result = CliRunner().invoke(app, ["monotheism", "solve", "2", "--bless-at-start", "--without-21", "--json",
                                      "--processes", "1"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["status"] == "win"
