"""How hard a Monotheism puzzle is, measured by the solver rather than guessed.

The figures of a scenario (all node counts, so the same on every machine):

* **first moves**: how many different whole first turns there are, how many of
  them still win, how many lose (proved), and the losing share. A puzzle has a
  *single idea* when at most ``SINGLE_IDEA`` first moves win.
* **solution**: the fewest turns that win (breadth-first over whole turns).
* **branching**: along that solution, how many different positions the player
  could have moved to at each turn (the choices faced), mean and largest.
* **nodes**: what the solver needed to decide the deck from the start.

Difficulty bands, from these figures (``band``):

* **easy**: at least a third of the first moves still win, or the shortest
  solution is at most ``EASY_TURNS`` turns: a player who tries things finds it.
* **hard**: a single idea (at most ``SINGLE_IDEA`` winning first moves) and a
  shortest solution of at least ``HARD_TURNS`` turns, with on average at least
  ``HARD_BRANCHING`` choices a turn along it: one plan, found only by looking
  several turns ahead through many alternatives.
* **medium**: every other winnable puzzle.

A deck that cannot be won, or whose figures hit a node limit, has no band.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from pipeline.games.monotheism.engine import State
from pipeline.games.monotheism.model import RATING_FIELDS
from pipeline.games.monotheism.positions import ends_turn
from pipeline.games.monotheism.solver import WIN, SolveResult, first_moves, shortest_line, solve, space_for

EASY, MEDIUM, HARD = "easy", "medium", "hard"
SINGLE_IDEA = 2          # at most this many winning first moves: one idea to find
EASY_SHARE = 1 / 3       # this share of first moves winning (or more) makes a puzzle easy
EASY_TURNS = 2           # a solution this short (or shorter) makes a puzzle easy
HARD_TURNS = 4           # a hard puzzle needs at least this many turns ...
HARD_BRANCHING = 6.0     # ... each with at least this many choices on average
RATE_NODES = 400_000     # node budget of each question a rating asks (per first move, per search)
BRANCHING_DIGITS = 1
SHARE_DIGITS = 3


@dataclass(frozen=True)
class Rating:
    """The measured figures of one position, and the band they put it in."""

    status: str                    # the solver's answer from the start: win, no-win or limit
    nodes: int                     # nodes the solver needed for it
    first_moves: int               # different whole first turns
    winning_first_moves: int
    losing_first_moves: int        # proved lost
    undecided_first_moves: int     # judgement hit the node limit
    solution_turns: Optional[int]  # fewest winning turns (None: no win found within the limit)
    branching: tuple[int, ...]     # choices at each turn of that solution
    solution: tuple[str, ...]      # the shortest winning line found
    losing_example: tuple[str, ...]  # one losing first move (its actions), if any
    losing_moves: tuple[str, ...] = ()  # every first move proved lost ("pick 14, submerge 2, place 2")

    @property
    def losing_share(self) -> float:
        return self.losing_first_moves / self.first_moves if self.first_moves else 0.0

    @property
    def mean_branching(self) -> float:
        return round(sum(self.branching) / len(self.branching), BRANCHING_DIGITS) if self.branching else 0.0


    @property
    def complete(self) -> bool:
        """Every figure was measured to the end (no node limit was hit)."""
        return self.status == WIN and not self.undecided_first_moves and self.solution_turns is not None

    @property
    def band(self) -> Optional[str]:
        if not self.complete:
            return None
        assert self.solution_turns is not None
        return band(self.winning_first_moves, self.first_moves, self.solution_turns, self.mean_branching)

    def figures(self) -> dict:
        """The figures as plain data (for --json and for a scenario's ``rating`` record)."""
        return {
            "difficulty": self.band,
            "nodes": self.nodes,
            "first_moves": self.first_moves,
            "winning_first_moves": self.winning_first_moves,
            "losing_first_moves": self.losing_first_moves,
            "undecided_first_moves": self.undecided_first_moves,
            "losing_share": round(self.losing_share, SHARE_DIGITS),
            "solution_turns": self.solution_turns,
            "branching": self.mean_branching,
            "most_choices": max(self.branching, default=0),
        }


# The figures are measured, not printed in the rulebook: a rating says so even inside a rulebook scenario.
RATING_PROVENANCE = {"source": "inferred", "reasoning": "measured by the solver (pantheon monotheism rate)"}


def stored(rating: Rating) -> dict:
    """The figures a scenario record keeps (``rating`` in scenarios.yaml): a stored rating is complete."""
    figures = {key: value for key, value in rating.figures().items() if key in RATING_FIELDS}
    return {**figures, "provenance": dict(RATING_PROVENANCE)}


def band(winning_first_moves: int, first_moves: int, solution_turns: int, mean_branching: float) -> str:
    """The difficulty band of a winnable puzzle's figures (the rules are in the module docstring)."""
    if winning_first_moves >= EASY_SHARE * first_moves or solution_turns <= EASY_TURNS:
        return EASY
    if winning_first_moves <= SINGLE_IDEA and solution_turns >= HARD_TURNS and mean_branching >= HARD_BRANCHING:
        return HARD
    return MEDIUM


def turns_of(state: State, line: Sequence[str]) -> list[tuple[State, tuple[str, ...]]]:
    """``line`` cut into whole turns: (the position the turn starts from, its actions)."""
    found: list[tuple[State, tuple[str, ...]]] = []
    start, current, actions = state, state, []
    for action in line:
        child = current.apply_action(action)
        actions.append(action)
        if ends_turn(action, child) or child.is_terminal():
            found.append((start, tuple(actions)))
            start, actions = child, []
        current = child
    if actions:
        found.append((start, tuple(actions)))
    return found


def choices(state: State) -> int:
    """How many different positions (or ends) the player can reach with one whole turn from ``state``."""
    space = space_for(state.game)
    reached = set()
    for _, child in space.turns(state):
        reached.add(child if isinstance(child, bool) else space.child_key(child))
    return len(reached)


def rate(state: State, *, max_nodes: int = RATE_NODES, processes: int = 1,
         decided: Optional[SolveResult] = None) -> Rating:
    """Measure ``state`` (the start of a puzzle). Each question gets ``max_nodes`` nodes; ``decided``
    is the solver's answer from ``state`` when the caller already has it (with the same limit)."""
    decided = decided or solve(state, max_nodes=max_nodes, processes=processes)
    moves = first_moves(state, max_nodes=max_nodes, processes=processes)
    shortest = shortest_line(state, max_nodes=max_nodes) if decided.status == WIN else None
    solution = shortest.line if shortest is not None and shortest.status == WIN else ()
    turns = turns_of(state, solution)
    return Rating(
        status=decided.status,
        nodes=decided.nodes,
        first_moves=moves.total,
        winning_first_moves=len(moves.winning),
        losing_first_moves=len(moves.losing),
        undecided_first_moves=len(moves.undecided),
        solution_turns=len(turns) if solution else None,
        branching=tuple(choices(start) for start, _ in turns),
        solution=solution,
        losing_example=tuple(moves.losing[0].split(", ")) if moves.losing else (),
        losing_moves=moves.losing,
    )
