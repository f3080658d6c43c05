"""`pantheon validate`'s card check: every face laid out as the build lays it out, without a PDF.

Whatever a build refuses on data (a text that does not fit its box even at
the minimum size, a character the font lacks, an unknown icon, markup that
cannot be printed, a design rule, a colour shown without its symbol) is
found here first, with the very message the build gives: both go through
``build.checked_faces``, the one place those checks are made.

A face laid out before (by a build, or by this check) is taken from the
game's face records (``faces.FaceRecords``: those records passed when they
were made); after a clean check the records are kept, just as a build keeps
them, so the check after an edit lays out only the faces that changed.
A game whose card inputs are unchanged since its last clean check is not
checked again: a stamp (a hash of the game's data files, the templates that
decide its look, and the pipeline's code) is kept in the results cache.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Iterable

from pipeline.core import resultcache
from pipeline.core.dataset import GameData, display_path
from pipeline.core.errors import UserError
from pipeline.core.problems import Location, Problem
from pipeline.core.render import build, cache, design, fonts
from pipeline.core.render.faces import FaceRecords, Splitter, content_key
from pipeline.core.render.forms import FaceForm
from pipeline.core.render.imposition import SHEETS_NAME, SHEETS_SCHEMA_NAME, load_sheets
from pipeline.core.render.model import Face
from pipeline.core.render.svgtemplates import TEMPLATE_ROOT, Templates

STAMPS = "cardcheck"


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


def card_problems(data: GameData, template_root: Path = TEMPLATE_ROOT) -> list[Problem]:
    """Every card of ``data`` (validated, cross-checks passed) that its build would refuse, one problem
    per card, at the data field the failing text shows (else the card's record). A game whose card
    templates are not under ``template_root`` (a game of another template folder) is not laid out."""
    if not data.spec.has("cards"):
        return []
    stamp = _stamp(data, template_root)
    if resultcache.known(STAMPS, stamp):
        return []
    found = list(_problems(data, template_root))
    if not found:
        resultcache.remember(STAMPS, stamp)
    return found


def _problems(data: GameData, template_root: Path) -> Iterable[Problem]:
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


def _stamp(data: GameData, template_root: Path) -> list[str]:
    """What decides whether the game's cards pass: its data files, the templates, icons, sheets, design
    rules and fonts of its look, and the code (hashed by content and relative name, so a copy of
    unchanged data in another folder is known too)."""
    digest = hashlib.blake2b(digest_size=20)
    for base, files in ((data.root, sorted(data.root.glob("*.yaml"))), (template_root, cache.look_inputs(data.game, template_root))):
        for path in files:
            try:
                name = str(path.relative_to(base))
            except ValueError:  # a font outside the templates
                name = path.name
            digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return [data.game, digest.hexdigest(), resultcache.source_hash(cache.PIPELINE_ROOT)]
