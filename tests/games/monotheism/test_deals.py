"""Full deals decided by the solver (`deals.py`), the claims' judgements (`claims.py`) and
`pantheon monotheism deals` as a user runs it."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from pipeline.analysis.balance.stats import Rate
from pipeline.cli.main import app
from pipeline.data.dataset import load_game
from pipeline.games.monotheism import claims, deals, decks, search, solver
from pipeline.games.monotheism.play import load
from pipeline.games.registry import spec as spec_of
from tests.conftest import REPO_DATA
from tests.games.monotheism.helpers import start

LOADED = load(load_game(REPO_DATA, spec_of("monotheism")))
GAME = LOADED.game
# Twenty gods out leave a nine-god deal the solver wins within a few thousand nodes.
MANY_OUT = tuple(sorted(GAME.cards.deities))[9:]
runner = CliRunner()


def _question(removed: tuple[str, ...] = (), seeds: tuple[int, ...] = (1,), max_nodes: int = 3_000) -> deals.Question:
    return deals.Question("haruspex-of-scriptures", ("haruspex",), removed, seeds, max_nodes)


def test_a_won_deal_replays_to_a_win_on_the_shipped_shuffle_without_the_removed_gods() -> None:
    verdict = deals.decide(GAME, _question(MANY_OUT, max_nodes=200_000), 3)
    assert verdict.status == deals.WIN and verdict.line
    shipped = decks.full_deal(GAME.cards, ["haruspex"], 3)
    kept = tuple(card for card in shipped if not (card.is_deity and card.ref in MANY_OUT))
    game = deals.game_without(GAME, MANY_OUT)
    won, _ = solver.verify(game.state_for(kept), verdict.line)
    assert won
    assert [card.ref for card in kept if card.is_deity] == [card.ref for card in shipped
                                                             if card.is_deity and card.ref not in MANY_OUT]


def test_the_verdicts_are_the_same_on_one_process_and_two() -> None:
    questions = [_question(seeds=(1, 2)), _question(MANY_OUT, seeds=(4,), max_nodes=50_000)]
    one = deals.run(GAME, questions, processes=1)
    two = deals.run(GAME, questions, processes=2)
    def answers(batches: list[deals.Batch]) -> list:
        return [[(v.seed, v.status, v.nodes, v.line) for v in batch.verdicts] for batch in batches]

    assert answers(one) == answers(two)  # only the seconds may differ
    assert [v.seed for v in one[0].verdicts] == [1, 2]


def test_a_batch_counts_its_verdicts_and_its_share_is_of_the_decided_deals() -> None:
    verdicts = tuple(deals.Verdict(seed, status, 10, 0.1) for seed, status in
                     enumerate([deals.WIN, deals.WIN, deals.WIN, deals.NO_WIN, deals.LIMIT], 1))
    batch = deals.Batch(_question(seeds=(1, 2, 3, 4, 5)), verdicts)
    assert (batch.won, batch.lost, batch.undecided) == (3, 1, 1)
    assert batch.share == Rate(3, 4)
    assert batch.bounds == (3 / 5, 4 / 5)
    data = batch.as_data()
    assert data["win_share"]["hits"] == 3 and data["win_share"]["trials"] == 4 and len(data["verdicts"]) == 5


def test_a_worshiper_set_is_named_by_its_id_a_worshiper_or_a_prefix() -> None:
    model = LOADED.model
    assert deals.worshiper_set(model, "haruspex").id == "haruspex-of-scriptures"
    assert deals.worshiper_set(model, "three-monks").id == "three-monks"
    assert deals.worshiper_set(model, "kikazaru").id == "three-monks"
    assert deals.worshiper_set(model, "poet").id == "poet-and-spirit-guide"
    assert deals.worshiper_set(model, "nobody") is None


def _decided(won: int, deals: int) -> claims.Bounds:
    """Every deal decided: the bounds meet."""
    return claims.Bounds.of(won, 0, deals)


@pytest.mark.parametrize(("share", "verdict"), [
    (_decided(20, 20), claims.HOLDS),          # interval 84% to 100%: above 75%
    (_decided(15, 20), claims.NOT_SETTLED),    # 53% to 89%
    (_decided(5, 20), claims.CONTRADICTED),    # 11% to 47%: below 75%
    (_decided(0, 0), claims.NOT_SETTLED),
    (claims.Bounds.of(95, 5, 100), claims.HOLDS),         # at least 95% won: 89% to 98%
    (claims.Bounds.of(20, 80, 100), claims.NOT_SETTLED),  # won 20%, but the undecided may all be won
    (claims.Bounds.of(20, 20, 100), claims.CONTRADICTED),  # even with every undecided won: 40%, 31% to 50%
])
def test_the_vast_majority_claim_is_judged_by_the_whole_interval(share: claims.Bounds, verdict: str) -> None:
    assert claims.majority(share) == verdict


@pytest.mark.parametrize(("better", "worse", "verdict"), [
    (_decided(19, 20), _decided(5, 20), claims.HOLDS),
    (_decided(12, 20), _decided(10, 20), claims.NOT_SETTLED),
    (_decided(10, 20), _decided(12, 20), claims.CONTRADICTED),
    (_decided(10, 20), _decided(10, 20), claims.CONTRADICTED),
    (claims.Bounds.of(19, 1, 20), claims.Bounds.of(2, 3, 20), claims.HOLDS),   # 19 won against at most 5
    (claims.Bounds.of(19, 0, 20), claims.Bounds.of(2, 15, 20), claims.NOT_SETTLED),  # the other's 15 undecided
    (claims.Bounds.of(5, 2, 20), claims.Bounds.of(8, 0, 20), claims.CONTRADICTED),   # 7 at most against 8 won
])
def test_a_comparison_holds_only_when_the_intervals_separate(better: claims.Bounds, worse: claims.Bounds,
                                                             verdict: str) -> None:
    assert claims.higher(better, worse) == verdict


def test_a_batch_without_proofs_of_loss_does_not_read_as_all_won() -> None:
    """Three won and seven undecided: the share of deals that can be won is 30% to 100%, never "100% of decided"."""
    verdicts = tuple(deals.Verdict(seed, deals.WIN if seed <= 3 else deals.LIMIT, 10, 0.1) for seed in range(1, 11))
    batch = deals.Batch(_question(seeds=tuple(range(1, 11))), verdicts)
    assert batch.winnable == claims.Bounds(Rate(3, 10), Rate(10, 10))
    assert claims.majority(batch.winnable) == claims.NOT_SETTLED


def test_the_command_reports_each_deal_and_the_share_as_json() -> None:
    result = runner.invoke(app, ["monotheism", "deals", "--worshiper", "haruspex", "--count", "2", "--seed", "5",
                                 "--max-nodes", "2000", "--processes", "1", "--json"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    batch, = found["batches"]
    assert batch["set"] == "haruspex-of-scriptures" and [v["seed"] for v in batch["verdicts"]] == [5, 6]
    assert batch["won"] + batch["lost"] + batch["undecided"] == 2
    # Each beam stops within one position's children of its share: a few dozen nodes over, per beam.
    assert all(v["nodes"] <= 2000 + 50 * _beams() for v in batch["verdicts"])


def test_the_command_prints_one_line_per_deal_and_the_totals() -> None:
    result = runner.invoke(app, ["monotheism", "deals", "--worshiper", "pretender", "--count", "1", "--seed", "2",
                                 "--max-nodes", "500", "--without", "7", "--processes", "1"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("The Autotheistic Pretender, without #07: deals 2..2")
    assert lines[1].lstrip().startswith("deal     2:")
    assert lines[-1].startswith("The Autotheistic Pretender, without #07: won ") and "can be won: at least" in lines[-1]


@pytest.mark.parametrize(("args", "message"), [
    (["--worshiper", "nobody"], "unknown worshiper set 'nobody'"),
    (["--without", "31"], "--without: no god #31"),
    (["--count", "0"], "'--count'"),
    (["--max-nodes", "0"], "'--max-nodes'"),
    (["--processes", "0"], "'--processes'"),
])
def test_bad_options_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["monotheism", "deals", *args])
    assert result.exit_code == 2
    error = [line for line in result.output.splitlines() if line.strip()]
    assert len(error) == 1 and message in error[0]


def test_the_full_game_promise_counts_a_god_that_cannot_be_eaten_as_more_than_one() -> None:
    """#09 upright ("When a god attempts to consume this") is guarded only while unveiled and upright: veiled it
    has no essence, transformed it has none; the full-game beams count a guarded god as 1 + guard_worth."""
    space = solver.space_for(GAME)
    positions = {name: start(GAME, ["27", name, "haruspex"], track_history=False) for name in ("09", "09v", "09t")}
    assert [space.guarded[card] for card in positions["09"].deck] == [0, 1, 0]
    assert not any(space.guarded[card] for name in ("09v", "09t") for card in positions[name].deck)
    worth, guard = search.FULL_GAME.curse_worth, max(beam.guard_worth for beam in search.FULL_GAME.beams)
    assert guard > 0
    plain = search.promise(space, positions["09v"], worth, guard)
    assert search.promise(space, positions["09"], worth, guard) == plain + guard * search.PROMISE_SCALE
    assert search.promise(space, positions["09"], worth) == plain  # without guard_worth: a god like any other


def _beams() -> int:
    """How many beams a full deal runs (``search.FULL_GAME``)."""
    return len(search.FULL_GAME.beams)


def test_the_default_budget_gives_every_beam_of_the_portfolio_the_nodes_it_was_measured_at() -> None:
    """The portfolio's wins were measured at 300,000 nodes a beam; a beam added must not thin the others."""
    assert deals.DEFAULT_MAX_NODES == 300_000 * _beams()
