"""Text edits of data files that keep every other line where it was, and validate through the CLI."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def edit(path: Path, old: str, new: str) -> None:
    """Replace the one occurrence of ``old`` in ``path`` (the lines around it keep their numbers)."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def validate_cli(root: Path, game: str) -> subprocess.CompletedProcess[str]:
    """``pantheon validate GAME --data ROOT`` as a user runs it (no debug tracebacks)."""
    env = {k: v for k, v in os.environ.items() if k != "PANTHEON_DEBUG"}
    return subprocess.run([sys.executable, "-m", "pipeline", "validate", game, "--data", str(root)],
                          capture_output=True, text=True, env=env)
