"""New Monotheism puzzles: random decks that the solver proves winnable, rated, never a repeat.

Attempt ``k`` of seed ``S`` draws a deck from the card data alone
(``decks.random_puzzle_deck`` named ``"S-k"``): one worshiper (of the chosen
set, starting with no more curses than the rulebook shows it surviving), the
other cards distinct gods, some transformed, the top one veiled. A deck is kept
when, within the node limit:

* the solver wins it (its shortest winning line becomes ``winning_line``);
* every first move is judged, and at least one is proved lost (it becomes
  ``losing_first_move``: a real puzzle, as validate asks of every scenario);
* its difficulty band is the one asked for (``rating.py`` says how bands are
  drawn from the figures);
* no scenario of the data, no scenario file already in the output folder and
  no puzzle of this run has the same deck.

Everything is counted in nodes, so the same seed gives the same puzzles on any
machine and with any number of processes.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Sequence

import yaml

from pipeline.cards.pdfwrite import write_atomic
from pipeline.games.monotheism.checks import CURSES_SURVIVED
from pipeline.games.monotheism.decks import random_puzzle_deck
from pipeline.games.monotheism.model import ScenarioCard
from pipeline.games.monotheism.play import Loaded
from pipeline.games.monotheism.rating import Rating, rate, stored
from pipeline.games.monotheism.solver import WIN, solve

TRANSFORMED_SHARE = 0.15   # share of the unveiled gods a generated deck starts transformed
GENERATE_NODES = 150_000   # default node limit of each question asked about a candidate deck
ATTEMPTS_PER_PUZZLE = 60   # default number of decks drawn per puzzle asked for

Signature = tuple[tuple[str, str, bool, bool, int], ...]


@dataclass(frozen=True)
class Request:
    """What a designer asks for."""

    cards: int
    count: int
    seed: int
    worshipers: Optional[tuple[str, ...]] = None  # the worshiper cards to draw from (None: all)
    difficulty: Optional[str] = None
    max_nodes: int = GENERATE_NODES
    attempts: Optional[int] = None  # decks drawn at most (None: ATTEMPTS_PER_PUZZLE per puzzle)


@dataclass(frozen=True)
class Puzzle:
    """A generated scenario: its record (as scenarios.yaml holds one) and its measured rating."""

    record: dict[str, Any]
    rating: Rating
    attempt: int


def signature(deck: Sequence[ScenarioCard]) -> Signature:
    """A deck as it is set up (bottom first): two scenarios with the same signature are the same puzzle."""
    return tuple((card.kind.value, card.ref, card.veiled, card.transformed, card.cursed) for card in deck)


def puzzle_id(request: Request, attempt: int) -> str:
    return f"g{request.cards}-{request.seed}-{attempt}"


def deck_record(deck: Sequence[ScenarioCard]) -> list[dict[str, Any]]:
    """Deck entries as scenarios.yaml writes them (bottom first, flags only when set)."""
    entries: list[dict[str, Any]] = []
    for card in deck:
        if card.is_deity:
            entry: dict[str, Any] = {"deity": card.ref}
            if card.veiled:
                entry["veiled"] = True
            if card.transformed:
                entry["transformed"] = True
        else:
            entry = {"worshiper": card.ref}
            if card.cursed:
                entry["cursed"] = card.cursed
        entries.append(entry)
    return entries


def scenario_record(loaded: Loaded, scenario_id: str, deck: Sequence[ScenarioCard], rating: Rating,
                    note: str) -> dict[str, Any]:
    """The record of a generated scenario (deck bottom first), ready for a YAML file or scenarios.yaml."""
    top = deck[-1]
    worshiper = next(card for card in deck if card.is_worshiper)
    title = f"{loaded.model.worshiper(worshiper.ref).name} and {loaded.game.cards.deities[top.ref].name}"
    return {
        "id": scenario_id,
        "title": title,
        "card_count": len(deck),
        "deck": deck_record(deck),
        "winning_line": list(rating.solution),
        "losing_first_move": list(rating.losing_example),
        "rating": stored(rating),
        "provenance": {"source": "authored", "note": note},
    }


def generate(loaded: Loaded, request: Request, *, existing: Iterable[Signature] = (), processes: int = 1,
             progress: Optional[Callable[[int, str], None]] = None) -> list[Puzzle]:
    """Up to ``request.count`` new puzzles, in attempt order (fewer when the attempts run out)."""
    seen = set(existing)
    found: list[Puzzle] = []
    attempts = request.attempts if request.attempts is not None else ATTEMPTS_PER_PUZZLE * request.count
    game = loaded.game
    for attempt in range(attempts):
        if len(found) == request.count:
            break
        top_first = random_puzzle_deck(game.cards, request.cards, f"{request.seed}-{attempt}",
                                       worshipers=request.worshipers, transformed_share=TRANSFORMED_SHARE,
                                       max_curses=CURSES_SURVIVED)
        deck = tuple(reversed(top_first))
        verdict = _judge(loaded, request, top_first, signature(deck) in seen, processes)
        if progress is not None:
            progress(attempt, verdict if isinstance(verdict, str) else f"kept ({verdict.band})")
        if isinstance(verdict, str):
            continue
        seen.add(signature(deck))
        note = f"generated by pantheon monotheism generate --cards {request.cards} --seed {request.seed} " \
               f"(attempt {attempt})"
        found.append(Puzzle(scenario_record(loaded, puzzle_id(request, attempt), deck, verdict, note),
                            verdict, attempt))
    return found


def _judge(loaded: Loaded, request: Request, top_first: Sequence[ScenarioCard], duplicate: bool,
           processes: int) -> Any:
    """The candidate's rating when it is kept, else why not (a short phrase)."""
    if duplicate:
        return "duplicate of an existing scenario"
    state = loaded.game.state_for(top_first, track_history=False)
    if state.is_terminal():
        return "over before the first turn"
    decided = solve(state, max_nodes=request.max_nodes, processes=processes)
    if decided.status != WIN:
        return f"not winnable ({decided.status})"
    rating = rate(state, max_nodes=request.max_nodes, processes=processes, decided=decided)
    if rating.band is None or not rating.shortest_proved:
        return "figures hit the node limit"
    if not rating.losing_first_moves:
        return "no first move loses"
    if request.difficulty is not None and rating.band != request.difficulty:
        return f"{rating.band}, not {request.difficulty}"
    return rating


def write_puzzle(folder: Path, puzzle: Puzzle) -> Path:
    """Write ``folder/<id>.yaml`` atomically (a YAML document in the scenario schema)."""
    path = folder / f"{puzzle.record['id']}.yaml"
    rating = puzzle.rating
    header = (f"# A generated Monotheism puzzle: proved winnable in {rating.nodes} nodes; "
              f"{rating.winning_first_moves} of {rating.first_moves} first moves still win; "
              f"shortest solution {rating.solution_turns} turns.\n"
              f"# Check it: pantheon monotheism rate --file {path.name}   "
              f"Add it to the rulebook: pantheon monotheism add {path.name}\n")
    write_atomic(path, (header + dump(puzzle.record)).encode("utf-8"))
    return path


class _Quoted(str):
    """A string written in double quotes (deity ids such as "08" must never read as numbers)."""


class _Dumper(yaml.SafeDumper):
    """Block YAML as the data files write it: list items indented under their key."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> Any:
        return super().increase_indent(flow, False)


_Dumper.add_representer(_Quoted, lambda dumper, value: dumper.represent_scalar("tag:yaml.org,2002:str", value,
                                                                                style='"'))


def dump(record: Any) -> str:
    """A scenario record (or a list of them) as block YAML in the data's key order, deity ids quoted."""
    return yaml.dump(_quote_ids(record), Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                     default_flow_style=False, width=100)


def _quote_ids(node: Any) -> Any:
    if isinstance(node, dict):
        return {key: _Quoted(value) if key == "deity" else _quote_ids(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_quote_ids(item) for item in node]
    return node
