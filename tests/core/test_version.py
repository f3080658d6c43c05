"""`pantheon --version`: the installed version, answered by the command line's own option."""
from __future__ import annotations

from importlib.metadata import metadata, version

from tests.core.cli_helpers import run_cli

EXPECTED = f"pantheon {version('pantheon-press')}\n"


def test_version_through_the_command_line() -> None:
    result = run_cli("--version")
    assert (result.returncode, result.stdout) == (0, EXPECTED)


def test_package_metadata_says_who_it_is_from_and_under_what_terms() -> None:
    """What `pip show` and an index page read: the terms (with the licence files shipped), authors, a readme and
    the classifiers an index filters by."""
    meta = metadata("pantheon-press")
    assert meta["License-Expression"] == "LicenseRef-Proprietary"
    assert {"LICENSE", "templates/fonts/LICENSE-DejaVu.txt"} <= set(meta.get_all("License-File") or ())
    assert meta["Author"] and meta["Summary"]
    assert meta["Description-Content-Type"] == "text/markdown" and "pantheon" in (meta.get_payload() or "")
    assert "Topic :: Games/Entertainment :: Board Games" in (meta.get_all("Classifier") or ())
