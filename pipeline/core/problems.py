"""Problems found in data, each pinned to a file, line and column, and printed as one line."""
from __future__ import annotations

from dataclasses import dataclass

from pipeline.core.textsafety import one_line


@dataclass(frozen=True, order=True)
class Location:
    """A place in a data file; line and column are 1-based, as editors count."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{one_line(self.file)}:{self.line}:{self.column}"


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the data, printed as ``file:line:column: message`` on one line (a value quoted
    into the message cannot break it: line breaks and control characters are written as escapes)."""

    at: Location
    message: str

    def __str__(self) -> str:
        return f"{self.at}: {one_line(self.message)}"
