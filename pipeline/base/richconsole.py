"""The one rich console every display of a run draws on (stderr), in a module of its own: rich is imported when
a run first draws, not by every run (see :mod:`pipeline.base.console`)."""
from __future__ import annotations

from rich.console import Console

# Writes to whatever sys.stderr is at the time; drawn only when that is a terminal (checked at each use, so rich's
# own reading of "interactive", fixed when the console is made, is forced on).
STDERR = Console(stderr=True, force_interactive=True)
