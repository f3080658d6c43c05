"""The proof PDF of a diff: each changed card's old and new faces side by side, the text that changed
outlined on the new face and listed below; then a reprint sheet of the changed and added cards (fronts
and backs, imposed exactly as `pantheon build` does, duplex-ready); then a changelog page.

The three parts are drawn as separate documents by the renderers that make
them elsewhere and joined in that order; the file is written atomically.
"""
from __future__ import annotations

import io
from pathlib import Path
from typing import Iterable, Optional, Sequence

from pypdf import PdfReader, PdfWriter
from reportlab.lib.colors import Color
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pipeline.analysis.diff import report
from pipeline.analysis.diff.balance import BalanceDiff
from pipeline.analysis.diff.balancepdf import balance_pages
from pipeline.analysis.diff.compare import CardChange, Diff, GameDiff
from pipeline.analysis.diff.records import ADDED, REMOVED
from pipeline.cards import build as render_build
from pipeline.cards import fonts
from pipeline.cards.faces import TextSlot
from pipeline.cards.forms import FaceForm, Forms
from pipeline.cards.imposition import SHEETS_NAME, SHEETS_SCHEMA_NAME, Duplex, load_sheets
from pipeline.cards.pdfwrite import Metadata, new_canvas, write_atomic
from pipeline.cards.plan import PrintCard
from pipeline.cards.units import mm

MARGIN_MM = 15.0
GAP_MM = 8.0
TITLE_PT, TEXT_PT, LINE_PT = 12.0, 8.5, 11.0
CHANGELOG_CHARS = 105  # characters per changelog line at TEXT_PT on the narrower paper
HIGHLIGHT = Color(1.0, 0.8, 0.0, alpha=0.35)  # marks the changed text on the new face
OUTLINE = Color(0.85, 0.35, 0.0)
STACKED_SCALE = 0.75  # front and back stacked in a column must leave room for the list of changes
ASCENT, DESCENT = 0.8, 0.25  # of a run's size: its box above and below the baseline


def write_proof(diff: Diff, path: Path, *, paper: str, template_root: Path, balance: Optional[BalanceDiff] = None) -> int:
    """Write the proof PDF of ``diff`` to ``path`` (atomically), ending with a "Balance before/after" table
    when ``balance`` is given; its page count."""
    parts = [_faces(diff, paper, template_root)]
    options = render_build.BuildOptions(paper=paper, duplex=Duplex.LONG)
    for game in diff.games:
        reprint = _reprint_plan(game)
        if reprint is not None:
            parts.append(render_build.render_pdf(reprint, options, template_root=template_root)[0])
    parts.append(_changelog(diff, paper, template_root))
    if balance is not None:
        parts.append(balance_pages(diff, balance, _page_size(paper, template_root)))
    writer = PdfWriter()
    for part in parts:
        writer.append(PdfReader(io.BytesIO(part)))
    writer.add_metadata({"/Title": f"Proof: {diff.old.label} -> {diff.new.label}", "/Producer": "Pantheon Press"})
    buffer = io.BytesIO()
    writer.write(buffer)
    write_atomic(path, buffer.getvalue())
    return len(writer.pages)


def _reprint_plan(game: GameDiff) -> Optional[render_build.Plan]:
    """The changed and added cards of ``game`` as they print now (None: none to reprint)."""
    cards = [game.new_cards[c.id] for c in game.cards if c.reprint and c.status != REMOVED and c.id in game.new_cards]
    if not cards:
        return None
    title = game.new_data.spec.title if game.new_data is not None else game.game
    return render_build.Plan(game.game, title, cards)


def _page_size(paper: str, template_root: Path) -> tuple[float, float]:
    sheets = load_sheets(template_root / SHEETS_NAME, template_root / SHEETS_SCHEMA_NAME)
    found = sheets.paper(paper)
    return mm(found.width_mm), mm(found.height_mm)


def _faces(diff: Diff, paper: str, template_root: Path) -> bytes:
    """One page per changed card: its old faces left, its new faces right, what changed listed below."""
    size = _page_size(paper, template_root)
    doc = render_build.open_document(template_root, "Proof: faces", "diff", {"old": diff.old.label, "new": diff.new.label})
    canvas, forms = doc.canvas, doc.forms
    drawn = 0
    for game in diff.games:
        for change in game.cards:
            _card_page(canvas, forms, size, game, change)
            drawn += 1
    if not drawn:
        canvas.setPageSize(size)
        _title(canvas, size, "No card changed.")
        canvas.showPage()
    return doc.finish()


def _title(canvas: Canvas, size: tuple[float, float], text: str) -> float:
    top = size[1] - mm(MARGIN_MM)
    canvas.setFont(fonts.font_name(fonts.BOLD), TITLE_PT)
    canvas.setFillColorRGB(0, 0, 0)
    canvas.drawString(mm(MARGIN_MM), top - TITLE_PT, text)
    return top - TITLE_PT - LINE_PT


def _card_page(canvas: Canvas, forms: Forms, size: tuple[float, float], game: GameDiff, change: CardChange) -> None:
    canvas.setPageSize(size)
    y = _title(canvas, size, f"{game.game}: card {change.id} '{change.name}' {change.status} ({change.record})")
    old, new = game.old_cards.get(change.id), game.new_cards.get(change.id)
    columns = [("old", old), ("new", new)]
    x = mm(MARGIN_MM)
    lowest = y
    for heading, card in columns:
        canvas.setFont(fonts.font_name(fonts.BOLD), TEXT_PT)
        canvas.setFillColorRGB(0, 0, 0)
        canvas.drawString(x, y, heading if card is not None else f"{heading}: (none)")
        if card is None:
            x += (size[0] - 2 * mm(MARGIN_MM)) / 2
            continue
        against = old if heading == "new" and change.status not in (ADDED, REMOVED) else None
        bottom = _faces_column(canvas, forms, card, x, y - LINE_PT / 2, against, game.game)
        lowest = min(lowest, bottom)
        x += (size[0] - 2 * mm(MARGIN_MM)) / 2
    _field_list(canvas, change, lowest - LINE_PT, size)
    canvas.showPage()


def _faces_column(canvas: Canvas, forms: Forms, card: PrintCard, x: float, top: float,
                  against: Optional[PrintCard], game: str) -> float:
    """The card's front (and back, when it has one), stacked down from ``top``; the lowest y drawn.
    With ``against``, the text boxes that differ from that version's are outlined."""
    y = top
    sides = [("front", card.front, against.front if against else None)]
    if card.back is not None:
        sides.append(("back", card.back, against.back if against else None))
    scale = STACKED_SCALE if card.back is not None else 1.0
    for side, face, old_face in sides:
        form = forms.face(face, f"{game}: card {card.id} '{card.name}' ({side})")
        y -= form.height_pt * scale
        canvas.saveState()
        canvas.translate(x, y)
        canvas.scale(scale, scale)
        forms.place(form, 0, 0)
        if against is not None and old_face != face:
            previous = forms.face(old_face, f"{game}: card {card.id} (old {side})") if old_face is not None else None
            _outline_changes(canvas, form, previous)
        canvas.restoreState()
        y -= mm(GAP_MM) / 2
    return y


def _texts(form: Optional[FaceForm]) -> set[tuple[object, ...]]:
    if form is None:
        return set()
    return {tuple(slot.setting.runs) for slot in form.record.slots if isinstance(slot, TextSlot)}


def _outline_changes(canvas: Canvas, form: FaceForm, previous: Optional[FaceForm]) -> None:
    """Mark each text box of ``form`` that ``previous`` does not have, exactly as set."""
    before = _texts(previous)
    for slot in form.record.slots:
        if not isinstance(slot, TextSlot) or not slot.setting.runs or tuple(slot.setting.runs) in before:
            continue
        boxes = [(x, baseline - DESCENT * size, x + stringWidth(text, fonts.font_name(style), size), baseline + ASCENT * size)
                 for style, x, baseline, size, text in slot.setting.runs]
        x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
        if slot.turned:  # the other half of a two-way card, turned about the card's centre
            width, height = form.width_pt, form.height_pt
            x0, y0, x1, y1 = width - x1, height - y1, width - x0, height - y0
        canvas.setFillColor(HIGHLIGHT)
        canvas.setStrokeColor(OUTLINE)
        canvas.setLineWidth(1)
        canvas.rect(x0 - 1, y0 - 1, x1 - x0 + 2, y1 - y0 + 2, stroke=1, fill=1)


def _field_list(canvas: Canvas, change: CardChange, top: float, size: tuple[float, float]) -> None:
    lines = [f"{f.field}: {report.shown(f.old)} -> {report.shown(f.new)}" for f in change.fields]
    _text_lines(canvas, _wrapped(lines), mm(MARGIN_MM), top, size, highlight=True)


def _wrapped(lines: Iterable[str], width: int = CHANGELOG_CHARS) -> list[str]:
    out: list[str] = []
    for line in lines:
        while len(line) > width:
            out.append(line[:width])
            line = "    " + line[width:]
        out.append(line)
    return out


def _text_lines(canvas: Canvas, lines: Sequence[str], x: float, top: float, size: tuple[float, float],
                *, highlight: bool = False) -> int:
    """Draw ``lines`` down from ``top`` (a new page when one is full); the pages begun."""
    y, pages = top, 0
    for line in lines:
        if y < mm(MARGIN_MM):
            canvas.showPage()
            canvas.setPageSize(size)
            pages += 1
            y = size[1] - mm(MARGIN_MM) - LINE_PT
        if highlight:
            canvas.setFillColor(HIGHLIGHT)
            canvas.rect(x - 2, y - DESCENT * TEXT_PT - 1, size[0] - 2 * x + 4, LINE_PT, stroke=0, fill=1)
        canvas.setFillColorRGB(0, 0, 0)
        canvas.setFillAlpha(1)
        canvas.setFont(fonts.font_name(), TEXT_PT)
        canvas.drawString(x, y, line)
        y -= LINE_PT
    return pages


def _changelog(diff: Diff, paper: str, template_root: Path) -> bytes:
    size = _page_size(paper, template_root)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, Metadata("Proof: changelog", "diff", {"old": diff.old.label, "new": diff.new.label}))
    canvas.setPageSize(size)
    top = _title(canvas, size, f"Changelog: {diff.old.label} -> {diff.new.label}")
    _text_lines(canvas, _wrapped(report.lines(diff)), mm(MARGIN_MM), top, size)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()
