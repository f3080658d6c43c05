"""Card faces for print shops and digital tables: `pantheon export GAME --target ID`.

Every image comes from the same vector faces as the card sheets: each face
is drawn once more as a PDF page of exactly the image's size and rasterised
by pypdfium2 (PDFium, the renderer Chrome uses; wheels carry it, so no
system package is needed). Each target is a file of ``templates/targets/``
(read by :mod:`pipeline.exports.targets`; its ``output`` picks one of the
kinds below, its numbers the sizes):

- ``png-per-face`` (``mpc``, ``tgc``): one PNG per face with the target's
  bleed and its dpi written in (pHYs), ``NNN-<card>-front.png`` and
  ``NNN-<card>-back.png``, so the shop's uploader pairs them by name, and
  ``order.csv`` (front image, back image, quantity: one row per card); a
  trim the file lists at the shop's own size;
- ``pdf-per-deck`` (``dtc``): one PDF per deck (per card size), back then
  front for every card copy, pages of the trim plus the bleed, TrimBox and
  BleedBox set; a CMYK target's file is PDF/X-1a:2003 (:mod:`pdfx`);
- ``tts-deck`` (``tts``): per shuffled deck of the game (a card without a
  deck goes with the cards of its own kind, never into another's deck), and
  per card size, Tabletop Simulator deck sheets (at most the sheet's columns
  x rows slots and ``max_px`` a side, the last slot holding the hidden-card
  image), a back image (one shared back, or a sheet of backs when they
  differ) and ``deck.json``, a saved game whose deck objects carry a
  ``Transform`` and a ``GUID``; their URLs are ``--base-url`` plus the file
  name, or placeholders to replace without it.

A face image is scaled uniformly to cover the image (the bleed box for the
shops, the trim for Tabletop Simulator) and centred: the shops' poker sizes
are 2.5 x 3.5 in while our poker cards are 63 x 88 mm, so the trim lands
within a pixel of the shop's trim. Output is written to a temporary folder
and renamed into place: a failed export leaves the previous one as it was.
Same data, same bytes.
"""
from __future__ import annotations

import csv
import hashlib
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

from pipeline import store
from pipeline.base.errors import UserError
from pipeline.cards.build import Plan, checked_cards, open_document
from pipeline.cards.forms import FaceForm, Forms
from pipeline.cards.pdfwrite import ensure_dir, output_lock, own_folder, temp_name
from pipeline.cards.plan import PrintCard
from pipeline.cards.svgtemplates import TEMPLATE_ROOT
from pipeline.cards.units import MM_PER_INCH, PT_PER_INCH, mm
from pipeline.data.dataset import display_path
from pipeline.exports import pdfx
from pipeline.exports.targets import CMYK, PDF_PER_DECK, TTS_DECK, NotOffered, Sheet, Target


class Progress(Protocol):
    """Where an export reports the face images it draws: ``begin`` with how many it will draw (distinct faces
    at each size, known once the layout is made), then ``advance`` by each one drawn."""

    def begin(self, total: int) -> None: ...

    def advance(self, faces: int) -> None: ...
PNG_COMPRESSION = 6  # zlib level: fixed, so the same pixels give the same bytes
WHITE = (255, 255, 255)
TTS_CARDS_PER_DECK_ID = 100  # Tabletop Simulator numbers a card deck * 100 + its slot on the deck's sheet
TTS_PLACEHOLDER = "REPLACE-WITH-THE-URL-OF:{name}"
TTS_DECK_SPACING = 4.0  # table units between two decks laid out in a row (a poker card is about 2.2 wide)
TTS_TABLE_HEIGHT = 1.0  # a deck rests just above the table top
ORDER_LIST = "order.csv"


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
                progress.advance(1)
    finally:
        document.close()
    return images


def _png(image: Image.Image, dpi: Optional[int] = None) -> bytes:
    """PNG bytes of ``image``; ``dpi`` is written into its pHYs chunk, so a shop reads the print size."""
    buffer = io.BytesIO()
    if dpi is None:
        image.save(buffer, "PNG", compress_level=PNG_COMPRESSION)
    else:
        image.save(buffer, "PNG", compress_level=PNG_COMPRESSION, dpi=(dpi, dpi))
    return buffer.getvalue()


@dataclass(frozen=True)
class ExportResult:
    """What an export wrote: its folder, how many files, from how many faces, and what it left out (one line per
    kind of card the target's shop does not offer, with the file's reason)."""

    folder: Path
    files: int
    faces: int
    left_out: tuple[str, ...] = ()


def face_count(plan: Plan) -> int:
    """How many faces the cards of ``plan`` have: fronts and backs of every card (what an export shows)."""
    return sum(1 + (card.back is not None) for card in plan.cards)


def export(
    plan: Plan, spec: Target, out_dir: Path, *, progress: Optional[Progress] = None, template_root: Path = TEMPLATE_ROOT,
    base_url: Optional[str] = None, scope: Optional[store.Scope] = None,
) -> ExportResult:
    """Write ``<out>/<game>/<target id>/`` for ``plan`` (call on validated data) as ``spec`` (a target file, see
    :func:`pipeline.exports.targets.target`) says; the folder and what it holds. ``base_url``: where a digital
    table's images will be uploaded (the JSON names each as ``base_url`` + file name). ``scope``: the command's
    store scope of ``template_root`` (None: taken now)."""
    files, left_out = _images(plan, spec, template_root, progress, base_url, scope)
    folder = out_dir / plan.game / spec.id
    with output_lock(out_dir):
        _replace_folder(out_dir, folder, files)
    return ExportResult(folder, len(files), face_count(plan), left_out)


Checked = tuple[PrintCard, FaceForm, Optional[FaceForm]]  # a card and its faces, held to the build's rules


def left_out(cards: Sequence[Checked], spec: Target) -> tuple[list[Checked], list[str]]:
    """The cards ``spec``'s shop can print, and one line per card size it cannot (its ``not_offered`` entries):
    how many cards of each kind (see :func:`tts_deck_name`) and the file's reason."""
    kept: list[Checked] = []
    skipped: dict[NotOffered, dict[str, int]] = {}
    for entry in cards:
        card, front = entry[0], entry[1]
        missing = spec.not_offered_for(front.trim_w, front.trim_h)
        if missing is None:
            kept.append(entry)
            continue
        kinds = skipped.setdefault(missing, {})
        kinds[tts_deck_name(card)] = kinds.get(tts_deck_name(card), 0) + card.copies
    lines = [f"left out of the {spec.id} export: {entry.component} ({entry.trim_mm[0]:g}x{entry.trim_mm[1]:g} mm: "
             f"{', '.join(f'{kind} {number}' for kind, number in kinds.items())}): {entry.reason}"
             for entry, kinds in skipped.items()]
    return kept, lines


def _images(plan: Plan, spec: Target, template_root: Path, progress: Optional[Progress],
            base_url: Optional[str], scope: Optional[store.Scope]) -> tuple[dict[str, bytes], tuple[str, ...]]:
    doc = open_document(template_root, f"{plan.title}: {spec.id} export", plan.game, {"export": spec.id}, scope=scope)
    forms, canvas = doc.forms, doc.canvas
    cards, skipped = left_out(checked_cards(plan, forms), spec)  # a face the build refuses is refused here too
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
        layout = _TTS(plan, cards, shot, spec.dpi, spec.sheet, base_url)
    elif spec.output == PDF_PER_DECK:
        layout = _DTC(plan, cards, spec, shot)
    else:
        layout = _Shops(cards, spec, shot)
    ordered = list(shots.values())
    if progress is not None:
        progress.begin(len(ordered))  # a face printed on many cards is drawn once: the steps are these
    for item in ordered:
        item.face.uses = max(item.face.uses, 1)
        _draw_shot(canvas, item, forms, spec.dpi)
    pictures = dict(zip((id(s) for s in ordered), _rasterise(doc.finish(), ordered, spec.dpi, spec.colour, progress)))
    return layout.files(lambda s: pictures[id(s)]), tuple(skipped)


class _Layout(Protocol):
    """How an export lays its face images out in files (one per face, or sheets of faces)."""

    def files(self, picture: Callable[[_Shot], Image.Image]) -> dict[str, bytes]: ...


class _Shops:
    """MakePlayingCards and The Game Crafter: one PNG per face, fronts and backs paired by name."""

    def __init__(self, cards: list, spec: Target, shot: Callable[[FaceForm, tuple[int, int]], _Shot]) -> None:
        self.dpi = spec.dpi
        self.named: list[tuple[str, _Shot]] = []
        self.order: list[tuple[str, str, int]] = []  # front image, back image (or ""), quantity
        width = len(str(len(cards)))
        for number, (card, front, back) in enumerate(cards, start=1):
            stem = f"{number:0{max(width, 3)}d}-{card.id}"
            size = image_px(spec, front.trim_w, front.trim_h)
            self.named.append((f"{stem}-front.png", shot(front, size)))
            if back is not None:
                self.named.append((f"{stem}-back.png", shot(back, size)))
            self.order.append((f"{stem}-front.png", f"{stem}-back.png" if back is not None else "", card.copies))

    def files(self, picture: Callable[[_Shot], Image.Image]) -> dict[str, bytes]:
        files = {name: _png(picture(item), self.dpi) for name, item in self.named}
        files[ORDER_LIST] = order_list(self.order)
        return files


def order_list(rows: Sequence[tuple[str, str, int]]) -> bytes:
    """The order as the shops' uploaders take it: one row per card, its front and back image and how many."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(("front", "back", "quantity"))
    writer.writerows(rows)
    return buffer.getvalue().encode("utf-8")


def tts_deck_name(card: PrintCard) -> str:
    """The game deck a card goes into on the digital table: its shuffled deck, else its own kind of card
    (the template it is drawn from), so no two decks of the game ever share a deck object."""
    return card.deck if card.deck else Path(card.front.template).name.split(".", 1)[0]


class _TTS:
    """Tabletop Simulator: one deck object per game deck (see :func:`tts_deck_name`) and card size, its faces on
    as many sheets as it needs, a back image or sheet per sheet, and the saved game's JSON."""

    def __init__(self, plan: Plan, cards: list, shot: Callable[[FaceForm, tuple[int, int]], _Shot], dpi: int,
                 sheet: Sheet, base_url: Optional[str]) -> None:
        self.plan, self.sheet, self.base_url = plan, sheet, base_url
        self.sheets: list[dict] = []  # every sheet, numbered from 1 in this order
        self.decks: list[tuple[str, list[int]]] = []  # a deck object's name and its sheets' numbers
        groups: dict[tuple[str, float, float], list] = {}
        for entry in cards:
            groups.setdefault((tts_deck_name(entry[0]), entry[1].trim_w, entry[1].trim_h), []).append(entry)
        per_sheet = sheet.columns * sheet.rows - 1  # the last slot holds the hidden-card image
        for (name, trim_w, trim_h), entries in groups.items():
            card_px = _tts_card_px(trim_w, trim_h, dpi, sheet)
            numbers = []
            for start in range(0, len(entries), per_sheet):
                chunk = entries[start : start + per_sheet]
                backs = [back for _, _, back in chunk]
                self.sheets.append({
                    "cards": [(card, shot(front, card_px), shot(back, card_px) if back is not None else None)
                              for card, front, back in chunk],
                    "size": card_px,
                    "shared_back": all(b is backs[0] for b in backs),
                    "hidden": shot(backs[0], card_px) if backs[0] is not None else None,
                })
                numbers.append(len(self.sheets))
            sizes_of_deck = sum(1 for key in groups if key[0] == name)
            self.decks.append((name if sizes_of_deck == 1 else f"{name} {trim_w:g}x{trim_h:g} mm", numbers))

    def url(self, name: str) -> str:
        return f"{self.base_url.rstrip('/')}/{name}" if self.base_url else TTS_PLACEHOLDER.format(name=name)

    def files(self, picture: Callable[[_Shot], Image.Image]) -> dict[str, bytes]:
        files: dict[str, bytes] = {}
        customs: dict[int, dict] = {}
        for number, deck in enumerate(self.sheets, start=1):
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
            customs[number] = {
                "FaceURL": self.url(faces_name), "BackURL": self.url(back_name), "NumWidth": columns, "NumHeight": rows,
                "BackIsHidden": True, "UniqueBack": not deck["shared_back"], "Type": 0,
            }
        objects = [self._deck(place, name, numbers, customs) for place, (name, numbers) in enumerate(self.decks)]
        files["deck.json"] = (json.dumps({"SaveName": self.plan.title, "ObjectStates": objects}, indent=2) + "\n").encode()
        return files

    def _deck(self, place: int, name: str, numbers: list[int], customs: dict[int, dict]) -> dict:
        """A saved deck object (or a lone card): every copy of every card of its sheets, ids sheet*100 + slot,
        face down in a row on the table, GUIDs derived from the game, deck and card (same data, same JSON)."""
        transform = {"posX": place * TTS_DECK_SPACING, "posY": TTS_TABLE_HEIGHT, "posZ": 0.0,
                     "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0, "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}
        contained = []
        for number in numbers:
            custom = {str(number): customs[number]}
            for slot, (card, _, _) in enumerate(self.sheets[number - 1]["cards"]):
                for copy in range(card.copies):
                    contained.append({
                        "Name": "Card", "Transform": transform, "Nickname": card.name, "GMNotes": card.id,
                        "GUID": _guid(self.plan.game, name, card.id, str(copy)),
                        "CardID": number * TTS_CARDS_PER_DECK_ID + slot, "CustomDeck": custom,
                    })
        if len(contained) == 1:
            return contained[0]
        return {"Name": "DeckCustom", "Transform": transform, "Nickname": name, "GUID": _guid(self.plan.game, name),
                "DeckIDs": [c["CardID"] for c in contained],
                "CustomDeck": {str(number): customs[number] for number in numbers}, "ContainedObjects": contained}


def _guid(*parts: str) -> str:
    """A Tabletop Simulator object id (six hex digits) derived from ``parts``: stable from export to export."""
    return hashlib.sha1("/".join(parts).encode("utf-8"), usedforsecurity=False).hexdigest()[:6]


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


class _DTC:
    """DriveThruCards: one PDF per deck (card size), back then front for every card copy, each page the face
    with its bleed; a CMYK target's files are PDF/X-1a:2003 (:mod:`pipeline.exports.pdfx`)."""

    def __init__(self, plan: Plan, cards: list, spec: Target, shot: Callable[[FaceForm, tuple[int, int]], _Shot]) -> None:
        if spec.colour != CMYK or spec.press is None:
            raise UserError(f"export target '{spec.id}': a PDF per deck is written as PDF/X-1a, so its colour is CMYK "
                            f"and it has a press block")
        self.plan, self.spec, self.press = plan, spec, spec.press
        self.decks: dict[tuple[float, float], list[_Shot]] = {}  # trim -> its pages in order
        for card, front, back in cards:
            size = image_px(spec, front.trim_w, front.trim_h)
            faces = [shot(back, size), shot(front, size)] if back is not None else [shot(front, size)]
            self.decks.setdefault((front.trim_w, front.trim_h), []).extend(faces * card.copies)

    def files(self, picture: Callable[[_Shot], Image.Image]) -> dict[str, bytes]:
        transform = pdfx.converter(self.press)
        cmyk: dict[int, Image.Image] = {}  # one conversion per distinct face image
        files = {}
        bleed_pt = self.spec.bleed_in * PT_PER_INCH
        for (trim_w, trim_h), shots in self.decks.items():
            pages = []
            for item in shots:
                if id(item) not in cmyk:
                    cmyk[id(item)] = pdfx.to_cmyk(picture(item), self.press, transform, self.spec.dpi)
                pages.append(pdfx.Page(cmyk[id(item)], bleed_pt))
            title = f"{self.plan.title}: {trim_w:g}x{trim_h:g} mm deck"
            files[f"{self.plan.game}-{trim_w:g}x{trim_h:g}mm.pdf"] = pdfx.write(pages, self.press, self.spec.dpi, title)
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
