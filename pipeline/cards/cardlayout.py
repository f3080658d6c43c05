"""Laying out every card face of a game as the build does, without a PDF (for validate's card check,
``cardcheck.py``), and handing the faces laid out to the build of the same command (``LaidOutCards``)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Optional

from pipeline import store
from pipeline.base.errors import UserError
from pipeline.cards import build, fonts
from pipeline.cards.artcache import ArtCache
from pipeline.cards.faces import FaceRecord, FaceRecords, Splitter, content_key
from pipeline.cards.forms import FaceForm
from pipeline.cards.imposition import SHEETS_NAME, SHEETS_SCHEMA_NAME, load_sheets
from pipeline.cards.plan import Face
from pipeline.cards.svgtemplates import Templates
from pipeline.cards.templatecode import TemplateCode
from pipeline.data.dataset import GameData, display_path
from pipeline.data.problems import Location, Problem


class Layouts:
    """Faces laid out for checking (``build.FaceMaker``): from the build's face records when it has
    laid the face out before, else rendered and split afresh; each distinct face once."""

    def __init__(self, templates: Templates, game: str, art: Optional[ArtCache] = None) -> None:
        self.templates = templates
        self._records = FaceRecords(templates, game)
        self._splitter = Splitter(templates, art)
        self._by_content: dict[str, FaceForm] = {}
        self.arts: dict[str, Any] = {}  # art key -> its SVG root, for each face split here (the build converts these)

    @property
    def splitter(self) -> Splitter:
        """The splitter of these faces: what it fitted and measured (text slots, art layers' paints) it does not
        work again for another edition of the same cards."""
        return self._splitter

    @property
    def ink_saver(self) -> bool:
        return self.templates.ink_saver

    @property
    def records(self) -> FaceRecords:
        """The game's face records as this check read them from the store and keeps them (``save``): the build
        of the same command counts its faces in these, not in a second reading of the same store entry."""
        return self._records

    def record(self, key: str) -> Optional[FaceRecord]:
        """The record of the face of content ``key`` when it was laid out here."""
        form = self._by_content.get(key)
        return form.record if form is not None else None

    def face(self, face: Face, where: str) -> FaceForm:
        key = content_key(face)
        if key is not None and key in self._by_content:
            return self._by_content[key]
        record = self._records.get(key) if key is not None else None
        if record is None:
            svg = self.templates.render(face.template, face.context, where)
            record, roots = self._splitter.split(svg, face.template, where)
            self.arts.update(roots)
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


class LaidOutCards:
    """The card faces validate's card check laid out, by game, for the build of the same command to draw
    (explicit data flow within one command, as documents pass ``LaidOut``: nothing outlives the command), and
    the command's art cache: what the check converts or splits, the build draws without converting again.
    ``scope``: the command's store scope of the project's templates (what the card check lays faces out from);
    ``code``: the card templates the command compiled (every ``Templates`` of the command shares them)."""

    def __init__(self, scope: store.Scope) -> None:
        self._games: dict[str, Layouts] = {}
        self._templates: dict[tuple[Path, float], Templates] = {}
        self.art = ArtCache()
        self.scope = scope
        self.code = TemplateCode()

    def templates(self, root: Path, bleed_mm: float) -> Templates:
        """The command's card templates under ``root`` (the card check of every game lays its faces out from
        them, and the documents draw with them): one jinja2 environment, each template loaded once."""
        key = (root, bleed_mm)
        if key not in self._templates:
            scope = self.scope if self.scope.templates == root.resolve() else None
            self._templates[key] = Templates(root, bleed_mm=bleed_mm, scope=scope, code=self.code)
        return self._templates[key]

    def keep(self, game: str, layouts: Layouts) -> None:
        self._games[game] = layouts

    def of(self, game: str, template_root: Path) -> Optional[Layouts]:
        """The faces of ``game`` when they were laid out from ``template_root`` (else None: a build from other
        templates lays its faces out itself)."""
        layouts = self._games.get(game)
        return layouts if layouts is not None and layouts.templates.root == template_root else None


def problems(data: GameData, template_root: Path, keep: Optional[LaidOutCards] = None) -> Iterable[Problem]:
    """Every card the build would refuse, one problem per card (the build's own message); the faces of a
    game with none go to ``keep``."""
    game_at = Location(display_path(data.root), 1, 1)
    try:
        plan = build.plan(data.root.parent, data.game, data)
    except UserError as exc:
        yield Problem(game_at, str(exc))
        return
    fonts.register()
    sheets = load_sheets(template_root / SHEETS_NAME, template_root / SHEETS_SCHEMA_NAME)
    templates = (keep.templates(template_root, sheets.bleed_mm) if keep is not None
                 else Templates(template_root, bleed_mm=sheets.bleed_mm))
    names = {face.template for card in plan.cards for face in (card.front, card.back) if face is not None}
    if not all(templates.has(name) for name in names):  # (each template file looked for once, not once a face)
        return  # the game's card templates live elsewhere (`build --templates`): its build lays the cards out
    layouts = Layouts(templates, data.game, keep.art if keep is not None else None)
    rules = templates.rules
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
        if keep is not None:
            keep.keep(data.game, layouts)


def _problem(message: str, fallback: Location) -> Problem:
    """The build's message as a problem: its leading ``file:line:column`` becomes the location (so the
    problem prints exactly as the build's error reads)."""
    head, sep, rest = message.partition(": ")
    parts = head.rsplit(":", 2)
    if sep and len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
        return Problem(Location(parts[0], int(parts[1]), int(parts[2])), rest)
    return Problem(fallback, message)


