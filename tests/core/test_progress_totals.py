"""Every progress bar ends full: the total it is given is the number of steps the work then reports (issue
#30: the export bar counted every card's faces but stepped once per distinct face, and stopped at 44/72)."""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Callable

from pipeline.app.build import BuildRequest, Part, build
from pipeline.cards.build import Plan
from pipeline.cards.plan import Face
from pipeline.cards.svgtemplates import TEMPLATE_ROOT
from pipeline.exports.export import export, face_count
from pipeline.exports.targets import target

from .render_helpers import toy_plan, toy_template_root


class Recorder:
    """A progress bar that remembers what it was told."""

    def __init__(self) -> None:
        self.totals: list[int] = []
        self.steps = 0

    def begin(self, total: int) -> None:
        self.totals.append(total)

    def game(self, game: str) -> None:
        pass

    def advance(self, done: int) -> None:
        self.steps += done


def test_the_export_bar_counts_the_faces_it_draws(tmp_path: Path) -> None:
    shared = Face("toy/back.svg.j2", {"name": "Toy"})
    cards = [dataclasses.replace(card, back=shared) for card in toy_plan(3).cards]
    plan = Plan("toy", "Toy Game", cards)  # three fronts and one back shared by all: four faces to draw, six on cards
    seen = Recorder()
    export(plan, target("mpc"), tmp_path, progress=seen, template_root=toy_template_root(tmp_path))
    assert seen.totals == [4] and seen.steps == 4
    assert face_count(plan) == 6


def test_the_build_bar_counts_the_cards_it_draws(data_copy_of: Callable[..., Path], tmp_path: Path) -> None:
    root = data_copy_of("theocracy")
    seen = Recorder()
    build(BuildRequest(root, tmp_path / "out", TEMPLATE_ROOT, ("theocracy",), only=Part.CARDS), progress=seen)
    assert len(seen.totals) == 1 and seen.totals[0] > 0 and seen.steps == seen.totals[0]
