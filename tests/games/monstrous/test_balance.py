"""Monstrous' balance study: throws and the Locations they land on, counted from events and from the actions."""
from __future__ import annotations

import random

from pipeline.analysis.balance.study import load_study
from pipeline.analysis.balance.tally import count, folder
from pipeline.engine import playout
from pipeline.games.monstrous.balance import FAITH, LOCATION, MAX_ACTIONS, POLICIES, THROWS, TOGETHER, TRAP, VARIANTS
from pipeline.games.monstrous.engine import Landing
from pipeline.games.registry import spec as spec_of
from tests.conftest import REPO_DATA

STUDY = load_study(REPO_DATA, spec_of("monstrous"))


def _replayed(setup, seed):
    rng = random.Random(seed)
    return playout(STUDY.start(setup, rng), POLICIES[setup.policy], rng, max_actions=MAX_ACTIONS)


def test_throws_and_their_landings_match_the_actions_played() -> None:
    for setup in STUDY.setups()[::3]:
        for seed in (1, 2):
            tally = STUDY.play(setup, 1, seed)
            history = _replayed(setup, seed).history()
            throws = [i for i, a in enumerate(history) if isinstance(a, str) and a.startswith("throw ")]
            assert count(tally, THROWS) == len(throws)
            per_design = sum(node["n"] for sides in folder(tally, FAITH).values() for node in sides.values())
            assert per_design + count(tally, TOGETHER) == len(throws)
            if not count(tally, TOGETHER):
                landed = sum(len(history[i + 1].locations) for i in throws if isinstance(history[i + 1], Landing))
                assert sum(node["n"] for node in folder(tally, LOCATION).values()) == landed
            assert count(tally, TRAP) <= len(throws)


def test_every_variant_the_engine_plays_has_a_set_up_at_every_player_count_it_allows() -> None:
    setups = STUDY.setups()
    assert {s.param("variant") for s in setups} == set(VARIANTS)  # taken from the game: a new variant needs no change
    team = sorted(s.players for s in setups if s.param("variant") == "team")
    teams = STUDY.game.variants.teams
    assert team == [teams.players(n) for n in range(teams.teams_min, teams.teams_max + 1)]
    standard = sorted(s.players for s in setups if s.param("variant") == "standard")
    assert standard == list(range(STUDY.model.rules.min_players, STUDY.model.rules.max_players + 1))


def test_simulate_takes_every_policy_of_the_game() -> None:
    assert set(STUDY.policies) == set(POLICIES)
    simple = STUDY.setups(policy="simple", players=2)
    assert simple and all(s.policy == "simple" for s in simple)
    assert len({s.id for s in STUDY.setups(policy="simple")} | {s.id for s in STUDY.setups()}) == 2 * len(STUDY.setups())


def test_in_a_team_game_a_throw_is_worth_what_its_team_gains() -> None:
    team = next(s for s in STUDY.setups() if s.param("variant") == "team")
    tally = STUDY.play(team, 2, 3)
    worth = [node for sides in folder(tally, FAITH).values() for node in sides.values()]
    assert sum(node["total"] for node in worth) > 0  # the God Board's Faith is credited to its throwers
