"""The `pantheon` program: answers ``--version`` without loading the command line, else runs it.

``pantheon --version`` is asked by scripts and installers; importing Typer
and Rich would make it several times the cost of a bare interpreter.
"""
from __future__ import annotations

import gc
import sys

VERSION_FLAG = "--version"
PROG_NAME = "pantheon"
# A command builds a great many objects that live until it ends (imported modules and their classes,
# the data read back from the caches, a PDF's objects); collecting the youngest generation every 700
# allocations (Python's default) cost about a tenth of a whole `build --only cards`. Cycles are still
# collected, only less often.
GC_YOUNG_THRESHOLD = 10_000


def run() -> None:
    if sys.argv[1:] == [VERSION_FLAG]:
        from pipeline.base.version import version_line

        print(version_line())
        return
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, older, oldest)
    from pipeline.cli.main import app

    try:
        app(prog_name=PROG_NAME)  # ends the process (SystemExit with the command's exit code)
    finally:
        # The interpreter's last act would be a full garbage collection over everything the command made
        # (a build's data, faces and PDF objects: about 0.1 s of CPU); what it would free, exit frees.
        gc.freeze()
