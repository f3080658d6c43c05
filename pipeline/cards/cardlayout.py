"""Laying out every card face of a game as the build does, without a PDF (for validate's card check,
``cardcheck.py``, which imports this only when a game is not stamped: it loads the renderer)."""
from __future__ import annotations

from pathlib import Path
from typing import Iterable

from pipeline.base.errors import UserError
from pipeline.cards import build, design, fonts
from pipeline.cards.faces import FaceRecords, Splitter, content_key
from pipeline.cards.forms import FaceForm
from pipeline.cards.imposition import SHEETS_NAME, SHEETS_SCHEMA_NAME, load_sheets
from pipeline.cards.plan import Face
from pipeline.cards.svgtemplates import Templates
from pipeline.data.dataset import GameData, display_path
from pipeline.data.problems import Location, Problem


class Layouts:
    """Faces laid out for checking (``build.FaceMaker``): from the build's face records when it has
    laid the face out before, else rendered and split afresh; each distinct face once."""

    def __init__(self, templates: Templates, game: str) -> None:
        self.templates = templates
        self._records = FaceRecords(templates, game)
        self._splitter = Splitter(templates)
        self._by_content: dict[str, FaceForm] = {}

    def face(self, face: Face, where: str) -> FaceForm:
        key = content_key(face)
        if key is not None and key in self._by_content:
            return self._by_content[key]
        record = self._records.get(key) if key is not None else None
        if record is None:
            svg = self.templates.render(face.template, face.context, where)
            record, _ = self._splitter.split(svg, face.template, where)
            if key is not None:
                self._records.put(key, record)
        form = FaceForm(where, record, self.templates.bleed_mm)
        if key is not None:
            self._by_content[key] = form
        return form

    def save(self) -> None:
        """Keep the records of the faces laid out, as a build keeps them (only after every card passed:
        the build then finds the same faces; after an edit, only the changed faces are laid out again)."""
        self._records.save()


def problems(data: GameData, template_root: Path) -> Iterable[Problem]:
    """Every card the build would refuse, one problem per card (the build's own message)."""
    game_at = Location(display_path(data.root), 1, 1)
    try:
        plan = build.plan(data.root.parent, data.game, data)
    except UserError as exc:
        yield Problem(game_at, str(exc))
        return
    fonts.register()
    sheets = load_sheets(template_root / SHEETS_NAME, template_root / SHEETS_SCHEMA_NAME)
    templates = Templates(template_root, bleed_mm=sheets.bleed_mm)
    faces = (face for card in plan.cards for face in (card.front, card.back) if face is not None)
    if not all(templates.has(face.template) for face in faces):
        return  # the game's card templates live elsewhere (`build --templates`): its build lays the cards out
    layouts = Layouts(templates, data.game)
    rules = design.rules_for(template_root)
    checked: set[int] = set()
    clean = True
    for card in plan.cards:
        try:
            build.checked_faces(plan, layouts, card, rules, checked)
        except UserError as exc:
            clean = False
            yield _problem(str(exc), game_at)
    for message in build.colour_key_problems(plan, templates):
        clean = False
        yield Problem(game_at, message)
    if clean:
        layouts.save()


def _problem(message: str, fallback: Location) -> Problem:
    """The build's message as a problem: its leading ``file:line:column`` becomes the location (so the
    problem prints exactly as the build's error reads)."""
    head, sep, rest = message.partition(": ")
    parts = head.rsplit(":", 2)
    if sep and len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
        return Problem(Location(parts[0], int(parts[1]), int(parts[2])), rest)
    return Problem(fallback, message)


