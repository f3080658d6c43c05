"""What a pre-press check reads in a finished PDF: its fonts (every one embedded, none of the standard 14)."""
from __future__ import annotations

from typing import Any, Optional

from pypdf import PdfReader
from pypdf.generic import DictionaryObject, PdfObject

STANDARD_14 = {
    "Courier", "Courier-Bold", "Courier-BoldOblique", "Courier-Oblique",
    "Helvetica", "Helvetica-Bold", "Helvetica-BoldOblique", "Helvetica-Oblique",
    "Times-Roman", "Times-Bold", "Times-BoldItalic", "Times-Italic", "Symbol", "ZapfDingbats",
}


def fonts_not_embedded(pdf: PdfReader) -> set[str]:
    """Every font a PDF uses, anywhere (pages, forms inside forms), that is not embedded or is one of the
    standard 14 (which a PDF may name without embedding), by base name. Each font, font list and form
    object is read once, however many pages and forms share it."""
    bad: set[str] = set()
    seen: set[object] = set()  # objects already read: forms, font lists and fonts a page or form refers to

    def first_time(ref: PdfObject) -> bool:
        """Whether ``ref`` is met for the first time (a direct object is always new)."""
        key = getattr(ref, "idnum", None)
        if key is None:
            return True
        if key in seen:
            return False
        seen.add(key)
        return True

    def check(ref: Any) -> None:
        font = ref.get_object()
        name = str(font.get("/BaseFont", "?")).lstrip("/")
        described = font["/DescendantFonts"][0].get_object() if font.get("/Subtype") == "/Type0" else font
        descriptor = described.get("/FontDescriptor")
        embedded = descriptor is not None and any(
            key in descriptor.get_object() for key in ("/FontFile", "/FontFile2", "/FontFile3")
        )
        if not embedded or name.split("+")[-1] in STANDARD_14:
            bad.add(name)

    def visit(entry: Optional[PdfObject]) -> None:
        resources = entry.get_object() if entry is not None else None
        if not resources:
            return
        if not isinstance(resources, DictionaryObject):
            raise TypeError(f"a /Resources entry is a {type(resources).__name__}, not a dictionary")
        listed = resources.get("/Font")
        if listed is not None and first_time(listed):
            for ref in listed.get_object().values():
                if first_time(ref):
                    check(ref)
        for ref in resources.get("/XObject", {}).values():
            if first_time(ref):
                visit(ref.get_object().get("/Resources"))

    for page in pdf.pages:
        visit(page.get("/Resources"))
    return bad
