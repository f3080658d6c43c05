"""Running the CLI as a user does, and the toy data root the core tests break."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable, Optional

from pipeline.data.dataset import default_data_root

PROJECT = Path(__file__).resolve().parents[2]
TOY = Path(__file__).resolve().parents[1] / "fixtures" / "toy-data"
COMMON_SCHEMA = default_data_root() / "schemas" / "common.schema.json"


def run_cli(
    *args: str, timeout: Optional[float] = None, preexec_fn: Optional[Callable[[], None]] = None,
    extra_env: Optional[dict[str, str]] = None,
) -> subprocess.CompletedProcess[str]:
    """``pantheon ARGS`` in a fresh process (without PANTHEON_DEBUG, so errors look as users see them), with
    the toy game registered besides the five (tests/core/toy_game.py); ``extra_env``: set for the child only."""
    env = {k: v for k, v in os.environ.items() if k != "PANTHEON_DEBUG"} | (extra_env or {})
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "tests.core.pantheon_with_toy", *args],
        capture_output=True, text=True, env=env, timeout=timeout, preexec_fn=preexec_fn,
    )


def copy_toy(tmp_path: Path) -> Path:
    """A scratch copy of the toy data root (one tiny game, ``toy``, with a cards.yaml) with the common schema."""
    root = tmp_path / "data"
    shutil.copytree(TOY, root)
    shutil.copy(COMMON_SCHEMA, root / "schemas" / "common.schema.json")
    return root


def as_from_a_terminal() -> None:
    """``preexec_fn`` for a child that a test will Ctrl-C: Ctrl-C reaches it as it would from a terminal,
    even when the suite itself was started in the background (where SIGINT is ignored and a child would
    inherit that)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
