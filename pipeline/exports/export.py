"""Card faces for print shops and digital tables: `pantheon export GAME --target ID`.

Every image comes from the same vector faces as the card sheets: each face
is drawn once more as a PDF page of exactly the image's size and rasterised
by pypdfium2 (PDFium, the renderer Chrome uses; wheels carry it, so no
system package is needed). Each target is a file of ``templates/targets/``
(read by :mod:`pipeline.exports.targets`; its ``output`` picks one of the
kinds below, its numbers the sizes):

- ``png-per-face`` (``mpc``, ``tgc``): one PNG per face with the target's
  bleed, ``NNN-<card>-front.png`` and ``NNN-<card>-back.png``, so the shop's
  uploader pairs them by name; a trim the file lists at the shop's own size;
- ``pdf-per-deck`` (``dtc``): one PDF per deck (per card size), back then
  front for every card copy, pages of the trim plus the bleed, TrimBox and
  BleedBox set;
- ``tts-deck`` (``tts``): Tabletop Simulator deck sheets (at most the
  sheet's columns x rows slots and ``max_px`` a side, the last slot holding
  the hidden-card image), a back image (one
  shared back, or a sheet of backs when they differ) and ``deck.json``, a
  saved object whose ``CustomDeck`` URLs are placeholders to replace with
  where the images are uploaded.

A face image is scaled uniformly to cover the image (the bleed box for the
shops, the trim for Tabletop Simulator) and centred: the shops' poker sizes
are 2.5 x 3.5 in while our poker cards are 63 x 88 mm, so the trim lands
within a pixel of the shop's trim. Output is written to a temporary folder
and renamed into place: a failed export leaves the previous one as it was.
Same data, same bytes.
"""
from __future__ import annotations

import io
import json
import math
import os
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Protocol, Sequence

import pypdfium2
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from pipeline.base.errors import UserError
from pipeline.cards.build import Plan, open_document
from pipeline.cards.forms import FaceForm, Forms
from pipeline.cards.pdfwrite import ensure_dir, output_lock, own_folder, temp_name
from pipeline.cards.svgtemplates import TEMPLATE_ROOT
from pipeline.cards.units import MM_PER_INCH, PT_PER_INCH, mm
from pipeline.data.dataset import display_path
from pipeline.exports.targets import PDF_PER_DECK, TTS_DECK, Sheet, Target

Progress = Callable[[int], None]
PNG_COMPRESSION = 6  # zlib level: fixed, so the same pixels give the same bytes
WHITE = (255, 255, 255)
TTS_CARDS_PER_DECK_ID = 100  # Tabletop Simulator numbers a card deck * 100 + its slot on the deck's sheet
TTS_PLACEHOLDER = "REPLACE-WITH-THE-URL-OF:{name}"


def image_px(spec: Target, trim_w_mm: float, trim_h_mm: float) -> tuple[int, int]:
    """The pixel size of a face image for ``spec``: its own size for this trim, else trim plus bleed at its dpi."""
    own = spec.own_size(trim_w_mm, trim_h_mm)
    if own is not None:
        return own
    width, height = (round((side / MM_PER_INCH + 2 * spec.bleed_in) * spec.dpi) for side in (trim_w_mm, trim_h_mm))
    return width, height


@dataclass(frozen=True)
class _Shot:
    """One image to make: a face, its size in pixels, and whether the trim (not the bleed box) fills it."""

    face: FaceForm
    size: tuple[int, int]
    trim_only: bool


def _draw_shot(canvas: Canvas, shot: _Shot, forms: Forms, dpi: int) -> None:
    """One PDF page of exactly the image's size (at ``dpi``) with the face scaled to cover it, centred."""
    width, height = (px * PT_PER_INCH / dpi for px in shot.size)
    face = shot.face
    inset = 0.0 if not shot.trim_only else mm(face.bleed)
    cover_w, cover_h = face.width_pt - 2 * inset, face.height_pt - 2 * inset
    scale = max(width / cover_w, height / cover_h)
    canvas.setPageSize((width, height))
    canvas.saveState()
    canvas.translate((width - face.width_pt * scale) / 2, (height - face.height_pt * scale) / 2)
    canvas.scale(scale, scale)
    forms.place(face, 0, 0)
    canvas.restoreState()
    canvas.showPage()


def _rasterise(pdf: bytes, shots: Sequence[_Shot], dpi: int, mode: str, progress: Optional[Progress]) -> list[Image.Image]:
    """Every page of ``pdf`` as an image of its shot's size, in colour ``mode`` (PIL's name)."""
    document = pypdfium2.PdfDocument(pdf)
    images = []
    try:
        for index, shot in enumerate(shots):
            page = document[index]
            bitmap = page.render(scale=dpi / PT_PER_INCH, fill_color=(*WHITE, 255), rev_byteorder=True)
            image = bitmap.to_pil().convert(mode)
            if image.size != shot.size:  # PDFium rounds the page size in points to whole pixels
                image = image.resize(shot.size, Image.Resampling.LANCZOS)
            images.append(image)
            if progress is not None:
                progress(1)
    finally:
        document.close()
    return images


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=PNG_COMPRESSION)
    return buffer.getvalue()


@dataclass(frozen=True)
class ExportResult:
    folder: Path
    files: int
    faces: int


def face_count(plan: Plan) -> int:
    """How many face images an export draws (for a progress bar): fronts and backs of every card."""
    return sum(1 + (card.back is not None) for card in plan.cards)


def export(
    plan: Plan, spec: Target, out_dir: Path, *, progress: Optional[Progress] = None, template_root: Path = TEMPLATE_ROOT
) -> ExportResult:
    """Write ``<out>/<game>/<target id>/`` for ``plan`` (call on validated data) as ``spec`` (a target file, see
    :func:`pipeline.exports.targets.target`) says; the folder and what it holds."""
    files = _DTC(plan, spec, template_root).files() if spec.output == PDF_PER_DECK else _images(plan, spec, template_root, progress)
    folder = out_dir / plan.game / spec.id
    with output_lock(out_dir):
        _replace_folder(out_dir, folder, files)
    return ExportResult(folder, len(files), face_count(plan))


def _images(plan: Plan, spec: Target, template_root: Path, progress: Optional[Progress]) -> dict[str, bytes]:
    doc = open_document(template_root, f"{plan.title}: {spec.id} export", plan.game, {"export": spec.id})
    forms, canvas = doc.forms, doc.canvas
    cards = [(card, forms.face(card.front, plan.label(card, "front")),
              forms.face(card.back, plan.label(card, "back")) if card.back is not None else None) for card in plan.cards]
    trim_only = spec.trim_only
    shots: dict[tuple[int, tuple[int, int]], _Shot] = {}  # one image per distinct face and size

    def shot(face: FaceForm, size: tuple[int, int]) -> _Shot:
        key = (id(face), size)
        if key not in shots:
            shots[key] = _Shot(face, size, trim_only)
        return shots[key]

    layout: _Layout
    if spec.output == TTS_DECK:
        assert spec.sheet is not None  # the schema requires a sheet of a tts-deck target
        layout = _TTS(plan, cards, shot, spec.dpi, spec.sheet)
    else:
        layout = _Shops(cards, spec, shot)
    ordered = list(shots.values())
    for item in ordered:
        item.face.uses = max(item.face.uses, 1)
        _draw_shot(canvas, item, forms, spec.dpi)
    pictures = dict(zip((id(s) for s in ordered), _rasterise(doc.finish(), ordered, spec.dpi, spec.colour, progress)))
    return layout.files(lambda s: pictures[id(s)])


class _Layout(Protocol):
    """How an export lays its face images out in files (one per face, or sheets of faces)."""

    def files(self, picture: Callable[[_Shot], Image.Image]) -> dict[str, bytes]: ...


class _Shops:
    """MakePlayingCards and The Game Crafter: one PNG per face, fronts and backs paired by name."""

    def __init__(self, cards: list, spec: Target, shot: Callable[[FaceForm, tuple[int, int]], _Shot]) -> None:
        self.named: list[tuple[str, _Shot]] = []
        width = len(str(len(cards)))
        for number, (card, front, back) in enumerate(cards, start=1):
            stem = f"{number:0{max(width, 3)}d}-{card.id}"
            size = image_px(spec, front.trim_w, front.trim_h)
            self.named.append((f"{stem}-front.png", shot(front, size)))
            if back is not None:
                self.named.append((f"{stem}-back.png", shot(back, size)))
        self.copies = {f"{number:0{max(width, 3)}d}-{card.id}": card.copies for number, (card, _, _) in enumerate(cards, start=1)}

    def files(self, picture: Callable[[_Shot], Image.Image]) -> dict[str, bytes]:
        files = {name: _png(picture(item)) for name, item in self.named}
        files["copies.json"] = (json.dumps(self.copies, indent=2) + "\n").encode()  # how many of each card to order
        return files


class _TTS:
    """Tabletop Simulator: deck sheets per card size, a back image or sheet, and the deck's JSON."""

    def __init__(self, plan: Plan, cards: list, shot: Callable[[FaceForm, tuple[int, int]], _Shot], dpi: int,
                 sheet: Sheet) -> None:
        self.plan, self.sheet = plan, sheet
        self.decks: list[dict] = []
        groups: dict[tuple[float, float], list] = {}
        for entry in cards:
            groups.setdefault((entry[1].trim_w, entry[1].trim_h), []).append(entry)
        per_sheet = sheet.columns * sheet.rows - 1  # the last slot holds the hidden-card image
        for (trim_w, trim_h), entries in groups.items():
            card_px = _tts_card_px(trim_w, trim_h, dpi, sheet)
            for start in range(0, len(entries), per_sheet):
                chunk = entries[start : start + per_sheet]
                backs = [back for _, _, back in chunk]
                shared = all(b is backs[0] for b in backs)
                self.decks.append({
                    "cards": [(card, shot(front, card_px), shot(back, card_px) if back is not None else None)
                              for card, front, back in chunk],
                    "size": card_px,
                    "shared_back": shared,
                    "hidden": shot(backs[0], card_px) if backs[0] is not None else None,
                })

    def files(self, picture: Callable[[_Shot], Image.Image]) -> dict[str, bytes]:
        files: dict[str, bytes] = {}
        objects = []
        for number, deck in enumerate(self.decks, start=1):
            cards, (w, h) = deck["cards"], deck["size"]
            slots = len(cards) + 1  # and the hidden card
            rows = max(self.sheet.min_grid, math.ceil(slots / self.sheet.columns))
            columns = max(self.sheet.min_grid, math.ceil(slots / rows))
            hidden = picture(deck["hidden"]) if deck["hidden"] is not None else Image.new("RGB", (w, h), WHITE)
            faces_name, back_name = f"deck-{number}-faces.png", f"deck-{number}-back.png"
            files[faces_name] = _png(_sheet([picture(f) for _, f, _ in cards], columns, rows, (w, h), hidden))
            if deck["shared_back"]:
                files[back_name] = _png(hidden)
            else:
                blank = Image.new("RGB", (w, h), WHITE)
                files[back_name] = _png(_sheet([picture(b) if b else blank for _, _, b in cards], columns, rows, (w, h), hidden))
            objects.append(_tts_deck(number, [card for card, _, _ in cards], faces_name, back_name, columns, rows, not deck["shared_back"]))
        files["deck.json"] = (json.dumps({"SaveName": self.plan.title, "ObjectStates": objects}, indent=2) + "\n").encode()
        return files


def _tts_card_px(trim_w: float, trim_h: float, dpi: int, sheet: Sheet) -> tuple[int, int]:
    """The largest card image whose full sheet (columns x rows) stays within ``max_px`` a side, at most ``dpi``."""
    per_mm = min(dpi / MM_PER_INCH, sheet.max_px / (sheet.columns * trim_w), sheet.max_px / (sheet.rows * trim_h))
    return math.floor(trim_w * per_mm), math.floor(trim_h * per_mm)


def _sheet(images: Sequence[Image.Image], columns: int, rows: int, size: tuple[int, int], hidden: Image.Image) -> Image.Image:
    """Images row by row from the top-left; the last slot holds the hidden-card image."""
    w, h = size
    sheet = Image.new("RGB", (columns * w, rows * h), WHITE)
    for index, image in enumerate(images):
        row, col = divmod(index, columns)
        sheet.paste(image, (col * w, row * h))
    sheet.paste(hidden, ((columns - 1) * w, (rows - 1) * h))
    return sheet


def _tts_deck(number: int, cards: Sequence, faces: str, back: str, columns: int, rows: int, unique_back: bool) -> dict:
    """A saved Tabletop Simulator deck object: every copy of every card, ids deck*100 + slot."""
    custom = {str(number): {
        "FaceURL": TTS_PLACEHOLDER.format(name=faces), "BackURL": TTS_PLACEHOLDER.format(name=back),
        "NumWidth": columns, "NumHeight": rows, "BackIsHidden": True, "UniqueBack": unique_back, "Type": 0,
    }}
    contained = [
        {"Name": "Card", "Nickname": card.name, "CardID": number * TTS_CARDS_PER_DECK_ID + slot, "CustomDeck": custom}
        for slot, card in enumerate(cards) for _ in range(card.copies)
    ]
    if len(contained) == 1:
        return contained[0]
    return {"Name": "DeckCustom", "Nickname": f"deck {number}", "DeckIDs": [c["CardID"] for c in contained],
            "CustomDeck": custom, "ContainedObjects": contained}


class _DTC:
    """DriveThruCards: one vector PDF per deck (card size), back then front for every card copy."""

    def __init__(self, plan: Plan, spec: Target, template_root: Path) -> None:
        self.plan, self.spec, self.template_root = plan, spec, template_root

    def files(self) -> dict[str, bytes]:
        spec, plan = self.spec, self.plan
        files: dict[str, bytes] = {}
        sized: dict[tuple[float, float], list] = {}
        probe = open_document(self.template_root, plan.title, plan.game, {"export": spec.id})
        for card in plan.cards:
            front = probe.forms.face(card.front, plan.label(card, "front"))
            sized.setdefault((front.trim_w, front.trim_h), []).append(card)
        for (trim_w, trim_h), cards in sized.items():
            doc = open_document(self.template_root, f"{plan.title}: {trim_w:g}x{trim_h:g} mm deck", plan.game, {"export": spec.id})
            width, height = (px * PT_PER_INCH / spec.dpi for px in image_px(spec, trim_w, trim_h))
            bleed = spec.bleed_in * PT_PER_INCH
            for card in cards:
                faces = [card.back, card.front] if card.back is not None else [card.front]
                for _ in range(card.copies):
                    for face in faces:
                        form = doc.forms.face(face, plan.label(card, "face"))
                        form.uses += 2  # drawn as a form of its own: every copy costs one Do
                        doc.canvas.setTrimBox((bleed, bleed, width - bleed, height - bleed))
                        doc.canvas.setBleedBox((0, 0, width, height))
                        _draw_shot(doc.canvas, _Shot(form, image_px(spec, trim_w, trim_h), False), doc.forms, spec.dpi)
            files[f"{plan.game}-{trim_w:g}x{trim_h:g}mm.pdf"] = doc.finish()
        return files


def _replace_folder(out_dir: Path, folder: Path, files: dict[str, bytes]) -> None:
    """Make ``folder`` (inside ``out_dir``) hold exactly ``files``: written into a temporary folder of its own
    beside it first, swapped in by renames; the folder it replaces is moved aside under a temporary name of
    its own and deleted. A link in ``folder``'s place is replaced, never followed; a link or file in place of
    its parent is refused. Call it holding the output folder's lock (what a killed run left is swept then)."""
    own_folder(out_dir, folder.parent)
    ensure_dir(folder.parent)
    fresh = folder.with_name(temp_name(folder.name))
    aside = folder.with_name(temp_name(folder.name))
    try:
        os.mkdir(fresh, 0o755)
        for name, data in sorted(files.items()):
            handle = os.open(fresh / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.chmod(fresh / name, 0o644)  # not the umask's: the same files anywhere
        os.chmod(fresh, 0o755)
        try:
            os.rename(folder, aside)  # renames a link itself, never what it points to
        except FileNotFoundError:
            pass
        os.rename(fresh, folder)
    except OSError as exc:
        shutil.rmtree(fresh, ignore_errors=True)
        raise UserError(f"cannot write {display_path(folder)}: {exc.strerror or exc}") from None
    _remove(aside)


def _remove(path: Path) -> None:
    """Delete ``path``, which this run named: a folder with what it holds (links inside removed, never
    followed), or a file or link."""
    try:
        if stat.S_ISDIR(os.lstat(path).st_mode):
            shutil.rmtree(path, ignore_errors=True)
        else:
            os.unlink(path)
    except OSError:
        pass  # left for the next run's sweep
