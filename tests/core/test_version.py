"""`pantheon --version`: the installed version, answered without loading the command line."""
from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version

from tests.core.cli_helpers import PROJECT, run_cli

EXPECTED = f"pantheon {version('pantheon-press')}\n"


def test_version_alone_skips_the_command_line() -> None:
    code = ("import sys\nsys.argv = ['pantheon', '--version']\nfrom pipeline.cli.entry import run\nrun()\n"
            "print('typer' in sys.modules, 'pipeline.cli.main' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT)
    assert (result.returncode, result.stdout) == (0, EXPECTED + "False False\n"), result.stderr


def test_version_through_the_command_line() -> None:
    result = run_cli("--version")
    assert (result.returncode, result.stdout) == (0, EXPECTED)
