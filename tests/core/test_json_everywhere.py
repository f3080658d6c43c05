"""Every command that reports something takes --json (issue #30): the command tree is walked, so a command
added without it fails here; the commands given --json last are run and print one JSON object."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import click
import typer

from pipeline.cli.main import app
from tests.core.cli_helpers import copy_toy, run_cli

# Commands that report nothing a script could read: a stream of rebuilds until Ctrl-C, an interactive game.
INTERACTIVE = {"watch", "monotheism play"}


def commands(command: Any, ctx: click.Context, path: tuple[str, ...] = ()) -> Iterator[tuple[str, click.Command]]:
    if hasattr(command, "list_commands"):  # a group (typer's and click's alike)
        for name in command.list_commands(ctx):
            yield from commands(command.get_command(ctx, name), ctx, path + (name,))
    else:
        yield " ".join(path), command


def test_every_command_that_reports_takes_json() -> None:
    root = typer.main.get_command(app)
    found = dict(commands(root, click.Context(root)))
    assert len(found) > 25 and INTERACTIVE <= set(found)
    missing = [name for name, command in found.items() if name not in INTERACTIVE
               and not any("--json" in getattr(param, "opts", ()) for param in command.params)]
    assert missing == []


def test_validate_json_lists_each_problem_with_its_place(tmp_path: Path) -> None:
    root = copy_toy(tmp_path)
    clean = run_cli("validate", "toy", "--data", str(root), "--json")
    assert clean.returncode == 0 and json.loads(clean.stdout) == {"ok": True, "games": ["toy"], "problems": [],
                                                                  "not_cross_checked": []}
    cards = root / "toy" / "cards.yaml"
    cards.write_text(cards.read_text().replace("cost: 2", "cost: two", 1))
    broken = run_cli("validate", "toy", "--data", str(root), "--json")
    assert broken.returncode == 1
    [problem] = json.loads(broken.stdout)["problems"]
    assert problem["file"] == str(cards) and problem["line"] == 11 and "'two' is not of type" in problem["message"]


def test_printer_set_json_names_the_file(tmp_path: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(tmp_path)}  # the profiles file of this test only
    done = run_cli("printer", "set", "office", "--offset-across", "0.5", "--offset-along", "-1", "--json", extra_env=env)
    assert done.returncode == 0, done.stderr
    saved = json.loads(done.stdout)
    assert saved["name"] == "office" and saved["offset_across_mm"] == 0.5 and Path(saved["file"]).is_file()
    refused = run_cli("printer", "set", "office", "--offset-across", "50", "--offset-along", "0", "--json", extra_env=env)
    assert refused.returncode == 1 and "larger than the widest margin" in json.loads(refused.stdout)["error"]
