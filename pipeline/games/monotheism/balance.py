"""Monotheism's balance study: the puzzle scenarios as the solver sees them, full deals decided by the solver
per worshiper set (and without each god the rulebook calls difficult), the rulebook's claims about them, and
how often each god is unveiled, acts and is consumed in simulated play.

Wins are the solver's (:mod:`deals`): the simulated players (random, greedy)
win no full deal, so their win rates said nothing and are no longer reported.
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
from pipeline.analysis.balance.findings import Bars, Item, Section, Series, Table, outliers
from pipeline.analysis.balance.standard import grouped, length_distribution, length_table
from pipeline.analysis.balance.stats import Rate
from pipeline.analysis.balance.study import ENDINGS, GAMES, LENGTH, UNFINISHED, WINS, Exact, Results, Setup, Study, record_game
from pipeline.analysis.balance.tally import Tally, bump, count, mean, merged, observe
from pipeline.base.shape import ShapeError, integer, text, texts
from pipeline.data.dataset import GameData
from pipeline.engine import play
from pipeline.games.monotheism import GAME_ID, SOLVER_NAMESPACE, TITLE, claims, deals, estimate, solver
from pipeline.games.monotheism.engine import SUBMERGE, Game
from pipeline.games.monotheism.greedy import greedy_policy
from pipeline.games.monotheism.guest_check import play_key
from pipeline.games.monotheism.model import MonotheismModel, Scenario
from pipeline.games.monotheism.play import Loaded, deal

SOLVER = "solver"  # a deal decided by the puzzle solver (deals.py), not simulated
# Deals per cell: 20 deals give a 95% interval about 30 points wide at a 75% share; the report says so.
REPORT_DEALS = 20
REPORT_DEAL_NODES = claims.FOUND_NODES  # the solver's budget per deal in the report (the CLI's default is larger)
THIN_CELL = 100  # below this many deals a cell's interval is wider than +/- 10 points: said in a note
DEFAULT_GAMES = {"random": 300, "greedy": 120, SOLVER: REPORT_DEALS}  # per set-up; the rest: greedy's
MAX_ACTIONS = 2_000  # a deal still going after this many actions is cut off (random play can wander)
SOLVE_NODES = 200_000  # the solver's budget for a scenario from its start
FIRST_MOVE_NODES = 5_000  # and for judging each first move (the undecided are shown as such)
POLICIES = {**estimate.POLICIES, "greedy": greedy_policy}
REPORT_POLICIES = ("random", SOLVER)
SECONDS_PER_GAME = {"random": 0.0015, "greedy": 0.011, "slow": 0.0015, SOLVER: 10.0}  # CPU (bench/balance_report.py)
WON, PROVED_LOST = "won", "proved lost"
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


def cached_scenario_figures(game: Game, scenario: Scenario, cards_key: str, under: store.Scope) -> dict[str, Any]:
    """:func:`scenario_figures` from the store when the cards (``cards_key``: the engine's card
    definitions), the scenario's deck and stored line, the node budgets and the code (``under``: the
    command's store scope) are unchanged: a deterministic search, so the stored answer is the answer."""
    deck = json.dumps([[card.kind.value, card.ref, card.veiled, card.transformed, card.cursed] for card in scenario.deck])
    inputs = ["report figures", cards_key, deck, len(scenario.winning_line), SOLVE_NODES, FIRST_MOVE_NODES]
    return dict(store.cached(SOLVER_NAMESPACE, inputs, lambda: scenario_figures(game, scenario),
                             decode=_stored_figures, under=under))


def _stored_figures(value: Any) -> dict[str, Any]:
    """Figures read back as :func:`scenario_figures` returns them; ShapeError otherwise (the cache then misses)."""
    if not isinstance(value, Mapping) or set(value) != {"status", "winning", *FIGURE_COUNTS}:
        raise ShapeError("expected a scenario's figures")
    return {"status": text(value["status"]), "winning": list(texts(value["winning"])),
            **{name: integer(value[name]) for name in FIGURE_COUNTS}}


class MonotheismStudy(Study):
    game_id = GAME_ID
    title = TITLE
    policies = (*POLICIES, SOLVER)
    chunk_games = 25
    method = ("Full games are deals: the 29 gods shuffled and veiled above one worshiper set. **solver**: the puzzle "
              f"solver decides each deal within {REPORT_DEAL_NODES:,} nodes, seeing the veiled gods too (so a won deal "
              "is winnable, the rulebook's word): won with a line, proved lost, or undecided. **random** plays a "
              "uniformly random legal action (its deals give the card figures; it wins none); **greedy** (in "
              "`pantheon simulate` only) plays the whole turn that leaves the fewest gods. A simulated deal still "
              f"going after {MAX_ACTIONS} actions is counted unfinished. The scenarios are judged by the solver, "
              "not simulated.")

    def __init__(self, data: GameData[MonotheismModel]) -> None:
        model: MonotheismModel = data.model
        assert model.cards is not None, "validated Monotheism data has its cards"
        self.loaded = Loaded(model, Game(model.cards))
        self.cards_key = play_key(data, model.cards)  # what the scenario figures' cache entries are keyed by
        self.scope = store.scope()  # and the code they are kept under: taken once for the study's every job
        self.gods = sorted(model.cards.deities)
        self.god_names = {label: deity.name for label, deity in model.cards.deities.items()}

    # ------------------------------------------------------------------ set-ups and play
    def setups(self, *, players: Optional[int] = None, policy: Optional[str] = None) -> list[Setup]:
        if players not in (None, 1):
            return []
        names = REPORT_POLICIES if policy is None else (policy,)
        found = [Setup(f"{s.id}-{name}", f"{s.name}, {name}", 1, name, DEFAULT_GAMES.get(name, DEFAULT_GAMES["greedy"]),
                       (("set", s.id),), SECONDS_PER_GAME.get(name, SECONDS_PER_GAME["greedy"]))
                 for s in self.loaded.model.worshiper_sets for name in names]
        if SOLVER in names:  # the rulebook's difficult gods, each taken out of the Haruspex's deals
            first = self.loaded.model.worshiper_sets[0]
            found += [Setup(f"{first.id}-{SOLVER}-without-{god}", f"{first.name}, {SOLVER}, without #{god}", 1, SOLVER,
                            REPORT_DEALS, (("set", first.id), ("without", god)), SECONDS_PER_GAME[SOLVER])
                      for god in deals.DIFFICULT_GODS if god in self.loaded.game.cards.deities]
        return found

    def play(self, setup: Setup, games: int, seed: int) -> Tally:
        rng = random.Random(seed)
        if setup.policy == SOLVER:
            return self._decide(setup, games, rng)
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

    def _decide(self, setup: Setup, games: int, rng: random.Random) -> Tally:
        """``games`` deals decided by the solver: a win is seat 0's, a proof of loss an ending, undecided unfinished."""
        chosen = self.loaded.model.worshiper_set(setup.param("set"))
        removed = (setup.param("without"),) if setup.param("without") else ()
        question = deals.Question(chosen.id, tuple(w.id for w in chosen.worshipers), removed, (), REPORT_DEAL_NODES)
        tally: Tally = {}
        for _ in range(games):
            verdict = deals.decide(self.loaded.game, question, rng.getrandbits(32))
            bump(tally, GAMES)
            observe(tally, LENGTH, value=sum(action.startswith(SUBMERGE) for action in verdict.line))
            if verdict.status == deals.WIN:
                bump(tally, WINS, 0)
                bump(tally, ENDINGS, WON)
            elif verdict.status == deals.NO_WIN:
                bump(tally, ENDINGS, PROVED_LOST)
            else:
                bump(tally, UNFINISHED)
        return tally

    def exact_jobs(self) -> list[Exact]:
        return [Exact(f"scenario-{s.id}", s.title, SCENARIO_SECONDS) for s in self.loaded.model.scenarios]

    def run_exact(self, job: Exact) -> Tally:
        scenario = next(s for s in self.loaded.model.scenarios if f"scenario-{s.id}" == job.id)
        return cached_scenario_figures(self.loaded.game, scenario, self.cards_key, self.scope)

    # ------------------------------------------------------------------ figures
    def sections(self, results: Results) -> list[Section]:
        return [self._scenarios(results), self._wins(results), self._claims(results), self._cards(results),
                self._length(results)]

    def simulated_setups(self) -> list[Setup]:
        return [s for s in self.setups() if s.policy != SOLVER]  # a solver's deal costs seconds, not milliseconds

    def simulated_sections(self, results: Results) -> list[Section]:
        return [self._cards(results), self._length(results)]  # the wins and claims are the solver's

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

    def _decided(self, results: Results) -> dict[tuple[str, str], tuple[claims.Bounds, int, int]]:
        """Per (worshiper set, god taken out or ""): (the share of deals that can be won, deals, undecided)."""
        found = {}
        for setup in results.setups:
            if setup.policy != SOLVER:
                continue
            tally = results.tally(setup)
            won, undecided = count(tally, WINS, 0), count(tally, UNFINISHED)
            found[(setup.param("set"), setup.param("without") or "")] = (
                claims.Bounds.of(won, undecided, count(tally, GAMES)), count(tally, GAMES), undecided)
        return found

    def _wins(self, results: Results) -> Section:
        decided = self._decided(results)
        rows: list[tuple[Any, ...]] = []
        for chosen in self.loaded.model.worshiper_sets:
            if (chosen.id, "") not in decided:
                continue
            share, dealt, undecided = decided[(chosen.id, "")]
            won = share.at_least.hits
            rows.append((chosen.name, dealt, won, dealt - won - undecided, undecided, share.at_least, share.at_most))
        items: tuple[Item, ...] = ()
        if rows:
            table = Table("wins", "Deals won per worshiper set (the solver)",
                          ("worshiper set", "deals", "won", "proved lost", "undecided", "won of all",
                           "won or undecided"), tuple(rows),
                          f"Each deal decided by the solver within {REPORT_DEAL_NODES:,} nodes, seeing every card. "
                          "The share of deals that can be won lies between won of all (every undecided deal lost) "
                          "and won or undecided (every one won), each with its 95% (Wilson) interval."
                          + _thin_note(min(r[5].trials for r in rows)), (2.2, 0.7, 0.7, 0.9, 0.9, 1.4, 1.4))
            chart = Bars("wins-chart", "Share of deals won, per worshiper set", tuple(r[0] for r in rows),
                         (Series("won of all deals", tuple(r[5] for r in rows)),), "deals won")
            items = (table, chart)
        flagged = outliers("worshiper sets, solver", [(r[0], r[5]) for r in rows])
        return Section("wins", "Winning full games", "How often a deal can be won, per worshiper set: the solver "
                       "decides each deal (a skilled player who also knows the veiled gods). The simulated players "
                       "win none and are not shown.", items, flagged)

    def _claims(self, results: Results) -> Section:
        decided = self._decided(results)
        sets = {s.id: s.name for s in self.loaded.model.worshiper_sets}
        first = self.loaded.model.worshiper_sets[0].id
        rows: list[tuple[Any, ...]] = []
        haruspex = decided.get((first, ""))
        if haruspex is not None:
            rows.append((f"the vast majority of {sets[first]} deals can be won (over {claims.VAST_MAJORITY:.0%})",
                         haruspex[0].at_least, "", claims.majority(haruspex[0])))
            found = {key: claims.Found(share.at_least.hits, dealt) for key, (share, dealt, _) in decided.items()}
            easier = claims.easier(found[(first, "")], [(set_id, found[(set_id, "")]) for set_id in sets
                                                        if set_id != first and (set_id, "") in found])
            rows += [(f"{sets[first]} significantly easier than {sets[judged.name]}", judged.better.share,
                      judged.worse.share, _verdict(judged)) for judged in easier]
            difficult = claims.judge([(god, found[(first, god)], found[(first, "")]) for god in deals.DIFFICULT_GODS
                                      if (first, god) in found])
            rows += [(f"#{judged.name} {self.god_names[judged.name]} makes the task difficult (deals without it)",
                      judged.better.share, judged.worse.share, _verdict(judged)) for judged in difficult]
        if not rows:
            return Section("claims", "The rulebook's claims", "No solver deals in this run.", ())
        table = Table("claims", "The rulebook's claims about full games",
                      ("claim", "share measured", "compared with", "verdict"), tuple(rows),
                      "Shares of all deals won, with 95% intervals (Wilson). The vast majority: an undecided deal may "
                      "yet be won, so the verdict weighs it both ways (holds: the interval lies above even with every "
                      "undecided deal lost). Easier and difficult: how easily a win is found at this budget (an "
                      "undecided deal is a win not found): holds when the share won is higher by a one-sided Fisher "
                      f"exact test, Holm-corrected over the claim's comparisons, below {claims.ALPHA}; contradicted "
                      "when it is not higher; not settled otherwise (see claims.py for each reading)."
                      + _thin_note(min(min(r[1].trials, r[2].trials if isinstance(r[2], Rate) else r[1].trials)
                                       for r in rows)), (3.4, 1.6, 1.6, 1.0))
        return Section("claims", "The rulebook's claims", "The rulebook says the vast majority of games can be won "
                       "with the Haruspex, that the game is significantly easier with it, and that #7, #9, #13 and #22 "
                       "make the worshiper's task difficult. Each is judged here from the solver's deals.", (table,))

    def _cards(self, results: Results) -> Section:
        total = merged(results.tally(s) for s in results.setups if s.policy != SOLVER)
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
                 for name, members in grouped(results.setups, lambda s: s.policy).items() if name != SOLVER]
        return Section("length", "How deals end", "Turns played (one submerge each) and how each deal ended: a win "
                       "(one god left, or none for the Pretender) or the way it was lost.",
                       (length_table(results, self.length_unit), *lines))


def _verdict(judged: claims.Easier) -> str:
    return f"{judged.verdict} (Holm p {judged.corrected:.2g})"


def _thin_note(dealt: int) -> str:
    """A note when a cell holds too few deals for a narrow interval."""
    if dealt >= THIN_CELL:
        return ""
    fewest = f"as few as {dealt} deals" if dealt else "a cell with no deal"
    return (f" Thin cells: {fewest}, so an interval spans tens of points; the deals command (pantheon monotheism "
            "deals) measures any cell with more deals and a larger node budget.")


def study(game: GameData[MonotheismModel]) -> MonotheismStudy:
    """Monotheism's balance study from its validated data."""
    return MonotheismStudy(game)
