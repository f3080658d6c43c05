"""Monotheism's balance study: card figures from events against the deck itself, the greedy player, scenarios."""
from __future__ import annotations

import random

from pipeline.analysis.balance.study import GAMES, UNFINISHED, WINS, Results, load_study
from pipeline.analysis.balance.tally import bump, count
from pipeline.engine import playout
from pipeline.games.monotheism.balance import CONSUMED, MAX_ACTIONS, POLICIES, UNVEILED, VOIDED, scenario_figures
from pipeline.games.monotheism.greedy import greedy_policy, judge
from pipeline.games.monotheism.play import deal
from pipeline.games.registry import spec as spec_of
from tests.conftest import REPO_DATA

STUDY = load_study(REPO_DATA, spec_of("monotheism"))


def test_gods_counted_consumed_or_voided_are_exactly_the_gods_gone_from_the_deck() -> None:
    for setup in [s for s in STUDY.setups() if s.policy != "solver"][:4]:
        for seed in (1, 2, 3):
            tally = STUDY.play(setup, 1, seed)
            rng = random.Random(seed)
            start = deal(STUDY.loaded, setup.param("set"), rng.getrandbits(64))
            final = playout(start, POLICIES[setup.policy], rng, max_actions=MAX_ACTIONS)
            left = {card[0] for card in final.deck}
            for god in STUDY.gods:
                gone = count(tally, CONSUMED, god) + count(tally, VOIDED, god)
                assert gone == int(god not in left), (setup.id, seed, god)
                assert count(tally, UNVEILED, god) in (0, 1)


def test_the_greedy_player_takes_a_best_judged_turn() -> None:
    rng = random.Random(4)
    state = deal(STUDY.loaded, "three-monks", 9)
    for _ in range(30):
        if state.is_terminal():
            break
        action = greedy_policy(state, rng)
        assert action in state.legal_actions()
        if state.phase != "submerge":
            best = max(judge(state.apply_action(a)) for a in state.legal_actions())
            assert judge(state.apply_action(action)) == best
        state = state.apply_action(action)


def test_scenario_figures_agree_with_the_stored_line() -> None:
    scenario = next(s for s in STUDY.loaded.model.scenarios if s.id == "1")
    found = scenario_figures(STUDY.loaded.game, scenario)
    assert found["status"] == "win" and found["stored_line"] == len(scenario.winning_line)
    first_turn = []
    for action in scenario.winning_line:
        first_turn.append(action)
        if action.startswith("place"):
            break
    # within the report's node budget a winning first turn may stay undecided (scenario 1's #11 may now decline,
    # which widens the search), but it is never left out of both
    assert ", ".join(first_turn) in found["winning"] or found["undecided"] > 0
    assert found["losing"] + found["undecided"] + len(found["winning"]) >= 2


def test_the_losing_share_is_a_range_while_first_moves_are_open() -> None:
    from pipeline.games.monotheism.balance import losing_share

    assert losing_share(5, 0, 6) == "83%"
    assert losing_share(0, 7, 8) == "0% to 88%"
    assert losing_share(0, 0, 0) == "–"


def test_scenario_figures_read_back_from_the_store_are_the_figures_computed() -> None:
    from pipeline.games.monotheism import balance

    scenario = next(s for s in STUDY.loaded.model.scenarios if s.id == "5")  # the quickest to solve (~1,500 nodes)
    computed = scenario_figures(STUDY.loaded.game, scenario)
    first = balance.cached_scenario_figures(STUDY.loaded.game, scenario, STUDY.cards_key, STUDY.scope)
    assert first == computed == balance.cached_scenario_figures(STUDY.loaded.game, scenario, STUDY.cards_key, STUDY.scope)


def test_the_claims_section_judges_easier_by_wins_found_with_holm_corrected_fisher_tests() -> None:
    """Hand-made counts: 19 of 20 against 5 of 20 holds; 19 against 17 does not; 19 against 20 is contradicted."""
    won = {"haruspex-of-scriptures": 19, "three-monks": 17, "autotheistic-pretender": 20, "poet-and-spirit-guide": 5}
    setups = tuple(s for s in STUDY.setups(policy="solver") if not s.param("without"))
    tallies: dict = {}
    for setup in setups:
        tally: dict = {}
        bump(tally, GAMES, by=20)
        bump(tally, WINS, 0, by=won[setup.param("set")])
        bump(tally, UNFINISHED, by=20 - won[setup.param("set")])
        tallies[setup.id] = tally
    section = STUDY._claims(Results(setups, tallies))
    verdicts = {row[0].split(" than ")[-1]: row[3] for row in section.items[0].rows if " than " in row[0]}
    assert verdicts["The Poet and the Spirit Guide"].startswith("holds")
    assert verdicts["The Three Monks"].startswith("not settled")
    assert verdicts["The Autotheistic Pretender"].startswith("contradicted")
