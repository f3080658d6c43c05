"""Rates, means and the outlier rule of balance reports, against values worked out by hand."""
from __future__ import annotations

import math

import pytest

from pipeline.analysis.balance.findings import outliers
from pipeline.analysis.balance.stats import Mean, Rate, distance, far_from, pooled, wilson
from pipeline.analysis.balance.tally import bump, count, folder, mean, merge, merged, observe

# Wilson score intervals at 95% (z = 1.959964), as published tables give them.
KNOWN_WILSON = [
    ((0, 10), (0.0, 0.2775)),
    ((5, 10), (0.2366, 0.7634)),
    ((10, 10), (0.7225, 1.0)),
    ((1, 1), (0.2065, 1.0)),
    ((81, 263), (0.2553, 0.3662)),
]


@pytest.mark.parametrize(("counts", "expected"), KNOWN_WILSON)
def test_wilson_interval_matches_published_values(counts: tuple[int, int], expected: tuple[float, float]) -> None:
    low, high = wilson(*counts)
    assert low == pytest.approx(expected[0], abs=5e-5)
    assert high == pytest.approx(expected[1], abs=5e-5)


def test_wilson_interval_holds_the_share_and_narrows_with_more_trials() -> None:
    for trials in (3, 30, 300, 3000):
        low, high = wilson(trials // 3, trials)
        assert low < (trials // 3) / trials < high
    widths = [wilson(n // 2, n)[1] - wilson(n // 2, n)[0] for n in (10, 100, 1000)]
    assert widths[0] > widths[1] > widths[2]


def test_a_rate_without_trials_has_no_value_and_bad_counts_are_refused() -> None:
    assert Rate(0, 0).value is None and Rate(0, 0).interval is None
    with pytest.raises(ValueError):
        wilson(4, 3)


def test_mean_interval_is_the_normal_interval_of_the_sample() -> None:
    values = [2, 4, 4, 4, 5, 5, 7, 9]
    found = Mean(len(values), sum(values), sum(v * v for v in values))
    sd = math.sqrt(sum((v - 5) ** 2 for v in values) / (len(values) - 1))
    assert found.value == 5
    low, high = found.interval
    assert low == pytest.approx(5 - 1.959964 * sd / math.sqrt(8), abs=1e-5)
    assert high == pytest.approx(5 + 1.959964 * sd / math.sqrt(8), abs=1e-5)
    assert Mean(1, 3, 9).interval is None  # one observation: no spread to estimate


def test_a_floor_stops_a_count_mean_interval_at_zero() -> None:
    rare = Mean(100, 1, 1, floor=0.0)
    assert rare.interval[0] == 0.0
    assert Mean(100, 1, 1).interval[0] < 0


def test_the_outlier_rule_flags_only_intervals_entirely_outside_the_pooled_interval() -> None:
    family = [("seat 1", Rate(700, 1000)), ("seat 2", Rate(500, 1000)), ("seat 3", Rate(300, 1000)),
              ("seat 4", Rate(505, 1000))]
    pool = pooled([r for _, r in family])
    assert (pool.hits, pool.trials) == (2005, 4000)
    flagged = outliers("seats", family)
    assert [(o.member, o.direction) for o in flagged] == [("seat 1", "above"), ("seat 3", "below")]
    assert not far_from(Rate(505, 1000), pool) and distance(Rate(505, 1000), pool) == 0.0
    assert distance(Rate(700, 1000), pool) > 0


def test_a_small_sample_is_flagged_only_when_even_its_wide_interval_misses_the_family() -> None:
    family = [("few", Rate(1, 2)), ("b", Rate(300, 1000)), ("c", Rate(310, 1000))]
    assert outliers("x", family) == ()  # 50% of 2: its interval (9%-91%) covers the pooled 31%
    family = [("few", Rate(3, 3)), ("b", Rate(300, 1000)), ("c", Rate(310, 1000))]
    assert [o.member for o in outliers("x", family)] == ["few"]  # 3 of 3: 44%-100%, above the pooled 29%-33%


def test_tallies_count_observe_and_merge_by_addition() -> None:
    first, second = {}, {}
    bump(first, "wins", 0)
    bump(first, "wins", 0)
    observe(first, "length", value=3)
    bump(second, "wins", 1)
    observe(second, "length", value=5)
    total = merged([first, second])
    assert count(total, "wins", 0) == 2 and count(total, "wins", 1) == 1 and count(total, "wins", 7) == 0
    assert mean(total, "length") == Mean(2, 8, 34, 0.0)
    assert folder(total, "nothing") == {}
    assert merge({}, total) == total
    with pytest.raises(KeyError):
        count(total, "wins")
