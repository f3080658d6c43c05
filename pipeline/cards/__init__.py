"""Card rendering: jinja2 SVG templates -> svglib -> reportlab forms -> imposed, print-ready PDF sheets.

The flow, one module per step:
``svgtemplates`` renders a face template to SVG text; ``forms`` splits it into
fixed art (converted once with svglib, reused as a PDF form XObject) and the
per-card slots (text boxes and icons) that ``text`` fits and draws with the one
embedded font family of ``fonts``; ``imposition`` places faces on A4/Letter
sheets with bleed, crop marks and mirrored backs; ``pdfwrite`` writes the file
deterministically and atomically; ``cache`` skips games whose inputs did not
change; ``build`` ties it together for the CLI. The design checks
(``design``, on the facts ``facemetrics`` takes) read what the art paints
where straight from its SVG (``svgpaint``): validate's card check converts
no art.
"""
