"""Fixtures shared by every test: a scratch copy of the data and ways to break it."""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Optional

import pytest
import yaml
from hypothesis import settings

from pipeline.checks.validate import validate as run_validation
from pipeline.data.dataset import default_data_root
from pipeline.data.problems import Problem
from pipeline.games.registry import catalogue

# Property tests draw the same examples on every run, so a test run (and CI) passes or fails
# the same way each time; `HYPOTHESIS_PROFILE=explore make test` draws fresh random examples.
settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

REPO_DATA = default_data_root()
CACHE_ENV = "PANTHEON_CACHE"
# Outside a test (collection, module fixtures) nothing is cached: a folder under a device cannot be made, so
# every read misses and every write is skipped. Each test gets a cache of its own (``own_cache`` below).
NO_CACHE = "/dev/null/pantheon-no-cache"


def pytest_configure(config: pytest.Config) -> None:
    """Tests (and the CLI subprocesses they start) never use the project's .cache/ (see NO_CACHE and
    ``own_cache``)."""
    os.environ[CACHE_ENV] = NO_CACHE


@pytest.fixture(scope="session")
def shipped_results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache holding what validating the shipped data keeps (Monotheism's scenario proofs and the #21 tally
    take ~25 s cold), made once per process and never written again: a read-only fixture each test copies."""
    folder = tmp_path_factory.mktemp("shipped-results") / "cache"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(folder))
        assert run_validation(REPO_DATA, catalogue()).ok
    return folder


@pytest.fixture(scope="module", autouse=True)
def module_cache(shipped_results: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The cache of a module's own fixtures (a report of every game, a generated puzzle set ...): a fresh copy
    of ``shipped_results`` for each module, so they do not prove the shipped scenarios again, and what they
    find never depends on which modules ran before. Each test still gets a cache of its own (``own_cache``)."""
    cache = tmp_path_factory.mktemp("module-cache") / "cache"
    shutil.copytree(shipped_results, cache)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(cache))
        yield cache


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


def _edit_yaml(path: Path, fn: Callable[[Any], Any]) -> None:
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
    result = fn(data)
    if result is not None:
        data = result
    path.write_text(yaml.dump(data, Dumper=_PlainDumper, sort_keys=False, allow_unicode=True), encoding="utf-8")


@pytest.fixture
def edit_yaml() -> Callable[[Path, Callable[[Any], Any]], None]:
    """``edit_yaml(path, fn)``: load, let ``fn`` mutate (or return new data), write back."""
    return _edit_yaml


def _validate(root: Path, games: Optional[Iterable[str]] = None, *, fold: bool = True) -> list[Problem]:
    return run_validation(root, catalogue(), games, fold=fold).problems


@pytest.fixture
def validate() -> Callable[..., list[Problem]]:
    """``validate(root, games=None, fold=True)``: every problem the full validation finds (``fold`` False: a
    deleted record's cause, then its consequences one by one, as the game checks found them)."""
    return _validate
