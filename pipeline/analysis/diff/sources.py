"""The two sides of a diff: a git revision's data/ (extracted into a temporary folder) or a folder.

A revision is read with ``git archive``, so the working tree, the index and
HEAD are never touched; the working tree itself is the project's data/ as it
is on disk.
"""
from __future__ import annotations

import io
import subprocess
import tarfile
import tempfile
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from pipeline.base.errors import UsageProblem, UserError
from pipeline.base.git import run_git
from pipeline.data.dataset import display_path

WORKING_TREE = "working tree"


@dataclass(frozen=True)
class Side:
    """One version of the data: a data root and how the report names it."""

    label: str
    root: Path


def folder(path: Path) -> Side:
    """A data folder given on the command line (it must exist and hold a schemas/ folder)."""
    if not path.is_dir():
        raise UserError(f"{display_path(path)}: no such data folder")
    if not (path / "schemas").is_dir():
        raise UserError(f"{display_path(path)}: not a data folder (it has no schemas/)")
    return Side(display_path(path), path)


def working_tree(data_root: Path) -> Side:
    return Side(WORKING_TREE, data_root)


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    done = run_git(repo, *args)
    if done is None:
        raise UserError("git is not installed: compare two folders with --data-a and --data-b")
    return done


def _repository(data_root: Path) -> tuple[Path, str]:
    """The git work tree holding ``data_root`` and the data folder's path inside it ("data/")."""
    top = _git(data_root, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise UserError(f"{display_path(data_root)} is not in a git repository: compare two folders with "
                        "--data-a and --data-b")
    prefix = _git(data_root, "rev-parse", "--show-prefix").stdout.decode().strip()
    return Path(top.stdout.decode().strip()), prefix


def check_revision(repo: Path, rev: str) -> None:
    """Refuse ``rev`` unless it names a commit of ``repo`` (an option-like word is never passed on to git)."""
    if rev.startswith("-") or _git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").returncode != 0:
        raise UserError(f"bad revision '{rev}': not a commit of {display_path(repo)}")


def revision(data_root: Path, rev: str, stack: ExitStack) -> Side:
    """The data folder as revision ``rev`` holds it, extracted into a temporary folder that ``stack`` removes."""
    repo, prefix = _repository(data_root)
    check_revision(repo, rev)
    archive = _git(repo, "archive", "--format=tar", rev, "--", prefix or ".")
    if archive.returncode != 0:
        raise UserError(f"revision '{rev}' has no {prefix or 'data folder'} in it")
    target = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="pantheon-diff-")))
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(target, filter="data")
    root = target / prefix if prefix else target
    if not root.is_dir():
        raise UserError(f"revision '{rev}' has no {prefix}")
    return Side(rev, root)


def sides(data_root: Path, revs: list[str], data_a: Optional[Path], data_b: Optional[Path],
          stack: ExitStack) -> tuple[Side, Side]:
    """Side A and side B of a diff: two folders, or revisions (A default HEAD, B default the working tree)."""
    if data_a is not None or data_b is not None:
        if data_a is None or data_b is None or revs:
            raise UsageProblem("give both --data-a and --data-b, and no revision")
        return folder(data_a), folder(data_b)
    if len(revs) > 2:
        raise UsageProblem(f"at most two revisions, not {len(revs)}: {' '.join(revs)}")
    revs = revs or ["HEAD"]
    for rev in revs:  # every revision named is checked before any is read
        check_revision(_repository(data_root)[0], rev)
    side_a = revision(data_root, revs[0], stack)
    side_b = revision(data_root, revs[1], stack) if len(revs) > 1 else working_tree(data_root)
    return side_a, side_b
