"""How hard a Monotheism puzzle is, measured by the solver rather than guessed.

The figures of a scenario (all node counts, so the same on every machine):

* **first moves**: how many different whole first turns there are, how many of
  them still win, how many lose (proved), and the losing share. A puzzle has a
  *single idea* when at most ``SINGLE_IDEA`` first moves win.
* **solution**: the fewest turns that win (breadth-first over whole turns).
  When the breadth-first search hits its limit first, the solution is the
  shortest winning line at hand (the solver's, or the scenario's stored one)
  and ``no_win_within`` says how many turns were searched to the end without
  a win: the fewest turns lie between the two.
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

A band is given only when the figures prove it: with the fewest turns known
only between ``no_win_within + 1`` and the solution's turns, both ends must
fall in the same band (a puzzle whose first moves alone rule out *easy* and
*hard* is *medium* however long its shortest line). A deck that cannot be
won, or whose first moves hit a node limit, has no band.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from pipeline.games.monotheism.engine import State
from pipeline.games.monotheism.model import RATING_FIELDS
from pipeline.games.monotheism.positions import ends_turn
from pipeline.games.monotheism.solver import (
    WIN,
    SolveResult,
    first_moves,
    shortest_line,
    solve,
    space_for,
    verify,
)

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
    solution_turns: Optional[int]  # turns of the shortest winning line at hand (None: no winning line)
    branching: tuple[int, ...]     # choices at each turn of that solution
    solution: tuple[str, ...]      # the shortest winning line found
    losing_example: tuple[str, ...]  # one losing first move (its actions), if any
    losing_moves: tuple[str, ...] = ()  # every first move proved lost ("pick 14, submerge 2, place 2")
    no_win_within: int = 0         # every line of this many turns or fewer was searched: none wins

    @property
    def losing_share(self) -> float:
        return self.losing_first_moves / self.first_moves if self.first_moves else 0.0

    @property
    def mean_branching(self) -> float:
        return round(sum(self.branching) / len(self.branching), BRANCHING_DIGITS) if self.branching else 0.0


    @property
    def shortest_proved(self) -> bool:
        """The solution has the fewest turns that win (no shorter line exists)."""
        return self.solution_turns is not None and self.no_win_within + 1 == self.solution_turns

    @property
    def band(self) -> Optional[str]:
        """The difficulty band the figures prove (None: not winnable, a first move undecided, or the
        fewest turns not known closely enough to tell)."""
        if self.status != WIN or self.undecided_first_moves or self.solution_turns is None:
            return None
        return band(self.winning_first_moves, self.first_moves, self.solution_turns, self.mean_branching,
                    at_least=self.no_win_within + 1)

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
            "no_win_within": self.no_win_within,
            "branching": self.mean_branching,
            "most_choices": max(self.branching, default=0),
        }


# The figures are measured, not printed in the rulebook: a rating says so even inside a rulebook scenario.
RATING_PROVENANCE = {"source": "inferred", "reasoning": "measured by the solver (pantheon monotheism rate)"}


def stored(rating: Rating) -> dict:
    """The figures a scenario record keeps (``rating`` in scenarios.yaml): a stored rating is complete."""
    figures = {key: value for key, value in rating.figures().items() if key in RATING_FIELDS}
    return {**figures, "provenance": dict(RATING_PROVENANCE)}


def band(winning_first_moves: int, first_moves: int, solution_turns: int, mean_branching: float, *,
         at_least: Optional[int] = None) -> Optional[str]:
    """The difficulty band of a winnable puzzle's figures (the rules are in the module docstring).

    The fewest turns that win are at least ``at_least`` (default: exactly ``solution_turns``) and at most
    ``solution_turns``; None when the band differs between the two ends."""
    ends = {_band(winning_first_moves, first_moves, turns, mean_branching)
            for turns in (solution_turns if at_least is None else at_least, solution_turns)}
    return ends.pop() if len(ends) == 1 else None


def _band(winning_first_moves: int, first_moves: int, fewest_turns: int, mean_branching: float) -> str:
    if winning_first_moves >= EASY_SHARE * first_moves or fewest_turns <= EASY_TURNS:
        return EASY
    if winning_first_moves <= SINGLE_IDEA and fewest_turns >= HARD_TURNS and mean_branching >= HARD_BRANCHING:
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
         decided: Optional[SolveResult] = None, known: Sequence[str] = ()) -> Rating:
    """Measure ``state`` (the start of a puzzle). Each question gets ``max_nodes`` nodes; ``decided``
    is the solver's answer from ``state`` when the caller already has it (with the same limit); ``known``
    a winning line already at hand (a scenario's stored one), used when the breadth-first search cannot
    reach the shortest and ``known`` is shorter than the solver's line."""
    decided = decided or solve(state, max_nodes=max_nodes, processes=processes)
    moves = first_moves(state, max_nodes=max_nodes, processes=processes)
    shortest = shortest_line(state, max_nodes=max_nodes) if decided.status == WIN else None
    no_win_within = shortest.no_win_within if shortest is not None else 0
    solution: tuple[str, ...] = ()
    if shortest is not None and shortest.status == WIN:
        solution = shortest.line
    elif decided.status == WIN:
        at_hand = [line for line in (decided.line, tuple(known)) if line and verify(state, line)[0]]
        solution = min(at_hand, key=lambda line: (len(turns_of(state, line)), at_hand.index(line)))
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
        no_win_within=no_win_within,
    )
