"""The game contract: five specs registered explicitly, each part named directly and checked, missing parts and
unregistered data folders refused, and a sixth (toy) game working through its spec alone."""
from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pipeline.base.exits import EXIT_INTERNAL
from pipeline.cards import build as render_build
from pipeline.checks.validate import validate
from pipeline.data.dataset import default_data_root, game_ids
from pipeline.data.gamespec import GameSpec, SpecError
from pipeline.games import registry as games
from pipeline.games.registry import catalogue
from tests.core.cli_helpers import PROJECT, run_cli
from tests.core.render_helpers import toy_template_root
from tests.core.toy_game import FORBIDDEN_NAME
from tests.core.toy_game import SPEC as TOY_SPEC


def test_every_data_folder_has_exactly_one_registered_spec() -> None:
    ids = [spec.id for spec in games.REGISTERED]
    assert len(ids) == len(set(ids))
    assert sorted(ids) == game_ids(default_data_root())


@pytest.mark.parametrize("spec", games.REGISTERED, ids=lambda s: s.id)
def test_every_spec_fills_the_required_parts(spec: GameSpec[Any]) -> None:
    assert callable(spec.model) and callable(spec.engine) and callable(spec.checks.cross_checks)
    roles = {role for role, _ in spec.part_names()}
    assert {"model", "checks", "engine", "cards", "documents", "commands", "balance"} <= roles
    assert all(":" in name or role == "checks" for role, name in spec.part_names() if role != "rulings")


@pytest.mark.parametrize("role", ["model", "checks", "engine"])
def test_a_spec_missing_a_required_part_is_an_error_naming_it(role: str) -> None:
    with pytest.raises(SpecError, match=f"^toy: the game spec has no {role}"):
        dataclasses.replace(TOY_SPEC, **{role: None})


def test_checks_without_cross_checks_are_an_error_naming_them() -> None:
    with pytest.raises(SpecError, match=r"toy: the game spec's checks \(builtins:object\) have no cross_checks"):
        dataclasses.replace(TOY_SPEC, checks=object())


def test_a_part_that_is_not_a_function_is_an_error() -> None:
    with pytest.raises(SpecError, match=r"toy: the game spec's cards \(builtins:str\) is not a function"):
        dataclasses.replace(TOY_SPEC, cards="print_cards")


def test_a_stage_asking_for_a_part_the_game_lacks_is_told_which() -> None:
    error = dataclasses.replace(TOY_SPEC, documents=None).missing("documents")
    assert isinstance(error, SpecError) and str(error) == "toy: the game has no documents (its spec names none)"


def test_a_spec_names_its_parts_the_same_in_every_process() -> None:
    """What the caches that depend on a game's code read: module and name, never an address."""
    names = dict(TOY_SPEC.part_names())
    assert names["model"] == "tests.core.toy_game:build" and names["engine"] == "tests.core.toy_game:set_ups"
    assert "0x" not in repr(games.spec("monstrous")) and "monstrous.checks:replay_examples" in repr(games.spec("monstrous"))


def test_renamed_checks_module_fails_in_a_copy(tmp_path: Path) -> None:
    """The case of the issue: monstrous/checks.py renamed used to validate as "ok"; now the spec, which names
    the module directly, cannot even be imported, and the error says what is missing: one line through the one
    exit (the command imports the games when it runs), exit 70 as for any broken code of ours, no traceback."""
    shutil.copytree(PROJECT / "pipeline", tmp_path / "pipeline", ignore=shutil.ignore_patterns("__pycache__"))
    games_dir = tmp_path / "pipeline" / "games" / "monstrous"
    (games_dir / "checks.py").rename(games_dir / "checks_renamed.py")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    env.pop("PANTHEON_DEBUG", None)
    result = subprocess.run([sys.executable, "-m", "pipeline", "validate", "monstrous", "--data", str(default_data_root())],
                            capture_output=True, text=True, env=env, cwd=tmp_path)
    assert result.returncode == EXIT_INTERNAL, result.stdout + result.stderr
    assert "ok" not in result.stdout
    assert "cannot import name 'checks' from 'pipeline.games.monstrous'" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_data_folder_without_spec_is_an_error(pantheon, toy: Path) -> None:
    shutil.copytree(toy / "toy", toy / "stray")
    result = pantheon("validate", "--data", str(toy))
    assert result.returncode == 1
    assert "stray: a data folder with no game spec" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_toy_game_validates_through_its_spec(toy: Path) -> None:
    assert validate(toy, catalogue()).ok
    cards = toy / "toy" / "cards.yaml"
    cards.write_text(cards.read_text().replace("name: Skull", f"name: {FORBIDDEN_NAME}"))
    [problem] = validate(toy, catalogue()).problems
    assert f"card skull: the name {FORBIDDEN_NAME!r} is kept for no card" in str(problem)


def test_the_toy_game_prints_cards_through_its_spec(toy: Path, tmp_path: Path) -> None:
    report = validate(toy, catalogue())
    plan = render_build.plan(toy, "toy", report.game("toy"))
    assert plan.title == "Toy Game" and [c.id for c in plan.cards] == ["lantern", "owl", "skull"]
    pdf, pages = render_build.render_pdf(plan, render_build.BuildOptions(), template_root=toy_template_root(tmp_path))
    assert pdf.startswith(b"%PDF") and pages >= 1


def test_the_toy_game_mounts_its_commands(toy: Path) -> None:
    listed = run_cli("--help")
    assert "Toy: count the cards of the toy game." in listed.stdout
    result = run_cli("toy", "count", "--data", str(toy))
    assert (result.returncode, result.stdout) == (0, "3 cards\n")


@pytest.mark.parametrize("spec", games.REGISTERED, ids=lambda s: s.id)
def test_the_listed_help_of_a_game_group_is_its_own(spec: GameSpec[Any]) -> None:
    """``pantheon --help`` lists the spec's summary: it must say what the group says."""
    assert spec.commands is not None and spec.commands().info.help == spec.summary
