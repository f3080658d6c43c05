"""`pip install .` (not editable) into a fresh virtual environment gives a pantheon that works from any folder.

The project is built as a wheel by pip (build isolation, as a user's pip does);
its dependencies come from this test run's own environment (a .pth line), so
the test needs no network beyond what the build backend needs.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.core.cli_helpers import PROJECT

INSTALL_TIMEOUT_S = 600
NOT_SHIPPED = (".git", ".venv", ".cache", "output", "build", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis",
               "tests")


def _purelib(python: Path) -> Path:
    found = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                           capture_output=True, text=True, check=True)
    return Path(found.stdout.strip())


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin/ folder of a fresh venv holding a regular (non-editable) install of this checkout."""
    venv = tmp_path_factory.mktemp("venv")
    # Without a pip of its own (seeding one costs ~8 s): this run's pip installs into it (--python).
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    (_purelib(python) / "test-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    source = tmp_path_factory.mktemp("source") / "pantheon-press"  # pip builds in the source folder: not in ours
    shutil.copytree(PROJECT, source, ignore=shutil.ignore_patterns(*NOT_SHIPPED))
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", str(source)],
                          capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S)
    assert done.returncode == 0, done.stdout + done.stderr
    return venv / "bin"


def _pantheon(bin_dir: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PANTHEON_DEBUG", "PANTHEON_CACHE", "PYTHONPATH")}
    env["XDG_CACHE_HOME"] = str(cwd / "user-cache")
    return subprocess.run([str(bin_dir / "pantheon"), *args], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=600)


def test_the_installed_package_is_not_the_checkout(installed: Path, tmp_path: Path) -> None:
    found = subprocess.run([str(installed / "python"), "-c", "import pipeline; print(pipeline.__file__)"],
                           capture_output=True, text=True, cwd=tmp_path, check=True)
    assert not Path(found.stdout.strip()).is_relative_to(PROJECT)


def test_installed_pantheon_validates_and_builds_from_any_folder(installed: Path, tmp_path: Path) -> None:
    assert _pantheon(installed, tmp_path, "--version").stdout.startswith("pantheon ")
    checked = _pantheon(installed, tmp_path, "validate", "theocracy")
    assert checked.returncode == 0 and "ok: data is valid" in checked.stdout, checked.stderr
    checked = _pantheon(installed, tmp_path, "validate", "theocracy", "--data", str(PROJECT / "data"))
    assert checked.returncode == 0, checked.stderr
    built = _pantheon(installed, tmp_path, "build", "theocracy", "--only", "cards")
    assert built.returncode == 0, built.stderr
    assert "wrote output/theocracy/cards-a4.pdf" in built.stdout  # the current folder's output/, said relative to it
    assert (tmp_path / "output" / "theocracy" / "cards-a4.pdf").read_bytes().startswith(b"%PDF")
    assert any((tmp_path / "user-cache").rglob("*.json"))  # caches went to the user cache directory


def test_a_data_folder_in_the_current_directory_is_used(installed: Path, tmp_path: Path) -> None:
    (tmp_path / "data" / "schemas").mkdir(parents=True)
    refused = _pantheon(installed, tmp_path, "validate", "theocracy")
    assert refused.returncode == 1 and "theocracy" in refused.stderr, refused.stdout + refused.stderr
