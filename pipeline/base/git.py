"""Asking git about the folder data lives in (diff's revisions, the build stamp's version and date)."""
from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Optional


def run_git(folder: Path, *args: str) -> Optional[subprocess.CompletedProcess[bytes]]:
    """``git -C folder ARGS``, its output captured; None when git is not installed."""
    try:
        return subprocess.run(["git", "-C", str(folder), *args], capture_output=True, check=False)
    except FileNotFoundError:
        return None


def git_text(folder: Path, *args: str) -> str:
    """What ``git -C folder ARGS`` prints, stripped; empty when git is missing or the command fails."""
    done = run_git(folder, *args)
    return done.stdout.decode("utf-8", "replace").strip() if done is not None and done.returncode == 0 else ""
