"""What a game's balance study is: its set-ups, how a batch of its games is played and tallied, its figures.

A game's ``pipeline/games/<package>/balance.py`` exports ``study(game_data)``,
returning a :class:`Study` built from the game's validated data. The report
and the ``simulate`` command ask it for set-ups (a player count, a policy and
whatever else the game varies: a variant, a difficulty, a worshiper set),
have its :meth:`Study.play` tally seeded batches of games in worker
processes, and hand the merged tallies back to :meth:`Study.sections` for the
figures. Every batch starts with :func:`record_game`'s standard record (games,
wins per seat, endings, length), which the ``simulate`` summary reads.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Optional

from pipeline.analysis.balance.stats import Figure, Mean, Rate
from pipeline.analysis.balance.tally import Tally, bump, count, folder, mean, observe
from pipeline.base.errors import UserError
from pipeline.data.dataset import GameData, load_game
from pipeline.data.gamespec import GameSpec
from pipeline.engine import Outcome

if TYPE_CHECKING:
    from pipeline.analysis.balance.findings import Section

GAMES, WINS, ENDINGS, SHARED, UNFINISHED, LENGTH = "games", "wins", "endings", "shared", "unfinished", "length"


@dataclass(frozen=True)
class Setup:
    """One way of playing many games: who plays, with which policy, and the game's own parameters.

    ``id`` is unique in its study and part of every chunk's seed; ``games`` is
    the report's default number of games for it; ``cost`` a rough number of
    seconds per game (long work is started first, nothing else depends on it).
    """

    id: str
    label: str
    players: int
    policy: str
    games: int
    params: tuple[tuple[str, Any], ...] = ()
    cost: float = 0.01

    def param(self, name: str, default: Any = None) -> Any:
        return dict(self.params).get(name, default)


@dataclass(frozen=True)
class Exact:
    """Deterministic work a study wants done once (a solver's proof), run on the same pool as the games."""

    id: str
    label: str
    cost: float = 1.0


@dataclass(frozen=True)
class Results:
    """The merged tallies of one study: per set-up, and per exact job."""

    setups: tuple[Setup, ...]
    tallies: Mapping[str, Tally]
    exact: Mapping[str, Tally] = field(default_factory=dict)

    def tally(self, setup: Setup) -> Tally:
        return self.tallies[setup.id]


class Study(ABC):
    """A game's balance study (see the module docstring)."""

    game_id: str
    title: str
    policies: tuple[str, ...]  # every policy ``pantheon simulate --policy`` accepts for this game
    length_unit: str = "turns"  # what a game's recorded length counts
    chunk_games: int = 20  # games per seeded chunk: fixed, so figures never depend on the number of processes
    method: str = ""  # how the games are played, for the report's first page

    @abstractmethod
    def setups(self, *, players: Optional[int] = None, policy: Optional[str] = None) -> list[Setup]:
        """The report's set-ups; with ``players`` or ``policy``, every set-up of that player count or policy."""

    def simulated_setups(self) -> list[Setup]:
        """The set-ups ``pantheon diff --balance`` plays on both sides: every one, unless the game has set-ups
        that are searched rather than simulated (too slow for a diff; the diff's engine questions cover them)."""
        return self.setups()

    @abstractmethod
    def play(self, setup: Setup, games: int, seed: int) -> Tally:
        """Play ``games`` games of ``setup`` from ``seed`` and tally them (runs in a worker process)."""

    @abstractmethod
    def sections(self, results: Results) -> list["Section"]:
        """The report's figures from the merged tallies."""

    def simulated_sections(self, results: Results) -> list["Section"]:
        """The figures of the simulated games alone, from results without exact jobs (``pantheon diff
        --balance``); a study whose :meth:`sections` read its exact jobs' tallies overrides this."""
        return self.sections(results)

    def seat_figures(self, setup: Setup, tally: Tally) -> list[tuple[str, tuple[Figure, ...]]]:
        """Figures per seat beyond the standard record that ``simulate`` prints (a name, a figure per seat)."""
        return []

    def exact_jobs(self) -> list[Exact]:
        """Deterministic work (no seed) whose tallies :meth:`sections` reads too."""
        return []

    def run_exact(self, job: Exact) -> Tally:
        raise NotImplementedError(f"{self.game_id} has no exact job {job.id!r}")


def record_game(tally: Tally, outcome: Optional[Outcome], length: int) -> None:
    """The standard record of one game: its ending (None: cut off unfinished), winners and length."""
    bump(tally, GAMES)
    observe(tally, LENGTH, value=length)
    if outcome is None:
        bump(tally, UNFINISHED)
        return
    bump(tally, ENDINGS, outcome.termination)
    for seat in outcome.winners:
        bump(tally, WINS, seat)
    if len(outcome.winners) > 1:
        bump(tally, SHARED)


@dataclass(frozen=True)
class Summary:
    """The standard figures of one set-up's games (what ``pantheon simulate`` prints)."""

    setup: Setup
    games: int
    seat_wins: tuple[Rate, ...]
    shared: Rate
    unfinished: Rate
    endings: tuple[tuple[str, Rate], ...]
    length: Mean
    seat_figures: tuple[tuple[str, tuple[Figure, ...]], ...] = ()  # the study's own (Study.seat_figures)

    @classmethod
    def of(cls, setup: Setup, tally: Tally) -> "Summary":
        games = count(tally, GAMES)
        return cls(
            setup=setup,
            games=games,
            seat_wins=tuple(Rate(count(tally, WINS, seat), games) for seat in range(setup.players)),
            shared=Rate(count(tally, SHARED), games),
            unfinished=Rate(count(tally, UNFINISHED), games),
            endings=tuple((name, Rate(n, games)) for name, n in sorted(folder(tally, ENDINGS).items())),
            length=mean(tally, LENGTH),
        )


def seat_win_rates(setup: Setup, tally: Tally) -> list[Rate]:
    """Each seat's share of the games it won (a shared victory counts for every winner)."""
    return list(Summary.of(setup, tally).seat_wins)


def study_of(data: GameData[Any]) -> Study:
    """The study of a loaded game (its spec's ``balance`` part), on data the caller has validated."""
    if data.spec.balance is None:
        raise data.spec.missing("balance")
    return data.spec.balance(data)


def load_study(data_root: Path, spec: GameSpec[Any]) -> Study:
    """The study of the game ``spec`` describes, loading its data under ``data_root``."""
    return study_of(load_game(data_root, spec))


def pick_setups(study: Study, players: Optional[int], policy: Optional[str]) -> list[Setup]:
    """The set-ups ``simulate`` plays for ``players`` and ``policy``; a user error naming what exists when none."""
    if policy is not None and policy not in study.policies:
        raise UserError(f"{study.game_id}: unknown policy {policy!r} (known: {', '.join(study.policies)})")
    chosen = study.setups(players=players, policy=policy)
    if not chosen:
        counts = sorted({s.players for s in study.setups(policy=policy)})
        raise UserError(f"{study.game_id}: no set-up for {players} {'player' if players == 1 else 'players'}"
                        f"{f' with policy {policy}' if policy else ''} (player counts: {', '.join(map(str, counts))})")
    return chosen
