"""Totems + Taboos' balance study: colours and card plays from events, against the actions played."""
from __future__ import annotations

import random

from pipeline.analysis.balance.study import load_study
from pipeline.analysis.balance.tally import folder, mean
from pipeline.engine import playout
from pipeline.games.registry import spec as spec_of
from pipeline.games.totems_and_taboos.balance import COLOUR_GAMES, COLOUR_WINS, MAX_TURNS, PLAYS, starting_with
from pipeline.games.totems_and_taboos.engine import A_PLAY, A_REACT, Game
from pipeline.games.totems_and_taboos.lookahead import POLICIES
from tests.conftest import REPO_DATA

STUDY = load_study(REPO_DATA, spec_of("totems-and-taboos"))


def test_every_seat_has_its_colour_and_colour_wins_add_up_to_seat_wins() -> None:
    for setup in STUDY.setups(players=2) + STUDY.setups(players=1, policy="simple")[2:]:
        tally = STUDY.play(setup, 3, seed=4)
        assert sum(folder(tally, COLOUR_GAMES).values()) == 3 * setup.players
        assert sum(folder(tally, COLOUR_WINS).values()) == sum(folder(tally, "wins").values())


def test_commandments_counted_played_are_the_play_and_reaction_actions() -> None:
    setup = STUDY.setups(players=3)[0]
    tally = STUDY.play(setup, 1, seed=6)
    rng = random.Random(6)
    final = playout(Game.multiplayer(STUDY.model, 3).new_initial_state(), POLICIES[setup.policy], rng,
                    until=lambda s: s.turns >= MAX_TURNS)
    played = [a for a in final.history() if getattr(a, "kind", None) in (A_PLAY, A_REACT) and a.args[0] is not None]
    miracles = {c.id for c in STUDY.model.cards if c.level is None}
    counted = sum(mean(tally, PLAYS, c.id).total for c in STUDY.model.cards if c.id not in miracles)
    assert counted == len(played)


def test_a_solo_game_starts_with_the_colour_it_was_given() -> None:
    game = Game.solo_game(STUDY.model, "hard")
    for colour in STUDY.colours:
        rng = random.Random(1)
        state = game.new_initial_state()
        while state.is_chance_node():
            state = state.apply_action(state.decision().pick(rng.random()))
        state = state.apply_action(starting_with(colour, POLICIES["simple"])(state, rng))
        assert state.start_colours == [colour]
