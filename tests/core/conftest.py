"""Fixtures of the core tests."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from pipeline.games.registry import registered
from tests.core.cli_helpers import copy_toy
from tests.core.toy_game import SPEC as TOY_SPEC


@pytest.fixture
def toy(tmp_path: Path) -> Iterator[Path]:
    """A scratch copy of the toy data root, safe to break, with the toy game's spec registered."""
    with registered(TOY_SPEC):
        yield copy_toy(tmp_path)
