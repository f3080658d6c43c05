"""The suite's run order (tests/conftest.py RUN_FIRST) names modules that exist: a renamed one would silently
fall back to pytest-xdist's order and leave a costly module for the end of the run."""
from tests.conftest import RUN_FIRST
from tests.core.cli_helpers import PROJECT


def test_every_module_run_first_exists() -> None:
    assert [module for module in RUN_FIRST if not (PROJECT / module).is_file()] == []
    assert len(set(RUN_FIRST)) == len(RUN_FIRST)
