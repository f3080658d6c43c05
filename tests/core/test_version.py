"""`pantheon --version`: the installed version, answered by the command line's own option."""
from __future__ import annotations

from importlib.metadata import version

from tests.core.cli_helpers import run_cli

EXPECTED = f"pantheon {version('pantheon-press')}\n"


def test_version_through_the_command_line() -> None:
    result = run_cli("--version")
    assert (result.returncode, result.stdout) == (0, EXPECTED)
