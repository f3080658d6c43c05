"""Decide Monotheism positions: a winning line, a proof that there is none, or the node limit.

Every answer is ``win`` (with a line that ``verify`` replays to a win), ``no-win``
(the whole game tree from the position was closed without a win) or ``limit``.
Limits are counted in nodes, never seconds, so an answer is the same on every
machine; the seconds are reported beside it.

A question is answered by a depth-first prover and a beam finder run side
by side (``search.py``), on one process or two (``rounds.py``): the answer, the
line and the node count do not depend on the number of processes.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Callable, Optional, Sequence, Union

from pipeline.games.monotheism.engine import Game, State
from pipeline.games.monotheism.positions import Features, Move, Space, result
from pipeline.games.monotheism.rounds import Spec, run_jobs
from pipeline.games.monotheism.search import LIMIT, NO_WIN, WIN, Beam, BeamSetting, DepthFirst, Techniques
from pipeline.games.monotheism.table import PositionTable, slots_for

__all__ = ["WIN", "NO_WIN", "LIMIT", "Techniques", "Features", "SolveResult", "Shortest", "FirstMoves", "solve",
           "first_moves", "first_turns", "after_turn", "shortest_line", "verify", "simplify", "space_for"]

DEFAULT_MAX_NODES = 2_000_000


@dataclass(frozen=True)
class SolveResult:
    """What a search found: a winning line, a proof that none exists, or a limit hit."""

    status: str
    line: tuple[str, ...]
    nodes: int
    seconds: float


@dataclass(frozen=True)
class Shortest(SolveResult):
    """A breadth-first answer: a line with the fewest turns, or (``limit``, ``no-win``) none found.

    ``no_win_within``: every line of this many whole turns or fewer was tried and none wins (for a win,
    one turn fewer than the line's; at a limit, the turns searched to the end before it)."""

    no_win_within: int = 0


@dataclass(frozen=True)
class FirstMoves:
    """Every first move (whole first turn) of a position, judged: can the game still be won after it?"""

    winning: tuple[str, ...]
    losing: tuple[str, ...]
    undecided: tuple[str, ...] = ()  # moves whose judgement hit the node limit
    nodes: int = 0

    @property
    def total(self) -> int:
        return len(self.winning) + len(self.losing) + len(self.undecided)

    @property
    def losing_share(self) -> float:
        return len(self.losing) / self.total if self.total else 0.0


def space_for(game: Game, features: Features = Features()) -> Space:
    """One :class:`Space` per game and features (it remembers card codes between searches)."""
    return _space(game, features)


@lru_cache(maxsize=8)
def _space(game: Game, features: Features) -> Space:
    return Space(game, features)


def _specs(space: Space, position: State, *, job: int, max_nodes: int, techniques: Techniques,
           forbidden: frozenset[bytes], table_slots: Optional[int] = None) -> list[Spec]:
    slots = table_slots or slots_for(max_nodes)

    def prover(shared):
        return DepthFirst(space, position, max_nodes=max_nodes, techniques=techniques, forbidden=forbidden,
                          shared=shared, table_slots=slots)

    def finder(setting: BeamSetting) -> Callable[[Optional[PositionTable]], Beam]:
        chosen = replace(techniques, curse_worth=setting.curse_worth, guard_worth=setting.guard_worth,
                         beam_diversity=setting.diversity, beam_noise=setting.noise, beam_salt=setting.salt)
        return lambda shared: Beam(space, position, max_nodes=max_nodes, techniques=chosen, forbidden=forbidden,
                                   shared=shared, table_slots=slots, first_width=techniques.beam_first_width)

    if not (techniques.prover or techniques.beam):
        raise ValueError("techniques turn off both the prover and the beams: nothing would search")
    settings = techniques.beams or (BeamSetting(techniques.curse_worth, techniques.guard_worth,
                                                techniques.beam_diversity, techniques.beam_noise,
                                                techniques.beam_salt),)
    finders = [Spec(finder(setting), job) for setting in settings]
    return ([Spec(prover, job)] if techniques.prover else []) + (finders if techniques.beam else [])


def solve(state: State, *, max_nodes: int = DEFAULT_MAX_NODES, processes: int = 1,
          techniques: Techniques = Techniques(), features: Features = Features(),
          forbidden: Sequence[State] = (), table_slots: Optional[int] = None) -> SolveResult:
    """Decide ``state``. Positions in ``forbidden`` count as already seen (returning to one is a stalemate).
    ``table_slots`` overrides the size of each search's table (a power of two; default from ``max_nodes``)."""
    started = time.perf_counter()
    space = space_for(state.game, features)
    keys = frozenset(space.key(position) for position in forbidden)
    specs = _specs(space, state, job=0, max_nodes=max_nodes, techniques=techniques, forbidden=keys,
                   table_slots=table_slots)
    verdict, = run_jobs(specs, [max_nodes], processes=processes, shared_slots=slots_for(max_nodes))
    line = simplify(state, verdict.line) if verdict.status == WIN else ()
    return SolveResult(verdict.status, line, verdict.nodes, round(time.perf_counter() - started, 4))


def first_turns(state: State) -> list[tuple[Move, Union[bool, State]]]:
    """Every way to play one whole turn from ``state``: (its actions, what follows: won/lost or a position)."""
    space = space_for(state.game)
    found: list[tuple[Move, Union[bool, State]]] = []
    for move, child in space.turns(state):
        if isinstance(child, bool):
            found.append((move, child))
            continue
        position = space.resolve(child, zero_ok=state.zero_ok)
        outcome = result(position)
        found.append((move, position if outcome is None else outcome))
    return found


def first_moves(state: State, *, max_nodes: int = DEFAULT_MAX_NODES, processes: int = 1,
                techniques: Techniques = Techniques(), features: Features = Features()) -> FirstMoves:
    """Judge every first move: ``max_nodes`` for each; a move that comes back to ``state`` loses (stalemate)."""
    space = space_for(state.game, features)
    start = space.key(state)
    forbidden = frozenset({start})
    judged: dict[str, str] = {}
    job_of: dict[bytes, int] = {}
    waiting: list[tuple[str, int]] = []
    specs: list[Spec] = []
    turns = first_turns(state)
    for move, child in turns:
        name = ", ".join(move)
        if isinstance(child, bool):
            judged[name] = WIN if child else NO_WIN
            continue
        key = space.key(child)
        if key == start:
            judged[name] = NO_WIN
            continue
        if key not in job_of:
            job_of[key] = len(job_of)
            specs += _specs(space, child, job=job_of[key], max_nodes=max_nodes, techniques=techniques,
                            forbidden=forbidden)
        waiting.append((name, job_of[key]))
    verdicts = run_jobs(specs, [max_nodes] * len(job_of), processes=processes,
                        shared_slots=slots_for(max_nodes * max(1, len(job_of)))) if job_of else []
    for name, job in waiting:
        judged[name] = verdicts[job].status
    order = [", ".join(move) for move, _ in turns]
    return FirstMoves(
        winning=tuple(name for name in order if judged[name] == WIN),
        losing=tuple(name for name in order if judged[name] == NO_WIN),
        undecided=tuple(name for name in order if judged[name] == LIMIT),
        nodes=sum(verdict.nodes for verdict in verdicts),
    )


def after_turn(state: State, turn: Sequence[str], *, max_nodes: int = DEFAULT_MAX_NODES, processes: int = 1,
               techniques: Techniques = Techniques()) -> Optional[SolveResult]:
    """Can the game still be won after the whole first turn ``turn``? None when ``turn`` is not one."""
    started = time.perf_counter()
    for move, child in first_turns(state):
        if move != tuple(turn):
            continue
        if isinstance(child, bool):
            return SolveResult(WIN if child else NO_WIN, (), 1, 0.0)
        found = solve(child, max_nodes=max_nodes, processes=processes, techniques=techniques, forbidden=(state,))
        return replace(found, seconds=round(time.perf_counter() - started, 4))
    return None


def shortest_line(state: State, *, max_nodes: int = DEFAULT_MAX_NODES) -> Shortest:
    """Breadth-first over whole turns: a winning line with the fewest turns (``limit`` past ``max_nodes``,
    which is checked between turns, so the turns searched are always searched to the end).

    A position already met in fewer turns is not entered again (a shortest line never repeats one), nor
    is a dead one (``Space.dead``: it can never be won); so the turns searched hold no win at all."""
    started = time.perf_counter()
    space = space_for(state.game)
    outcome = result(state)
    if outcome is not None:
        return Shortest(WIN if outcome else NO_WIN, (), 1, 0.0)
    seen = {space.key(state)}
    frontier: list[tuple[State, Move]] = [(state, ())]
    nodes, turns = 1, 0
    while frontier and nodes < max_nodes:
        following: list[tuple[State, Move]] = []
        for position, line in frontier:
            for move, child in space.moves(position):
                nodes += 1
                if child is False:
                    continue
                if child is True:
                    return _shortest_win(state, line + move, nodes, turns, started)
                start_key = space.child_key(child)
                if start_key in seen or space.dead(space.deck_of(child)):
                    continue
                seen.add(start_key)
                reached = space.resolve(child, zero_ok=state.zero_ok)
                outcome = result(reached)
                if outcome:
                    return _shortest_win(state, line + move, nodes, turns, started)
                reached_key = space.key(reached)
                if outcome is False or reached_key in seen:
                    continue
                seen.add(reached_key)
                following.append((reached, line + move))
        frontier = following
        turns += 1
    status = LIMIT if frontier else NO_WIN
    return Shortest(status, (), nodes, round(time.perf_counter() - started, 4), turns)


def _shortest_win(state: State, line: Move, nodes: int, turns: int, started: float) -> Shortest:
    return Shortest(WIN, simplify(state, line), nodes, round(time.perf_counter() - started, 4), turns)


def simplify(state: State, line: Sequence[str]) -> tuple[str, ...]:
    """``line`` without the detours that return to a position already passed (a stalemate in play)."""
    line = list(line)
    state = replace(state, seen=None)  # the replay itself must not end in a stalemate
    while True:
        seen: dict[tuple, int] = {state.key(): 0}
        current = state
        for number, action in enumerate(line, 1):
            current = current.apply_action(action)
            if current.is_terminal():
                return tuple(line)
            key = current.key()
            if key in seen:
                del line[seen[key]:number]
                break
            seen[key] = number
        else:
            return tuple(line)


def verify(state: State, line: Sequence[str]) -> tuple[Optional[bool], str]:
    """Replay ``line`` from ``state``: (True, reason) for a win, (False, reason) for a loss or
    an illegal action, (None, "") when the line stops before the game ends."""
    for number, action in enumerate(line, 1):
        if state.is_terminal():
            return False, f"the game ended before move {number} ({action})"
        why = state.why_illegal(action)
        if why is not None:
            return False, f"move {number} ({action}) is not legal here: {why}"
        state = state.apply_action(action)
    found = result(state)
    if found is None:
        return None, ""
    outcome = state.outcome()
    return found, outcome.detail if outcome is not None else ""
