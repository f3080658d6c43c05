"""`python -m pipeline` is the same as `pantheon`."""
from pipeline.cli.main import run

run()
