"""Checks of one Monotheism scenario on its own (its cards, its deck, its stored rating), shared by
validation (``checks.py``) and the commands that take a scenario file (``play.py``)."""
from __future__ import annotations

from typing import Any, Iterator, Mapping, Union

from pipeline.games.monotheism.model import Scenario
from pipeline.games.monotheism.rating import SHARE_DIGITS, band, turns_of

PathKey = tuple[Union[str, int], ...]
Finding = tuple[PathKey, str]  # (path inside a record, message without the record's label)

DEITY_COUNT = 29
# The rulebook's identifiers #01..#29; deities.yaml must hold exactly these (deity_id_problems).
DEITY_IDS: tuple[str, ...] = tuple(f"{number:02d}" for number in range(1, DEITY_COUNT + 1))
# ("cursed three times", "cursed twice", "cursed once"); 0 for the others.
CURSES_SURVIVED: Mapping[str, int] = {"pretender": 3, "mizaru": 1, "kikazaru": 1, "iwazaru": 1}
MIN_SCENARIO_GODS = 2  # with fewer, the puzzle is over before it starts


def rating_findings(scenario: Scenario) -> Iterator[Finding]:
    """A stored rating agrees with itself: counts add up, the share and the band follow from the figures."""
    rated = scenario.rating
    if rated is None:
        return
    path = ("rating",)
    decided = rated.winning_first_moves + rated.losing_first_moves
    if decided != rated.first_moves:
        yield path + ("first_moves",), (f"rating: {rated.winning_first_moves} winning and {rated.losing_first_moves} "
                                        f"losing first moves do not add up to {rated.first_moves}")
        return
    share = round(rated.losing_first_moves / rated.first_moves, SHARE_DIGITS)
    if rated.losing_share != share:
        yield path + ("losing_share",), f"rating: losing_share {rated.losing_share} should be {share}"
    if rated.no_win_within >= rated.solution_turns:
        yield path + ("no_win_within",), (f"rating: no_win_within {rated.no_win_within} says no line of that many "
                                          f"turns wins, yet the solution takes {rated.solution_turns}")
        return
    expected = band(rated.winning_first_moves, rated.first_moves, rated.solution_turns, rated.branching,
                    at_least=rated.no_win_within + 1)
    if expected is None:
        yield path + ("difficulty",), (f"rating: difficulty {rated.difficulty!r} is not proved: the fewest turns, "
                                       f"between {rated.no_win_within + 1} and {rated.solution_turns}, leave the band "
                                       "open (see pipeline/games/monotheism/rating.py)")
    elif rated.difficulty != expected:
        yield path + ("difficulty",), (f"rating: difficulty {rated.difficulty!r} does not follow from the figures, "
                                       f"which make it {expected!r} (see pipeline/games/monotheism/rating.py)")
    if rated.most_choices < rated.branching:
        yield path + ("most_choices",), f"rating: most_choices {rated.most_choices} is below the mean {rated.branching}"


def scenario_findings(scenario: Scenario, set_of: Mapping[str, str]) -> Iterator[Finding]:
    """Problems of one scenario; ``set_of`` maps every known worshiper id to its set id."""
    yield from _card_findings(scenario, set_of)
    deck_size = len(scenario.deck)
    if scenario.card_count != deck_size:
        yield ("card_count",), f"stated card count {scenario.card_count} but the deck lists {deck_size} cards"
    top = scenario.top
    if not (top.is_deity and top.veiled):
        yield ("deck", deck_size - 1), f"top card {top.label()} must be a veiled god (every scenario begins by unveiling it)"
    if not scenario.worshipers:
        yield ("deck",), "the deck has no worshiper"
    if len(scenario.deities) < MIN_SCENARIO_GODS:
        yield ("deck",), f"the deck has {len(scenario.deities)} gods; a scenario needs at least {MIN_SCENARIO_GODS}"
    sets = sorted({set_of[w.ref] for w in scenario.worshipers if w.ref in set_of})
    if len(sets) > 1:
        yield ("deck",), f"worshipers come from several sets ({', '.join(sets)}); worshipers join only within their set"
    yield from rating_findings(scenario)


def _card_findings(scenario: Scenario, set_of: Mapping[str, str]) -> Iterator[Finding]:
    first_at: dict[tuple[object, str], int] = {}
    for i, card in enumerate(scenario.deck):
        where = f"card {i + 1} from the bottom ({card.label()})"
        key = (card.kind, card.ref)
        if key in first_at:
            yield ("deck", i), f"{where} is already in the deck as card {first_at[key] + 1}"
        else:
            first_at[key] = i
        if card.is_deity and card.ref not in DEITY_IDS:
            yield ("deck", i, "deity"), f"{where}: no such deity (ids are #{DEITY_IDS[0]}..#{DEITY_IDS[-1]})"
        if card.is_worshiper and card.ref not in set_of:
            yield ("deck", i, "worshiper"), f"{where}: no such worshiper in worshiper-sets.yaml"
        survives = CURSES_SURVIVED.get(card.ref, 0)
        if card.is_worshiper and card.cursed > survives:
            yield ("deck", i, "cursed"), (
                f"{where}: cursed {card.cursed} times, but this worshiper is known to survive only {survives}"
            )


def solution_turns_findings(scenario: Scenario, start: Any) -> Iterator[Finding]:
    """A stored rating's ``solution_turns`` is the stored winning line's length in whole turns.

    The line stored is the solver's shortest (``pantheon monotheism rate`` and ``add`` store both), so the
    measurement is taken again from it on every validate, at the cost of one replay, and a figure edited
    by hand is refused. ``start`` is the scenario's opening position; the line must have replayed cleanly."""
    rated = scenario.rating
    if rated is None or not scenario.winning_line:
        return
    measured = len(turns_of(start, scenario.winning_line))
    if rated.solution_turns != measured:
        yield ("rating", "solution_turns"), (f"rating: solution_turns {rated.solution_turns} is stale: the stored "
                                             f"winning line wins in {measured} turns (pantheon monotheism rate "
                                             f"{scenario.id} measures it again)")
