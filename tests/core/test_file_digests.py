"""Digest helpers never block on or stream from something that is not a regular file: a named pipe
in place of a data file, or a link to a device, must reach the loader, which refuses it by name."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from pipeline.base.filedigest import content_digest
from pipeline.base.safefile import open_regular
from pipeline.store import file_digest


@pytest.fixture(params=["fifo", "/dev/zero", "/dev/urandom", "folder"])
def not_regular(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    path = tmp_path / "cards.yaml"
    if request.param == "fifo":
        os.mkfifo(path)
    elif request.param == "folder":
        path.mkdir()
    else:
        path.symlink_to(request.param)
    return path


def test_a_non_regular_file_is_not_opened(not_regular: Path) -> None:
    with pytest.raises(OSError):
        open_regular(not_regular)


def test_digests_of_a_non_regular_file_do_not_block(not_regular: Path) -> None:
    assert file_digest(not_regular) is None
    with pytest.raises(OSError):
        content_digest(not_regular)


def test_a_regular_file_and_a_link_to_one_are_hashed_alike(tmp_path: Path) -> None:
    real = tmp_path / "real.yaml"
    real.write_text("cards: []\n")
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    assert file_digest(real) == file_digest(link) is not None
    assert content_digest(real) == content_digest(link)
