"""Fixtures of the core tests."""
from __future__ import annotations

import subprocess
from contextlib import nullcontext
from pathlib import Path
from typing import Callable, Iterator

import pytest

from pipeline.base.exits import DEBUG_ENV
from pipeline.cli.main import app
from pipeline.games.registry import find, registered
from tests.core.cli_helpers import copy_toy
from tests.core.toy_game import SPEC as TOY_SPEC


@pytest.fixture
def toy(tmp_path: Path) -> Iterator[Path]:
    """A scratch copy of the toy data root, safe to break, with the toy game's spec registered."""
    with registered(TOY_SPEC):
        yield copy_toy(tmp_path)


@pytest.fixture
def pantheon(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
             ) -> Callable[..., subprocess.CompletedProcess[str]]:
    """``pantheon(*args)``: the command run in this process, with the toy game registered, ended as a user's
    run ends (pipeline.base.exits: the exit code, what it printed on stdout and stderr). For a test of what a
    command says and writes, where starting a process (``run_cli``) would prove nothing more."""
    monkeypatch.delenv(DEBUG_ENV, raising=False)  # errors look as users see them

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        capsys.readouterr()  # what the test printed before is not the command's
        toy_game = registered(TOY_SPEC) if find(TOY_SPEC.id) is None else nullcontext()  # (``toy`` registers it)
        with toy_game, pytest.raises(SystemExit) as ended:
            app(list(args), prog_name="pantheon")
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(["pantheon", *args], ended.value.code or 0, out, err)

    return run
