"""Every edit of every data file validates without a crash (an hour or more: `pytest -m slow tests/fuzz`).

Deselected in the normal suite (pyproject.toml: ``-m "not slow"``), which draws
a hundred of the same edits instead (test_checks_never_crash.py).
"""
from __future__ import annotations

import pytest

from tests.fuzz.exhaustive import run_all, summary


@pytest.mark.slow
def test_every_edit_of_every_file_validates_without_a_crash() -> None:
    results = run_all()
    print(summary(results))
    crashes = [f"{r.mutation}: {r.crash}" for r in results if r.crash]
    assert not crashes, "\n".join(crashes)
