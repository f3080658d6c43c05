"""The seeded Monte Carlo for #21 ("unveiled three times in the first cycle: about once in 500 games")."""
from __future__ import annotations

import json
from collections import Counter

import pytest
from typer.testing import CliRunner

from pipeline.cli.main import app
from pipeline.data.dataset import default_data_root, load_game
from pipeline.games.monotheism import estimate
from pipeline.games.monotheism.engine import LABEL, STAGE, VEILED
from pipeline.games.monotheism.model import CardKind, ScenarioCard
from pipeline.games.monotheism.play import Loaded, load
from pipeline.games.registry import spec as spec_of

GAMES_PER_SET = 1_000
SEED = 7


@pytest.fixture(scope="module")
def loaded() -> Loaded:
    return load(load_game(default_data_root(), spec_of("monotheism")))


def test_21_veils_itself_and_sinks_after_cursing(loaded: Loaded) -> None:
    deck = [ScenarioCard(CardKind.DEITY, label, veiled=True) for label in ("21", "01", "02", "03")]
    state = loaded.game.state_for(deck + [ScenarioCard(CardKind.WORSHIPER, "haruspex")])
    assert [e.subject for e in state.events if e.kind == "unveil"] == ["21", "01"]
    assert state.deck[-1][LABEL] == "21" and state.deck[-1][VEILED]  # down fourteen stops at the bottom
    assert state.deck[-2][LABEL] == "haruspex" and state.deck[-2][STAGE] == 1  # cursed once by #21


def test_estimate_is_seeded_and_near_the_rulebook(loaded: Loaded) -> None:
    sets = [s.id for s in loaded.model.worshiper_sets]
    first = estimate.estimate(loaded, games=GAMES_PER_SET, seed=SEED, sets=sets, policy="random")
    again = estimate.estimate(loaded, games=GAMES_PER_SET, seed=SEED, sets=sets[:1], policy="random")  # the first set
    assert (again.hits, again.histogram, again.endings) == tuple({sets[0]: found[sets[0]]} for found in
                                                                 (first.hits, first.histogram, first.endings))
    assert first.total_games == GAMES_PER_SET * len(sets)
    assert first.total_hits > 0 and first.agrees_with_rulebook(), first.as_dict()


def test_first_cycle_ends_when_the_worshiper_is_reached(loaded: Loaded) -> None:
    cycle = estimate.first_cycle(loaded, "haruspex-of-scriptures", SEED, estimate.slow_policy)
    assert cycle.ended_by in ("worshiper on top", "worshiper submerged", "game over")


def test_cli_estimate_json() -> None:
    result = CliRunner().invoke(app, ["monotheism", "estimate-21", "--games", "20", "--seed", "3", "--json",
                                      "--set", "three-monks"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["games"] == 20 and list(report["by_set"]) == ["three-monks"]
    assert report["rulebook_rate"] == estimate.RULEBOOK_RATE


def test_cli_estimate_unknown_policy() -> None:
    result = CliRunner().invoke(app, ["monotheism", "estimate-21", "--policy", "greedy"])
    assert result.exit_code == 2 and result.stderr.startswith("error: ") and "unknown policy 'greedy'" in result.stderr


def test_estimate_gives_the_95_percent_interval_of_its_rate(loaded: Loaded) -> None:
    result = estimate.estimate(loaded, games=200, seed=SEED, sets=["three-monks"], policy="random").as_dict()
    low, high = result["interval"]
    assert low <= result["rate"] <= high and high > low
    assert result["tolerance"] == estimate.RATE_TOLERANCE == 1.5


def _down_twelve(data: dict) -> None:
    """#21 as it was (moving down twelve cards): about 1 in 267 under the stated policy."""
    guest = next(d for d in data["deities"] if d["id"] == estimate.UNBIDDEN_GUEST)
    guest["upright"]["act"]["do"][1]["move"]["to"] = {"down": 12}


@pytest.mark.slow
def test_rulebook_rate_of_21_is_checked_by_validate_within_one_and_a_half_times(data_copy, edit_yaml,
                                                                                 validate) -> None:
    """Rulebook (Scenarios): unveiling #21 three times during the first cycle "happens once every five hundred
    games or so". Slow: validate plays its 20,000 seeded deals again for the edited cards. Also checked fast by
    test_a_rate_out_of_the_rulebooks_range_is_a_problem_at_21 (the same check on a smaller seeded run)."""
    edit_yaml(data_copy / "monotheism" / "deities.yaml", _down_twelve)
    messages = [p.message for p in validate(data_copy, ["monotheism"])]
    assert any(m.startswith("deity 21: unveiled three times in the first cycle") and "1 in 333 to 1 in 750" in m
               for m in messages), messages


SMALL_RUN = 1_000  # deals per set: the down-twelve rate (13 in 4,000) and the rulebook's (6 in 4,000) stay apart


def test_a_rate_out_of_the_rulebooks_range_is_a_problem_at_21(data_copy, edit_yaml) -> None:
    """validate's #21 check (guest_check.rate_problems) on a smaller seeded run: #21 moving down twelve cards is
    unveiled too often, one problem at its record; the cards as they are give none."""
    from pipeline import store
    from pipeline.data.dataset import load_game
    from pipeline.games.monotheism import guest_check

    game = load_game(default_data_root(), spec_of("monotheism"))
    under = store.scope()
    assert list(guest_check.rate_problems(game, game.model.cards, SMALL_RUN, under=under)) == []
    edit_yaml(data_copy / "monotheism" / "deities.yaml", _down_twelve)
    edited = load_game(data_copy, spec_of("monotheism"))
    problems = list(guest_check.rate_problems(edited, edited.model.cards, SMALL_RUN, under=under))
    deities = edited.doc("deities")
    assert [p.at for p in problems] == [deities.problem(deities.record_at("deities", "21"), "").at]
    assert problems[0].message.startswith("deity 21: unveiled three times in the first cycle in 13 of 4000 seeded "
                                          "random deals (1 in 308, 95% interval")
    assert problems[0].message.endswith("(within 1.5x: 1 in 333 to 1 in 750)")


def test_the_seeded_check_is_cached_by_content(monkeypatch: pytest.MonkeyPatch) -> None:
    from pipeline import store
    from pipeline.data.dataset import load_game
    from pipeline.games.monotheism import guest_check

    game = load_game(default_data_root(), spec_of("monotheism"))
    under = store.scope()
    hits, games = guest_check.seeded_tally(game, game.model.cards, SMALL_RUN, under=under)  # validate's own run: 20 s cold
    assert games == SMALL_RUN * len(game.model.worshiper_sets)
    assert estimate.agrees(hits / games)

    def no_second_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("the seeded run was computed again for the same cards and code")

    monkeypatch.setattr(estimate, "estimate", no_second_run)
    assert guest_check.seeded_tally(game, game.model.cards, SMALL_RUN, under=under) == (hits, games)


def test_the_21_check_is_its_own_command_and_fails_on_a_rate_out_of_range(data_copy, edit_yaml, validate,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """validate no longer plays the seeded deals (the down-twelve edit validates); `estimate-21 --check` plays
    them and refuses the edit with the problem at #21, exit 1; the shipped cards pass."""
    from pipeline.games.monotheism import guest_check

    monkeypatch.setattr(guest_check, "GAMES_PER_SET", SMALL_RUN)
    ok = CliRunner().invoke(app, ["monotheism", "estimate-21", "--check", "--data", str(data_copy)])
    assert ok.exit_code == 0 and ok.output.startswith("ok: #21 unveiled three times"), ok.output
    edit_yaml(data_copy / "monotheism" / "deities.yaml", _down_twelve)
    assert validate(data_copy, ["monotheism"]) == []
    failed = CliRunner().invoke(app, ["monotheism", "estimate-21", "--check", "--json", "--data", str(data_copy)])
    assert failed.exit_code == 1
    assert json.loads(failed.stdout.splitlines()[0])["agrees"] is False
    assert "deity 21: unveiled three times in the first cycle in 13 of 4000" in failed.output


def _mean_unveilings(result: estimate.Estimate) -> float:
    histogram = sum(result.histogram.values(), start=Counter())
    return sum(k * n for k, n in histogram.items()) / result.total_games


def test_the_rulebook_figure_belongs_to_the_reference_player(loaded: Loaded) -> None:
    """Rulebook (Scenarios): unveiling #21 three times in the first cycle "is likely to happen once every five
    hundred games or so", and (Advice) "you should try to stop unveiling new gods a little sooner. As you unveil
    more and more cards, you have a greater likelihood of ... being cursed by card #21". The figure depends on
    how many gods a player unveils, so it is held for the reference player (random play, the check's player)
    only; ``slow`` unveils as many as it can, meets #21 more often, as the rulebook says, and is never judged."""
    sets = ["haruspex-of-scriptures"]
    reference = estimate.estimate(loaded, games=300, seed=SEED, sets=sets, policy=estimate.STATED_POLICY)
    slow = estimate.estimate(loaded, games=300, seed=SEED, sets=sets, policy="slow")
    assert estimate.STATED_POLICY == "random"
    assert isinstance(reference.agrees_with_rulebook(), bool)
    assert slow.agrees_with_rulebook() is None
    assert slow.as_dict()["agrees"] is None and slow.as_dict()["reference_policy"] == "random"
    assert _mean_unveilings(slow) > _mean_unveilings(reference)


def test_cli_names_the_reference_player_and_does_not_judge_slow() -> None:
    result = CliRunner().invoke(app, ["monotheism", "estimate-21", "--games", "20", "--seed", "3", "--policy", "slow",
                                      "--set", "three-monks"])
    assert result.exit_code == 0, result.output
    assert "not judged: the figure is about the random reference player" in result.output
    assert "agrees within" not in result.output
