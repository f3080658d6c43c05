"""The installed version of Pantheon Press, as ``pantheon --version`` prints it."""
from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

DISTRIBUTION = "pantheon-press"


def version_line() -> str:
    try:
        return f"pantheon {version(DISTRIBUTION)}"
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "pantheon (version unknown: the package is not installed)"
