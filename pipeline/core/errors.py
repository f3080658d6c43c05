"""The one exception type that reaches the user as a plain message."""


class UserError(Exception):
    """Bad input or an impossible request: the CLI prints the message and exits 1."""
