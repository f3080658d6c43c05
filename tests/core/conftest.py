"""Fixtures of the core tests."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.cli_helpers import copy_toy


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    """A scratch copy of the toy data root, safe to break."""
    return copy_toy(tmp_path)
