"""Full games of Monotheism decided by the puzzle solver: dealt as the rulebook sets them up, won or lost.

A *deal* is the rulebook's set-up: the 29 gods shuffled and veiled, a
worshiper set at the bottom (:func:`decks.full_deal`; deal ``k`` is the same
deck everywhere). The solver sees the whole deck, veiled gods included, so a
deal it wins is *winnable*: a player who knew the shuffle could win it. That
is the rulebook's claim ("the vast majority of games can be won"); what a
player who sees only unveiled gods wins is a different, lower figure.

Each deal gets one answer within a node budget: ``win`` (with a line that
replays to a win on a fresh deck), ``no-win`` (the solver closed every
reachable position: proved lost) or ``limit`` (undecided). A study runs deals
``seed .. seed + count - 1`` for each worshiper set asked; with gods
*removed*, each deal is the shipped deal with those gods taken out (the other
cards keep their order), so a removal is compared deal by deal.

Deals are independent and each is solved on one process, so any number of
worker processes gives the same verdicts, lines and node counts.
"""
from __future__ import annotations

import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Optional, Sequence

from pipeline.analysis.balance.stats import Rate
from pipeline.games.monotheism import claims, decks, solver
from pipeline.games.monotheism.cards import Cards
from pipeline.games.monotheism.engine import Game
from pipeline.games.monotheism.model import MonotheismModel, WorshiperSet
from pipeline.games.monotheism.search import FULL_GAME, LIMIT, NO_WIN, WIN

__all__ = ["WIN", "NO_WIN", "LIMIT", "Question", "Verdict", "Batch", "DIFFICULT_GODS", "worshiper_set", "without",
           "game_without", "decide", "run", "easier_claims"]

# Advice: "unveiling more cards that will make your worshiper's task difficult, like cards #7, #9, #13, & #22".
DIFFICULT_GODS = ("07", "09", "13", "22")
# Per deal: four noisy beams (search.FULL_GAME) of 300,000 nodes each, which reach a beam 1,024 to 4,096
# wide; most deals are won within 400,000 nodes. docs/engines-and-puzzles.md has the figures.
DEFAULT_MAX_NODES = 1_200_000
DEFAULT_COUNT = 20


@dataclass(frozen=True)
class Question:
    """One batch of deals: a worshiper set, the gods taken out, the seeds and the node budget."""

    set_id: str
    worshipers: tuple[str, ...]
    removed: tuple[str, ...]
    seeds: tuple[int, ...]
    max_nodes: int


@dataclass(frozen=True)
class Verdict:
    """The solver's answer for one deal."""

    seed: int
    status: str
    nodes: int
    seconds: float
    line: tuple[str, ...] = ()
    cpu_seconds: float = 0.0  # the CPU time of the process that decided it (wall seconds vary with the load)

    def as_data(self) -> dict[str, Any]:
        return {"seed": self.seed, "status": self.status, "nodes": self.nodes, "seconds": self.seconds,
                "cpu_seconds": self.cpu_seconds, "line": list(self.line)}


@dataclass(frozen=True)
class Batch:
    """A question's verdicts, deal by deal in seed order, and what they add up to."""

    question: Question
    verdicts: tuple[Verdict, ...] = field(default=())

    def count(self, status: str) -> int:
        return sum(verdict.status == status for verdict in self.verdicts)

    @property
    def won(self) -> int:
        return self.count(WIN)

    @property
    def lost(self) -> int:
        return self.count(NO_WIN)

    @property
    def undecided(self) -> int:
        return self.count(LIMIT)

    @property
    def share(self) -> Rate:
        """Deals won among the deals decided (won or proved lost), with its Wilson interval."""
        return Rate(self.won, self.won + self.lost)

    @property
    def winnable(self) -> claims.Bounds:
        """The share of all deals that can be won: at least those won, at most those won or undecided."""
        return claims.Bounds.of(self.won, self.undecided, len(self.verdicts))

    @property
    def found(self) -> claims.Found:
        """Each deal won or not (a win not found within the budget), by seed: what "easier" is judged from."""
        return claims.Found.of([v.seed for v in self.verdicts], [v.status == WIN for v in self.verdicts])

    @property
    def bounds(self) -> tuple[float, float]:
        """The share of all deals won if every undecided deal were lost, and if every one were won."""
        total = len(self.verdicts)
        return (self.won / total, (self.won + self.undecided) / total) if total else (0.0, 1.0)

    def as_data(self) -> dict[str, Any]:
        low, high = self.bounds
        return {"set": self.question.set_id, "removed": list(self.question.removed),
                "max_nodes": self.question.max_nodes, "deals": len(self.verdicts), "won": self.won,
                "lost": self.lost, "undecided": self.undecided, "win_share": self.share.as_data(),
                "won_of_all_deals": self.winnable.at_least.as_data(),
                "won_or_undecided_of_all_deals": self.winnable.at_most.as_data(),
                "win_share_all_deals": {"if_undecided_lost": low, "if_undecided_won": high},
                "nodes": sum(v.nodes for v in self.verdicts), "seconds": round(sum(v.seconds for v in self.verdicts), 3),
                "verdicts": [v.as_data() for v in self.verdicts]}


def easier_claims(batches: Sequence[Batch], easiest: str) -> list[claims.Easier]:
    """"Significantly easier" judged among ``batches`` (:func:`claims.easier`): the set ``easiest`` (the
    Haruspex) against every other set dealt with the same gods taken out (none when it was not dealt)."""
    for removed in dict.fromkeys(b.question.removed for b in batches):
        same = {b.question.set_id: b.found for b in batches if b.question.removed == removed}
        if easiest in same and len(same) > 1:
            return claims.easier(same[easiest], [(set_id, found) for set_id, found in same.items()
                                                 if set_id != easiest])
    return []


def worshiper_set(model: MonotheismModel, name: str) -> Optional[WorshiperSet]:
    """The set named by its id, or by the id of one of its worshipers ("haruspex"), or by an id prefix."""
    for chosen in model.worshiper_sets:
        if name == chosen.id or name in (w.id for w in chosen.worshipers):
            return chosen
    matches = [chosen for chosen in model.worshiper_sets if chosen.id.startswith(name)]
    return matches[0] if len(matches) == 1 else None


def without(cards: Cards, removed: Sequence[str]) -> Cards:
    """The cards with the gods in ``removed`` taken out."""
    return Cards({god: deity for god, deity in cards.deities.items() if god not in removed}, dict(cards.worshipers))


def decide(game: Game, question: Question, seed: int) -> Verdict:
    """Deal ``seed`` of ``question`` (``game``: the shipped cards; removed gods are taken out of its deal),
    decided by the solver within the budget with its full-game techniques; a won line is replayed on a
    fresh deck (a line that does not win is a bug, raised as one)."""
    started, started_cpu = time.perf_counter(), time.process_time()
    dealt = decks.full_deal(game.cards, question.worshipers, seed)
    deck = tuple(card for card in dealt if not (card.is_deity and card.ref in question.removed))
    played = game_without(game, question.removed)
    found = solver.solve(played.state_for(deck, track_history=False).with_events(False),
                         max_nodes=question.max_nodes, processes=1, techniques=FULL_GAME)
    if found.status == WIN:
        won, why = solver.verify(played.state_for(deck), found.line)
        if not won:
            raise RuntimeError(f"deal {seed}: the solver's line does not win ({why or 'it stops mid-game'})")
    return Verdict(seed, found.status, found.nodes, round(time.perf_counter() - started, 3), found.line,
                   round(time.process_time() - started_cpu, 3))


def game_without(game: Game, removed: Sequence[str]) -> Game:
    """The engine for ``game``'s cards without the gods in ``removed`` (``game`` itself when none is)."""
    return game if not removed else Game(without(game.cards, removed))


# A worker process's game, set once by the pool's initializer (the pool forks, so it is inherited, not pickled).
_WORKER_GAME: Optional[Game] = None


def _start_worker(game: Game) -> None:
    global _WORKER_GAME
    _WORKER_GAME = game


def _decide_in_worker(job: tuple[Question, int]) -> Verdict:
    assert _WORKER_GAME is not None, "the pool is forked after the game is set"
    question, seed = job
    return decide(_WORKER_GAME, question, seed)


def run(game: Game, questions: Sequence[Question], *, processes: int = 1,
        on_verdict: Callable[[Question, Verdict], None] = lambda question, verdict: None) -> list[Batch]:
    """Decide every deal of every question, ``processes`` deals at a time; ``on_verdict`` hears each answer
    as it comes (in job order). The batches are the same whatever ``processes``."""
    jobs = [(question, seed) for question in questions for seed in question.seeds]
    found: dict[int, list[Verdict]] = {id(question): [] for question in questions}
    for (question, _), verdict in zip(jobs, _answers(game, jobs, processes)):
        found[id(question)].append(verdict)
        on_verdict(question, verdict)
    return [Batch(question, tuple(found[id(question)])) for question in questions]


def _answers(game: Game, jobs: list[tuple[Question, int]], processes: int) -> Iterator[Verdict]:
    if processes <= 1 or len(jobs) <= 1:
        yield from (decide(game, question, seed) for question, seed in jobs)
        return
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=min(processes, len(jobs)), mp_context=context, initializer=_start_worker,
                             initargs=(game,)) as pool:
        yield from pool.map(_decide_in_worker, jobs)  # in job order, whichever worker finishes first
