"""`python -m pipeline` is the same as `pantheon`."""
from pipeline.entry import run

run()
