"""The command line's conventions, as a user or a script meets them (each run in a fresh process)."""
from __future__ import annotations

import fcntl
import io
import json
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Optional

import pytest

from pipeline.base import console
from pipeline.base.exits import EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_PROBLEMS, EXIT_USAGE
from tests.core.cli_helpers import PROJECT, as_from_a_terminal, run_cli


def one_error_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


@pytest.mark.parametrize("args, says", [
    (("build", "--paper", "a5"), "'a5' is not one of"),
    (("preview", "monotheism", "01", "--dpi", "5"), "30<=x<=1200"),
    (("no-such-command",), "No such command"),
    (("validate", "--no-such-flag"), "No such option"),
    (("build", "--printer", "x", "--offset-across", "1"), "give either --printer or --offset-across"),
])
def test_usage_errors_exit_2_in_one_line(args: tuple[str, ...], says: str) -> None:
    done = run_cli(*args)
    assert done.returncode == EXIT_USAGE, done.stderr
    line = one_error_line(done.stderr)
    assert line.startswith("error: ") and says in line
    assert not done.stdout


def test_data_problems_exit_1() -> None:
    done = run_cli("validate", "no-such-game")
    assert done.returncode == EXIT_PROBLEMS
    assert one_error_line(done.stderr).startswith("error: unknown game no-such-game")


@pytest.mark.parametrize("args, code", [(("provenance", "no-such-game", "--json"), EXIT_PROBLEMS),
                                        (("provenance", "--json", "--no-such-flag"), EXIT_USAGE)])
def test_with_json_errors_are_json_on_stdout(args: tuple[str, ...], code: int) -> None:
    done = run_cli(*args)
    assert done.returncode == code
    answer = json.loads(done.stdout)
    assert answer["exit_code"] == code and answer["error"]
    assert not done.stderr


def test_game_commands_hand_their_errors_up_as_json() -> None:
    done = run_cli("monotheism", "replay", "99", "--json")
    assert done.returncode == EXIT_PROBLEMS, done.stderr
    assert json.loads(done.stdout)["exit_code"] == EXIT_PROBLEMS


def _crash(debug: bool) -> subprocess.CompletedProcess[str]:
    code = ("from pipeline.base.exits import run\n"
            "def main(**_):\n    raise ZeroDivisionError('a bug')\n"
            "run(main, argv=[])\n")
    env = {k: v for k, v in os.environ.items() if k != "PANTHEON_DEBUG"}
    if debug:
        env["PANTHEON_DEBUG"] = "1"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT, env=env)


def test_a_bug_is_one_line_and_exit_70_with_the_traceback_on_request() -> None:
    quiet = _crash(debug=False)
    assert quiet.returncode == EXIT_INTERNAL
    assert one_error_line(quiet.stderr) == ("internal error: ZeroDivisionError: a bug "
                                            "(set PANTHEON_DEBUG=1 for the traceback)")
    loud = _crash(debug=True)
    assert loud.returncode != 0 and "Traceback" in loud.stderr


def test_ctrl_c_exits_130_without_a_traceback() -> None:
    """Ctrl-C in the middle of a long run: exit 130 and one line, the spinner's line cleared first."""
    env = {k: v for k, v in os.environ.items() if k != "PANTHEON_DEBUG"}
    env["PYTHONPATH"] = str(PROJECT)
    leader, follower = pty.openpty()  # stderr on a terminal, where a run silent for a while shows its spinner
    proc = subprocess.Popen([sys.executable, "-m", "tests.core.pantheon_with_toy", "simulate", "theocracy",
                             "--games", "1000000", "--processes", "1"],
                            stdout=subprocess.PIPE, stderr=follower, text=True, env=env, cwd=PROJECT,
                            preexec_fn=as_from_a_terminal)
    os.close(follower)
    try:
        # the spinner shows once the command line is parsed; once it has turned, the Ctrl-C lands in the command
        shown = _read_until(leader, "pantheon simulate", timeout_s=120)
        shown += _read_until(leader, "pantheon simulate", timeout_s=30)
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
        shown += _read_until(leader, None, timeout_s=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(leader)
    assert proc.returncode == EXIT_INTERRUPTED, shown
    assert _visible(shown)[-1] == "interrupted" and "Traceback" not in shown
    assert not out


def _visible(shown: str) -> list[str]:
    """The non-blank lines a terminal ends up showing after ``shown``: a small model of one that knows what a
    spinner uses (carriage return, line feed, cursor up, erase line); other control sequences change nothing."""
    lines, row, col = [""], 0, 0
    for token in re.findall(r"\x1b\[[0-9;?]*[A-Za-z]|[^\x1b]", shown):
        if token == "\r":
            col = 0
        elif token == "\n":
            row += 1
            lines += [""] * (row + 1 - len(lines))
        elif token.startswith("\x1b["):
            if token.endswith("A"):
                row = max(row - int(token[2:-1] or 1), 0)
            elif token == "\x1b[2K":
                lines[row] = ""
        else:
            line = lines[row].ljust(col)
            lines[row], col = line[:col] + token + line[col + 1:], col + 1
    return [line for line in lines if line.strip()]


def _read_until(fd: int, marker: Optional[str], *, timeout_s: float) -> str:
    """What a terminal shows until ``marker`` appears (None: until the other side closes); fails on time-out."""
    shown = b""
    deadline = time.monotonic() + timeout_s
    while marker is None or marker not in shown.decode(errors="replace"):
        ready, _, _ = select.select([fd], [], [], max(deadline - time.monotonic(), 0))
        if not ready:
            assert marker is None, f"no {marker!r} on the terminal within {timeout_s} s: {shown[-300:]!r}"
            break
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the child closed the terminal (Linux reports EIO)
            chunk = b""
        if not chunk:
            assert marker is None, f"the child ended before {marker!r}: {shown[-300:]!r}"
            break
        shown += chunk
    return shown.decode(errors="replace")


def test_version_and_completion() -> None:
    assert run_cli("--version").stdout.startswith("pantheon ")
    shown = run_cli("--help").stdout
    assert "--install-completion" in shown and "--show-completion" in shown
    env = {k: v for k, v in os.environ.items() if k != "PANTHEON_DEBUG"}
    env.update(PYTHONPATH=str(PROJECT), _PANTHEON_COMPLETE="complete_bash", COMP_CWORD="2",
               COMP_WORDS="pantheon monotheism so")  # what bash asks when tab is pressed after "so"
    done = subprocess.run([sys.executable, "-c", "from pipeline.cli.main import app; app(prog_name='pantheon')"],
                          capture_output=True, text=True, env=env, cwd=PROJECT)
    assert done.stdout.split() == ["solve"], done.stdout + done.stderr


def _completed(words: str) -> list[str]:
    """What bash's tab completion offers for the last of ``words``."""
    env = {k: v for k, v in os.environ.items() if k != "PANTHEON_DEBUG"}
    env.update(PYTHONPATH=str(PROJECT), _PANTHEON_COMPLETE="complete_bash", COMP_CWORD=str(len(words.split()) - 1),
               COMP_WORDS=words)
    done = subprocess.run([sys.executable, "-c", "from pipeline.cli.main import app; app(prog_name='pantheon')"],
                          capture_output=True, text=True, env=env, cwd=PROJECT)
    return done.stdout.splitlines()


@pytest.mark.parametrize("typed, offered", [
    ("0", "02"),  # the record's id as the YAML writes it
    ("deity-0", "deity-02"),  # the id the sheets print
    ("The", "The Leaping Hare"),  # the name
])
def test_a_card_completes_in_every_form_preview_takes(typed: str, offered: str) -> None:
    assert offered in _completed(f"pantheon preview monotheism {typed}")


def test_help_shows_flags_as_flags() -> None:
    shown = run_cli("monotheism", "play", "--help").stdout
    assert "--bless-at-start " in shown and "<bool>" not in shown and "╭" not in shown


def test_paths_are_printed_relative_to_the_working_directory(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PANTHEON_DEBUG"}
    env["PYTHONPATH"] = str(PROJECT)
    done = subprocess.run([sys.executable, "-m", "pipeline", "docs", "theocracy", "--format", "md",
                           "--out", "out"], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    written = [line.split(" ", 1)[1] for line in done.stdout.splitlines() if line.startswith("wrote ")]
    assert written and all(path.startswith("out/theocracy/") for path in written), done.stdout


def test_spinner_only_on_a_terminal_and_gone_when_the_block_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))  # a terminal 80 columns wide
    with os.fdopen(follower, "w") as terminal:
        monkeypatch.setattr(sys, "stdout", terminal)
        monkeypatch.setattr(sys, "stderr", terminal)
        with console.working("thinking"):
            time.sleep(0.3)
            print("result")
        assert sys.stdout is terminal and sys.stderr is terminal
    shown = _read_until(leader, None, timeout_s=10)
    os.close(leader)
    assert "thinking" in shown.split("result")[0]  # the spinner turned before the result was printed
    assert _visible(shown) == ["result"]  # and is gone: the result is all that stays on the terminal


def test_no_spinner_off_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    log = io.StringIO()
    monkeypatch.setattr(sys, "stderr", log)
    with console.working("thinking"):
        assert sys.stderr is log  # not even wrapped
        time.sleep(0.2)
    assert log.getvalue() == ""


def _commands() -> list[tuple[str, object]]:
    """Every runnable command of ``pantheon``, as (path after 'pantheon', click command), game groups included."""
    import typer

    from pipeline.cli.main import GameCommands, app

    found: list[tuple[str, object]] = []

    def walk(path: str, command: object) -> None:
        group = command.loaded() if isinstance(command, GameCommands) else command
        subcommands = getattr(group, "commands", None)
        if subcommands is None:
            found.append((path, group))
            return
        for name in group.list_commands(None):  # type: ignore[attr-defined]
            walk(f"{path} {name}".strip(), group.get_command(None, name))  # type: ignore[attr-defined]

    walk("", typer.main.get_command(app))
    return found


def _usage_block(readme: str, path: str) -> str:
    """The command reference's usage lines of ``pantheon PATH``: its line and the indented continuation lines below it."""
    lines = readme.splitlines()
    for index, line in enumerate(lines):
        if line.startswith(f"pantheon {path} ") or line == f"pantheon {path}":
            block = [line]
            for more in lines[index + 1:]:
                if not more.startswith(" "):
                    break
                block.append(more)
            return "\n".join(block)
    return ""


def test_the_command_reference_documents_every_command_and_option() -> None:
    readme = (PROJECT / "docs" / "commands.md").read_text(encoding="utf-8")
    missing = []
    for path, command in _commands():
        block = _usage_block(readme, path)
        if not block:
            missing.append(f"pantheon {path}")
            continue
        for param in command.params:  # type: ignore[attr-defined]
            for flag in param.opts:
                if flag.startswith("--") and flag != "--help" and flag not in block:
                    missing.append(f"pantheon {path} {flag}")
    assert not missing, "docs/commands.md lacks: " + ", ".join(missing)


def test_with_json_the_data_problems_travel_in_the_error(tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "data"
    for folder in ("schemas", "theocracy"):
        shutil.copytree(PROJECT / "data" / folder, root / folder)
    with (root / "theocracy" / "components.yaml").open("a", encoding="utf-8") as components:
        components.write("bogus: 1\n")
    done = run_cli("simulate", "theocracy", "--games", "2", "--json", "--data", str(root))
    assert done.returncode == EXIT_PROBLEMS, done.stderr
    answer = json.loads(done.stdout)  # the whole of stdout is the one JSON object
    assert answer["exit_code"] == EXIT_PROBLEMS
    assert any("components.yaml" in p and "unknown key 'bogus'" in p for p in answer["problems"])


def test_run_in_process_ends_with_the_code_and_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from pipeline.base import errors
    from pipeline.base.exits import run

    def main(**_: object) -> None:
        raise errors.UserError("deity 13: aspect 'solar' is not one of sun, moon, death")

    with pytest.raises(SystemExit) as ended:
        run(main, argv=["validate"])
    assert ended.value.code == EXIT_PROBLEMS
    assert capsys.readouterr().err == "error: deity 13: aspect 'solar' is not one of sun, moon, death\n"
