"""Fixtures shared by every test: a scratch copy of the data and ways to break it."""
from __future__ import annotations

import copy
import functools
import gc
import os
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

import pytest
import yaml
from hypothesis import settings

# pytest rewrites the asserts of each test module it imports (5 s of CPU for this suite, in every xdist worker)
# and keeps the result beside the module, in a git-ignored __pycache__, unless bytecode writing is off: with
# PYTHONDONTWRITEBYTECODE set (some shells and CI images set it) every run would pay it again. The suite keeps
# its own compiled modules whatever that variable says; the `pantheon` processes the tests start still obey it.
sys.dont_write_bytecode = False

# Property tests draw the same examples on every run, so a test run (and CI) passes or fails
# the same way each time; `HYPOTHESIS_PROFILE=explore make test` draws fresh random examples.
settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

from pipeline.checks.validate import validate as run_validation
from pipeline.cli.entry import GC_YOUNG_THRESHOLD
from pipeline.data.dataset import default_data_root
from pipeline.data.problems import Problem

# The tests build a great many long-lived objects (parsed data, models, engine states, PDFs), as a `pantheon`
# command does: collecting the youngest generation every 700 allocations cost the suite's processes about a
# tenth of their CPU. The same threshold as the command (pipeline/cli/entry.py); cycles are still collected.
gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])

REPO_DATA = default_data_root()
CACHE_ENV = "PANTHEON_CACHE"
# Outside a test (collection, module fixtures) nothing is cached: a folder under a device cannot be made, so
# every read misses and every write is skipped. Each test gets a cache of its own (``own_cache`` below).
NO_CACHE = "/dev/null/pantheon-no-cache"


# A test run writes about half a gigabyte in some 70,000 files (data copies, builds, caches), and deletes them
# again: on a disk that is seconds of system time, and pytest deleted each run's files three runs later, at
# the end of that run, while everything waited. In memory (tmpfs) both are nearly free. So a run keeps its
# temporary files in a folder of its own under /dev/shm when there is room, and removes it when all passed
# (a failed run's files stay for a look, until the next run sweeps them). `--basetemp` still chooses.
RAM_DISK = Path("/dev/shm")
RAM_NEEDED = 2 * 1024 ** 3  # bytes free on it, at least (a run peaks near 0.6 GB)
RUN_PREFIX = "pantheon-tests-"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _run_folder_in_memory() -> Optional[Path]:
    """A new folder for this run's temporary files on the RAM disk, or None where there is none or too
    little room; folders of earlier runs whose process is gone are removed first."""
    try:
        if not RAM_DISK.is_dir() or shutil.disk_usage(RAM_DISK).free < RAM_NEEDED:
            return None
        for old in RAM_DISK.glob(f"{RUN_PREFIX}*"):
            pid = old.name[len(RUN_PREFIX):].split("-")[0]
            if pid.isdigit() and not _alive(int(pid)):
                shutil.rmtree(old, ignore_errors=True)
        return Path(tempfile.mkdtemp(prefix=f"{RUN_PREFIX}{os.getpid()}-", dir=RAM_DISK))
    except OSError:
        return None


# The modules that cost most, run first and in this order (then the rest, most tests first, as pytest-xdist
# orders them by default). With one module per worker at a time (--dist loadscope), the run then ends on
# small modules instead of one worker still busy with a big one while the other has finished; xdist's own
# order, by number of tests, left the costliest modules of few tests (installing the package, attacking the
# caches) for last. test_rulebook_facts.py goes first because one of its tests makes the run's one cold
# validation of the shipped Monotheism data (its scenario proofs and #21 run, ~14 s); the modules that also
# need it come after others that do not, so that they find it in the run's cache instead of making it too.
RUN_FIRST = (
    "tests/core/test_rulebook_facts.py",
    "tests/core/test_engine_conformance.py",
    "tests/core/test_build_integrity.py",
    "tests/games/totems_and_taboos/test_simulate.py",
    "tests/core/test_hostile_yaml.py",
    "tests/core/test_diff_balance.py",
    "tests/core/test_balance_cli.py",
    "tests/core/test_install.py",
    "tests/games/monotheism/test_puzzle_lab_cli.py",
    "tests/fuzz/test_checks_never_crash.py",
    "tests/games/monotheism/test_puzzle_solver.py",
    "tests/games/monotheism/test_estimate.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Order the modules as RUN_FIRST says; a module's own tests keep their order."""
    first = {module: rank for rank, module in enumerate(RUN_FIRST)}
    tests_in = Counter(item.nodeid.split("::")[0] for item in items)

    def rank(item: pytest.Item) -> tuple[int, int, str]:  # (sort computes it once per item)
        module = item.nodeid.split("::")[0]
        return first.get(module, len(first)), -tests_in[module], module

    items.sort(key=rank)


@pytest.hookimpl(tryfirst=True)  # before pytest's own tmp_path set-up reads --basetemp
def pytest_configure(config: pytest.Config) -> None:
    """Tests (and the CLI subprocesses they start) never use the project's .cache/ (see NO_CACHE and
    ``own_cache``). Workers inherit the main process's temporary folder (see RAM_DISK above)."""
    os.environ[CACHE_ENV] = NO_CACHE
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False  # pytest-xdist keeps the order RUN_FIRST gives (see above)
    run_folder = _run_folder_in_memory() if not config.option.basetemp else None
    if run_folder is not None:
        config.option.basetemp = str(run_folder / "tmp")
    config._pantheon_run_folder = run_folder  # type: ignore[attr-defined]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    session.config._pantheon_passed = exitstatus == 0  # type: ignore[attr-defined]


def pytest_unconfigure(config: pytest.Config) -> None:
    run_folder = getattr(config, "_pantheon_run_folder", None)
    if run_folder is not None and getattr(config, "_pantheon_passed", False):
        shutil.rmtree(run_folder, ignore_errors=True)


@pytest.fixture(scope="session")
def shipped_results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache holding what validating the shipped data keeps (Monotheism's scenario proofs and the #21 tally
    take ~25 s cold), made once per process and never written again: a read-only fixture each test copies."""
    folder = tmp_path_factory.mktemp("shipped-results") / "cache"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(folder))
        assert run_validation(REPO_DATA).ok
    return folder


@pytest.fixture(autouse=True)
def own_cache(shipped_results: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own cache (for it and the commands it starts): a copy of ``shipped_results``, so what
    it finds there never depends on which tests ran before."""
    cache = tmp_path_factory.mktemp("cache") / "cache"
    shutil.copytree(shipped_results, cache)
    monkeypatch.setenv(CACHE_ENV, str(cache))
    return cache


class _DataSnapshot:
    """The project's data/ read once per process, written out as often as tests need a copy to break.

    About 870 tests copy data/ (some 140 small files); writing the files from memory costs a quarter of
    ``shutil.copytree``, which reads, stats and copies the metadata of every file every time. A copy's files
    keep their modes; their times are the copy's own (nothing reads a data file's times but its identity for
    a digest, and a file's change time is new in any copy)."""

    def __init__(self, root: Path) -> None:
        self.folders: list[str] = []
        self.files: list[tuple[str, bytes, int]] = []
        for folder, subfolders, names in os.walk(root):
            subfolders.sort()
            relative = os.path.relpath(folder, root)
            self.folders.append(relative)
            for name in sorted(names):
                path = os.path.join(folder, name)
                self.files.append((os.path.join(relative, name), Path(path).read_bytes(), os.stat(path).st_mode & 0o7777))

    def write(self, target: Path, kept: Callable[[str], bool] = lambda relative: True) -> Path:
        """Write the files whose path inside data/ ``kept`` accepts (every file by default) under ``target``."""
        for relative in self.folders:
            if kept(relative):
                os.makedirs(os.path.join(target, relative), exist_ok=True)
        for relative, content, mode in self.files:
            if kept(os.path.dirname(relative)):
                handle = os.open(os.path.join(target, relative), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                try:
                    os.write(handle, content)
                    os.fchmod(handle, mode)
                finally:
                    os.close(handle)
        return target


_snapshot: Optional[_DataSnapshot] = None


def _repo_data() -> _DataSnapshot:
    global _snapshot
    if _snapshot is None:
        _snapshot = _DataSnapshot(REPO_DATA)
    return _snapshot


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    """A temporary copy of the project's data/ folder, safe to break."""
    return _repo_data().write(tmp_path / "data")


def copy_games(target: Path, games: Iterable[str]) -> Path:
    """Copy the project's data/ to ``target`` with only the folders (data and schemas) of ``games``, beside
    the files every game shares (the common schema): a test of one game neither copies nor hashes the rest."""
    kept = set(games)

    def of_a_kept_game(folder: str) -> bool:
        """Whether ``folder`` (inside data/) is shared or a kept game's: data/<game>/ or data/schemas/<game>/."""
        parts = Path(folder).parts  # () for data/ itself
        if parts[:1] == ("schemas",):
            parts = parts[1:]
        return not parts or parts[0] in kept

    return _repo_data().write(target, of_a_kept_game)


@pytest.fixture
def data_copy_of(tmp_path: Path) -> Callable[..., Path]:
    """``data_copy_of(*games)``: a temporary copy of data/ holding only those games, safe to break."""
    return lambda *games: copy_games(tmp_path / "data", games)


# libyaml's loader and emitter when PyYAML has them: the same data and text as the pure-Python ones (on every
# shipped data file), several times faster, and many tests edit a data file.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class _PlainDumper(_Dumper):  # type: ignore[valid-type,misc]  # (a base chosen at import)
    """Writes a value met twice out twice, as the data conventions ask, instead of as an anchor and alias."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


@functools.lru_cache(maxsize=64)
def _loaded(text: str) -> Any:
    """A data file's text loaded once: the tests break copies of the same few shipped files again and again."""
    return yaml.load(text, Loader=_Loader)


def _edit_yaml(path: Path, fn: Callable[[Any], Any]) -> None:
    data = copy.deepcopy(_loaded(path.read_text(encoding="utf-8")))  # fn changes its own copy
    result = fn(data)
    if result is not None:
        data = result
    path.write_text(yaml.dump(data, Dumper=_PlainDumper, sort_keys=False, allow_unicode=True), encoding="utf-8")


@pytest.fixture
def edit_yaml() -> Callable[[Path, Callable[[Any], Any]], None]:
    """``edit_yaml(path, fn)``: load, let ``fn`` mutate (or return new data), write back."""
    return _edit_yaml


def _validate(root: Path, games: Optional[Iterable[str]] = None) -> list[Problem]:
    return run_validation(root, games).problems


@pytest.fixture
def validate() -> Callable[..., list[Problem]]:
    """``validate(root, games=None)``: every problem the full validation finds."""
    return _validate
