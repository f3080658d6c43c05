"""Building a game's card sheets: plan the cards, draw the faces once, impose, write atomically.

The game says what to print through its spec's ``cards`` part
(``print_cards(game) -> list[PrintCard]``, see pipeline/data/gamespec.py);
everything else is shared here.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterator, Optional, Protocol, Sequence

from reportlab.pdfgen.canvas import Canvas

from pipeline import store
from pipeline.base.choose import choose
from pipeline.base.errors import UserError
from pipeline.cards import blame, colourkeys, decks, design, fonts
from pipeline.cards.artcache import ArtCache
from pipeline.cards.calibration import draw_calibration
from pipeline.cards.faces import SlotError
from pipeline.cards.forms import FaceForm, Forms, LaidOutFaces
from pipeline.cards.imposition import (
    CROP,
    DOWN,
    LINES,
    REGISTRATION,
    SHEETS_NAME,
    SHEETS_SCHEMA_NAME,
    Duplex,
    Layout,
    Page,
    Paper,
    Sheets,
    check_offsets,
    crop_marks,
    full_cut_lines,
    impose,
    load_sheets,
    registration_marks,
)
from pipeline.cards.pdfwrite import Metadata, new_canvas
from pipeline.cards.plan import Face, PrintCard
from pipeline.cards.stamp import Stamp, draw_footer, place_stamped
from pipeline.cards.svgtemplates import TEMPLATE_ROOT, Templates
from pipeline.cards.units import mm
from pipeline.data import dataset
from pipeline.data.dataset import GameData
from pipeline.data.yamlmarks import PathKey

Progress = Callable[[int], None]
PDF_NAME = "cards-{paper}{edition}.pdf"
INK_EDITION = "-ink"  # the ink-friendly edition's file name ends so: cards-a4-ink.pdf
PREVIEW_GAP_MM = 4.0  # between a card's front and back on a preview page
Records = dict[str, tuple[dataset.Document, PathKey]]  # card id -> the document and path of its data record


@dataclass(frozen=True)
class BuildOptions:
    """Everything besides the data that changes the PDF.

    Offsets are in paper terms (see ``imposition.back_shift``): ``across`` along the sheet's short
    edge, ``along`` along its long edge. ``layout`` None is the sheets' default (butted).
    ``ink_saver`` prints backs and frames without full-bleed floods, white between cards.
    ``stamp`` (None: no stamp, the PDF as ever) prints a version line on every card and sheet.
    """

    paper: str = "a4"
    duplex: Duplex = Duplex.LONG
    offset_across_mm: float = 0.0
    offset_along_mm: float = 0.0
    calibration: bool = False
    layout: Optional[str] = None
    ink_saver: bool = False
    stamp: Optional[Stamp] = None

    def as_dict(self) -> dict[str, str]:
        stamped = self.stamp.as_dict() if self.stamp is not None else {}
        return {
            **stamped,
            "paper": self.paper,
            "duplex": self.duplex.value,
            "offset-across": f"{self.offset_across_mm:g}mm",
            "offset-along": f"{self.offset_along_mm:g}mm",
            "calibration": "yes" if self.calibration else "no",
            "layout": self.layout or "default",
            "ink-saver": "yes" if self.ink_saver else "no",
        }


@dataclass
class _Item:
    """One face to place: which card it belongs to, and its form."""

    where: str
    front: FaceForm
    back: Optional[FaceForm] = None
    counts: bool = True  # one card copy (False for the second face of a two-sided card printed without duplex)
    deck: Optional[str] = None  # the deck whose cards share this back
    back_where: str = ""  # how errors name the back
    sheet: Optional[str] = None  # items whose sheet differs never share a page (PrintCard.sheet)


@dataclass
class Plan:
    """The cards of one game, ready to draw."""

    game: str
    title: str
    cards: list[PrintCard] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)  # card id -> "file:line:column" of its data record
    # card id -> its record's document and path, made when first asked for (only an error pointing into a field asks)
    records_of: Optional[Callable[[], Records]] = field(default=None, repr=False, compare=False)
    _records: Optional[Records] = field(default=None, init=False, repr=False, compare=False)

    @property
    def records(self) -> Records:
        if self._records is None:
            self._records = self.records_of() if self.records_of is not None else {}
        return self._records

    @property
    def card_count(self) -> int:
        return sum(card.copies for card in self.cards)

    def label(self, card: PrintCard, side: str) -> str:
        """How errors name a card: where its record is written, the game, id, name and side."""
        source = self.sources.get(card.id)
        return f"{f'{source}: ' if source else ''}{self.game}: card {card.id} '{card.name}' ({side})"

    def blame(self, card: PrintCard, error: SlotError) -> str:
        """``error`` (raised for a face of ``card``) pointing at the data field its slot prints, when found."""
        message, source, record = str(error), self.sources.get(card.id), self.records.get(card.id)
        if source is None or record is None or not message.startswith(f"{source}: "):
            return message
        doc, path = record
        return f"{blame.field_location(doc, path, error.printed, error.slot)}{message[len(source):]}"


def plan(data_root: Path, game: str, data: GameData[Any]) -> Plan:
    """The cards of ``game`` as its spec's card plan lists them (call only on validated data).

    ``data``: the game's data as validation loaded it (handed on, so the files are not read again).
    """
    spec = data.spec
    if spec.cards is None:
        raise spec.missing("cards")
    cards = list(spec.cards(data))
    if not cards:
        raise UserError(f"{game}: the card plan lists no cards to print")
    records = _records(data, cards)
    sources = {card: str(doc.at(*path)) for card, (doc, path) in records.items()}
    return Plan(game, spec.title, cards, sources, records_of=lambda: records)


def make_plans(data_root: Path, games: Sequence[str], load: Callable[[str], GameData[Any]]) -> list[Plan]:
    """``plan`` of each game, from its data as validation loaded it (``load(game)``)."""
    return [plan(data_root, game, load(game)) for game in games]




def _records(data: GameData, cards: Sequence[PrintCard]) -> Records:
    """The document and path of each card's data record, for the cards whose record is found
    (by kind and id, else the first record of that id in any kind)."""
    found: dict[tuple[Optional[str], str], tuple[dataset.Document, PathKey]] = {}
    for kind, doc in data.docs.items():
        for key, value in doc.data.items() if isinstance(doc.data, dict) else ():
            for index, record in enumerate(value if isinstance(value, list) else ()):
                if isinstance(record, dict) and "id" in record:
                    found.setdefault((kind, str(record["id"])), (doc, (key, index)))
                    found.setdefault((None, str(record["id"])), (doc, (key, index)))
    records: Records = {}
    for card in cards:
        kind, _, record_id = (card.record or "").rpartition("/")
        where = found.get((kind or None, record_id or card.id))
        if where is not None:
            records[card.id] = where
    return records


def pdf_path(out_dir: Path, game: str, paper: str, *, ink_saver: bool = False) -> Path:
    """Where a build writes ``game``'s card sheet: ``cards-<paper>.pdf``, or ``cards-<paper>-ink.pdf`` for the
    ink-friendly edition."""
    return out_dir / game / PDF_NAME.format(paper=paper, edition=INK_EDITION if ink_saver else "")


def editions(options: BuildOptions) -> list[BuildOptions]:
    """The editions a build writes with ``options``: the full-colour sheet and the ink-friendly one beside it;
    only the ink-friendly one when ``options`` already asks for ink saving (the two would be the same)."""
    ink = replace(options, ink_saver=True)
    return [ink] if options.ink_saver else [options, ink]


@dataclass
class Document:
    """One PDF being drawn: its sheet definitions, canvas and forms."""

    sheets: Sheets
    buffer: io.BytesIO
    canvas: Canvas
    forms: Forms

    def finish(self) -> bytes:
        self.canvas.save()
        self.forms.finish()
        return self.buffer.getvalue()


def open_document(
    template_root: Path, title: str, game: str, options: dict[str, str], *, keep_faces: bool = False, ink_saver: bool = False,
    laid_out: Optional[LaidOutFaces] = None, art: Optional[ArtCache] = None, scope: Optional[store.Scope] = None,
    sheets: Optional[Sheets] = None,
) -> Document:
    """A new PDF; ``keep_faces`` keeps its face records for the next build of the game (a full card sheet);
    ``laid_out``: the game's faces as validation laid them out in this command; ``art``: the command's art
    cache (see ``Forms``); ``scope``: the command's store scope of ``template_root`` (None: taken now, for a
    command that opens one document); ``sheets``: the sheet definitions of ``template_root`` when read already."""
    fonts.register()
    if sheets is None:
        sheets = load_sheets(template_root / SHEETS_NAME, template_root / SHEETS_SCHEMA_NAME)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, Metadata(title, game, options))
    code = laid_out.splitter.templates.code if laid_out is not None else None  # compiled by this command's check
    templates = Templates(template_root, bleed_mm=sheets.bleed_mm, ink_saver=ink_saver, scope=scope, code=code)
    return Document(sheets, buffer, canvas, Forms(canvas, templates, game if keep_faces else None, laid_out=laid_out,
                                                     art=art))


def check_options(options: BuildOptions, template_root: Path = TEMPLATE_ROOT,
                  sheets: Optional[Sheets] = None) -> tuple[Sheets, Paper, Layout]:
    """The sheets, paper and layout the options name; an unknown paper or layout, or an offset larger
    than the layout's margin, is an error (checked before anything is drawn or written). ``sheets``: the sheet
    definitions of ``template_root`` when read already (else read now)."""
    if sheets is None:
        sheets = load_sheets(template_root / SHEETS_NAME, template_root / SHEETS_SCHEMA_NAME)
    paper, layout = sheets.paper(options.paper), sheets.layout(options.layout)
    check_offsets(sheets, layout, options.offset_across_mm, options.offset_along_mm)
    return sheets, paper, layout


def render_pdf(
    plan: Plan, options: BuildOptions, progress: Optional[Progress] = None, *, template_root: Path = TEMPLATE_ROOT,
    laid_out: Optional[LaidOutFaces] = None, art: Optional[ArtCache] = None, scope: Optional[store.Scope] = None,
    sheets: Optional[Sheets] = None,
) -> tuple[bytes, int]:
    """The PDF bytes of a plan and its page count; ``laid_out``: the plan's faces as validation laid them out
    from ``template_root`` in this command (drawn as they are, not laid out again); ``art``: the command's art
    cache (the other editions and games of the build draw from it too); ``scope``: the command's store scope of
    ``template_root`` (None: taken now); ``sheets``: the sheet definitions of ``template_root`` as the command
    read them (None: read now)."""
    sheets, paper, layout = check_options(options, template_root, sheets)
    doc = open_document(
        template_root, f"{plan.title}: cards ({paper.name})", plan.game, options.as_dict(), keep_faces=True,
        ink_saver=options.ink_saver, laid_out=laid_out, art=art, scope=scope, sheets=sheets,
    )
    canvas, forms = doc.canvas, doc.forms
    items = _items(plan, forms, Duplex.LONG if layout.fold else options.duplex)  # a fold page holds the backs
    pages = impose(
        [(item.front.trim_w, item.front.trim_h) for item in items],
        sheets,
        paper,
        duplex=options.duplex,
        layout=layout,
        offset_across_mm=options.offset_across_mm,
        offset_along_mm=options.offset_along_mm,
        names=[item.where for item in items],
        apart=[item.sheet for item in items],
    )
    page_count = len(pages)
    if options.calibration:
        for orientation in dict.fromkeys(page.grid.orientation for page in pages):  # each orientation used, in order
            page_count += draw_calibration(
                canvas, sheets, paper, orientation, options.duplex, options.offset_across_mm, options.offset_along_mm
            )
    first_page = page_count - len(pages)
    for number, page in enumerate(pages, 1):
        _draw_page(canvas, forms, sheets, page, items, progress, trim_only=options.ink_saver, stamp=options.stamp,
                   number=number, layout_marks=layout.marks)
    data = doc.finish()
    from pipeline.cards.sheetcheck import sheet_problems  # pypdf, which reads the sheet back: validate never loads it

    different, missing = sheet_problems(data, plan.game, _backs(pages, items, first_page))  # the very bytes published
    _refuse(iter(different))
    _refuse(iter(missing))
    return data, page_count


def _refuse(problems: Iterator[str]) -> None:
    """Fail on the first problem, saying how many more there are."""
    found = list(problems)
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise UserError(f"{found[0]}{more}")


def _backs(pages: Sequence[Page], items: Sequence[_Item], first_page: int) -> list[decks.BackPlacement]:
    """Each back drawn on the pages of backs, in drawing order, with its PDF page and deck."""
    return [
        decks.BackPlacement(first_page + number, items[placement.item].deck, items[placement.item].back_where)
        for number, page in enumerate(pages)
        for placement in page.placements
        if (page.side == "back" or placement.back) and items[placement.item].back is not None
    ]


class FaceMaker(Protocol):
    """What lays out a face: the build's forms, or validate's card check (no PDF)."""

    def face(self, face: Face, where: str) -> FaceForm: ...


def card_face(plan: Plan, faces: FaceMaker, card: PrintCard, side: str) -> FaceForm:
    """One face of ``card`` laid out; a text that cannot be printed names the data field it shows."""
    face = card.front if side == "front" else card.back
    assert face is not None
    try:
        return faces.face(face, plan.label(card, side))
    except SlotError as exc:
        raise UserError(plan.blame(card, exc)) from None


def checked_faces(
    plan: Plan, faces: FaceMaker, card: PrintCard, rules: design.DesignRules, checked: set[int]
) -> tuple[FaceForm, Optional[FaceForm]]:
    """The faces of ``card`` laid out and held to every rule a build holds them to (each distinct face
    once, ``checked``): text fit, glyphs, icons, the design rules, colours shown with their symbols.
    The one place these checks are made: the build calls it, and so does validate (cardcheck.py)."""
    front = card_face(plan, faces, card, "front")
    back = card_face(plan, faces, card, "back") if card.back is not None else None
    if back is not None and (back.trim_w, back.trim_h) != (front.trim_w, front.trim_h):
        raise UserError(
            f"{plan.label(card, 'back')}: back is {back.trim_w:g}x{back.trim_h:g} mm "
            f"but the front is {front.trim_w:g}x{front.trim_h:g} mm"
        )
    _check_card(card, front, back, rules, checked, (plan.label(card, "front"), plan.label(card, "back")))
    return front, back


def colour_key_problems(plan: Plan, icons: Templates) -> Iterator[str]:
    """Each family of colours printed inconsistently across the plan's cards (see colourkeys.key_problems)."""
    return colourkeys.key_problems((key for card in plan.cards for key in card.colours), icons.icons.get)


def checked_cards(plan: Plan, forms: Forms) -> list[tuple[PrintCard, FaceForm, Optional[FaceForm]]]:
    """Every card of the plan with its faces, held to every rule a build holds them to (``checked_faces``, then
    the colour keys across the plan): what the build refuses, an export or a preflight refuses too."""
    rules = forms.templates.rules
    checked: set[int] = set()
    cards = [(card, *checked_faces(plan, forms, card, rules, checked)) for card in plan.cards]
    _refuse(colour_key_problems(plan, forms.templates))
    return cards


def _items(plan: Plan, forms: Forms, duplex: Duplex) -> list[_Item]:
    """Every face to place, rendered, split and held to the design rules once per distinct face,
    with its number of uses."""
    items: list[_Item] = []
    for card, front, back in checked_cards(plan, forms):
        front_label, back_label = plan.label(card, "front"), plan.label(card, "back")
        for _ in range(card.copies):
            if duplex != Duplex.NONE:
                items.append(_Item(front_label, front, back, deck=card.deck, back_where=back_label, sheet=card.sheet))
            else:
                items.append(_Item(front_label, front, sheet=card.sheet))
                if card.double_sided and back is not None:
                    items.append(_Item(back_label, back, counts=False, sheet=card.sheet))
    for item in items:
        item.front.uses += 1
        if item.back is not None:
            item.back.uses += 1
    return items


def _check_card(
    card: PrintCard, front: FaceForm, back: Optional[FaceForm], rules: design.DesignRules, checked: set[int], labels: tuple[str, str]
) -> None:
    """Hold the card's faces to the design rules (each distinct face once) and its colours to their symbols."""
    sides = [(front, card.front.template, labels[0])]
    if back is not None and card.back is not None:
        sides.append((back, card.back.template, labels[1]))
    for form, template, label in sides:
        if id(form) not in checked:
            design.check(form.record.facts, rules, (form.trim_w, form.trim_h), template, label)
            checked.add(id(form))
    showing = {"front": front.record}
    if card.double_sided and back is not None:
        showing["back"] = back.record
    for problem in colourkeys.card_problems(card, showing):
        raise UserError(f"{labels[0]}: {problem}")


def _draw_marks(canvas: Canvas, sheets: Sheets, page: Page, marks: str) -> None:
    """The page's cutting guides: crop marks, full-length cut lines or registration marks, and a fold page's
    dashed fold line. A page of backs for a cutting machine is printed plain: the machine reads the marks and
    cuts from the front, so marks on the back could only be misread (a sheet fed the wrong side up)."""
    if marks == REGISTRATION and page.side == "back":
        return
    width, height, bleed = page.grid.page_width, page.grid.page_height, page.grid.bleed
    slots = [p.slot for p in page.placements]
    canvas.setLineWidth(sheets.mark_stroke_pt)
    canvas.setStrokeColorRGB(0, 0, 0)
    if marks == REGISTRATION:
        square, brackets = registration_marks(sheets, width, height)
        canvas.setFillColorRGB(0, 0, 0)
        canvas.rect(*square, stroke=0, fill=1)
        canvas.setLineWidth(mm(sheets.registration.stroke_mm))
        lines = brackets
    elif marks == LINES:
        lines = full_cut_lines(sheets, slots, bleed, width, height)
    else:
        lines = crop_marks(sheets, slots, bleed, width, height)
    for x1, y1, x2, y2 in lines:
        canvas.line(x1, y1, x2, y2)
    if page.grid.fold:
        canvas.setLineWidth(sheets.mark_stroke_pt)
        canvas.setDash(sheets.fold_dash_pt, sheets.fold_dash_pt)
        edge = mm(sheets.mark_paper_edge_mm)
        if page.grid.fold == DOWN:
            canvas.line(width / 2, edge, width / 2, height - edge)
        else:
            canvas.line(edge, height / 2, width - edge, height / 2)
        canvas.setDash()


def _draw_page(
    canvas: Canvas, forms: Forms, sheets: Sheets, page: Page, items: Sequence[_Item], progress: Optional[Progress],
    *, trim_only: bool = False, stamp: Optional[Stamp] = None, number: int = 0, layout_marks: str = CROP,
) -> None:
    """One page of faces and its crop marks; ``trim_only`` paints no bleed at all (white between cards);
    ``stamp`` adds the version line on each face and in the footer (``number``: the sheet's number)."""
    canvas.setPageSize((page.grid.page_width, page.grid.page_height))
    bleed = page.grid.bleed
    for placement in page.placements:
        item = items[placement.item]
        face = item.back if page.side == "back" or placement.back else item.front
        slot = placement.slot
        if face is not None:
            clip = slot.trim(bleed) if trim_only else slot.clip
            if stamp is not None:
                place_stamped(canvas, forms, face, slot, clip, stamp, bleed)
            else:
                forms.place(face, slot.x, slot.y, turned=slot.turned, clip=clip)
        if progress is not None and page.side != "back" and not placement.back and item.counts:
            progress(1)
    _draw_marks(canvas, sheets, page, layout_marks)
    if stamp is not None:
        draw_footer(canvas, stamp, page.grid.page_width, number)
    canvas.showPage()


def find_card(plan: Plan, wanted: str) -> PrintCard:
    """The card a user means by ``wanted``: its id as the renderer names it (``deity-02``), its record's id as
    the YAML writes it (``02``, ``"02"``, ``deities/02``) or its name (any case); one line naming some cards
    (and the nearest id) when none or several match (pipeline.base.choose)."""
    ways: tuple[Callable[[PrintCard, str], bool], ...] = (
        lambda c, text: c.id == text,
        lambda c, text: (c.record or "").split("/", 1)[-1] == text or c.record == text,
        lambda c, text: c.record is None and c.id.endswith(f"-{text}"),
        lambda c, text: c.name.casefold() == text.casefold(),
    )
    return choose(wanted, plan.cards, ways, key=lambda c: c.id, name=lambda c: c.name, scope=plan.game, noun="card")


def face_preview_pdf(
    plan: Plan, card_id: str, gap_mm: float = PREVIEW_GAP_MM, *, template_root: Path = TEMPLATE_ROOT, ink_saver: bool = False,
    scope: Optional[store.Scope] = None,
) -> bytes:
    """A one-page PDF showing one card's front and back side by side (for `pantheon preview`; ``scope``: the
    command's store scope of ``template_root``, None: taken now)."""
    card = find_card(plan, card_id)
    doc = open_document(template_root, f"{plan.title}: {card.name}", plan.game, {"preview": card.id}, ink_saver=ink_saver,
                        scope=scope)
    canvas, forms = doc.canvas, doc.forms
    faces = [card_face(plan, forms, card, "front")]
    if card.back is not None:
        faces.append(card_face(plan, forms, card, "back"))
    gap = mm(gap_mm)
    width = sum(f.width_pt for f in faces) + gap * (len(faces) + 1)
    height = max(f.height_pt for f in faces) + 2 * gap
    canvas.setPageSize((width, height))
    x = gap
    for face in faces:
        forms.place(face, x, gap)
        x += face.width_pt + gap
    canvas.showPage()
    return doc.finish()
