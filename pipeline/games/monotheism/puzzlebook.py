"""Monotheism's puzzle book: a cover, how to play a puzzle, each scenario on its own page or half page
(the deck drawn as cards and listed, its goal and difficulty), and the solutions together at the back,
each as numbered turns in the rulebook's words ("Unveil #11. It acts: choose #14. Submerge two cards ...").

A solution is the scenario's winning line from data/monotheism/scenarios.yaml, cut into turns on the rules
engine and told with the rulebook's three steps (unveil, act, submerge)."""
from __future__ import annotations

import math
from typing import Callable

from reportlab.pdfbase.pdfmetrics import stringWidth

from pipeline.cards import fonts
from pipeline.cards.units import PT_PER_MM
from pipeline.documents import structure as m
from pipeline.documents.standard import DocContext
from pipeline.games.monotheism.engine import ACCEPT, DECLINE, LABEL, PICK, PLACE, SUBMERGE, Game, State
from pipeline.games.monotheism.model import Scenario
from pipeline.games.monotheism.rating import EASY, HARD, MEDIUM, turns_of

EMBLEM = "aspect-moon"
STARS = {EASY: 1, MEDIUM: 2, HARD: 3}  # filled stars of a difficulty, out of the hardest's
STAR_R, STAR_GAP, STAR_INNER = 2.2, 1.2, 0.45  # mm: a star's outer radius, the gap between two, its inner radius's share
DIFFICULTY_PT = 9.0
ACT_CHOICE = "Its act: choose"
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
HOW_TO = (
    "Each puzzle is a scenario of the rulebook: a deck set up in a given order, one worshiper in it. "
    "Play it as the rules say, turn after turn (unveil, act, submerge), and win by leaving exactly one god "
    "while a worshiper is still in the deck.",
    "The deck is drawn from its top card (left) to its bottom card (right), and listed in the same order "
    "under the drawing. Build it from the bottom card up, so the first card listed ends on top. A dark card "
    "starts veiled, a card drawn upside down starts transformed; every other card starts unveiled and upright.",
    "The stars give each puzzle's difficulty. The solutions are at the back of the book, one numbered step a "
    "turn: try a puzzle before you turn to them.",
)


def count_word(n: int) -> str:
    """A small number as a word ("two"), a larger one in figures."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def stars(difficulty: str) -> m.Diagram:
    """The difficulty drawn as stars (one to three filled, the rest outlined) and named after them."""
    shapes: list[m.Shape] = []
    for n in range(max(STARS.values())):
        cx = STAR_R + n * (2 * STAR_R + STAR_GAP)
        points = tuple((cx + r * math.sin(math.pi * k / 5), STAR_R - r * math.cos(math.pi * k / 5))
                       for k in range(10) for r in [STAR_R if k % 2 == 0 else STAR_R * STAR_INNER])
        shapes.append(m.Polygon(points, fill="accent" if n < STARS[difficulty] else None, stroke="accent", line="thin"))
    x = max(STARS.values()) * (2 * STAR_R + STAR_GAP) + STAR_GAP
    word = f"Difficulty: {difficulty}"
    shapes.append(m.Label(x, 2 * STAR_R - 0.6, word, size=DIFFICULTY_PT, anchor="start", bold=True))
    fonts.register()
    width = stringWidth(word, fonts.font_name(fonts.BOLD), DIFFICULTY_PT) / PT_PER_MM  # the label's own width, so it never runs past
    return m.Diagram(x + width, 2 * STAR_R, tuple(shapes), (f"{word} ({STARS[difficulty]} of 3 stars)",))


class _Teller:
    """Names cards as the rulebook does (#07 for a god, a worshiper by name) and tells a turn in its words."""

    def __init__(self, ctx: DocContext) -> None:
        self.ctx = ctx
        self.deities = ctx.game.model.cards.deities
        self.worshipers = {w["id"]: str(w["name"]) for s in ctx.data("worshiper-sets")["worshiper_sets"] for w in s["worshipers"]}

    def card(self, label: str) -> str:
        return f"#{label}" if label in self.deities else self.worshipers.get(label, label)

    def turn(self, start: State, actions: tuple[str, ...]) -> str:
        """One turn: the unveil (when the top card starts veiled), the act's choices, the submerge."""
        name = self.card(start.deck[0][LABEL])
        # a card that reached the top veiled was unveiled as it got there (``began`` is false for it)
        words = [f"{name} is on top." if start.began else f"Unveil {name}."]
        submerged = 0
        for action in actions:
            verb, _, arg = action.partition(" ")
            if verb == PICK and words[-1].startswith(ACT_CHOICE):  # a further choice of the same act
                words[-1] = f"{words[-1][:-1]}, then {self.card(arg)}."
            elif verb == PICK:
                words.append(f"{ACT_CHOICE} {self.card(arg)}.")
            elif verb == ACCEPT:
                words.append("Let it act.")
            elif verb == DECLINE:
                words.append("Let its act pass.")
            elif verb == SUBMERGE:
                submerged = int(arg)
                words.append(f"Submerge {count_word(submerged)} card{'s' if submerged != 1 else ''}" + ("." if submerged == 1 else ""))
            elif verb == PLACE:
                words[-1] += self._placed(name, int(arg), submerged)
        if submerged > 1 and not any(a.startswith(PLACE) for a in actions):
            words[-1] += "."
        return " ".join(words)

    @staticmethod
    def _placed(name: str, position: int, count: int) -> str:
        """Where the old top card goes in the submerged block, in words."""
        if position == 1:
            return f", {name} staying on top of them."
        if position == count:
            return f", {name} going to the very bottom of the deck."
        return f", {name} slotted in as the {ordinal(position)} of the {count_word(count)}."


def _puzzle(ctx: DocContext, scenario: Scenario, deck: m.Block, table: m.Table) -> m.Group:
    """One puzzle, kept on one page: title, difficulty, the designer's notes, the deck drawn and listed."""
    parts: list[m.Block] = [m.Heading(f"Puzzle {scenario.number}: {ctx.text(scenario.title)}", 1)]
    if scenario.rating is not None:
        parts.append(stars(scenario.rating.difficulty))
    parts += [m.Paragraph(ctx.text(n)) for n in scenario.notes]
    parts += [deck, table]
    return m.Group(tuple(parts))


def solution_blocks(ctx: DocContext, scenario: Scenario, engine: Game) -> list[m.Block]:
    """A scenario's solution as numbered turns (nothing for a scenario without a winning line)."""
    if not scenario.winning_line:
        return []
    teller = _Teller(ctx)
    start = engine.scenario_state(scenario, track_history=False)
    turns = [teller.turn(state, actions) for state, actions in turns_of(start, scenario.winning_line)]
    heading = m.Heading(f"Puzzle {scenario.number}: {ctx.text(scenario.title)}", 2)
    return [m.Group((heading, m.ListBlock(tuple(turns), numbered=True)))]


def puzzle_book(ctx: DocContext, deck: Callable[[DocContext, Scenario], m.Block],
                table: Callable[[DocContext, Scenario], m.Table]) -> m.Document:
    """The puzzle book: how to play, a page or half page a puzzle, then every solution at the back."""
    scenarios = ctx.game.model.scenarios
    blocks: list[m.Block] = [m.Heading("How to play a puzzle", 1), *(m.Paragraph(p) for p in HOW_TO)]
    for scenario in scenarios:
        blocks.append(_puzzle(ctx, scenario, deck(ctx, scenario), table(ctx, scenario)))
    engine = Game(ctx.game.model.cards)
    blocks += [m.PageBreak(), m.Heading("Solutions", 1),
               m.Paragraph("One numbered step a turn. The rulebook's three steps are told as you play them: the top "
                           "card is unveiled, it acts, then you submerge.", "note")]
    for scenario in scenarios:
        blocks += solution_blocks(ctx, scenario, engine)
    cover = ctx.cover(EMBLEM, (f"{len(scenarios)} puzzles",))
    return ctx.document("puzzles", "Puzzle book", blocks, subtitle="Scenarios to solve, solutions at the back", cover=cover)
