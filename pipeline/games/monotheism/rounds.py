"""Running many resumable searches on one or more processes, in rounds, with the same results either way.

A *job* asks one question of one position (can it be won?) and is answered
by one or more *searches* (a depth-first prover and a beam finder). The
searches of every job are advanced in rounds: each active search gets a slice
of nodes, search ``i`` always on process ``i % processes``. Only at the end of a
round does anything cross from one search to another: the positions proved lost
(each search's outbox, taken in search order and handed to every search of the
same group), and the judgement of each job. Every search therefore sees the same
things after the same number of nodes whatever the number of processes and
however they were scheduled, and so the answers, the lines and the node counts
are the same on one core or two. Only the seconds differ.

Processes are forked (the searches are built in the parent and copied), so
nothing but plain numbers and action names ever crosses a pipe. This is
CPU-bound Python, so processes, not threads, use a second core.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import traceback
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from pipeline.games.monotheism.search import LIMIT, NO_WIN, WIN
from pipeline.games.monotheism.table import PositionTable

QUANTUM = 5_000  # nodes a search runs between two exchanges


@dataclass(frozen=True)
class Spec:
    """How to build one search (in whichever process runs it) and which job and group it belongs to."""

    build: Callable[[Optional[PositionTable]], Any]  # given the group's shared table, the search
    job: int
    group: int = 0


@dataclass(frozen=True)
class Verdict:
    """A job's answer: WIN (with the line), NO_WIN (proved), LIMIT (its node budget ran out)."""

    status: str
    line: tuple[str, ...]
    nodes: int


class _Runner:
    """The searches one process hosts, and the group tables they share."""

    def __init__(self, specs: Sequence[Spec], shared_slots: int) -> None:
        self.specs = specs
        self.shared_slots = shared_slots
        self.searches: dict[int, Any] = {}
        self.tables: dict[int, PositionTable] = {}

    def table(self, group: int) -> PositionTable:
        if group not in self.tables:
            self.tables[group] = PositionTable(self.shared_slots)
        return self.tables[group]

    def advance(self, slices: Sequence[tuple[int, int]]) -> list[tuple[int, Optional[str], int, tuple, list]]:
        """Run each (search, nodes) slice; report (search, status, nodes so far, line, new proofs)."""
        reports = []
        for index, budget in slices:
            search = self.searches.get(index)
            if search is None:
                spec = self.specs[index]
                search = self.searches[index] = spec.build(self.table(spec.group))
            if search.status is None:
                search.advance(budget)
            outbox, search.outbox = search.outbox, []
            reports.append((index, search.status, search.nodes, search.line, outbox))
        return reports

    def receive(self, proofs: Sequence[tuple[int, list]]) -> None:
        for group, prints in proofs:
            self.table(group).put_all(prints)

    def drop(self, indices: Sequence[int]) -> None:
        """Free the searches of answered jobs (their tables are most of the memory)."""
        for index in indices:
            self.searches.pop(index, None)


def _serve(connection: Any, runner: _Runner) -> None:
    """A worker process: advance the slices it is sent, take in proofs, until told to stop (or the parent
    is gone). Ctrl-C is the parent's to handle: it stops the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        while True:
            try:
                command, payload = connection.recv()
            except (EOFError, OSError):
                break
            if command == "advance":
                connection.send(("ok", runner.advance(payload)))
            elif command == "proofs":
                runner.receive(payload)
            elif command == "drop":
                runner.drop(payload)
            else:
                break
    except Exception:  # reported to the parent, which raises it
        connection.send(("error", traceback.format_exc()))
    finally:
        connection.close()


class _Pool:
    """``processes`` forked workers (or the calling process alone when 1)."""

    def __init__(self, specs: Sequence[Spec], processes: int, shared_slots: int) -> None:
        self.local = _Runner(specs, shared_slots)
        self.processes = max(1, processes)
        self.connections: list[Any] = []
        self.workers: list[Any] = []
        if self.processes > 1:
            context = multiprocessing.get_context("fork")
            for _ in range(self.processes):
                parent, child = context.Pipe()
                worker = context.Process(target=_serve, args=(child, self.local), daemon=True)
                worker.start()
                child.close()
                self.connections.append(parent)
                self.workers.append(worker)

    def advance(self, slices: list[tuple[int, int]]) -> list:
        if not self.connections:
            return self.local.advance(slices)
        shares = [[s for s in slices if s[0] % self.processes == k] for k in range(self.processes)]
        for connection, share in zip(self.connections, shares):
            connection.send(("advance", share))
        reports = []
        for connection in self.connections:
            kind, payload = connection.recv()
            if kind == "error":
                raise RuntimeError(f"a search process failed:\n{payload}")
            reports.extend(payload)
        return sorted(reports, key=lambda report: report[0])

    def tell(self, command: str, payload: list) -> None:
        """Every process takes in ``payload``: "proofs" (for the group tables) or "drop" (answered searches)."""
        if not payload:
            return
        if not self.connections:
            (self.local.receive if command == "proofs" else self.local.drop)(payload)
        for connection in self.connections:
            connection.send((command, payload))

    def close(self) -> None:
        for connection in self.connections:
            try:
                connection.send(("stop", None))
            except OSError:
                pass
            connection.close()
        for worker in self.workers:
            worker.join(timeout=5)
            if worker.is_alive():
                worker.terminate()
                worker.join()


def default_processes() -> int:
    """Both cores where there are two (more do not pay on a machine shared with others)."""
    return min(2, os.cpu_count() or 1)


def run_jobs(specs: Sequence[Spec], budgets: Sequence[int], *, processes: int = 1, shared_slots: int = 1 << 16,
             quantum: int = QUANTUM) -> list[Verdict]:
    """Answer every job: ``budgets[j]`` nodes at most for job ``j``, over all its searches.

    A job is answered WIN as soon as a round ends with one of its searches winning
    (the line of the first such search in spec order), NO_WIN when one proves it,
    LIMIT when its budget is spent."""
    jobs = len(budgets)
    members: list[list[int]] = [[] for _ in range(jobs)]
    for index, spec in enumerate(specs):
        members[spec.job].append(index)
    nodes = [0] * len(specs)
    statuses: list[Optional[str]] = [None] * len(specs)
    lines: list[tuple] = [()] * len(specs)
    verdicts: list[Optional[Verdict]] = [None] * jobs
    pool = _Pool(specs, processes, shared_slots)
    try:
        while True:
            slices = []
            for job in range(jobs):
                if verdicts[job] is not None:
                    continue
                running = [i for i in members[job] if statuses[i] is None]
                left = budgets[job] - sum(nodes[i] for i in members[job])
                share = max(1, min(quantum, -(-left // max(1, len(running)))))
                slices += [(i, share) for i in running]
            if not slices:
                break
            proofs: dict[int, list] = {}
            for index, status, count, line, outbox in pool.advance(slices):
                nodes[index], lines[index], statuses[index] = count, line, status
                if outbox:
                    proofs.setdefault(specs[index].group, []).extend(outbox)
            pool.tell("proofs", sorted(proofs.items()))
            answered: list[int] = []
            for job in range(jobs):
                if verdicts[job] is None:
                    verdicts[job] = _judge(members[job], statuses, lines, nodes, budgets[job])
                    if verdicts[job] is not None:
                        answered += members[job]
            pool.tell("drop", answered)
    finally:
        pool.close()
    return [verdict or Verdict(LIMIT, (), sum(nodes[i] for i in members[job]))
            for job, verdict in enumerate(verdicts)]


def _judge(member: list[int], statuses: list, lines: list, nodes: list, budget: int) -> Optional[Verdict]:
    used = sum(nodes[i] for i in member)
    for i in member:
        if statuses[i] == WIN:
            return Verdict(WIN, tuple(lines[i]), used)
    if any(statuses[i] == NO_WIN for i in member):
        return Verdict(NO_WIN, (), used)
    if used >= budget or all(statuses[i] is not None for i in member):
        return Verdict(LIMIT, (), used)
    return None
