"""Full deals decided by the solver (`deals.py`), the claims' judgements (`claims.py`) and
`pantheon monotheism deals` as a user runs it."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from pipeline.analysis.balance.stats import Rate, holm
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


def _deals(*wins: bool, first: int = 1) -> claims.Found:
    return claims.Found.of(range(first, first + len(wins)), wins)


W, L = True, False


def test_mcnemar_counts_only_the_deals_one_set_won() -> None:
    assert claims.mcnemar_p(5, 0) == 1 / 32          # five discordant deals, all the better set's
    assert claims.mcnemar_p(1, 1) == 3 / 4           # P(Bin(2, 1/2) >= 1)
    assert claims.mcnemar_p(0, 0) == 1.0             # no deal tells the sets apart
    assert claims.mcnemar_p(0, 3) == 1.0


def test_fisher_is_the_hypergeometric_tail() -> None:
    assert claims.fisher_p(claims.Found(3, 3), claims.Found(0, 3)) == pytest.approx(1 / 20)  # 1 way in C(6, 3)
    assert claims.fisher_p(claims.Found(1, 2), claims.Found(1, 2)) == pytest.approx(5 / 6)
    assert claims.fisher_p(claims.Found(0, 2), claims.Found(2, 2)) == pytest.approx(1.0)


def test_holm_multiplies_by_the_rank_and_never_lets_a_larger_p_fall_below_a_smaller_one() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])
    assert holm([]) == []


def test_the_same_seeds_pair_the_deals_other_seeds_do_not() -> None:
    better, worse = _deals(W, W, W, W, W, L), _deals(L, L, L, L, L, L)
    assert claims.one_sided_p(better, worse) == (claims.PAIRED, 1 / 32)
    shifted = _deals(L, L, L, L, L, L, first=7)
    assert claims.one_sided_p(better, shifted) == (claims.UNPAIRED, claims.fisher_p(better, shifted))


def test_the_same_seed_deals_the_same_god_order_to_every_set_and_without_a_god() -> None:
    """What makes the paired test right: deal k's gods do not depend on the worshipers below them."""
    def gods(worshipers: list[str], seed: int) -> list[str]:
        return [card.ref for card in decks.full_deal(GAME.cards, worshipers, seed) if card.is_deity]

    for seed in (1, 2, 101):
        assert gods(["haruspex"], seed) == gods(["pretender"], seed) == gods(["mizaru", "kikazaru", "iwazaru"], seed)
    assert gods(["haruspex"], 1) != gods(["haruspex"], 2)


def test_easier_holds_only_below_alpha_after_holm() -> None:
    strong = _deals(*[W] * 9, L)
    against = [("a", _deals(*[L] * 10)), ("b", _deals(*[W] * 8, L, L))]
    first, second = claims.easier(strong, against)
    assert first.test == claims.PAIRED and first.p == 1 / 2 ** 9 and first.corrected == 2 / 2 ** 9
    assert first.verdict == claims.HOLDS
    assert second.p == 1 / 2 and second.corrected == 1 / 2 and second.verdict == claims.NOT_SETTLED
    # alone, 4 of 4 discordant deals (p 1/16) holds; corrected over two such comparisons it does not
    four = _deals(W, W, W, W), _deals(L, L, L, L)
    assert claims.easier(four[0], [("a", four[1])])[0].verdict == claims.NOT_SETTLED  # 1/16 > 0.05
    five = _deals(*[W] * 5), _deals(*[L] * 5)
    assert claims.easier(five[0], [("a", five[1])])[0].verdict == claims.HOLDS        # 1/32
    assert [e.verdict for e in claims.easier(five[0], [("a", five[1]), ("b", five[1])])] == [claims.NOT_SETTLED] * 2


def test_easier_is_contradicted_when_the_other_set_wins_as_often() -> None:
    judged, = claims.easier(claims.Found(80, 100), [("a", claims.Found(40, 50))])
    assert judged.test == claims.UNPAIRED and judged.verdict == claims.CONTRADICTED
    judged, = claims.easier(claims.Found(81, 100), [("a", claims.Found(40, 50))])
    assert judged.verdict == claims.NOT_SETTLED


def test_a_batch_finds_a_win_only_in_its_won_deals() -> None:
    verdicts = tuple(deals.Verdict(seed, status, 10, 0.1) for seed, status in
                     enumerate([deals.WIN, deals.NO_WIN, deals.LIMIT], 1))
    batch = deals.Batch(_question(seeds=(1, 2, 3)), verdicts)
    assert batch.found == claims.Found(1, 3, (True, False, False), (1, 2, 3))


def test_easier_claims_compare_the_first_set_with_the_others_dealt_alike() -> None:
    def batch(set_id: str, wins: list[bool], removed: tuple[str, ...] = ()) -> deals.Batch:
        seeds = tuple(range(1, len(wins) + 1))
        question = deals.Question(set_id, (), removed, seeds, 100)
        return deals.Batch(question, tuple(deals.Verdict(s, deals.WIN if w else deals.LIMIT, 1, 0.0)
                                           for s, w in zip(seeds, wins)))

    judged = deals.easier_claims([batch("h", [W] * 6), batch("m", [L] * 6), batch("p", [W] * 6)], "h")
    assert [(j.name, j.verdict) for j in judged] == [("m", claims.HOLDS), ("p", claims.CONTRADICTED)]
    assert deals.easier_claims([batch("m", [L] * 6)], "h") == []
    assert deals.easier_claims([batch("h", [W] * 6)], "h") == []


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
    assert found["significantly_easier"] == []  # one set: nothing to compare it with
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


def test_the_command_judges_the_haruspex_against_each_other_set_dealt() -> None:
    result = runner.invoke(app, ["monotheism", "deals", "--worshiper", "haruspex", "--worshiper", "pretender",
                                 "--count", "1", "--max-nodes", "500", "--processes", "1", "--json"])
    assert result.exit_code == 0, result.output
    judged, = json.loads(result.stdout)["significantly_easier"]
    assert judged["than"] == "autotheistic-pretender" and judged["test"] == claims.PAIRED
    assert judged["verdict"] in (claims.HOLDS, claims.CONTRADICTED, claims.NOT_SETTLED)
