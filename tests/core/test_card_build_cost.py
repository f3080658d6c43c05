"""What keeps a warm card build cheap without changing what it checks: file digests taken once per
process while a file is unchanged, settings files remembered as valid, libraries imported only when used."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pipeline.base import filedigest
from pipeline.base.errors import UserError
from pipeline.data.schemas import load_checked_yaml

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "additionalProperties": False,
    "required": ["size"],
    "properties": {"size": {"type": "number", "minimum": 1}},
}


def test_a_rewritten_file_gets_a_new_digest_even_within_one_clock_tick(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_bytes(b"aaaa")
    first = filedigest.content_digest(path)
    path.write_bytes(b"bbbb")  # same size, written at once: its times may equal the first write's
    assert filedigest.content_digest(path) != first
    path.write_bytes(b"aaaa")
    assert filedigest.content_digest(path) == first


def test_an_unchanged_old_file_is_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "old.txt"
    path.write_bytes(b"content")
    monkeypatch.setattr(filedigest, "RACY_WINDOW_NS", -10**18)  # as if written long ago
    first = filedigest.content_digest(path)
    opened: list[str] = []
    real_open = filedigest.open_regular
    monkeypatch.setattr(filedigest, "open_regular", lambda name: opened.append(str(name)) or real_open(name))
    assert filedigest.content_digest(path) == first
    assert opened == []
    path.write_bytes(b"changed, and longer")  # a new size: a new identity, read again
    assert filedigest.content_digest(path) != first
    assert opened == [str(path)]


def test_a_missing_file_raises(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        filedigest.content_digest(tmp_path / "nothing")


def _settings(tmp_path: Path, text: str) -> tuple[Path, Path]:
    schema = tmp_path / "s.schema.json"
    schema.write_text(json.dumps(SCHEMA))
    path = tmp_path / "s.yaml"
    path.write_text(text)
    return path, schema


def test_a_settings_file_found_valid_is_still_refused_once_it_breaks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PANTHEON_CACHE", str(tmp_path / "cache"))
    path, schema = _settings(tmp_path, "size: 3\n")
    assert load_checked_yaml(path, schema) == {"size": 3}
    assert load_checked_yaml(path, schema) == {"size": 3}  # remembered
    path.write_text("size: 3\ncolour: red\n")
    with pytest.raises(UserError, match=r"s\.yaml:2:1: unknown key 'colour'"):
        load_checked_yaml(path, schema)
    path.write_text("size: 0\n")
    with pytest.raises(UserError, match=r"s\.yaml:1:7"):
        load_checked_yaml(path, schema)


def test_a_stricter_schema_refuses_a_file_remembered_as_valid(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PANTHEON_CACHE", str(tmp_path / "cache"))
    path, schema = _settings(tmp_path, "size: 3\n")
    load_checked_yaml(path, schema)
    schema.write_text(json.dumps({**SCHEMA, "properties": {"size": {"type": "number", "minimum": 5}}}))
    with pytest.raises(UserError, match=r"s\.yaml:1:7"):
        load_checked_yaml(path, schema)


def test_a_warm_process_imports_jinja2_only_to_render(tmp_path: Path) -> None:
    """Design rules and sheets known valid, templates not rendered: jinja2 is not loaded; a render loads it.
    (jsonschema is a plain import of the data layer: every process has it.)"""
    script = textwrap.dedent("""
        import sys
        from pipeline.cards.build import check_options, BuildOptions
        from pipeline.cards.svgtemplates import TEMPLATE_ROOT, Templates
        check_options(BuildOptions())
        templates = Templates(TEMPLATE_ROOT, bleed_mm=3.0)
        print(sorted(name for name in ("jinja2",) if name in sys.modules))
        templates.env
        print("jinja2" in sys.modules)
    """)
    env = {**os.environ, "PANTHEON_CACHE": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
            for _ in range(2)]
    assert [run.stdout.splitlines() for run in runs] == [["[]", "True"]] * 2


def test_a_warm_card_build_writes_the_cold_builds_bytes(tmp_path: Path) -> None:
    """Every art kept on disk, letters in art (Heavenly Father's virtue icons) as text runs the canvas writes
    again: a warm card build's sheet is byte for byte the cold build's. (Which libraries it imports is no longer
    asked: every game's spec imports its parts, so `pantheon` imports every game's code.)"""
    env = {**os.environ, "PANTHEON_CACHE": str(tmp_path / "cache")}

    def build(out: str) -> bytes:
        done = subprocess.run([sys.executable, "-m", "pipeline", "build", "heavenly-father", "--only", "cards", "--force",
                               "--out", str(tmp_path / out)], cwd=ROOT, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return (tmp_path / out / "heavenly-father" / "cards-a4.pdf").read_bytes()

    cold = build("cold")
    assert build("warm") == cold


