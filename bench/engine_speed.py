"""Benchmark: seeded random games per rules engine through the engine kit; print games/s and actions/s.

Run with `make bench` (or `.venv/bin/python bench/engine_speed.py`). Every engine plays
uniformly random legal actions (chance drawn with its exact probabilities) from a
fixed seed, so the figures compare the same work from run to run. Best of REPEATS, in
CPU seconds (the machine is shared: wall time depends on the load, printed first).
"""
from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.data.dataset import (
    default_data_root,
    load_game,  # noqa: E402
)
from pipeline.engine import (
    State,
    playout,
    random_policy,  # noqa: E402
)
from pipeline.games.registry import spec as spec_of

REPEATS = 3
SEED = 1
TOTEMS_MAX_TURNS = 200  # random duels can go on for ever; the simulate command stops them here too


def _monotheism() -> tuple[Callable[[int], State[Any]], int]:
    from pipeline.games.monotheism.play import deal, load
    loaded = load(load_game(default_data_root(), spec_of("monotheism")))
    return (lambda seed: deal(loaded, "three-monks", seed)), 200


def _theocracy() -> tuple[Callable[[int], State[Any]], int]:
    from pipeline.games.theocracy.engine import Game
    game = Game.from_model(load_game(default_data_root(), spec_of("theocracy")).model, 3)
    return (lambda seed: game.new_initial_state()), 100


def _monstrous() -> tuple[Callable[[int], State[Any]], int]:
    from pipeline.games.monstrous.engine import Game
    from pipeline.games.monstrous.model import build
    game = Game(build(load_game(default_data_root(), spec_of("monstrous"))))
    return (lambda seed: game.new_initial_state(["blue", "orange", "green"])), 60


def _heavenly_father() -> tuple[Callable[[int], State[Any]], int]:
    from pipeline.games.heavenly_father.engine import Game
    from pipeline.games.heavenly_father.model import build
    game = Game.from_model(build(load_game(default_data_root(), spec_of("heavenly-father"))), 4)
    return (lambda seed: game.new_initial_state()), 60


def _totems(solo: bool) -> Callable[[], tuple[Callable[[int], State[Any]], int]]:
    def make() -> tuple[Callable[[int], State[Any]], int]:
        from pipeline.games.totems_and_taboos.engine import Game
        from pipeline.games.totems_and_taboos.model import build
        model = build(load_game(default_data_root(), spec_of("totems-and-taboos")))
        game = Game.solo_game(model, "normal") if solo else Game.multiplayer(model, 3)
        return (lambda seed: game.new_initial_state()), (200 if solo else 30)
    return make


ENGINES: dict[str, Callable[[], tuple[Callable[[int], State[Any]], int]]] = {
    "monotheism (deal, three-monks)": _monotheism,
    "theocracy (3 players)": _theocracy,
    "monstrous (3 players)": _monstrous,
    "heavenly-father (4 players)": _heavenly_father,
    "totems-and-taboos (solo, normal)": _totems(True),
    "totems-and-taboos (3 players)": _totems(False),
}


def run(start: Callable[[int], State[Any]], games: int) -> int:
    """Play ``games`` random games (one RNG, as `simulate` does); the number of actions played."""
    rng = random.Random(SEED)
    actions = 0
    for number in range(games):
        final = playout(start(SEED + number), random_policy, rng,
                        until=lambda state: getattr(state, "turns", 0) >= TOTEMS_MAX_TURNS)
        actions += len(final.history())
    return actions


def main() -> int:
    print(f"{load()}; CPU seconds are this process's own, wall seconds include waiting for a core")
    for name, make in ENGINES.items():
        start, games = make()
        best_cpu, best_wall, actions = float("inf"), float("inf"), 0
        for _ in range(REPEATS):
            began, began_cpu = time.perf_counter(), time.process_time()
            actions = run(start, games)
            best_cpu = min(best_cpu, time.process_time() - began_cpu)
            best_wall = min(best_wall, time.perf_counter() - began)
        print(f"{name:<34} {games:>4} games  CPU {best_cpu:6.2f} s {games / best_cpu:8.1f} games/CPU-s "
              f"{actions / best_cpu:9,.0f} actions/CPU-s  (wall {best_wall:6.2f} s)")
    return 0


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


if __name__ == "__main__":
    raise SystemExit(main())
