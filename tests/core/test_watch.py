"""`pantheon watch`: builds, rebuilds the game an edit touches, survives bad data, stops on Ctrl-C with 130."""
from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from pipeline.app.watch import Watched, changes, snapshot
from tests.core.cli_helpers import PROJECT, as_from_a_terminal, copy_toy
from tests.core.render_helpers import toy_template_root

WAIT = 120.0  # seconds a step may take on a busy machine before the test gives up


def test_an_edit_rebuilds_its_game_and_a_shared_file_every_game(tmp_path: Path) -> None:
    data, templates = tmp_path / "data", tmp_path / "templates"
    watched = Watched(data, templates, ["monstrous", "theocracy"])
    assert watched.affected([data / "theocracy" / "cards.yaml"]) == ["theocracy"]
    assert watched.affected([templates / "cards" / "monstrous" / "front.svg.j2"]) == ["monstrous"]
    assert watched.affected([data / "monotheism" / "deities.yaml"]) == []
    assert watched.affected([data / "schemas" / "common.schema.json"]) == ["monstrous", "theocracy"]
    assert watched.affected([templates / "icons" / "sun.svg"]) == ["monstrous", "theocracy"]


def test_a_snapshot_sees_writes_of_the_same_size(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_text("a: 1\n")
    before = snapshot([tmp_path])
    path.write_text("a: 2\n")
    os.utime(path, ns=(before[path][0] + 1_000_000, before[path][0] + 1_000_000))
    assert changes(before, snapshot([tmp_path])) == [path]


def _lines(process: subprocess.Popen[str]) -> "queue.Queue[str]":
    found: "queue.Queue[str]" = queue.Queue()

    def read(stream: object) -> None:
        for line in stream:  # type: ignore[attr-defined]
            found.put(line)

    for stream in (process.stdout, process.stderr):
        threading.Thread(target=read, args=(stream,), daemon=True).start()
    return found


def _wait_for(lines: "queue.Queue[str]", text: str, seen: list[str]) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=1)
        except queue.Empty:
            continue
        seen.append(line)
        if text in line:
            return
    raise AssertionError(f"no {text!r} in:\n{''.join(seen)}")


def test_watch_rebuilds_after_a_write_and_survives_bad_data(tmp_path: Path) -> None:
    root, templates, out = copy_toy(tmp_path), toy_template_root(tmp_path), tmp_path / "out"
    cards = root / "toy" / "cards.yaml"
    good = cards.read_text(encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    env.pop("PANTHEON_DEBUG", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.core.pantheon_with_toy", "watch", "toy", "--only", "cards", "--data", str(root),
         "--templates", str(templates), "--out", str(out), "--interval", "0.2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, preexec_fn=as_from_a_terminal,
    )
    seen: list[str] = []
    try:
        lines = _lines(process)
        _wait_for(lines, "watching toy", seen)
        assert any("wrote" in line for line in seen)
        cards.write_text(good.replace("name: Skull", "name: [Skull"), encoding="utf-8")
        _wait_for(lines, "found: ", seen)
        cards.write_text(good.replace("name: Skull", "name: Bare Skull"), encoding="utf-8")
        _wait_for(lines, "wrote", seen)
        assert process.poll() is None  # still watching
        process.send_signal(signal.SIGINT)
        _wait_for(lines, "stopped watching", seen)
        assert process.wait(timeout=WAIT) == 130, seen
    finally:
        if process.poll() is None:
            process.kill()
    assert not any("Traceback" in line for line in seen)


def test_once_builds_and_stops(tmp_path: Path) -> None:
    from tests.core.cli_helpers import run_cli

    root, templates = copy_toy(tmp_path), toy_template_root(tmp_path)
    result = run_cli("watch", "toy", "--only", "cards", "--once", "--data", str(root), "--templates", str(templates),
                     "--out", str(tmp_path / "out"), timeout=WAIT)
    assert result.returncode == 0, result.stderr
    assert "wrote" in result.stdout and (tmp_path / "out" / "toy" / "cards-a4.pdf").is_file()


def test_a_template_edited_while_watching_is_drawn_by_the_next_rebuild(tmp_path: Path) -> None:
    """A watch is one long-lived process: each rebuild takes the code and templates afresh (its store scope),
    so after a template edit the cards are built again (not found up to date) and drawn from the edit (not
    from the face records the old template made)."""
    from pipeline.app.build import BuildOutcome, BuildRequest, Part, build
    from pipeline.app.watch import watch
    from pipeline.games.registry import registered
    from tests.core.render_helpers import reader
    from tests.core.toy_game import SPEC

    root, templates, out = copy_toy(tmp_path), toy_template_root(tmp_path), tmp_path / "out"
    back = templates / "cards" / "toy" / "back.svg.j2"
    request = BuildRequest(root, out, templates, ("toy",), only=Part.CARDS)
    outcomes: list[BuildOutcome] = []
    pdfs: list[bytes] = []

    def rebuild(game: str) -> None:
        outcomes.append(build(request))
        pdfs.append((out / "toy" / "cards-a4.pdf").read_bytes())

    def edit_the_first_time(_: float) -> None:
        source = back.read_text(encoding="utf-8")
        if "back of {{ name }}" in source:
            back.write_text(source.replace("back of {{ name }}", "reverse of {{ name }}"), encoding="utf-8")

    with registered(SPEC):
        watch(Watched(root, templates, ["toy"]), rebuild, lambda _: None, interval=0, max_cycles=1,
              sleep=edit_the_first_time)
    assert len(outcomes) == 2
    assert all(output.written for outcome in outcomes for output in outcome.outputs)
    texts = ["".join(page.extract_text() for page in reader(pdf).pages) for pdf in pdfs]
    assert "back of" in texts[0] and "reverse of" not in texts[0]
    assert "reverse of" in texts[1] and "back of" not in texts[1]
