"""Problems found in data, each pinned to a file, line and column, and printed as one line."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from pipeline.base.textsafety import one_line


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
    leads: bool = field(default=False, compare=False)  # a cause others follow from: listed before them

    def __str__(self) -> str:
        return f"{self.at}: {one_line(self.message)}"


def checks_then_engine(
    checks: Iterable[Callable[..., Iterable[Problem]]],
    engine_checks: Iterable[Callable[..., Iterable[Problem]]],
    *args: Any,
) -> Iterator[Problem]:
    """Every problem each of ``checks(*args)`` finds; then, only if they found none, ``engine_checks``.

    Engine checks replay the data on a rules engine, which assumes every fact the
    other checks vouch for (each named record exists, numbers in range, steps
    numbered 1..n). Data that fails them is reported by them, and never reaches
    the engine, which would fail on it with an exception instead of a message.
    """
    clean = True
    for check in checks:
        for problem in check(*args):
            clean = False
            yield problem
    if clean:
        for check in engine_checks:
            yield from check(*args)
