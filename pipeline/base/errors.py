"""The exceptions that reach the user as one plain line (pipeline.base.exits turns them into the exit code)."""
from __future__ import annotations


class UserError(Exception):
    """Bad input or an impossible request: the CLI prints the message and exits 1."""


class UsageProblem(Exception):
    """An option value or combination no run can take, found by the command (typer checks each value's type, choices
    and range first): the CLI prints the message and exits 2, as for typer's own usage errors."""
