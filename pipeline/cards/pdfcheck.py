"""What a pre-press check reads in a finished PDF: its fonts (every one embedded, none of the standard 14)."""
from __future__ import annotations

from typing import Optional

from pypdf import PdfReader
from pypdf.generic import DictionaryObject, PdfObject

STANDARD_14 = {
    "Courier", "Courier-Bold", "Courier-BoldOblique", "Courier-Oblique",
    "Helvetica", "Helvetica-Bold", "Helvetica-BoldOblique", "Helvetica-Oblique",
    "Times-Roman", "Times-Bold", "Times-BoldItalic", "Times-Italic", "Symbol", "ZapfDingbats",
}


def fonts_not_embedded(pdf: PdfReader) -> set[str]:
    """Every font a PDF uses, anywhere (pages, forms inside forms), that is not embedded or is one of the
    standard 14 (which a PDF may name without embedding), by base name."""
    bad: set[str] = set()
    seen: set[int] = set()  # forms already walked (a shared form is listed on many pages)

    def visit(entry: Optional[PdfObject]) -> None:
        resources = entry.get_object() if entry is not None else None
        if not resources:
            return
        if not isinstance(resources, DictionaryObject):
            raise TypeError(f"a /Resources entry is a {type(resources).__name__}, not a dictionary")
        for ref in resources.get("/Font", {}).values():
            font = ref.get_object()
            name = str(font.get("/BaseFont", "?")).lstrip("/")
            described = font["/DescendantFonts"][0].get_object() if font.get("/Subtype") == "/Type0" else font
            descriptor = described.get("/FontDescriptor")
            embedded = descriptor is not None and any(
                key in descriptor.get_object() for key in ("/FontFile", "/FontFile2", "/FontFile3")
            )
            if not embedded or name.split("+")[-1] in STANDARD_14:
                bad.add(name)
        for ref in resources.get("/XObject", {}).values():
            xobject = ref.get_object()
            key = getattr(ref, "idnum", None) or id(xobject)
            if key in seen:
                continue
            seen.add(key)
            visit(xobject.get("/Resources"))

    for page in pdf.pages:
        visit(page.get("/Resources"))
    return bad
