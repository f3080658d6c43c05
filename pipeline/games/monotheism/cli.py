"""`pantheon monotheism ...`: replay a scenario's stored line, solve, rate, generate and add puzzles, play a
game, estimate #21."""
from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from pipeline import store
from pipeline.analysis.balance.stats import Rate
from pipeline.base.console import progress_bar, stop_spinner
from pipeline.base.errors import UsageProblem, UserError
from pipeline.base.options import DataOption, JsonOption, ProcessesOption
from pipeline.data.dataset import GameData, default_data_root, display_path
from pipeline.games.commands import command_specs, valid_game
from pipeline.games.monotheism import GAME_ID, adding, claims, deals, estimate, guest_check, rating, solver
from pipeline.games.monotheism import generate as generator
from pipeline.games.monotheism.easier import Easier, easier_game, easier_scenario
from pipeline.games.monotheism.engine import PLAYER
from pipeline.games.monotheism.model import RATING_FIELDS, MonotheismModel, Scenario
from pipeline.games.monotheism.narrate import narrate, option_words
from pipeline.games.monotheism.play import Loaded, deal, describe, load, run, scenario_by_number, scenario_from_file
from pipeline.games.monotheism.rounds import default_processes
from pipeline.games.monotheism.storerating import rewrite_rating

app = typer.Typer(help="Monotheism: replay the scenarios' winning lines; solve, rate, generate and add puzzles; "
                       "play a game.", no_args_is_help=True)

BlessOption = typer.Option(False, "--bless-at-start", help="Easier game (rulebook advice): bless the worshipers "
                           "at the start; a blessing on a starting side is kept and spent by the next curse.")
Without21Option = typer.Option(False, "--without-21", help="Easier game (rulebook advice): remove #21 from the deck.")
DEFAULT_SET = "haruspex-of-scriptures"


def _root(data: Optional[Path]) -> Path:
    return data if data is not None else default_data_root()


RevealOption = typer.Option(False, "--reveal", help="Show everything, veiled gods too (for designers).")


@app.command()
def replay(ctx: typer.Context, scenario: str = typer.Argument(..., help="Scenario number (1-5)."),
           reveal: bool = RevealOption, as_json: bool = JsonOption, data: Optional[Path] = DataOption) -> None:
    """Replay a scenario's stored winning line on a fresh deck, saying what each move does."""
    loaded = load(valid_game(ctx, GAME_ID, _root(data)))
    chosen = scenario_by_number(loaded.model, scenario)
    if not chosen.winning_line:
        raise UserError(f"scenario {chosen.id} has no stored winning line")
    state = loaded.game.scenario_state(chosen)
    steps = []
    text = [f"Scenario {chosen.id}: {chosen.title}", *narrate(state, state, reveal=reveal),
            *describe(state, reveal=reveal, detail=0)]
    for number, action in enumerate(chosen.winning_line, 1):
        why = state.why_illegal(action)
        if why is not None:
            raise UserError(f"scenario {chosen.id}: stored move {number} ({action}) is not legal here: {why}")
        shown = option_words(action, state, reveal=reveal)
        before, state = state, state.apply_action(action)
        deck = [card[0] for card in state.deck]
        steps.append({"move": number, "action": action, "deck": deck})
        text.append(f"{number:>3}. {shown}")
        text += narrate(before, state, reveal=reveal)
        if reveal:
            text.append(f"       deck: {' '.join(deck)}")
    outcome = state.outcome()
    result = {"won": bool(outcome and outcome.won_by(PLAYER)),
              "reason": outcome.detail if outcome else "the line stops mid-game"}
    if as_json:
        typer.echo(json.dumps({"scenario": chosen.id, "steps": steps, "outcome": result}, indent=2))
        return
    text.append(("WIN: " if result["won"] else "NOT WON: ") + str(result["reason"]))
    typer.echo("\n".join(text))


def _processes(value: Optional[int]) -> int:
    return value if value is not None else default_processes()


@app.command()
def solve(ctx: typer.Context, scenario: Optional[str] = typer.Argument(None, help="Scenario number (1-5)."),
          file: Optional[Path] = typer.Option(None, "--file", help="A YAML file holding one scenario."),
          max_nodes: int = typer.Option(solver.DEFAULT_MAX_NODES, "--max-nodes", min=1,
                                        help="Node limit: past it the answer is 'limit' (the same on every machine)."),
          first: bool = typer.Option(False, "--first-moves", help="Also judge every possible first turn "
                                     "(slow: proves each losing one lost; --max-nodes for each)."),
          processes: Optional[int] = ProcessesOption, bless_at_start: bool = BlessOption,
          without_21: bool = Without21Option,
          as_json: bool = JsonOption, data: Optional[Path] = DataOption) -> None:
    """Decide a scenario: a winning line, a proof that none exists (no-win), or the node limit (limit)."""
    root = _root(data)
    loaded = load(valid_game(ctx, GAME_ID, root))
    easier = Easier(bless_at_start, without_21)
    chosen = easier_scenario(_chosen(loaded, root, scenario, file), easier)
    game = easier_game(loaded.game, easier)
    workers = _processes(processes)
    result = solver.solve(game.scenario_state(chosen, track_history=False).with_events(False),
                          max_nodes=max_nodes, processes=workers)
    report = {"scenario": chosen.id, "status": result.status, "line": list(result.line),
              "nodes": result.nodes, "seconds": result.seconds}
    moves = None
    if first:
        moves = solver.first_moves(game.scenario_state(chosen, track_history=False).with_events(False),
                                   max_nodes=max_nodes, processes=workers)
        report["first_moves"] = {"winning": list(moves.winning), "losing": list(moves.losing),
                                 "undecided": list(moves.undecided), "losing_share": round(moves.losing_share, 3)}
    if as_json:
        typer.echo(json.dumps(report))
        return
    typer.echo(f"Scenario {chosen.id}: {chosen.title}: {result.status} "
               f"({result.nodes} nodes, {result.seconds:.3f} s)")
    for number, action in enumerate(result.line, 1):
        typer.echo(f"{number:>3}. {action}")
    if moves is not None:
        typer.echo(f"First turns: {len(moves.losing)} of {moves.total} lose ({moves.losing_share:.0%}), "
                   f"{len(moves.winning)} can still win, {len(moves.undecided)} undecided")
        for line in moves.losing:
            typer.echo(f"  loses: {line}")


def _chosen(loaded: Loaded, root: Path, scenario: Optional[str], file: Optional[Path]) -> Scenario:
    """The scenario a command names: a number of the data's scenarios, or a file (one of them)."""
    if scenario is not None and file is None:
        return scenario_by_number(loaded.model, scenario)
    if file is not None and scenario is None:
        return scenario_from_file(file, root, loaded)
    raise UsageProblem("give a scenario number or --file FILE (one of them)")


@app.command()
def play(ctx: typer.Context,
         worshiper_set: str = typer.Option(DEFAULT_SET, "--set", help="Worshiper set id."),
         seed: Optional[int] = typer.Option(None, "--seed", help="Shuffle seed (same seed, same deal)."),
         scenario: Optional[str] = typer.Option(None, "--scenario", help="Play a puzzle scenario instead."),
         bless_at_start: bool = BlessOption, without_21: bool = Without21Option, reveal: bool = RevealOption,
         data: Optional[Path] = DataOption) -> None:
    """Play in the terminal, told what each move does: veiled gods stay hidden (unless --reveal); type a
    choice's key in brackets, 'u' to undo."""
    loaded = load(valid_game(ctx, GAME_ID, _root(data)))
    stop_spinner(ctx)  # the game talks with the user: no spinner beside its prompts
    easier = Easier(bless_at_start, without_21)
    loaded = Loaded(loaded.model, easier_game(loaded.game, easier))
    if scenario is not None:
        chosen = easier_scenario(scenario_by_number(loaded.model, scenario), easier)
        typer.echo(f"Scenario {chosen.id}: {chosen.title}")
        state = loaded.game.scenario_state(chosen)
    else:
        state = deal(loaded, worshiper_set, seed)
        typer.echo(f"Monotheism with {worshiper_set}" + (f", seed {seed}" if seed is not None else ""))
    interactive = sys.stdin.isatty()

    def ask(prompt: str) -> Optional[str]:
        try:
            return input(prompt)
        except (EOFError, KeyboardInterrupt):  # Ctrl-D or Ctrl-C: leave quietly
            return None

    run(state, ask, typer.echo, interactive=interactive, reveal=reveal)


@app.command("estimate-21")
def estimate_21(ctx: typer.Context, games: int = typer.Option(2_000, "--games", min=1, help="Deals per worshiper set."),
                seed: int = typer.Option(0, "--seed", help="First seed (deal and policy); same seed, same figure."),
                policy: str = typer.Option("random", "--policy",
                                           help=f"How moves are chosen: {', '.join(estimate.POLICIES)}."),
                worshiper_set: Optional[list[str]] = typer.Option(None, "--set", help="Worshiper set id "
                                                                  "(repeatable; default: every set)."),
                check: bool = typer.Option(False, "--check", help="Play the check's own seeded run "
                                           f"({guest_check.GAMES_PER_SET:,} deals per set, {estimate.STATED_POLICY} "
                                           "reference player) and fail unless it agrees with the rulebook."),
                as_json: bool = JsonOption, data: Optional[Path] = DataOption) -> None:
    """Monte Carlo: how often is #21 unveiled three times during the first cycle through the deck?

    The first cycle runs from the deal until the highest worshiper first reaches the top or is
    submerged (or the game ends). The rulebook says about once in five hundred games. `validate` does
    not play these deals (seconds of play); `--check` is the check that does.
    """
    if policy not in estimate.POLICIES:
        raise UsageProblem(f"unknown policy {policy!r} (known: {', '.join(estimate.POLICIES)})")
    game = valid_game(ctx, GAME_ID, _root(data))
    loaded = load(game)
    if check:
        _check_21(game, loaded, as_json)
        return
    known = [s.id for s in loaded.model.worshiper_sets]
    sets = worshiper_set or known
    unknown = [s for s in sets if s not in known]
    if unknown:
        raise UserError(f"unknown worshiper set {unknown[0]!r} (known: {', '.join(known)})")
    result = estimate.estimate(loaded, games=games, seed=seed, sets=sets, policy=policy)
    if as_json:
        typer.echo(json.dumps(result.as_dict()))
        return
    typer.echo(f"#{estimate.UNBIDDEN_GUEST} unveiled {estimate.FATAL_UNVEILINGS}+ times in the first cycle "
               f"({policy} policy, seeds from {seed}):")
    for set_id in sets:
        histogram = ", ".join(f"{k}x: {n}" for k, n in sorted(result.histogram[set_id].items()))
        typer.echo(f"  {set_id:<24} {result.hits[set_id]:>5} of {result.games[set_id]} "
                   f"({_one_in(result.rate(set_id))})   unveilings {histogram}")
    low, high = result.interval()
    agrees = result.agrees_with_rulebook()
    verdict = (f"agrees within {estimate.RATE_TOLERANCE}x: {'yes' if agrees else 'no'}" if agrees is not None else
               f"not judged: the figure is about the {estimate.STATED_POLICY} reference player; {policy} unveils "
               "more gods, which the rulebook says meets #21 more often")
    typer.echo(f"  {'all sets':<24} {result.total_hits:>5} of {result.total_games} ({_one_in(result.rate())}; "
               f"95% interval {_one_in(high)} to {_one_in(low)}); the rulebook says about 1 in "
               f"{round(1 / estimate.RULEBOOK_RATE)} ({verdict})")


def _check_21(game: GameData[MonotheismModel], loaded: Loaded, as_json: bool) -> None:
    """#21's frequency held to the rulebook (``guest_check``): one problem line and exit 1 when it disagrees."""
    cards = loaded.game.cards
    under = store.scope()
    problems = list(guest_check.rate_problems(game, cards, under=under))
    hits, games = guest_check.seeded_tally(game, cards, under=under)  # the same run, kept in the store
    if as_json:
        typer.echo(json.dumps({"hits": hits, "games": games, "agrees": not problems,
                               "problems": [str(problem) for problem in problems]}))
    if problems:
        raise UserError(str(problems[0]))
    if not as_json:
        typer.echo(f"ok: #{estimate.UNBIDDEN_GUEST} unveiled three times in the first cycle in {hits} of {games} "
                   f"seeded deals played by the {estimate.STATED_POLICY} reference player, as the rulebook says "
                   f"(about 1 in {round(1 / estimate.RULEBOOK_RATE)})")


@app.command("deals")
def deals_command(
        ctx: typer.Context,
        worshiper: Optional[list[str]] = typer.Option(None, "--worshiper", help="Worshiper set: its id, a worshiper's "
                                                      "id (haruspex) or an id prefix (repeatable; default: every set)."),
        count: int = typer.Option(deals.DEFAULT_COUNT, "--count", min=1, help="Deals per worshiper set."),
        seed: int = typer.Option(1, "--seed", help="First deal: deals SEED .. SEED+COUNT-1 (deal k is the same "
                                 "deck everywhere)."),
        max_nodes: int = typer.Option(deals.DEFAULT_MAX_NODES, "--max-nodes", min=1,
                                      help="The solver's node budget per deal (past it: undecided)."),
        removed: Optional[list[str]] = typer.Option(None, "--without", help="Take this god out of every deal "
                                                    "(repeatable; the other cards keep their places)."),
        processes: Optional[int] = ProcessesOption, as_json: bool = JsonOption,
        data: Optional[Path] = DataOption) -> None:
    """Deal full games (29 veiled gods above a worshiper set) and decide each with the solver: won with a
    line, proved lost, or undecided within the node budget; the win share with its 95% interval."""
    loaded = load(valid_game(ctx, GAME_ID, _root(data)))
    chosen = []
    for name in worshiper or [s.id for s in loaded.model.worshiper_sets]:
        found = deals.worshiper_set(loaded.model, name)
        if found is None:
            raise UsageProblem(f"unknown worshiper set {name!r} (known: "
                               f"{', '.join(s.id for s in loaded.model.worshiper_sets)})")
        chosen.append(found)
    gods = [god.removeprefix("#").zfill(2) for god in removed or []]
    unknown = [god for god in gods if god not in loaded.game.cards.deities]
    if unknown:
        raise UsageProblem(f"--without: no god #{unknown[0]} (gods are #01 to #{max(loaded.game.cards.deities)})")
    seeds = tuple(range(seed, seed + count))
    questions = [deals.Question(s.id, tuple(w.id for w in s.worshipers), tuple(sorted(set(gods))), seeds, max_nodes)
                 for s in chosen]
    stop_spinner(ctx)

    def heard(question: deals.Question, verdict: deals.Verdict) -> None:
        """Text output: each deal's line as soon as it is decided (a long study shows its figures as it goes)."""
        bar.advance(task)
        if not as_json:
            if verdict.seed == question.seeds[0]:
                typer.echo(_batch_title(loaded, question))
            typer.echo(_verdict_line(verdict))

    with progress_bar() as bar:
        task = bar.add_task("deals decided", total=len(questions) * count)
        batches = deals.run(loaded.game, questions, processes=_processes(processes), on_verdict=heard)
    judged = deals.easier_claims(batches, loaded.model.worshiper_sets[0].id)
    if as_json:
        typer.echo(json.dumps({"seed": seed, "count": count, "batches": [b.as_data() for b in batches],
                               "significantly_easier": [e.as_data() for e in judged]}))
        return
    for batch in batches:
        typer.echo(_batch_total(loaded, batch))
    for judgement in judged:
        typer.echo(_easier_line(loaded, judgement, max_nodes))


def _easier_line(loaded: Loaded, found: claims.Easier, max_nodes: int) -> str:
    """The rulebook's "significantly easier" for one other set, as :mod:`claims` reads it."""
    names = {s.id: s.name for s in loaded.model.worshiper_sets}
    small = "" if max_nodes == claims.FOUND_NODES else f" (the claim is read at {claims.FOUND_NODES:,} nodes)"
    return (f"{loaded.model.worshiper_sets[0].name} significantly easier than {names[found.name]}"
            f"{small}: won {found.better.won} of {found.better.deals} against {found.worse.won} of "
            f"{found.worse.deals}, one-sided {found.test} p = {found.p:.2g}, Holm {found.corrected:.2g}: "
            f"{found.verdict}")


def _set_label(loaded: Loaded, question: deals.Question) -> str:
    without = f", without {', '.join('#' + g for g in question.removed)}" if question.removed else ""
    return loaded.model.worshiper_set(question.set_id).name + without


def _batch_title(loaded: Loaded, question: deals.Question) -> str:
    return f"{_set_label(loaded, question)}: deals {question.seeds[0]}..{question.seeds[-1]}, at most {question.max_nodes:,} nodes each"


def _verdict_line(verdict: deals.Verdict) -> str:
    told = f"won in {len(verdict.line)} actions" if verdict.line else {deals.NO_WIN: "proved lost"}.get(
        verdict.status, "undecided")
    return (f"  deal {verdict.seed:>5}: {told:<22} {verdict.nodes:>10,} nodes {verdict.seconds:8.1f} s "
            f"(CPU {verdict.cpu_seconds:.1f} s)")


def _batch_total(loaded: Loaded, batch: deals.Batch) -> str:
    name = _set_label(loaded, batch.question)
    least, most = batch.winnable.at_least, batch.winnable.at_most
    return (f"{name}: won {batch.won}, proved lost {batch.lost}, undecided {batch.undecided} of {len(batch.verdicts)}; "
            f"deals that can be won: at least {_share(least)}, at most {_share(most)} (undecided counted won)")


def _share(rate: Rate) -> str:
    low, high = rate.interval or (0.0, 1.0)
    return f"{rate.value or 0.0:.0%} (95% interval {low:.0%} to {high:.0%})"


def _one_in(rate: float) -> str:
    return f"about 1 in {round(1 / rate)}" if rate else "never"


# ------------------------------------------------------------------ the puzzle lab
class Difficulty(str, Enum):
    easy = "easy"
    medium = "medium"
    hard = "hard"


def _rating_report(chosen: Scenario, found: rating.Rating) -> dict:
    report = {"scenario": chosen.id, "title": chosen.title, "status": found.status, **found.figures(),
              "solution": list(found.solution), "choices_per_turn": list(found.branching),
              "losing_first_move": list(found.losing_example)}
    if chosen.rating is not None:
        stored = {key: getattr(chosen.rating, key) for key in RATING_FIELDS}
        report["matches_stored"] = all(report.get(key) == value for key, value in stored.items())
    return report


def _rating_lines(chosen: Scenario, found: rating.Rating) -> list[str]:
    lines = [f"Scenario {chosen.id}: {chosen.title}: {found.status} ({found.nodes} nodes to decide)"]
    if found.band is not None:
        lines.append(f"  difficulty   {found.band}")
    else:
        lines.append("  difficulty   not rated (not winnable, or a figure hit the node limit)")
    lines.append(f"  first moves  {found.first_moves}: {found.winning_first_moves} still win, "
                 f"{found.losing_first_moves} lose ({found.losing_share:.0%})"
                 + (f", {found.undecided_first_moves} undecided" if found.undecided_first_moves else ""))
    if found.solution_turns is not None:
        fewest = ("at the fewest" if found.shortest_proved else
                  f"(the shortest found; no line of {found.no_win_within} turns or fewer wins)")
        lines.append(f"  solution     {found.solution_turns} turns {fewest}, {found.mean_branching} choices a "
                     f"turn on average along it (at most {max(found.branching, default=0)})")
        lines.append(f"  line         {', '.join(found.solution)}")
    if found.losing_example:
        lines.append(f"  a trap       {', '.join(found.losing_example)}")
    return lines


@app.command()
def rate(ctx: typer.Context, scenario: Optional[str] = typer.Argument(None, help="Scenario number."),
         file: Optional[Path] = typer.Option(None, "--file", help="A YAML file holding one scenario."),
         max_nodes: int = typer.Option(rating.RATE_NODES, "--max-nodes", min=1,
                                       help="Node limit of each question (the answer, then each first move)."),
         processes: Optional[int] = ProcessesOption,
         write: bool = typer.Option(False, "--write", help="Store the measured rating with the scenario in "
                                    "scenarios.yaml (only its figures change; needs the default --max-nodes)."),
         as_json: bool = JsonOption, data: Optional[Path] = DataOption) -> None:
    """Measure a scenario's difficulty: first moves that win and lose, shortest solution, branching, nodes; and
    prove its stored losing first move lost (validate replays the stored line, it does not search)."""
    root = _root(data)
    game = valid_game(ctx, GAME_ID, root)
    loaded = load(game)
    chosen = _chosen(loaded, root, scenario, file)
    if write and (file is not None or max_nodes != rating.RATE_NODES):
        raise UsageProblem("--write stores the rating of a scenario number measured with the default --max-nodes")
    found = rating.rate(loaded.game.scenario_state(chosen, track_history=False).with_events(False), max_nodes=max_nodes,
                        processes=_processes(processes), known=chosen.winning_line)
    report = _rating_report(chosen, found)
    trap = ", ".join(chosen.losing_first_move)
    report["trap_proved_lost"] = bool(trap) and trap in found.losing_moves
    written = rewrite_rating(game, chosen, found) if write else None
    if as_json:
        typer.echo(json.dumps({**report, "written": str(written) if written else None}))
    else:
        typer.echo("\n".join(_rating_lines(chosen, found)))
        if trap:
            typer.echo(f"  stored trap  {trap}: " + ("proved lost" if report["trap_proved_lost"] else
                                                     "NOT proved lost (it can still win, or its search hit the limit)"))
        if report.get("matches_stored") is False and written is None:
            changed = [key for key in RATING_FIELDS if report.get(key) != getattr(chosen.rating, key)]
            typer.echo(f"  note         these figures differ from the rating stored with the scenario ({', '.join(changed)}); "
                       f"`--write` stores them")
        if written is not None:
            typer.echo(f"  wrote        the rating into {display_path(written)}")
    if trap and not report["trap_proved_lost"]:
        raise UserError(f"scenario {chosen.id}: the stored losing_first_move {trap} is not proved lost")


@app.command()
def generate(ctx: typer.Context, cards: int = typer.Option(11, "--cards", min=3, help="Cards in each deck (one is the worshiper)."),
             count: int = typer.Option(1, "--count", min=1, help="Puzzles to write."),
             seed: int = typer.Option(0, "--seed", min=0, help="Same seed, same puzzles."),
             worshiper_set: Optional[str] = typer.Option(None, "--set", help="Worshiper set id to draw the "
                                                         "worshiper from (default: any)."),
             difficulty: Optional[Difficulty] = typer.Option(None, "--difficulty", case_sensitive=False,
                                                             help="Keep only puzzles of this band."),
             out: Path = typer.Option(Path("puzzles"), "--out", help="Folder for the scenario files."),
             max_nodes: int = typer.Option(generator.GENERATE_NODES, "--max-nodes", min=1,
                                           help="Node limit of each question asked about a candidate deck."),
             attempts: Optional[int] = typer.Option(None, "--attempts", min=1, help="Decks to draw at most "
                                                    f"(default {generator.ATTEMPTS_PER_PUZZLE} per puzzle)."),
             processes: Optional[int] = ProcessesOption,
             data: Optional[Path] = DataOption,
             as_json: bool = typer.Option(False, "--json", help="Print JSON: {puzzles: [{path, band, ...}], "
                                          "drawn, reasons}.")) -> None:
    """Write new scenarios, each proved winnable and rated, never repeating an existing deck."""
    loaded = load(valid_game(ctx, GAME_ID, _root(data)))
    gods = len(loaded.game.cards.deities)
    if cards - 1 > gods:
        raise UsageProblem(f"--cards {cards}: a deck holds one worshiper and at most {gods} gods")
    worshipers = None
    if worshiper_set is not None:
        known = {s.id: s for s in loaded.model.worshiper_sets}
        if worshiper_set not in known:
            raise UserError(f"unknown worshiper set {worshiper_set!r} (known: {', '.join(known)})")
        worshipers = tuple(w.id for w in known[worshiper_set].worshipers)
    request = generator.Request(cards=cards, count=count, seed=seed, worshipers=worshipers,
                                difficulty=difficulty.value if difficulty else None, max_nodes=max_nodes,
                                attempts=attempts)
    existing = [generator.signature(s.deck) for s in loaded.model.scenarios]
    existing += _signatures_in(out, loaded, prefix=generator.puzzle_id(request, 0).rsplit("-", 1)[0] + "-")
    reasons: dict[str, int] = {}

    def tally(attempt: int, verdict: str) -> None:
        reasons[verdict.split(" (")[0]] = reasons.get(verdict.split(" (")[0], 0) + 1

    puzzles = generator.generate(loaded, request, existing=existing, processes=_processes(processes),
                                 progress=tally)
    written = []
    for puzzle in puzzles:
        path = generator.write_puzzle(out, puzzle)
        found = puzzle.rating
        written.append({"path": str(path), "band": found.band, "winning_first_moves": found.winning_first_moves,
                        "first_moves": found.first_moves, "solution_turns": found.solution_turns, "nodes": found.nodes})
        if not as_json:
            typer.echo(f"wrote {display_path(path)}: {found.band}, {found.winning_first_moves} of {found.first_moves} "
                       f"first moves win, {found.solution_turns} turns at the fewest, {found.nodes} nodes")
    tried = sum(reasons.values())
    if as_json:
        typer.echo(json.dumps({"puzzles": written, "drawn": tried, "reasons": dict(sorted(reasons.items()))}))
    else:
        typer.echo(f"{tried} {'deck' if tried == 1 else 'decks'} drawn: "
                   + ", ".join(f"{n} {why}" for why, n in sorted(reasons.items())))
    if len(puzzles) < count:
        raise UserError(f"found {len(puzzles)} of the {count} puzzles asked for in {tried} decks "
                        "(raise --attempts or --max-nodes, or ask for another --difficulty)")


def _signatures_in(folder: Path, loaded: Loaded, *, prefix: str) -> list:
    """Decks of the scenario files already in ``folder`` (except those this run may rewrite)."""
    if not folder.is_dir():
        return []
    return [generator.signature(scenario_from_file(path, _root(None), loaded).deck)
            for path in sorted(folder.glob("*.yaml")) if not path.stem.startswith(prefix)]


@app.command()
def add(ctx: typer.Context, file: Path = typer.Argument(..., help="A scenario file (e.g. one written by generate)."),
        max_nodes: int = typer.Option(rating.RATE_NODES, "--max-nodes", min=1,
                                      help="Node limit of each question of the rating."),
        processes: Optional[int] = ProcessesOption,
        data: Optional[Path] = DataOption,
        as_json: bool = typer.Option(False, "--json", help="Print JSON: {number, title, difficulty, file}.")) -> None:
    """Add a scenario to the data (numbered after the last, provenance authored, with its rating)."""
    root = _root(data)
    loaded = load(valid_game(ctx, GAME_ID, root))
    path = adding.add_scenario(root, command_specs(ctx), loaded, file, max_nodes=max_nodes, processes=_processes(processes))
    added = adding.last_scenario(root)
    if as_json:
        typer.echo(json.dumps({"number": added["number"], "title": added["title"],
                               "difficulty": added["rating"]["difficulty"], "file": str(path)}))
        return
    typer.echo(f"added scenario {added['number']} ({added['title']}, {added['rating']['difficulty']}) to "
               f"{display_path(path)}; `pantheon build monotheism` prints it in the rulebook and as a puzzle sheet")
