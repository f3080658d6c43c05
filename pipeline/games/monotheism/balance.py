"""Monotheism's balance study: the puzzle scenarios as the solver sees them, win rates per worshiper set and
policy, and how often each god is unveiled, acts and is consumed.

Full games are deals (:func:`pipeline.games.monotheism.play.deal`): the 29
gods shuffled and veiled above one worshiper set, the shuffle seeded from the
chunk's generator. Card figures are read from the engine's events
(``unveil``, ``act``, ``consumed``); a turn is one ``submerge``. The scenario
figures come from one function, :func:`scenario_figures`, so they can switch
to the puzzle solver's ratings in one place; their results are kept in the
project's result cache (keyed by the cards, the scenario's deck, the node
budgets and this package's code), so a report after an edit to another game
does not search again.
"""
from __future__ import annotations

import json
import random
from typing import Any, Mapping, Optional

from pipeline import store
from pipeline.analysis.balance.findings import Bars, Item, Section, Series, Table, Text, outliers
from pipeline.analysis.balance.standard import grouped, length_distribution, length_table
from pipeline.analysis.balance.stats import Rate
from pipeline.analysis.balance.study import Exact, Results, Setup, Study, record_game
from pipeline.analysis.balance.tally import Tally, bump, count, mean, merged, observe
from pipeline.base.shape import ShapeError, integer, text, texts
from pipeline.data.dataset import GameData
from pipeline.engine import play
from pipeline.games.monotheism import GAME_ID, SOLVER_NAMESPACE, TITLE, estimate, solver
from pipeline.games.monotheism.engine import Game
from pipeline.games.monotheism.greedy import greedy_policy
from pipeline.games.monotheism.guest_check import play_key
from pipeline.games.monotheism.model import MonotheismModel, Scenario
from pipeline.games.monotheism.play import Loaded, deal

DEFAULT_GAMES = {"random": 300, "greedy": 120}  # per worshiper set (8 set-ups); the rest: greedy's
MAX_ACTIONS = 2_000  # a deal still going after this many actions is cut off (random play can wander)
SOLVE_NODES = 200_000  # the solver's budget for a scenario from its start
FIRST_MOVE_NODES = 5_000  # and for judging each first move (the undecided are shown as such)
POLICIES = {**estimate.POLICIES, "greedy": greedy_policy}
REPORT_POLICIES = ("random", "greedy")
SECONDS_PER_GAME = {"random": 0.0015, "greedy": 0.011, "slow": 0.0015}  # CPU, measured (bench/balance_report.py)
SCENARIO_SECONDS = 5.0  # the solver's jobs are the longest: they start first
UNVEILED, ACTS, CONSUMED, VOIDED, TURNS = "unveiled", "acts", "consumed", "voided", "turns"
FIGURE_COUNTS = ("line", "nodes", "stored_line", "losing", "undecided")


def losing_share(losing: int, undecided: int, judged: int) -> str:
    """The share of first moves proved lost; while some are open, the range from none of the open ones losing
    to all of them losing."""
    if not judged:
        return "–"
    if not undecided:
        return f"{losing / judged:.0%}"
    return f"{losing / judged:.0%} to {(losing + undecided) / judged:.0%}"


def scenario_figures(game: Game, scenario: Scenario) -> dict[str, Any]:
    """What the solver says of one scenario: its answer from the start (line length, nodes) and every
    first move judged. The one place the report asks a solver (plain data, for the tally)."""
    start = game.scenario_state(scenario, track_history=False).with_events(False)
    solved = solver.solve(start, max_nodes=SOLVE_NODES)
    moves = solver.first_moves(start, max_nodes=FIRST_MOVE_NODES)
    return {"status": solved.status, "line": len(solved.line), "nodes": solved.nodes,
            "stored_line": len(scenario.winning_line), "winning": list(moves.winning), "losing": len(moves.losing),
            "undecided": len(moves.undecided)}


def cached_scenario_figures(game: Game, scenario: Scenario, cards_key: str) -> dict[str, Any]:
    """:func:`scenario_figures` from the store when the cards (``cards_key``: the engine's card
    definitions), the scenario's deck and stored line, the node budgets and the code are unchanged:
    a deterministic search, so the stored answer is the answer."""
    deck = json.dumps([[card.kind.value, card.ref, card.veiled, card.transformed, card.cursed] for card in scenario.deck])
    inputs = ["report figures", cards_key, deck, len(scenario.winning_line), SOLVE_NODES, FIRST_MOVE_NODES]
    return dict(store.cached(SOLVER_NAMESPACE, inputs, lambda: scenario_figures(game, scenario),
                             decode=_stored_figures))


def _stored_figures(value: Any) -> dict[str, Any]:
    """Figures read back as :func:`scenario_figures` returns them; ShapeError otherwise (the cache then misses)."""
    if not isinstance(value, Mapping) or set(value) != {"status", "winning", *FIGURE_COUNTS}:
        raise ShapeError("expected a scenario's figures")
    return {"status": text(value["status"]), "winning": list(texts(value["winning"])),
            **{name: integer(value[name]) for name in FIGURE_COUNTS}}


class MonotheismStudy(Study):
    game_id = GAME_ID
    title = TITLE
    policies = tuple(POLICIES)
    chunk_games = 25
    method = ("Full games are deals: the 29 gods shuffled and veiled above one worshiper set. **random** plays a "
              "uniformly random legal action; **greedy** plays the whole turn that leaves the fewest gods, then the "
              "most worshipers, then the fewest curses, without looking further ahead (ties at random). A deal still "
              f"going after {MAX_ACTIONS} actions is counted unfinished. The scenarios are judged by the solver, "
              "not simulated.")

    def __init__(self, data: GameData[MonotheismModel]) -> None:
        model: MonotheismModel = data.model
        assert model.cards is not None, "validated Monotheism data has its cards"
        self.loaded = Loaded(model, Game(model.cards))
        self.cards_key = play_key(data, model.cards)  # what the scenario figures' cache entries are keyed by
        self.gods = sorted(model.cards.deities)
        self.god_names = {label: deity.name for label, deity in model.cards.deities.items()}

    # ------------------------------------------------------------------ set-ups and play
    def setups(self, *, players: Optional[int] = None, policy: Optional[str] = None) -> list[Setup]:
        if players not in (None, 1):
            return []
        names = REPORT_POLICIES if policy is None else (policy,)
        return [Setup(f"{s.id}-{name}", f"{s.name}, {name}", 1, name, DEFAULT_GAMES.get(name, DEFAULT_GAMES["greedy"]),
                      (("set", s.id),),
                      SECONDS_PER_GAME.get(name, SECONDS_PER_GAME["greedy"]))
                for s in self.loaded.model.worshiper_sets for name in names]

    def play(self, setup: Setup, games: int, seed: int) -> Tally:
        rng = random.Random(seed)
        policy = POLICIES[setup.policy]
        tally: Tally = {}
        for _ in range(games):
            start = deal(self.loaded, setup.param("set"), rng.getrandbits(64))
            unveiled, consumed, voided = set(), set(), set()
            acts = dict.fromkeys(self.gods, 0)
            turns = 0
            for state in play(start, policy, rng, max_actions=MAX_ACTIONS):
                for event in state.events:
                    if event.kind == "unveil":
                        unveiled.add(event.subject)
                    elif event.kind == "act" and event.subject in acts:
                        acts[event.subject] += 1
                    elif event.kind == "consumed":
                        consumed.add(event.subject)
                    elif event.kind == "voided":
                        voided.add(event.subject)
                    elif event.kind == "submerge":
                        turns += 1
            record_game(tally, state.outcome(), turns)
            bump(tally, TURNS, turns)
            for god in self.gods:
                bump(tally, UNVEILED, god, by=int(god in unveiled))
                bump(tally, CONSUMED, god, by=int(god in consumed))
                bump(tally, VOIDED, god, by=int(god in voided))
                observe(tally, ACTS, god, value=acts[god])
        return tally

    def exact_jobs(self) -> list[Exact]:
        return [Exact(f"scenario-{s.id}", s.title, SCENARIO_SECONDS) for s in self.loaded.model.scenarios]

    def run_exact(self, job: Exact) -> Tally:
        scenario = next(s for s in self.loaded.model.scenarios if f"scenario-{s.id}" == job.id)
        return cached_scenario_figures(self.loaded.game, scenario, self.cards_key)

    # ------------------------------------------------------------------ figures
    def sections(self, results: Results) -> list[Section]:
        return [self._scenarios(results), self._wins(results), self._cards(results), self._length(results)]

    def simulated_sections(self, results: Results) -> list[Section]:
        return [self._wins(results), self._cards(results), self._length(results)]  # the solver's: not simulated

    def _scenarios(self, results: Results) -> Section:
        rows, moves = [], []
        for scenario in self.loaded.model.scenarios:
            found = results.exact[f"scenario-{scenario.id}"]
            winning = len(found["winning"])
            judged = winning + found["losing"] + found["undecided"]
            rows.append((f"{scenario.id}. {scenario.title}", found["status"], found["stored_line"], found["line"],
                         found["nodes"], judged, winning, found["losing"], found["undecided"],
                         losing_share(found["losing"], found["undecided"], judged)))
            moves.append((f"{scenario.id}. {scenario.title}", "; ".join(found["winning"]) or "none found"))
        table = Table("scenarios", "Scenarios as the solver sees them",
                      ("scenario", "solver", "solution", "solver's line", "nodes", "first moves", "win", "lose",
                       "open", "losing share"), tuple(rows),
                      f"Solution: actions in the stored winning line (the shortest known); solver's line: actions in "
                      f"the line the solver found first, after searching the nodes shown (at most {SOLVE_NODES:,}). "
                      f"Each whole first turn is judged with at most {FIRST_MOVE_NODES:,} nodes: win (a winning line "
                      "was found), lose (proved lost) or open (the limit was hit). With open moves the losing share "
                      "is a range: from none of the open moves losing to all of them. Exact figures: no interval.",
                      (2.4, 0.7, 0.9, 0.9, 0.9, 0.8, 0.6, 0.6, 0.6, 1.3))
        winning_table = Table("winning-first-moves", "Winning first moves", ("scenario", "whole first turns that still win"),
                        tuple(moves), widths=(1.0, 3.0))
        return Section("scenarios", "Puzzle scenarios", "Exact figures from the solver (no simulation). A puzzle "
                       "whose first moves mostly lose asks for the one idea; one whose moves mostly win is forgiving.",
                       (table, winning_table))

    def _wins(self, results: Results) -> Section:
        summaries = {s.id: Rate(count(results.tally(s), "wins", 0), count(results.tally(s), "games"))
                     for s in results.setups}
        sets = grouped(results.setups, lambda s: s.param("set"))
        policies = list(dict.fromkeys(s.policy for s in results.setups))
        rows: list[tuple[Any, ...]] = []
        for set_id, members in sets.items():
            by_policy = {s.policy: summaries[s.id] for s in members}
            rows.append((self.loaded.model.worshiper_set(str(set_id)).name, *(by_policy.get(p) for p in policies)))
        table = Table("wins", "Win rate per worshiper set", ("worshiper set", *policies), tuple(rows))
        chart = Bars("wins-chart", "Win rate per worshiper set", tuple(r[0] for r in rows),
                     tuple(Series(p, tuple(r[1 + i] for r in rows)) for i, p in enumerate(policies)), "games won")
        flagged = tuple(o for p in policies for o in outliers(
            f"worshiper sets, {p}", [(f"{s.label}", summaries[s.id]) for s in results.setups if s.policy == p]))
        items: tuple[Item, ...] = (table, chart)
        if not any(rate.hits for rate in summaries.values()):  # a chart of zeros says nothing: say it in words
            items = (table, Text(f"No policy won a single deal of the {sum(r.trials for r in summaries.values()):,} "
                                 "played: the intervals above bound how rarely these players win."))
        return Section("wins", "Winning full games", "How often a deal is won, per worshiper set, by each policy. "
                       "Neither policy is a skilled player: they bound what a careless and a short-sighted player "
                       "can expect.", items, flagged)

    def _cards(self, results: Results) -> Section:
        total = merged(results.tally(s) for s in results.setups)
        games = count(total, "games")
        names = [f"#{god} {self.god_names[god]}" for god in self.gods]
        unveiled = [Rate(count(total, UNVEILED, god), games) for god in self.gods]
        consumed = [Rate(count(total, CONSUMED, god), games) for god in self.gods]
        acts = [mean(total, ACTS, god) for god in self.gods]
        rows = tuple((name, u, a, c, Rate(count(total, VOIDED, god), games))
                     for name, god, u, a, c in zip(names, self.gods, unveiled, acts, consumed))
        table = Table("cards", "Each god in full games (every set-up together)",
                      ("god", "unveiled", "acts per game", "consumed by a god", "lost to the void"), rows,
                      f"Share of the {games} games in which the god was unveiled, consumed by a god, or lost to the "
                      "void (submerged past the bottom, or by an effect); mean number of times it acted per game.",
                      (2.2, 1.5, 1.5, 1.5, 1.5))
        consumed_chart = Bars("consumed", "Games in which each god is consumed by another", tuple(names),
                              (Series("consumed", tuple(consumed)),), "share of games", horizontal=True)
        acts_chart = Bars("acts", "Acts per game of each god", tuple(names), (Series("acts", tuple(acts)),),
                          "acts per game", percent=False, horizontal=True)
        flagged = outliers("gods, consumed", list(zip(names, consumed)))
        return Section("cards", "The gods", "How often each god is unveiled, acts and is consumed, read from the "
                       "engine's events over every simulated deal.", (table, consumed_chart, acts_chart), flagged)

    def _length(self, results: Results) -> Section:
        set_name = {s.id: s.name for s in self.loaded.model.worshiper_sets}
        lines = [length_distribution(results, TURNS, self.length_unit, setups=members, id=f"turns-{name}",
                                     title=f"Game length in turns (submerges), {name} play",
                                     name=lambda s: set_name[s.param("set")])
                 for name, members in grouped(results.setups, lambda s: s.policy).items()]
        return Section("length", "How deals end", "Turns played (one submerge each) and how each deal ended: a win "
                       "(one god left, or none for the Pretender) or the way it was lost.",
                       (length_table(results, self.length_unit), *lines))


def study(game: GameData[MonotheismModel]) -> MonotheismStudy:
    """Monotheism's balance study from its validated data."""
    return MonotheismStudy(game)
