"""The Theocracy bid example is resolved by the engine's bid rule, prophecies judged against its winner."""
from __future__ import annotations

from pipeline.checks.validate import load_valid_game
from pipeline.data.dataset import default_data_root
from pipeline.games.registry import catalogue
from pipeline.games.theocracy.figures import bid_example


def test_bid_example_winner_and_prophecies() -> None:
    model = load_valid_game(catalogue(), "theocracy", default_data_root()).model
    upset = bid_example(model)  # 5 against 1: the 1 topples the 5
    assert "wins the bid" in upset.alt[1] and "loses the bid" in upset.alt[0]
    assert "Prophecy false" in upset.alt[0] and "Prophecy true" in upset.alt[1]
    plain = bid_example(model, (4, 2), (("wins", 0), ("wins", 1)))  # the higher card wins
    assert "wins the bid" in plain.alt[0] and "Prophecy true" in plain.alt[0] and "Prophecy false" in plain.alt[1]
    assert "higher card" in (plain.caption or "").casefold()
