"""`python -m pipeline` is the same as `pantheon`."""
from pipeline.cli import app

app(prog_name="pantheon")
