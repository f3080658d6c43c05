"""The games Pantheon Press knows: one explicit list of game specs, above every layer that uses them.

Design
------
A game is a data folder (``data/<id>/``), its card templates
(``templates/cards/<id>/``), a Python package (``pipeline/games/<package>/``)
and one line in :data:`REGISTERED` below. The package says what it provides
in one :class:`~pipeline.data.gamespec.GameSpec` (its ``spec.py``), naming
each part directly: model builder, cross-checks, engine, card plan, documents,
command group ... Importing this module imports every game's code.

Nothing below ``pipeline/games`` imports this module: the commands (``pipeline/app``,
``pipeline/cli``) take :func:`catalogue` and hand it down, so the flow of one
command, each file read once, is::

    specs = catalogue()                       the registered specs
    specs.select(data_root, games)            every chosen data folder has a spec, else an error
    validate(data_root, specs, games)         loads each game once with its spec (GameData[M]), runs the
                                              schema checks, shared checks, then spec.checks.cross_checks(game)
    report.game(id) -> GameData[M]            the vetted data and its model, handed on to cards, documents,
                                              balance, diff and the game's own commands

A data folder without a spec, or a spec missing a part, is an error with one
clear line (exit 1), never a silent skip. Adding a sixth game is described in
``docs/architecture.md`` ("Adding a game").
"""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional

from pipeline.data.gamespec import GameSpec, Specs
from pipeline.games.heavenly_father.spec import SPEC as HEAVENLY_FATHER
from pipeline.games.monotheism.spec import SPEC as MONOTHEISM
from pipeline.games.monstrous.spec import SPEC as MONSTROUS
from pipeline.games.theocracy.spec import SPEC as THEOCRACY
from pipeline.games.totems_and_taboos.spec import SPEC as TOTEMS_AND_TABOOS

# Every game, in the order commands list them. A new game adds its spec here.
REGISTERED: tuple[GameSpec[Any], ...] = (MONOTHEISM, THEOCRACY, MONSTROUS, HEAVENLY_FATHER, TOTEMS_AND_TABOOS)

_temporary: list[GameSpec[Any]] = []  # specs added for a while by ``registered`` (the tests' toy game)


def specs() -> tuple[GameSpec[Any], ...]:
    """Every registered game spec."""
    return REGISTERED + tuple(_temporary)


def catalogue() -> Specs:
    """The registered specs as the value commands hand down to the layers below."""
    return Specs(specs())


def find(game_id: str) -> Optional[GameSpec[Any]]:
    """The spec of ``game_id``, or None."""
    return catalogue().find(game_id)


def spec(game_id: str) -> GameSpec[Any]:
    """The spec of ``game_id``; a SpecError (one line, exit 1) when no spec is registered for it."""
    return catalogue().spec(game_id)


def select(data_root: Path, games: Optional[Iterable[str]] = None) -> list[str]:
    """The games a command works on (see :meth:`Specs.select`)."""
    return catalogue().select(data_root, games)


@contextmanager
def registered(*extra: GameSpec[Any]) -> Iterator[None]:
    """Register ``extra`` specs for the duration (a test's game, or a tool trying a game out)."""
    clash = [s.id for s in extra if find(s.id) is not None]
    if clash:
        raise ValueError(f"game {', '.join(clash)} is registered already")
    _temporary.extend(extra)
    try:
        yield
    finally:
        for added in extra:
            _temporary.remove(added)
