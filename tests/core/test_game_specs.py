"""The game contract: five specs registered explicitly, parts loaded lazily, missing parts and unregistered
data folders refused, and a sixth (toy) game working through its spec alone."""
from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.cards import build as render_build
from pipeline.checks.validate import validate
from pipeline.data.dataset import default_data_root, game_ids
from pipeline.data.gamespec import Part, SpecError
from pipeline.games import registry as games
from tests.core.cli_helpers import PROJECT, run_cli
from tests.core.render_helpers import toy_template_root
from tests.core.toy_game import FORBIDDEN_NAME
from tests.core.toy_game import SPEC as TOY_SPEC


def test_every_data_folder_has_exactly_one_registered_spec() -> None:
    ids = [spec.id for spec in games.REGISTERED]
    assert len(ids) == len(set(ids))
    assert sorted(ids) == game_ids(default_data_root())


@pytest.mark.parametrize("spec", games.REGISTERED, ids=lambda s: s.id)
def test_every_part_a_spec_names_is_there(spec: games.GameSpec) -> None:
    for role, part in spec.parts():
        assert part.load(spec.id, role) is not None
    assert spec.checks_module() is not None


def test_a_missing_checks_module_is_an_error_naming_it(toy: Path) -> None:
    broken = dataclasses.replace(TOY_SPEC, id="toy2", checks=Part("tests.core.no_such_checks"))
    shutil.copytree(toy / "toy", toy / "toy2")
    shutil.copytree(toy / "schemas" / "toy", toy / "schemas" / "toy2")
    with games.registered(broken), pytest.raises(SpecError, match=r"toy2: .*checks tests\.core\.no_such_checks"):
        validate(toy, ["toy2"])


def test_a_missing_function_is_an_error_naming_it() -> None:
    with pytest.raises(SpecError, match="has no 'no_such_builder'"):
        Part("tests.core.toy_game:no_such_builder").load("toy", "model")


def test_renamed_checks_module_fails_validate_in_a_copy(tmp_path: Path) -> None:
    """The case of the issue: monstrous/checks.py renamed used to validate as "ok"."""
    shutil.copytree(PROJECT / "pipeline", tmp_path / "pipeline", ignore=shutil.ignore_patterns("__pycache__"))
    games_dir = tmp_path / "pipeline" / "games" / "monstrous"
    (games_dir / "checks.py").rename(games_dir / "checks_renamed.py")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    env.pop("PANTHEON_DEBUG", None)
    result = subprocess.run([sys.executable, "-m", "pipeline", "validate", "monstrous", "--data", str(default_data_root())],
                            capture_output=True, text=True, env=env, cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "ok" not in result.stdout
    assert result.stderr.strip() == ("error: monstrous: the game spec names checks pipeline.games.monstrous.checks, "
                                     "but there is no module pipeline.games.monstrous.checks")


def test_a_data_folder_without_spec_is_an_error(pantheon, toy: Path) -> None:
    shutil.copytree(toy / "toy", toy / "stray")
    result = pantheon("validate", "--data", str(toy))
    assert result.returncode == 1
    assert "stray: a data folder with no game spec" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_toy_game_validates_through_its_spec(toy: Path) -> None:
    assert validate(toy).ok
    cards = toy / "toy" / "cards.yaml"
    cards.write_text(cards.read_text().replace("name: Skull", f"name: {FORBIDDEN_NAME}"))
    [problem] = validate(toy).problems
    assert f"card skull: the name {FORBIDDEN_NAME!r} is kept for no card" in str(problem)


def test_the_toy_game_prints_cards_through_its_spec(toy: Path, tmp_path: Path) -> None:
    report = validate(toy)
    plan = render_build.plan(toy, "toy", report.game("toy"))
    assert plan.title == "Toy Game" and [c.id for c in plan.cards] == ["lantern", "owl", "skull"]
    pdf, pages = render_build.render_pdf(plan, render_build.BuildOptions(), template_root=toy_template_root(tmp_path))
    assert pdf.startswith(b"%PDF") and pages >= 1


def test_the_toy_game_mounts_its_commands(toy: Path) -> None:
    listed = run_cli("--help")
    assert "Toy: count the cards of the toy game." in listed.stdout
    result = run_cli("toy", "count", "--data", str(toy))
    assert (result.returncode, result.stdout) == (0, "3 cards\n")


def _modules_after(*args: str) -> set[str]:
    """The pipeline modules imported by ``pantheon ARGS`` (run in a fresh interpreter, toy game registered)."""
    code = ("import sys\nfrom pipeline.cli.main import app\nfrom pipeline.games.registry import registered\n"
            "from tests.core.toy_game import SPEC\n"
            "with registered(SPEC):\n"
            f"    try:\n        app({list(args)!r}, prog_name='pantheon')\n    except SystemExit as exc:\n"
            "        assert not exc.code, exc.code\n"
            "print('\\n'.join(m for m in sys.modules if m.startswith(('pipeline', 'tests.core'))))\n")
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=PROJECT)
    assert result.returncode == 0, result.stderr
    return set(result.stdout.split())


def test_help_imports_no_game_code_but_specs() -> None:
    imported = _modules_after("--help")
    game_code = {m for m in imported if m.startswith("pipeline.games.") and not m.endswith((".spec", ".registry"))}
    assert game_code == {f"pipeline.games.{p}" for p in ("heavenly_father", "monotheism", "monstrous", "theocracy",
                                                          "totems_and_taboos")}
    assert not any(m.startswith(("pipeline.checks.validate", "pipeline.cards", "pipeline.documents"))
                   for m in imported)


def test_a_game_command_imports_only_its_own_commands(toy: Path) -> None:
    imported = _modules_after("toy", "count", "--data", str(toy))
    assert "tests.core.toy_game" in imported
    assert not any(m.endswith(".cli") and m.startswith("pipeline.games.") for m in imported)


def test_building_cards_only_does_not_import_the_documents(toy: Path, tmp_path: Path) -> None:
    imported = _modules_after("build", "toy", "--only", "cards", "--data", str(toy), "--out", str(tmp_path / "out"),
                              "--templates", str(toy_template_root(tmp_path)))
    assert "pipeline.cards.build" in imported
    assert not any(m.startswith("pipeline.documents") for m in imported)


@pytest.mark.parametrize("spec", games.REGISTERED, ids=lambda s: s.id)
def test_the_listed_help_of_a_game_group_is_its_own(spec: games.GameSpec) -> None:
    """``pantheon --help`` lists the spec's summary without importing the group: it must say what the group says."""
    assert spec.part("commands").info.help == spec.summary
