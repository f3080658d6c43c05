"""Problems found in data, each pinned to a file, line and column."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Location:
    """A place in a data file; line and column are 1-based, as editors count."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the data, printed as ``file:line:column: message``."""

    at: Location
    message: str

    def __str__(self) -> str:
        return f"{self.at}: {self.message}"
