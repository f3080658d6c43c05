"""The exceptions that reach the user as one plain line (pipeline.base.exits turns them into the exit code)."""
from __future__ import annotations

from typing import Sequence

from pipeline.base.words import count


class UserError(Exception):
    """Bad input or an impossible request: the CLI prints the message and exits 1."""


class ProblemsFound(UserError):
    """The data did not pass its checks: ``problems`` lists every problem (the CLI prints each, or lists them
    in its JSON error), and the message says what was therefore not done ("no documents written")."""

    def __init__(self, problems: Sequence[str], consequence: str) -> None:
        super().__init__(f"{count(len(problems), 'problem')} found: {consequence}")
        self.problems = list(problems)


class UsageProblem(Exception):
    """An option value or combination no run can take, found by the command (typer checks each value's type, choices
    and range first): the CLI prints the message and exits 2, as for typer's own usage errors."""
