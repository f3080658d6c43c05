"""Playing a study's games on every core: seeded chunks on a process pool, merged in a fixed order.

Each set-up's games are cut into chunks of the study's ``chunk_games`` games;
chunk k of set-up S plays from a seed derived from (the run's seed, the game,
S, k) alone. Which process plays a chunk, and when, changes nothing: the
chunks' tallies are merged in chunk order, so the same options give the same
figures with one process or many. Games are independent, so the chunks of
every chosen game share one pool; the costliest start first.

Worker processes are forked from the parent after the studies are built, so
they share its loaded data; where fork is not available, each worker builds
the studies again from the data.
"""
from __future__ import annotations

import hashlib
import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence, TypeVar

from pipeline.analysis.balance.study import Exact, Results, Setup, Study
from pipeline.analysis.balance.tally import Tally, merged

SEED_BYTES = 8
T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class Chunk:
    """One unit of work: ``games`` games of one set-up from ``seed``, or one exact job (``setup`` None)."""

    game: str
    key: str  # the set-up's id, or the exact job's
    index: int
    games: int
    seed: int
    cost: float
    exact: bool = False


def chunk_seed(seed: int, game: str, setup: str, index: int) -> int:
    """The seed of chunk ``index`` of ``setup``: from the run's seed and the chunk's place alone."""
    digest = hashlib.blake2b(f"{seed}/{game}/{setup}/{index}".encode(), digest_size=SEED_BYTES).digest()
    return int.from_bytes(digest, "big")


def chunks_of(study: Study, setups: Sequence[Setup], games: Optional[int], seed: int) -> list[Chunk]:
    """Every chunk of ``setups`` (``games`` each, or each set-up's default), then the study's exact jobs."""
    found: list[Chunk] = []
    for setup in setups:
        total = games if games is not None else setup.games
        for index, start in enumerate(range(0, total, study.chunk_games)):
            size = min(study.chunk_games, total - start)
            found.append(Chunk(study.game_id, setup.id, index, size, chunk_seed(seed, study.game_id, setup.id, index),
                               size * setup.cost))
    return found


def exact_chunks(study: Study) -> list[Chunk]:
    return [Chunk(study.game_id, job.id, 0, 0, 0, job.cost, exact=True) for job in study.exact_jobs()]


# The studies a worker plays; set before the pool forks (or rebuilt by _start_worker where it cannot fork).
_STUDIES: dict[str, Study] = {}
_SETUPS: dict[tuple[str, str], Setup] = {}
_JOBS: dict[tuple[str, str], Exact] = {}


def _register(studies: Mapping[str, Study], setups: Mapping[str, Sequence[Setup]]) -> None:
    _STUDIES.clear()
    _SETUPS.clear()
    _JOBS.clear()
    _STUDIES.update(studies)
    for game, chosen in setups.items():
        _SETUPS.update({(game, s.id): s for s in chosen})
    for game, study in studies.items():
        _JOBS.update({(game, job.id): job for job in study.exact_jobs()})


def _start_worker(studies: Mapping[str, Study], setups: Mapping[str, Sequence[Setup]]) -> None:
    """A worker leaves Ctrl-C to the parent; a spawned one (no fork on this system) registers the studies it
    was handed (pickled)."""
    _quiet_worker()
    if not all(game in _STUDIES for game in setups):
        _register(studies, setups)


def _run(chunk: Chunk) -> Tally:
    study = _STUDIES[chunk.game]
    if chunk.exact:
        return study.run_exact(_JOBS[(chunk.game, chunk.key)])
    return study.play(_SETUPS[(chunk.game, chunk.key)], chunk.games, chunk.seed)


def default_processes() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run(studies: Mapping[str, Study], setups: Mapping[str, Sequence[Setup]], *, games: Optional[int], seed: int,
        processes: int, exact: bool = True) -> dict[str, Results]:
    """Play every chunk of ``setups`` (per game) and (``exact``) each study's exact jobs; the results per game."""
    chunks = [c for game, study in studies.items() for c in chunks_of(study, setups[game], games, seed)]
    if exact:
        chunks += [c for study in studies.values() for c in exact_chunks(study)]
    _register(studies, setups)
    tallies = _execute(chunks, processes, studies, setups)
    results: dict[str, Results] = {}
    for game, study in studies.items():
        per_setup = {s.id: merged(t for c, t in zip(chunks, tallies) if c.game == game and not c.exact and c.key == s.id)
                     for s in setups[game]}
        exact_tallies = {c.key: t for c, t in zip(chunks, tallies) if c.game == game and c.exact}
        results[game] = Results(tuple(setups[game]), per_setup, exact_tallies)
    return results


def _execute(chunks: Sequence[Chunk], processes: int, studies: Mapping[str, Study],
             setups: Mapping[str, Sequence[Setup]]) -> list[Tally]:
    """Each chunk's tally, in the order of ``chunks`` (however they were scheduled)."""
    return pool_map(_run, chunks, processes, costs=[c.cost for c in chunks], initializer=_start_worker,
                    initargs=(dict(studies), dict(setups)))


def pool_map(function: Callable[[T], R], items: Sequence[T], processes: int, *, costs: Optional[Sequence[float]] = None,
             initializer: Optional[Callable[..., None]] = None, initargs: tuple[Any, ...] = ()) -> list[R]:
    """``function`` of each item, in the order of ``items``, on up to ``processes`` worker processes (the
    costliest items first, so none is left running alone at the end). One process: here, in order."""
    if processes <= 1 or len(items) <= 1:
        return [function(item) for item in items]
    order = sorted(range(len(items)), key=lambda i: -(costs[i] if costs else 0.0))
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    pool = ProcessPoolExecutor(max_workers=min(processes, len(items)), mp_context=multiprocessing.get_context(method),
                               initializer=initializer or _quiet_worker, initargs=initargs)
    try:
        done = list(pool.map(function, [items[i] for i in order]))
    except BaseException:  # Ctrl-C or a failing item: drop the work not started yet
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    found: list[Any] = [None] * len(items)
    for position, result in zip(order, done):
        found[position] = result
    return found


def _quiet_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
