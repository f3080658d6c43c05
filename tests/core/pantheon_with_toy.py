"""`pantheon` with the toy game registered: how the CLI tests run commands on the toy data root."""
from pipeline.cli.main import app
from pipeline.games.registry import registered
from tests.core.toy_game import SPEC

if __name__ == "__main__":
    with registered(SPEC):
        app(prog_name="pantheon")
