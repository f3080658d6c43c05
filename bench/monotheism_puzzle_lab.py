"""Benchmark: the Monotheism puzzle lab (issue 17) — what the solver decides, how fast, and each technique alone.

Run with `make bench`, or one part: `.venv/bin/python bench/monotheism_puzzle_lab.py [PART ...]` with
PART one of scenario4, random, deals, speed, ablation, rating, parallel (default: all).

Node counts are the primary figures: they are the same on every machine and with any number of
processes. Seconds are printed beside them, wall-clock and CPU (this process and its workers);
on a shared machine wall-clock depends on the load, which is printed first.

* scenario4: scenario 4 with #08 and each other absent god added beneath it (the issue's "plus two
  gods"; #08 is the god whose one-god deck took the old solver 39k nodes).
* random: 10 random 13-card and 10 random 15-card decks (seeds 1..10, real cards, one worshiper, top
  veiled; decks.random_puzzle_deck), how many are decided in under 10 s.
* deals: `pantheon monotheism deals --worshiper haruspex --count 20 --seed 1` as the deals module runs it
  (full-game search, default node budget, 2 processes): how many of deals 1..20 are decided, and the
  wall-clock of the whole (issue 29's target: 18 of 20 in under 10 minutes).
* speed: nodes per second and bytes per node, the solver before this work (the branch point's
  solver, read from git) against now, on the same position.
* ablation: each technique turned off alone, on a fixed workload.
* rating: the figures of the rulebook's five scenarios and how long rating them takes.
* parallel: one process against two: same answers, lines and nodes; the wall-clock of each.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
import tracemalloc
import types
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.data.dataset import (
    default_data_root,  # noqa: E402
    load_game,
)
from pipeline.games.monotheism import deals as full_deals  # noqa: E402
from pipeline.games.monotheism import decks, rating, solver  # noqa: E402
from pipeline.games.monotheism.cards import Cards  # noqa: E402
from pipeline.games.monotheism.engine import Game, State  # noqa: E402
from pipeline.games.monotheism.model import CardKind, ScenarioCard  # noqa: E402
from pipeline.games.monotheism.play import Loaded, load  # noqa: E402
from pipeline.games.monotheism.positions import Features  # noqa: E402
from pipeline.games.monotheism.search import Techniques  # noqa: E402
from pipeline.games.registry import spec as spec_of

PROCESSES = 2
DECK_NODES = 1_000_000         # node limit of a random 13/15-card deck and of scenario 4 + two gods
DECK_SECONDS = 10.0
SEEDS = range(1, 11)
DEALS = tuple(range(1, 21))
BEFORE_COMMIT = "9104bb1"      # the branch point: the solver as the issue measured it
SPEED_NODES = 1_000_000
ABLATION_NODES = 200_000       # per question of the ablation workload
ABLATION_PUZZLE_CARDS = 9
KIB = 1024


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(run: Callable[[], Any]) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), cpu_seconds()
    found = run()
    return found, time.perf_counter() - wall, cpu_seconds() - cpu


def load_line() -> str:
    one, five, _ = os.getloadavg()
    return f"machine load {one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def decide(game: Game, deck: Sequence[ScenarioCard], nodes: int, processes: int = PROCESSES) -> tuple:
    state = game.state_for(deck, track_history=False)
    found, wall, cpu = timed(lambda: solver.solve(state, max_nodes=nodes, processes=processes))
    if found.status == solver.WIN:
        won, _ = solver.verify(game.state_for(deck), found.line)
        assert won, "a line the solver gave does not verify"
    return found, wall, cpu


def report(name: str, found: solver.SolveResult, wall: float, cpu: float) -> str:
    return (f"  {name:<14} {found.status:<7} {found.nodes:>9} nodes  {wall:7.2f} s wall  {cpu:7.2f} s cpu"
            + (f"  line of {len(found.line)} actions" if found.line else ""))


# ------------------------------------------------------------------ the figures
def scenario4(loaded: Loaded) -> None:
    s4 = loaded.model.scenario(4)
    others = [god for god in decks.absent_gods(loaded.game.cards, s4.deck) if god != "08"]
    print(f"scenario 4 + #08 + one more god beneath it (node limit {DECK_NODES}, {PROCESSES} processes):")
    fast = 0
    for god in others:
        found, wall, cpu = decide(loaded.game, decks.with_gods_below(s4, ["08", god]), DECK_NODES)
        fast += found.status != solver.LIMIT and wall < DECK_SECONDS
        print(report(f"+#08 +#{god}", found, wall, cpu), flush=True)
    print(f"  decided in under {DECK_SECONDS:g} s: {fast} of {len(others)}")


def random_decks(loaded: Loaded) -> None:
    for size in (13, 15):
        print(f"random {size}-card decks, seeds {SEEDS[0]}..{SEEDS[-1]} (node limit {DECK_NODES}, "
              f"{PROCESSES} processes):")
        fast = decided = nodes = 0
        for seed in SEEDS:
            found, wall, cpu = decide(loaded.game, decks.random_puzzle_deck(loaded.game.cards, size, seed), DECK_NODES)
            decided += found.status != solver.LIMIT
            fast += found.status != solver.LIMIT and wall < DECK_SECONDS
            nodes += found.nodes
            print(report(f"{size}/{seed}", found, wall, cpu), flush=True)
        print(f"  {size} cards: decided {decided} of {len(SEEDS)} within the node limit, {fast} in under "
              f"{DECK_SECONDS:g} s; {nodes} nodes in all")


def deals(loaded: Loaded) -> None:
    question = full_deals.Question("haruspex-of-scriptures", ("haruspex",), (), DEALS, full_deals.DEFAULT_MAX_NODES)
    print(f"full deals {DEALS[0]}..{DEALS[-1]}: 29 veiled gods and the Haruspex (node limit "
          f"{question.max_nodes}, {PROCESSES} processes, one deal each):")

    def heard(_: full_deals.Question, verdict: full_deals.Verdict) -> None:
        print(f"  deal {verdict.seed:<3} {verdict.status:<7} {verdict.nodes:>9} nodes {verdict.seconds:7.1f} s", flush=True)

    (batch,), wall, cpu = timed(lambda: full_deals.run(loaded.game, [question], processes=PROCESSES, on_verdict=heard))
    print(f"  decided {batch.won + batch.lost} of {len(DEALS)} (won {batch.won}, proved lost {batch.lost}) in "
          f"{wall:.0f} s wall, {cpu:.0f} s cpu")


# ------------------------------------------------------------------ before and after
KIT_SPELLINGS = (("apply_action(action, check=False)", "apply_action(action)"),
                 ("outcome.won", "bool(outcome.winners)"), ("outcome.reason", "outcome.detail"))


def before_solver() -> Optional[types.ModuleType]:
    """The solver of the branch point, loaded from git (None when git cannot show it)."""
    try:
        source = subprocess.run(["git", "show", f"{BEFORE_COMMIT}:pipeline/games/monotheism/solver.py"],
                                capture_output=True, text=True, check=True,
                                cwd=Path(__file__).resolve().parents[1]).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    # The engine has since moved onto the engine kit: apply_action always checks legality (the search
    # asks legal_actions first, so the check reads the same cached decision) and an Outcome names its
    # winners. Only these spellings change; the old search runs as it was, on today's engine.
    for old, new in KIT_SPELLINGS:
        source = source.replace(old, new)
    module = types.ModuleType("solver_before")
    sys.modules[module.__name__] = module  # its dataclasses look their module up
    exec(compile(source, "solver_before.py", "exec"), module.__dict__)  # noqa: S102 - our own history
    return module


def speed(loaded: Loaded) -> None:
    """Nodes per second and bytes per node on a position neither solver decides within SPEED_NODES."""
    old = before_solver()
    state = loaded.game.state_for(decks.with_gods_below(loaded.model.scenario(4), ["08", "13"]), track_history=False)
    space = solver.space_for(loaded.game)
    print(f"speed: scenario 4 + #08 + #13, {SPEED_NODES} nodes, one process. A node is a position generated: "
          "before, every engine action's result; now, every whole turn's (and each one the engine resolves is "
          "counted as a resolution)")
    runs: dict[str, Callable[[], Any]] = {"now": lambda: solver.solve(state, max_nodes=SPEED_NODES, processes=1)}
    if old is not None:
        runs["before"] = lambda: old.solve(state, max_nodes=SPEED_NODES, max_seconds=1e9)
    for label, run in runs.items():
        resolved = space.resolutions
        found, wall, cpu = timed(run)
        resolved = space.resolutions - resolved if label == "now" else found.nodes
        tracemalloc.start()
        run()
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"  {label:<6} {found.status:<6} {found.nodes:>8} nodes {found.nodes / cpu:>8,.0f} nodes/s cpu "
              f"({found.nodes / wall:,.0f} wall), {resolved / cpu:,.0f} engine resolutions/s; "
              f"{peak / found.nodes:6.1f} bytes/node (peak traced {peak / KIB / KIB:.1f} MiB)", flush=True)


# ------------------------------------------------------------------ each technique alone
def twin_game(cards: Cards) -> tuple[Game, tuple[ScenarioCard, ...]]:
    """The real cards plus exact copies of four of them, and a deck holding both of each pair:
    the only decks where symmetry (identical cards) can show, since the real cards are all different."""
    originals = sorted(cards.deities)[:4]
    twins = {str(90 + i): replace(cards.deities[god], id=str(90 + i)) for i, god in enumerate(originals)}
    game = Game(Cards({**cards.deities, **twins}, cards.worshipers))
    deck = decks.random_puzzle_deck(game.cards, 8, 1)
    extra = tuple(ScenarioCard(CardKind.DEITY, god) for god in [*originals, *twins])
    chosen = tuple(card for card in deck if card.is_worshiper or card.ref not in originals + list(twins))
    return game, (chosen[0], *extra, *chosen[1:])


def workload(loaded: Loaded) -> list[tuple[str, Game, State, str]]:
    """(name, game, position, question): solve the five scenarios and ten random 9-card decks, judge every
    first move of scenarios 5 and 3 (mostly no-win proofs), and a deck with twin cards."""
    game = loaded.game
    jobs = [(f"sc{s.id}", game, game.scenario_state(s, track_history=False), "solve") for s in loaded.model.scenarios]
    jobs += [(f"9/{seed}", game, game.state_for(decks.random_puzzle_deck(game.cards, ABLATION_PUZZLE_CARDS, seed),
                                                 track_history=False), "solve") for seed in SEEDS]
    jobs += [(f"sc{n} moves", game, game.scenario_state(loaded.model.scenario(n), track_history=False), "moves")
             for n in (5, 3)]
    twins, deck = twin_game(game.cards)
    jobs.append(("twins", twins, twins.state_for(deck, track_history=False), "solve"))
    return jobs


ABLATIONS: dict[str, tuple[Techniques, Features]] = {
    "all on": (Techniques(), Features()),
    "no ordering": (Techniques(ordering=False), Features()),
    "no dominance": (Techniques(dominance=False), Features()),
    "no collapsing": (Techniques(collapse=False), Features()),
    "no whole turns": (Techniques(), Features(whole_turns=False)),
    "no symmetry": (Techniques(), Features(symmetry=False)),
    "no beam": (Techniques(beam=False), Features()),
    "no shared proofs": (Techniques(share=False), Features()),
}


def ablation(loaded: Loaded) -> None:
    jobs = workload(loaded)
    print(f"ablation: each technique off alone; workload of {len(jobs)} questions, {ABLATION_NODES} nodes each "
          "(first moves: each move), one process")
    for label, (techniques, features) in ABLATIONS.items():
        def run() -> tuple[int, int, list[str]]:
            nodes = decided = 0
            cells = []
            for name, game, state, question in jobs:
                if question == "moves":
                    found = solver.first_moves(state, max_nodes=ABLATION_NODES, techniques=techniques,
                                               features=features)
                    nodes += found.nodes
                    decided += not found.undecided
                    cells.append(f"{name}:{len(found.undecided)}?/{found.nodes}")
                    continue
                result = solver.solve(state, max_nodes=ABLATION_NODES, techniques=techniques, features=features)
                nodes += result.nodes
                decided += result.status != solver.LIMIT
                cells.append(f"{name}:{result.status[0]}{result.nodes}")
            return nodes, decided, cells

        (nodes, decided, cells), wall, cpu = timed(run)
        print(f"  {label:<17} decided {decided:>2} of {len(jobs)}  {nodes:>9} nodes  {cpu:7.1f} s cpu  "
              f"{wall:7.1f} s wall", flush=True)
        print(f"      {' '.join(cells)}", flush=True)
    small = 1 << 12
    found, wall, cpu = timed(lambda: [solver.solve(state, max_nodes=ABLATION_NODES, table_slots=small).nodes
                                      for _, _, state, question in jobs if question == "solve"])
    print(f"  table of {small} slots (bounded memory, replacement at work): {sum(found)} nodes on the solve "
          f"questions, {cpu:.1f} s cpu")


def ratings(loaded: Loaded) -> None:
    print(f"rating the rulebook's scenarios ({rating.RATE_NODES} nodes a question, {PROCESSES} processes):")
    for scenario in loaded.model.scenarios:
        state = loaded.game.scenario_state(scenario, track_history=False)
        found, wall, cpu = timed(lambda: rating.rate(state, processes=PROCESSES))
        figures = found.figures()
        print(f"  scenario {scenario.id}: {figures['difficulty']}, {found.winning_first_moves} of {found.first_moves} "
              f"first moves win, shortest {found.solution_turns} turns, branching {found.mean_branching}, "
              f"{found.nodes} nodes to solve; rated in {wall:.1f} s wall, {cpu:.1f} s cpu", flush=True)


def parallel(loaded: Loaded) -> None:
    print("one process against two (answers, lines and nodes must be equal):")
    s4 = loaded.model.scenario(4)
    for name, deck in {"s4+#08+#10": decks.with_gods_below(s4, ["08", "10"]),
                       "13-card 3": decks.random_puzzle_deck(loaded.game.cards, 13, 3)}.items():
        results = {}
        for processes in (1, 2):
            results[processes] = decide(loaded.game, deck, DECK_NODES, processes)
        (one, wall1, _), (two, wall2, _) = results[1], results[2]
        same = (one.status, one.line, one.nodes) == (two.status, two.line, two.nodes)
        print(f"  {name:<12} {one.status} {one.nodes} nodes; same with 2 processes: {same}; "
              f"{wall1:.2f} s wall on 1, {wall2:.2f} s on 2", flush=True)


PARTS = {"scenario4": scenario4, "random": random_decks, "deals": deals, "speed": speed, "ablation": ablation,
         "rating": ratings, "parallel": parallel}


def main(argv: Sequence[str]) -> int:
    chosen = list(argv) or list(PARTS)
    unknown = [part for part in chosen if part not in PARTS]
    if unknown:
        print(f"unknown part(s) {', '.join(unknown)}; known: {', '.join(PARTS)}", file=sys.stderr)
        return 2
    loaded = load(load_game(default_data_root(), spec_of("monotheism")))
    print(load_line())
    for part in chosen:
        PARTS[part](loaded)
    print(load_line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
