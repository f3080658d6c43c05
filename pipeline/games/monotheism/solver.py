"""Find a winning line for a Monotheism position, or prove there is none.

Depth-first search over the engine's actions with a transposition table. For a
one-player game, a position that is winnable can be won without ever repeating
a position, so one global "seen" set is both the transposition table and the
cycle detection (a repeated position is a stalemate, ruling 9): the search is
complete. A position with a single legal action is followed without branching.
Children are tried best-first (wins, then fewer gods, then fewer curses).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Optional, Sequence

from pipeline.games.monotheism.engine import STAGE, State

WIN, NO_WIN, LIMIT = "win", "no-win", "limit"
DEFAULT_MAX_NODES = 2_000_000
DEFAULT_MAX_SECONDS = 60.0
PROBE_NODES = 4_000  # first_moves(stop_at_loss=True): the quick first look at every option


@dataclass(frozen=True)
class SolveResult:
    """What a search found: a winning line, a proof that none exists, or a limit hit."""

    status: str
    line: tuple[str, ...]
    nodes: int
    seconds: float


@dataclass(frozen=True)
class FirstMoves:
    """The first real decision of a position, and which of its options still win."""

    prefix: tuple[str, ...]          # forced actions played before the decision
    winning: tuple[str, ...]
    losing: tuple[str, ...]
    undecided: tuple[str, ...] = ()  # options whose search hit a limit

    @property
    def losing_share(self) -> float:
        total = len(self.winning) + len(self.losing) + len(self.undecided)
        return len(self.losing) / total if total else 0.0


def _order(child: State) -> tuple:
    outcome = child.outcome()
    if outcome is not None:
        return (0 if outcome.winners else 2, 0, 0)
    curses = sum(card[STAGE] for card in child.deck if not child.game.is_god(card[0]))
    return (1, child.gods(), curses)


@dataclass
class _Search:
    max_nodes: int
    max_seconds: float
    seen: set = field(default_factory=set)
    nodes: int = 0
    started: float = field(default_factory=time.perf_counter)

    def children(self, state: State) -> list[tuple[str, State]]:
        found = []
        for action in state.legal_actions():
            found.append((action, state.apply_action(action)))
            self.nodes += 1
        found.sort(key=lambda pair: _order(pair[1]))
        return found

    def out_of_budget(self) -> bool:
        return self.nodes >= self.max_nodes or time.perf_counter() - self.started >= self.max_seconds

    def run(self, root: State) -> tuple[str, tuple[str, ...]]:
        """Iterative depth-first search; returns (status, line)."""
        if root.is_terminal():
            outcome = root.outcome()
            return (WIN if outcome and outcome.winners else NO_WIN), ()
        self.seen.add(root.key())
        path: list[str] = []
        stack = [iter(self.children(root))]
        while stack:
            if self.out_of_budget():
                return LIMIT, ()
            step = next(stack[-1], None)
            if step is None:
                stack.pop()
                if path:
                    path.pop()
                continue
            action, child = step
            outcome = child.outcome()
            if outcome is not None:
                if outcome.winners:
                    return WIN, tuple(path + [action])
                continue
            key = child.key()
            if key in self.seen:
                continue
            self.seen.add(key)
            path.append(action)
            stack.append(iter(self.children(child)))
        return NO_WIN, ()


def solve(state: State, *, max_nodes: int = DEFAULT_MAX_NODES, max_seconds: float = DEFAULT_MAX_SECONDS,
          forbidden: Sequence[tuple] = ()) -> SolveResult:
    """Search for a winning line from ``state``. Positions in ``forbidden`` count as already seen."""
    search = _Search(max_nodes, max_seconds)
    search.seen.update(forbidden)
    status, line = search.run(state)
    return SolveResult(status, line, search.nodes, round(time.perf_counter() - search.started, 4))


def shortest_line(state: State, *, max_nodes: int = DEFAULT_MAX_NODES) -> SolveResult:
    """Breadth-first: a winning line with the fewest actions (slower than ``solve``; for stored lines)."""
    started = time.perf_counter()
    parents: dict[tuple, Optional[tuple[tuple, str]]] = {state.key(): None}
    frontier = [state]
    nodes = 0
    while frontier and nodes < max_nodes:
        following = []
        for current in frontier:
            for action in current.legal_actions():
                child = current.apply_action(action)
                nodes += 1
                outcome = child.outcome()
                if outcome is not None and outcome.winners:
                    line = [action]
                    key = current.key()
                    while parents[key] is not None:
                        key, step = parents[key]  # type: ignore[misc]
                        line.append(step)
                    return SolveResult(WIN, tuple(reversed(line)), nodes, round(time.perf_counter() - started, 4))
                if outcome is None and child.key() not in parents:
                    parents[child.key()] = (current.key(), action)
                    following.append(child)
        frontier = following
    status = LIMIT if frontier else NO_WIN
    return SolveResult(status, (), nodes, round(time.perf_counter() - started, 4))


def first_turns(state: State) -> list[tuple[tuple[str, ...], State]]:
    """Every way to play the first turn: its act choices, then a submerge number and placement."""
    found: list[tuple[tuple[str, ...], State]] = []

    def extend(line: tuple[str, ...], current: State) -> None:
        for action in current.legal_actions():
            child = current.apply_action(action)
            done = action.startswith(("place", "submerge 1")) or child.is_terminal() or (
                action.startswith("submerge") and int(action.split()[1]) > len(current.deck))
            if done:
                found.append((line + (action,), child))
            else:
                extend(line + (action,), child)

    extend((), state)
    return found


def first_moves(state: State, *, max_nodes: int = DEFAULT_MAX_NODES,
                max_seconds: float = DEFAULT_MAX_SECONDS, stop_at_loss: bool = False) -> FirstMoves:
    """Judge every way to play the first turn (a "first move"): can the game still be won after it?

    With ``stop_at_loss`` the turns that look worst are judged first and the
    judging stops at the first proven loss (enough to call it a puzzle)."""
    turns = first_turns(state)
    winning: list[str] = []
    losing: list[str] = []
    undecided: list[str] = []
    budgets = (PROBE_NODES, max_nodes) if stop_at_loss else (max_nodes,)
    for budget in budgets:  # a cheap probe settles most wins; proofs of loss get the full budget
        undecided = []
        for line, child in turns:
            result = solve(child, max_nodes=budget, max_seconds=max_seconds, forbidden=(state.key(),))
            {WIN: winning, NO_WIN: losing, LIMIT: undecided}[result.status].append(", ".join(line))
            if stop_at_loss and losing:
                return FirstMoves((), tuple(winning), tuple(losing), ())
        turns = sorted((turn for turn in turns if ", ".join(turn[0]) in undecided),
                       key=lambda turn: _order(turn[1]), reverse=True)
    return FirstMoves((), tuple(winning), tuple(losing), tuple(undecided))


def verify(state: State, line: Sequence[str]) -> tuple[Optional[bool], str]:
    """Replay ``line`` from ``state``: (True, reason) for a win, (False, reason) for a loss or
    an illegal action, (None, "") when the line stops before the game ends."""
    for number, action in enumerate(line, 1):
        if state.is_terminal():
            return False, f"the game ended before move {number} ({action})"
        if action not in state.legal_actions():
            return False, f"move {number} ({action}) is not legal here (legal: {', '.join(state.legal_actions())})"
        state = state.apply_action(action)
    outcome = state.outcome()
    if outcome is None:
        return None, ""
    return bool(outcome.winners), outcome.detail
