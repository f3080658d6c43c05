"""Monstrous' balance study: throws and the Locations they land on, counted from events and from the actions."""
from __future__ import annotations

import random

from pipeline.core.balance.study import load_study
from pipeline.core.balance.tally import count, folder
from pipeline.core.engine import playout, random_policy
from pipeline.games.monstrous.balance import FAITH, LOCATION, MAX_ACTIONS, PLAYED_BY_ENGINE, THROWS, TRAP
from pipeline.games.monstrous.engine import Landing
from tests.conftest import REPO_DATA

STUDY = load_study(REPO_DATA, "monstrous")


def _replayed(setup, seed):
    rng = random.Random(seed)
    scenario = rng.choice(STUDY.model.scenarios)
    options = next(kwargs for variant, _, kwargs in STUDY.variants if variant == setup.param("variant"))
    start = STUDY.game.new_initial_state(STUDY.game.gods[:setup.players], tuple(scenario.layout.values()), **options)
    return playout(start, random_policy, rng, max_actions=MAX_ACTIONS)


def test_throws_and_their_landings_match_the_actions_played() -> None:
    for setup in STUDY.setups()[::3]:
        for seed in (1, 2):
            tally = STUDY.play(setup, 1, seed)
            history = _replayed(setup, seed).history()
            throws = [i for i, a in enumerate(history) if isinstance(a, str) and a.startswith("throw ")]
            assert count(tally, THROWS) == len(throws)
            per_design = sum(node["n"] for sides in folder(tally, FAITH).values() for node in sides.values())
            assert per_design == len(throws)
            landed = sum(len(history[i + 1].locations) for i in throws if isinstance(history[i + 1], Landing))
            assert sum(node["n"] for node in folder(tally, LOCATION).values()) == landed
            assert count(tally, TRAP) <= len(throws)


def test_every_variant_the_engine_plays_has_a_set_up_at_every_player_count() -> None:
    variants = {s.param("variant") for s in STUDY.setups()}
    assert variants == {"standard", *PLAYED_BY_ENGINE} and "epic" in variants
    rules = STUDY.model.rules
    assert len(STUDY.setups()) == len(variants) * (rules.max_players - rules.min_players + 1)
