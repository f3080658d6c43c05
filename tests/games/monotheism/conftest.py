"""Fixtures of the Monotheism tests."""
from __future__ import annotations

import pytest

from pipeline.games.monotheism import deck_checks, guest_check

# Budgets of validate's searches when a test breaks the data: a scenario whose stored line no longer wins is
# searched (is there still a win?) with the real budget (400,000 nodes) for seconds; and of the #21 check
# (`estimate-21 --check`: 20,000 deals, ten seconds).
SMALL_SEARCH_NODES = 100
SMALL_GUEST_DEALS = 5  # per worshiper set


@pytest.fixture
def small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """validate's scenario proofs and #21 run on small budgets, for tests that assert other checks' messages
    (test_deck_checks.py, test_solver.py and test_estimate.py hold the full ones to account)."""
    monkeypatch.setattr(deck_checks, "SOLVE_NODES", SMALL_SEARCH_NODES)
    monkeypatch.setattr(guest_check, "GAMES_PER_SET", SMALL_GUEST_DEALS)
