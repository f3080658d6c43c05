"""The `pantheon` program: answers ``--version`` without loading the command line, else runs it.

``pantheon --version`` is asked by scripts and installers; importing Typer
and Rich would make it several times the cost of a bare interpreter.
"""
from __future__ import annotations

import sys

VERSION_FLAG = "--version"
PROG_NAME = "pantheon"


def run() -> None:
    if sys.argv[1:] == [VERSION_FLAG]:
        from pipeline.version import version_line

        print(version_line())
        return
    from pipeline.cli import app

    app(prog_name=PROG_NAME)
