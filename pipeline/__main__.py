"""`python -m pipeline` is the same as `pantheon`."""
from pipeline.cli.entry import run

run()
