"""The games Pantheon Press knows: one explicit list of game specs, and how the core uses them.

Design
------
A game is a data folder (``data/<id>/``), its card templates
(``templates/cards/<id>/``), a Python package (``pipeline/games/<package>/``)
and one line in :data:`REGISTERED` below. The package says what it provides
in one :class:`~pipeline.data.gamespec.GameSpec` (its ``spec.py``): model
builder, cross-checks, card plan, documents, command group, engine. The core never guesses a
module name: every stage asks the spec, and a spec's parts are imported only
when a stage needs them (``pantheon --help`` imports none).

The flow of one command, each file read once::

    select(data_root, games)        every chosen data folder has a registered spec, else an error
    RecordCatalogue(data_root)      loads each game once, on first use (GameData)
    validate(..., catalogue)        schema checks, shared checks, then spec.checks' cross_checks(game);
                                    game.model is built by spec.model on first use, once, and kept
    report.game(id) -> GameData     the vetted data and its model, handed on to:
        render.build.plan(root, id, game)   spec.cards      -> card sheets
        app.build.build_documents(...)  spec.documents (DocContext.game.model)
        game commands               validate.load_valid_game(id, root).model

A data folder without a spec, or a spec naming a part its package lacks, is
an error with one clear line (exit 1), never a silent skip. Adding a sixth
game is described in ``docs/architecture.md`` ("Adding a game").
"""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator, Optional

from pipeline.base.errors import UserError
from pipeline.data.gamespec import GameSpec, SpecError
from pipeline.games.heavenly_father.spec import SPEC as HEAVENLY_FATHER
from pipeline.games.monotheism.spec import SPEC as MONOTHEISM
from pipeline.games.monstrous.spec import SPEC as MONSTROUS
from pipeline.games.theocracy.spec import SPEC as THEOCRACY
from pipeline.games.totems_and_taboos.spec import SPEC as TOTEMS_AND_TABOOS

# Every game, in the order commands list them. A new game adds its spec here.
REGISTERED: tuple[GameSpec, ...] = (MONOTHEISM, THEOCRACY, MONSTROUS, HEAVENLY_FATHER, TOTEMS_AND_TABOOS)

_temporary: list[GameSpec] = []  # specs added for a while by ``registered`` (the tests' toy game)


def specs() -> tuple[GameSpec, ...]:
    """Every registered game spec."""
    return REGISTERED + tuple(_temporary)


def find(game_id: str) -> Optional[GameSpec]:
    """The spec of ``game_id``, or None."""
    return next((spec for spec in specs() if spec.id == game_id), None)


def spec(game_id: str) -> GameSpec:
    """The spec of ``game_id``; a SpecError (one line, exit 1) when no spec is registered for it."""
    found = find(game_id)
    if found is None:
        raise SpecError(f"{game_id}: no game spec is registered for this game "
                        "(add its spec to REGISTERED in pipeline/games/registry.py)")
    return found


@contextmanager
def registered(*extra: GameSpec) -> Iterator[None]:
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


def select(data_root: Path, games: Optional[Iterable[str]] = None) -> list[str]:
    """The games a command works on: ``games`` in the order given (duplicates dropped), or every data
    folder under ``data_root``. Each must be a data folder with a registered spec (else a UserError)."""
    from pipeline.data.dataset import display_path, game_ids

    known = game_ids(data_root)
    chosen = list(dict.fromkeys(games)) if games else known
    unknown = [g for g in chosen if g not in known]
    if unknown:
        raise UserError(f"unknown game {', '.join(unknown)} (known: {', '.join(known)})")
    for game in chosen:
        if find(game) is None:
            raise SpecError(f"{display_path(data_root / game)}: a data folder with no game spec: register the "
                            "game's spec in pipeline/games/registry.py (see 'Adding a game' in docs/architecture.md)")
    return chosen
