"""Preflight of produced files: each file measured against its target's published figures.

Nothing here asks the exporter what it meant to write. The PNGs are decoded
(colour mode, the dpi in their pHYs chunk, the pixel size against the shop's
products), the PDFs parsed (the PDF/X-1a identification, every colour
operator, image and transparency state of every page and form, fonts, page
boxes) and rendered by Ghostscript to CMYK pixels to measure the total ink of
every point, and Tabletop Simulator's JSON read (grid, sheet size, one game
deck per deck object). Every finding names the file, the page where there is
one, and the rule with the target file's figure.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping, Optional

from PIL import Image
from pypdf import PdfReader
from pypdf.errors import PdfReadError
from pypdf.generic import ContentStream

from pipeline.base.errors import UserError
from pipeline.cards.pdfcheck import fonts_not_embedded
from pipeline.cards.units import PT_PER_INCH
from pipeline.exports import pdfx
from pipeline.exports.targets import CMYK, PDF_PER_DECK, TTS_DECK, Target

GHOSTSCRIPT = "gs"
RGB_SPACES = frozenset({"/DeviceRGB", "/CalRGB"})
RGB_OPERATORS = frozenset({b"rg", b"RG"})
SPACE_OPERATORS = frozenset({b"cs", b"CS"})
BOX_TOLERANCE_PT = 0.01
RGB_COMPONENTS = 3
TTS_SLOT_BASE = 100  # a card's id on the table is its sheet's number * 100 + its slot


@dataclass(frozen=True)
class Finding:
    """A file breaking a rule: the file, the page (1-based) or none, the rule and what was measured."""

    file: str
    page: Optional[int]
    rule: str
    measured: str

    def __str__(self) -> str:
        where = f"{self.file} page {self.page}" if self.page is not None else self.file
        return f"{where}: {self.rule}: {self.measured}"


def check_folder(folder: Path, spec: Target, decks: Optional[Mapping[str, str]] = None) -> list[Finding]:
    """Every finding on the files of ``folder`` (an export for ``spec``). ``decks`` (card id -> the game deck it
    belongs to) lets a Tabletop Simulator file be checked for deck objects mixing decks."""
    if spec.output == PDF_PER_DECK:
        return [f for pdf in sorted(folder.glob("*.pdf")) for f in check_pdf(pdf, spec)]
    if spec.output == TTS_DECK:
        return check_tts(folder, spec, decks or {})
    return [f for png in sorted(folder.glob("*.png")) for f in check_png(png, spec)]


def check_png(path: Path, spec: Target) -> list[Finding]:
    """One face image: decodes, in the target's colour mode, carries its dpi, and is a product's size."""
    findings = []
    try:
        with Image.open(path) as image:
            image.load()
            mode, size, dpi = image.mode, image.size, image.info.get("dpi")
    except (OSError, ValueError) as exc:
        return [Finding(path.name, None, "a PNG that decodes", str(exc))]
    if mode != spec.colour:
        findings.append(Finding(path.name, None, f"colour {spec.colour}", f"the image is {mode}"))
    if dpi is None:
        findings.append(Finding(path.name, None, f"{spec.dpi} dpi written in the image", "no dpi (no pHYs chunk)"))
    elif any(round(float(v)) != spec.dpi for v in dpi):
        findings.append(Finding(path.name, None, f"{spec.dpi} dpi written in the image",
                                f"{float(dpi[0]):g} x {float(dpi[1]):g} dpi"))
    products = {p.image_px for p in spec.sizes}
    if products and size not in products:
        nearest = spec.nearest_product(*size)
        assert nearest is not None  # there are products
        findings.append(Finding(path.name, None, "a product's pixel size",
                                f"{size[0]}x{size[1]} px fits no {spec.title} product; nearest: {nearest.name} "
                                f"({nearest.image_px[0]}x{nearest.image_px[1]} px)"))
    return findings


def check_pdf(path: Path, spec: Target) -> list[Finding]:
    """One PDF per deck: its PDF/X identification (a CMYK target), and per page the boxes, the colour, the
    transparency and the total ink."""
    try:
        reader = PdfReader(path)
        pages = list(reader.pages)
    except (OSError, PdfReadError, ValueError) as exc:
        return [Finding(path.name, None, "a PDF that parses", str(exc))]
    findings = [Finding(path.name, None, "fonts embedded", f"font {name} is not embedded")
                for name in sorted(fonts_not_embedded(reader))]
    bleed = spec.bleed_in * PT_PER_INCH
    for number, page in enumerate(pages, start=1):
        findings += [Finding(path.name, number, rule, measured) for rule, measured in _boxes(page, bleed)]
    if spec.colour != CMYK or spec.press is None:
        return findings
    findings += [Finding(path.name, None, pdfx.PDFX_VERSION, problem) for problem in _identification(reader, spec)]
    for number, page in enumerate(pages, start=1):
        problems = sorted(set(_page_colour(page.get("/Resources"), page.get_contents(), reader, set())))
        findings += [Finding(path.name, number, rule, measured) for rule, measured in problems]
    limit = spec.press.ink_limit_pct
    for number, peak in enumerate(ink_peaks(path, spec.dpi), start=1):
        if peak > limit:
            findings.append(Finding(path.name, number, f"total ink at most {limit:g} %",
                                    f"{peak:.0f} % at its darkest point (Ghostscript, {spec.dpi} dpi)"))
    return findings


def _boxes(page: Any, bleed_pt: float) -> Iterator[tuple[str, str]]:
    if "/TrimBox" not in page or "/BleedBox" not in page:
        yield "TrimBox and BleedBox", "missing"
        return
    trim, bleed_box = page.trimbox, page.bleedbox
    reach = [float(trim.left) - float(bleed_box.left), float(trim.bottom) - float(bleed_box.bottom),
             float(bleed_box.right) - float(trim.right), float(bleed_box.top) - float(trim.top)]
    if bleed_pt > 0 and min(reach) < bleed_pt - BOX_TOLERANCE_PT:
        yield f"bleed {bleed_pt / PT_PER_INCH:g} in", f"{min(reach) / PT_PER_INCH:.3f} in between TrimBox and BleedBox"


def _identification(reader: PdfReader, spec: Target) -> Iterator[str]:
    """What a PDF/X-1a:2003 file must say about itself."""
    info: Mapping[str, Any] = reader.metadata or {}
    version = info.get("/GTS_PDFXVersion")
    if version != pdfx.PDFX_VERSION:
        yield f"GTS_PDFXVersion is {version or 'missing'}"
    root: Any = reader.trailer["/Root"].get_object()
    intents = [i.get_object() for i in root.get("/OutputIntents", [])]
    pdfx_intents = [i for i in intents if i.get("/S") == "/GTS_PDFX"]
    if not pdfx_intents:
        yield "no GTS_PDFX OutputIntent"
    elif any("/OutputConditionIdentifier" not in i for i in pdfx_intents):
        yield "the OutputIntent names no printing condition"
    if "/Metadata" not in root:
        yield "no XMP metadata"
    elif pdfx.PDFX_VERSION.encode() not in root["/Metadata"].get_object().get_data():
        yield "the XMP metadata does not give the PDF/X version"


def _page_colour(resources: Any, contents: Any, reader: PdfReader, seen: set[int]) -> Iterator[tuple[str, str]]:
    """RGB colour and transparency in one content stream and everything it draws (forms recursively)."""
    resources = resources.get_object() if resources is not None else {}
    states = resources.get("/ExtGState", {})
    spaces = resources.get("/ColorSpace", {})
    if contents is not None:
        for operands, operator in ContentStream(contents, reader).operations:
            if operator in RGB_OPERATORS:
                yield "no RGB (PDF/X-1a)", f"DeviceRGB colour ({operator.decode()} operator)"
            elif operator in SPACE_OPERATORS and operands and _is_rgb(spaces.get(operands[0], operands[0])):
                yield "no RGB (PDF/X-1a)", f"RGB colour space {operands[0]}"
            elif operator == b"gs" and operands and operands[0] in states:
                yield from _transparent_state(states[operands[0]].get_object())
    for name, ref in resources.get("/XObject", {}).items():
        xobject = ref.get_object()
        number = getattr(ref, "idnum", None)
        if number is not None and number in seen:
            continue
        if number is not None:
            seen.add(number)
        if xobject.get("/Subtype") == "/Image":
            if _is_rgb(xobject.get("/ColorSpace")):
                yield "no RGB (PDF/X-1a)", f"image {name} is RGB"
            if "/SMask" in xobject or "/Mask" in xobject and not isinstance(xobject["/Mask"].get_object(), list):
                yield "no transparency (PDF/X-1a)", f"image {name} has a soft mask"
        elif xobject.get("/Subtype") == "/Form":
            group = xobject.get("/Group")
            if group is not None and group.get_object().get("/S") == "/Transparency":
                yield "no transparency (PDF/X-1a)", f"form {name} is a transparency group"
            yield from _page_colour(xobject.get("/Resources"), xobject, reader, seen)


def _transparent_state(state: Any) -> Iterator[tuple[str, str]]:
    for key in ("/CA", "/ca"):
        if key in state and float(state[key]) < 1:
            yield "no transparency (PDF/X-1a)", f"opacity {float(state[key]):g} ({key})"
    if "/SMask" in state and state["/SMask"] != "/None":
        yield "no transparency (PDF/X-1a)", "a soft mask"


def _is_rgb(space: Any) -> bool:
    """Whether a colour space (a name or an array, resolved) is an RGB one (device, calibrated or ICC-based)."""
    if space is None:
        return False
    space = space.get_object() if hasattr(space, "get_object") else space
    if isinstance(space, str):
        return space in RGB_SPACES
    if isinstance(space, list) and space:
        family = space[0]
        if family == "/ICCBased":
            return int(space[1].get_object().get("/N", 0)) == RGB_COMPONENTS
        if family in ("/Indexed", "/Separation", "/DeviceN"):
            return _is_rgb(space[1] if family == "/Indexed" else space[2])
        return family in RGB_SPACES
    return False


def ink_peaks(path: Path, dpi: int) -> list[float]:
    """The largest total ink (C+M+Y+K, percent) of every page, as Ghostscript renders the PDF to CMYK at ``dpi``."""
    if shutil.which(GHOSTSCRIPT) is None:
        raise UserError("measuring ink needs Ghostscript (`gs`): run `make tools`")
    with tempfile.TemporaryDirectory() as scratch:
        pattern = Path(scratch) / "page-%04d.pam"
        result = subprocess.run(
            [GHOSTSCRIPT, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=pamcmyk32", f"-r{dpi}",
             f"-sOutputFile={pattern}", str(path)], capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise UserError(f"{path.name}: Ghostscript cannot render it: {result.stderr.strip().splitlines()[-1:]}")
        return [pdfx.max_ink_pct(_read_pam(page)) for page in sorted(Path(scratch).glob("page-*.pam"))]


def _read_pam(path: Path) -> Image.Image:
    """A CMYK PAM file (Ghostscript's pamcmyk32) as a PIL image."""
    data = path.read_bytes()
    end = data.index(b"ENDHDR\n") + len(b"ENDHDR\n")
    header = dict(line.split(" ", 1) for line in data[:end].decode("ascii").splitlines()[1:-1])
    size = (int(header["WIDTH"]), int(header["HEIGHT"]))
    return Image.frombytes("CMYK", size, data[end:])


def check_tts(folder: Path, spec: Target, decks: Mapping[str, str]) -> list[Finding]:
    """Tabletop Simulator: every sheet within the grid and the pixel limit, every deck object of one game deck."""
    assert spec.sheet is not None  # the schema requires a sheet of a tts-deck target
    sheet = spec.sheet
    findings = []
    for png in sorted(folder.glob("*.png")):
        with Image.open(png) as image:
            if max(image.size) > sheet.max_px:
                findings.append(Finding(png.name, None, f"a sheet at most {sheet.max_px} px a side",
                                        f"{image.size[0]}x{image.size[1]} px"))
    try:
        saved = json.loads((folder / "deck.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return [*findings, Finding("deck.json", None, "a saved object that parses", str(exc))]
    for index, obj in enumerate(saved.get("ObjectStates", []), start=1):
        where = f"deck.json object {index} ('{obj.get('Nickname', '')}')"
        for number, custom in obj.get("CustomDeck", {}).items():
            width, height = custom.get("NumWidth", 0), custom.get("NumHeight", 0)
            if width > sheet.columns or height > sheet.rows:
                findings.append(Finding(where, None, f"a grid of at most {sheet.columns}x{sheet.rows}",
                                        f"sheet {number} is {width}x{height}"))
        for key in ("Transform", "GUID"):
            if key not in obj:
                findings.append(Finding(where, None, "a saved object as Tabletop Simulator writes it", f"no {key}"))
        cards = obj.get("ContainedObjects", [obj])
        found = sorted({decks[c["GMNotes"]] for c in cards if c.get("GMNotes") in decks})
        if len(found) > 1:
            findings.append(Finding(where, None, "one game deck per deck object", f"mixes {', '.join(found)}"))
    return findings
