"""PDF/X-1a:2003 files for a print shop that prints CMYK (DriveThruCards).

Route (why not vector CMYK): the card art uses transparency (fading emblems,
half-opaque rules), which PDF/X-1a forbids. Flattening it in vector form
means knowing what lies under every shape; PDFium, which already rasterises
the faces for the other shops, composites it exactly. So each face is drawn
at the shop's resolution (its own figure, 300 dpi), converted to CMYK through
an ICC profile with littlecms (Pillow's ImageCms), given K-only neutrals and
rich black, capped to the shop's total ink, and placed as one DeviceCMYK
image filling its page. Every step is a pinned library's pixel arithmetic:
same data, same bytes.

The colour rules, in order:

- every pixel goes through the profile (sRGB to the target's CMYK profile,
  relative colorimetric);
- a neutral pixel (R = G = B: black text, its anti-aliased edge on white,
  grey rules) prints with black ink only, K = 255 - value, so small text
  never depends on four plates registering;
- a square of ``rich_black_mm`` that is black all over (the darkest
  neutral) prints the target's rich black instead, for large dark areas;
- where the inks add up to more than ``ink_limit_pct``, grey is moved from
  C, M and Y into K (each unit moved saves two), then C, M and Y are scaled
  down until the total is within the limit.

The file: one page per image (TrimBox, BleedBox, MediaBox), one image object
per distinct face, an OutputIntent (GTS_PDFX) embedding the profile and
naming the printing condition, ``GTS_PDFXVersion`` and ``Trapped`` in the
document information, XMP metadata saying the same, and no font at all
(the text is in the image), so nothing can be missing.
"""
from __future__ import annotations

import hashlib
import io
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from PIL import Image, ImageChops, ImageCms, ImageMath

from pipeline.base.errors import UserError
from pipeline.cards.units import PT_PER_INCH
from pipeline.data.dataset import display_path

PDFX_VERSION = "PDF/X-1a:2003"
PDFX_CONFORMANCE = "PDF/X-1a:2003"
FULL = 255  # one ink at 100 %, as a byte
PERCENT = 100
BLACK_MAX = 8  # a neutral pixel at or below this value is black (anti-aliasing leaves a few levels)
ZLIB_LEVEL = 6  # fixed, so the same pixels give the same bytes
ROUNDING_ROOM = 2  # F to L rounds each of 4 channels by at most half a level: aim this far below the limit


@dataclass(frozen=True)
class Press:
    """How a target prints CMYK: its profile, its printing condition, its ink limit and its rich black."""

    profile: Path
    condition: str  # OutputConditionIdentifier (a registered condition's name, e.g. CGATS TR 001 for SWOP)
    ink_limit_pct: float
    rich_black: tuple[int, int, int, int]  # percent of C, M, Y, K
    rich_black_mm: float  # a black area at least this square prints rich black


def profile_bytes(press: Press) -> bytes:
    """The ICC profile's bytes; a UserError naming it and how to install it when it is missing."""
    try:
        return press.profile.read_bytes()
    except OSError as exc:
        raise UserError(f"{display_path(press.profile)}: cannot read the CMYK profile ({exc.strerror or exc}); "
                        f"it comes with Ghostscript: run `make tools`") from None


def converter(press: Press) -> ImageCms.ImageCmsTransform:
    """The sRGB to CMYK transform of ``press``'s profile (relative colorimetric)."""
    try:
        cmyk = ImageCms.ImageCmsProfile(io.BytesIO(profile_bytes(press)))
    except (OSError, ImageCms.PyCMSError) as exc:
        raise UserError(f"{display_path(press.profile)}: not a usable ICC profile: {exc}") from None
    return ImageCms.buildTransform(ImageCms.createProfile("sRGB"), cmyk, "RGB", "CMYK",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)


def to_cmyk(rgb: Image.Image, press: Press, transform: ImageCms.ImageCmsTransform, dpi: int) -> Image.Image:
    """``rgb`` as CMYK by the module's colour rules; no pixel's inks add up to more than the limit."""
    rgb = rgb.convert("RGB")
    converted = ImageCms.applyTransform(rgb, transform)
    assert converted is not None  # applyTransform returns a new image unless told to work in place
    red, green, blue = rgb.split()
    spread = ImageChops.lighter(ImageChops.difference(red, green), ImageChops.difference(green, blue))
    neutral = spread.point(lambda v: FULL if v == 0 else 0)
    blank = Image.new("L", rgb.size, 0)
    k_only = Image.merge("CMYK", (blank, blank, blank, ImageChops.invert(red)))
    converted = Image.composite(k_only, converted, neutral)
    block = max(1, round(press.rich_black_mm / 25.4 * dpi))
    black = ImageChops.multiply(neutral, red.point(lambda v: FULL if v <= BLACK_MAX else 0))
    small = (max(1, rgb.width // block), max(1, rgb.height // block))
    solid = black.resize(small, Image.Resampling.BOX).point(lambda v: FULL if v == FULL else 0)
    solid = solid.resize((small[0] * block, small[1] * block), Image.Resampling.NEAREST)
    large = Image.new("L", rgb.size, 0)
    large.paste(solid, (0, 0))
    rich = Image.new("CMYK", rgb.size, tuple(round(p * FULL / PERCENT) for p in press.rich_black))
    converted = Image.composite(rich, converted, large)
    return cap_ink(converted, press.ink_limit_pct)


def cap_ink(cmyk: Image.Image, limit_pct: float) -> Image.Image:
    """``cmyk`` with every pixel's total ink at most ``limit_pct``: grey moved into K, then C, M, Y scaled."""
    limit = limit_pct * FULL / PERCENT - ROUNDING_ROOM
    c, m, y, k = (channel.convert("F") for channel in cmyk.split())
    # each unit of grey moved from C, M and Y into K saves two units of ink; never more than K can take
    moved = _math(lambda e: e["min"](e["min"](e["min"](e["c"], e["m"]), e["y"]),
                                     e["min"](FULL - e["k"], e["max"](e["c"] + e["m"] + e["y"] + e["k"] - limit, 0.0) / 2)),
                  c=c, m=m, y=y, k=k)
    k = _math(lambda e: e["k"] + e["t"], k=k, t=moved)
    # what is still over the limit comes off C, M and Y in proportion
    scale = _math(lambda e: e["min"]((limit - e["k"]) / e["max"](e["c"] + e["m"] + e["y"] - 3 * e["t"], 1.0), 1.0),
                  c=c, m=m, y=y, k=k, t=moved)
    channels = [_math(lambda e: (e["v"] - e["t"]) * e["s"], v=v, t=moved, s=scale).convert("L") for v in (c, m, y)]
    return Image.merge("CMYK", [*channels, k.convert("L")])


def max_ink_pct(cmyk: Image.Image) -> float:
    """The largest total ink of any pixel of a CMYK image, in percent."""
    c, m, y, k = (channel.convert("I") for channel in cmyk.split())
    total = _math(lambda e: e["c"] + e["m"] + e["y"] + e["k"], c=c, m=m, y=y, k=k)
    highest = total.getextrema()[1]
    assert isinstance(highest, (int, float)), "a single-band image's extrema are numbers"
    return highest * PERCENT / FULL


def _math(expression: Callable[[dict[str, Any]], Any], **images: Image.Image) -> Image.Image:
    """One per-pixel expression over single-band images (Pillow's ImageMath); its image."""
    result = ImageMath.lambda_eval(expression, **images)
    assert isinstance(result, Image.Image), "an expression over images gives an image"
    return result


@dataclass(frozen=True)
class Page:
    """One page: its image (CMYK, exactly the page at ``dpi``) and the bleed round the trim, in points."""

    image: Image.Image
    bleed_pt: float


def write(pages: Sequence[Page], press: Press, dpi: int, title: str) -> bytes:
    """A PDF/X-1a:2003 file of ``pages`` (see the module docstring); same pages, same bytes.

    Written object by object (an image-only file needs nothing more, and no library then adds a font, a
    transparency group or a date): pages showing the same image object share one image in the file."""
    out = _Objects()
    profile = out.stream({"/N": "4"}, profile_bytes(press))
    metadata = out.stream({"/Type": "/Metadata", "/Subtype": "/XML"}, _xmp(title).encode("utf-8"), compress=False)
    intent = (f"<< /Type /OutputIntent /S /GTS_PDFX /OutputConditionIdentifier {_text(press.condition)} "
              f"/Info {_text(press.condition)} /RegistryName (http://www.color.org) /DestOutputProfile {profile} 0 R >>")
    pages_ref = out.reserve()
    images: dict[int, int] = {}
    kids = []
    for page in pages:
        image = page.image
        if id(image) not in images:
            assert image.mode == "CMYK", "a PDF/X-1a page image is CMYK"
            images[id(image)] = out.stream({"/Type": "/XObject", "/Subtype": "/Image", "/Width": str(image.width),
                                            "/Height": str(image.height), "/ColorSpace": "/DeviceCMYK",
                                            "/BitsPerComponent": "8"}, image.tobytes())
        width, height = (px * PT_PER_INCH / dpi for px in image.size)
        bleed = page.bleed_pt
        content = out.stream({}, f"q {_num(width)} 0 0 {_num(height)} 0 0 cm /Im0 Do Q".encode("ascii"))
        kids.append(out.add(
            f"<< /Type /Page /Parent {pages_ref} 0 R /MediaBox [0 0 {_num(width)} {_num(height)}] "
            f"/BleedBox [0 0 {_num(width)} {_num(height)}] "
            f"/TrimBox [{_num(bleed)} {_num(bleed)} {_num(width - bleed)} {_num(height - bleed)}] "
            f"/Resources << /XObject << /Im0 {images[id(image)]} 0 R >> >> /Contents {content} 0 R >>"))
    out.put(pages_ref, f"<< /Type /Pages /Kids [{' '.join(f'{kid} 0 R' for kid in kids)}] /Count {len(kids)} >>")
    catalog = out.add(f"<< /Type /Catalog /Pages {pages_ref} 0 R /OutputIntents [{intent}] /Metadata {metadata} 0 R >>")
    info = out.add(f"<< /Title {_text(title)} /Producer (Pantheon Press) /GTS_PDFXVersion ({PDFX_VERSION}) "
                   f"/GTS_PDFXConformance ({PDFX_CONFORMANCE}) /Trapped /False >>")
    return out.finish(catalog, info)


def _num(value: float) -> str:
    """A PDF number: at most 4 decimals, no trailing zeros (the same value always prints the same)."""
    return f"{value:.4f}".rstrip("0").rstrip(".")


def _text(value: str) -> str:
    """A PDF text string: UTF-16BE with its byte-order mark, in hex (any character, nothing to escape)."""
    return "<" + ("\ufeff" + value).encode("utf-16-be").hex().upper() + ">"


class _Objects:
    """A PDF file built object by object, with its cross-reference table and a content-derived /ID."""

    def __init__(self) -> None:
        self.bodies: dict[int, bytes] = {}
        self.count = 0

    def reserve(self) -> int:
        self.count += 1
        return self.count

    def put(self, number: int, body: str | bytes) -> None:
        self.bodies[number] = body.encode("latin-1") if isinstance(body, str) else body

    def add(self, body: str | bytes) -> int:
        number = self.reserve()
        self.put(number, body)
        return number

    def stream(self, entries: dict[str, str], data: bytes, *, compress: bool = True) -> int:
        """A stream object (Flate-compressed unless ``compress`` is False); its number."""
        if compress:
            data = zlib.compress(data, ZLIB_LEVEL)
            entries = {**entries, "/Filter": "/FlateDecode"}
        head = " ".join(f"{key} {value}" for key, value in {**entries, "/Length": str(len(data))}.items())
        return self.add(b"<< " + head.encode("latin-1") + b" >>\nstream\n" + data + b"\nendstream")

    def finish(self, root: int, info: int) -> bytes:
        out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for number in range(1, self.count + 1):
            offsets.append(len(out))
            out += f"{number} 0 obj\n".encode("ascii") + self.bodies[number] + b"\nendobj\n"
        xref = len(out)
        out += f"xref\n0 {self.count + 1}\n0000000000 65535 f \n".encode("ascii")
        out += b"".join(f"{offset:010d} 00000 n \n".encode("ascii") for offset in offsets)
        digest = hashlib.md5(bytes(out), usedforsecurity=False).hexdigest()
        out += (f"trailer\n<< /Size {self.count + 1} /Root {root} 0 R /Info {info} 0 R /ID [<{digest}> <{digest}>] >>\n"
                f"startxref\n{xref}\n%%EOF\n").encode("ascii")
        return bytes(out)


def _xmp(title: str) -> str:
    """The XMP packet: title, and the PDF/X version and conformance the information dictionary gives."""
    escaped = title.replace("&", "&amp;").replace("<", "&lt;")
    return (
        '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
        '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"'
        ' xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/"'
        ' xmlns:pdfx="http://ns.adobe.com/pdfx/1.3/">\n'
        f'<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{escaped}</rdf:li></rdf:Alt></dc:title>\n'
        '<pdf:Trapped>False</pdf:Trapped>\n'
        f'<pdfxid:GTS_PDFXVersion>{PDFX_VERSION}</pdfxid:GTS_PDFXVersion>\n'
        f'<pdfx:GTS_PDFXVersion>{PDFX_VERSION}</pdfx:GTS_PDFXVersion>\n'
        f'<pdfx:GTS_PDFXConformance>{PDFX_CONFORMANCE}</pdfx:GTS_PDFXConformance>\n'
        '</rdf:Description></rdf:RDF></x:xmpmeta>\n<?xpacket end="w"?>'
    )
