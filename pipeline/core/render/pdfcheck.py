"""What a pre-press check reads in a finished PDF: its fonts (every one embedded, none of the standard 14)."""
from __future__ import annotations

from pypdf import PdfReader

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

    def visit(resources: object) -> None:
        resources = resources.get_object() if resources is not None else None  # type: ignore[union-attr]
        if not resources:
            return
        for ref in resources.get("/Font", {}).values():  # type: ignore[union-attr]
            font = ref.get_object()
            name = str(font.get("/BaseFont", "?")).lstrip("/")
            described = font["/DescendantFonts"][0].get_object() if font.get("/Subtype") == "/Type0" else font
            descriptor = described.get("/FontDescriptor")
            embedded = descriptor is not None and any(
                key in descriptor.get_object() for key in ("/FontFile", "/FontFile2", "/FontFile3")
            )
            if not embedded or name.split("+")[-1] in STANDARD_14:
                bad.add(name)
        for ref in resources.get("/XObject", {}).values():  # type: ignore[union-attr]
            xobject = ref.get_object()
            key = getattr(ref, "idnum", None) or id(xobject)
            if key in seen:
                continue
            seen.add(key)
            visit(xobject.get("/Resources"))

    for page in pdf.pages:  # type: ignore[attr-defined]
        visit(page.get("/Resources"))
    return bad
