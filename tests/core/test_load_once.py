"""Load once, pass on: one command reads each data file once and builds each game's model once."""
from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

import pytest
from typer.testing import CliRunner

from pipeline.cli.main import app
from pipeline.data import dataset
from pipeline.games import registry as games
from tests.core import toy_game
from tests.core.render_helpers import toy_template_root

BUILDS: Counter[str] = Counter()


def counted_build(game: dataset.GameData) -> Any:
    BUILDS[game.game] += 1
    return toy_game.build(game)


@pytest.fixture
def counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, Counter[str]]]:
    """The toy data root with its model builder counted, and a counter of YAML files read; an empty cache of
    its own, so no clean result another test kept (on any xdist worker) lets validate skip the build."""
    monkeypatch.setenv("PANTHEON_CACHE", str(tmp_path / "cache"))
    loads: Counter[str] = Counter()
    real = dataset.load_marked

    def load_marked(path: Path, *args: Any, **kwargs: Any) -> Any:
        loads[Path(path).name] += 1
        return real(path, *args, **kwargs)

    monkeypatch.setattr(dataset, "load_marked", load_marked)
    BUILDS.clear()
    spec = dataclasses.replace(toy_game.SPEC, model=counted_build)
    from tests.core.cli_helpers import copy_toy

    with games.registered(spec):
        yield copy_toy(tmp_path), loads


def _run(*args: str) -> None:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("command", [
    ("validate",),
    ("build", "--only", "cards", "--force"),
    ("toy", "count"),
], ids=" ".join)
def test_each_file_read_once_and_model_built_once(counted: tuple[Path, Counter[str]], tmp_path: Path,
                                                  command: tuple[str, ...]) -> None:
    root, loads = counted
    extra = ["--out", str(tmp_path / "out"), "--templates", str(toy_template_root(tmp_path))] if command[0] == "build" else []
    _run(*command, "--data", str(root), *extra)
    assert loads == {"cards.yaml": 1, "rulebook-facts.yaml": 1}
    assert BUILDS == {"toy": 1}
