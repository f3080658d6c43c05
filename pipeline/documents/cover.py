"""A rulebook's cover page, drawn with reportlab: accent bands, a composed emblem, the title and the box facts.

The emblem is composed, not drawn art: a ring of rays around two rings and a
disc in the layout's accent colour, with the game's own icon (one of
``templates/icons``) in white at its heart. Its sizes come from the layout's
``cover`` section; the title is set in the display face, the rest in the body
family, so every glyph has passed the documents' glyph check before it gets here.
"""
from __future__ import annotations

import math
from typing import Any

from reportlab.graphics import renderPDF
from reportlab.graphics import shapes as rl
from reportlab.lib import colors
from reportlab.lib.utils import simpleSplit
from reportlab.platypus import Flowable

from pipeline.cards import fonts
from pipeline.cards.units import mm
from pipeline.documents import typefaces
from pipeline.documents.layout import Layout
from pipeline.documents.measuring import measuring

EMBLEM_CENTRE = 0.62  # the emblem's centre, as a share of the page height from the bottom
RAY_INNER, RAY_LONG, RAY_SHORT = 0.40, 0.50, 0.46  # ray base and tips, as shares of the emblem's diameter (from its centre)
RAY_HALF_WIDTH_DEG = 3.2  # half the angle a ray's base spans
RING_OUTER, RING_INNER, DISC = 0.385, 0.355, 0.33  # radii, as shares of the diameter
ICON_SHARE = 0.34  # the icon's height, as a share of the diameter
TITLE_GAP_MM = 14.0  # below the emblem's rays to the title's first baseline
LINE_GAP_MM = 3.0  # between the title and the subtitle, the subtitle and the facts
FACTS_SEPARATOR = "  \u00b7  "
FACTS_PAD_MM = 3.0  # inside the facts box, around the line
PUBLISHER = "Pantheon Press"


class CoverFlowable(Flowable):
    """The whole cover page (it fills the cover template's one page-sized frame)."""

    def __init__(self, layout: Layout, title: str, subtitle: str, facts: tuple[str, ...], tagline: str, emblem: rl.Group,
                 icon_aspect: float) -> None:
        super().__init__()
        self.layout = layout
        self.title, self.subtitle, self.facts, self.tagline = title, subtitle, facts, tagline
        self.emblem, self.icon_aspect = emblem, icon_aspect

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width, self.height = available_width, available_height
        return self.width, self.height

    def _colour(self, name: str) -> Any:
        return colors.HexColor(self.layout.colour(name))

    def draw(self) -> None:
        canvas = self.canv
        if measuring(canvas):  # a page of its own: nothing on it moves or refuses anything
            return
        layout = self.layout
        width, height = self.width, self.height
        band = mm(layout.get("cover", "band_mm"))
        accent, text, muted = self._colour("accent"), self._colour("text"), self._colour("muted")
        canvas.saveState()
        canvas.setFillColor(accent)
        canvas.rect(0, height - band, width, band, stroke=0, fill=1)
        canvas.rect(0, 0, width, band, stroke=0, fill=1)
        canvas.setFillColor(colors.white)
        canvas.setFont(fonts.font_name(fonts.BOLD), layout.get("footer", "size_pt") + 1)
        canvas.drawCentredString(width / 2, band / 2 - 3, PUBLISHER)
        diameter = mm(layout.get("cover", "emblem_mm"))
        cx, cy = width / 2, height * EMBLEM_CENTRE
        self._emblem(canvas, cx, cy, diameter)
        margin = mm(layout.margins["left"])
        title_style = layout.style("cover_title")
        y = cy - diameter * RAY_LONG - mm(TITLE_GAP_MM)
        canvas.setFillColor(accent)
        canvas.setFont(typefaces.font_name(typefaces.DISPLAY), title_style.size)
        for line in simpleSplit(self.title, typefaces.font_name(typefaces.DISPLAY), title_style.size, width - 2 * margin):
            canvas.drawCentredString(cx, y, line)
            y -= title_style.leading
        subtitle = layout.style("subtitle")
        if self.subtitle:
            canvas.setFillColor(text)
            canvas.setFont(fonts.font_name(fonts.ITALIC), subtitle.size)
            for line in simpleSplit(self.subtitle, fonts.font_name(fonts.ITALIC), subtitle.size, width - 2 * margin):
                y -= mm(LINE_GAP_MM) / 2
                canvas.drawCentredString(cx, y, line)
                y -= subtitle.leading
        if self.facts:
            self._facts(canvas, cx, y - mm(LINE_GAP_MM) * 2)
        if self.tagline:
            canvas.setFillColor(muted)
            canvas.setFont(fonts.font_name(fonts.ITALIC), subtitle.size)
            canvas.drawCentredString(cx, band + mm(layout.margins["bottom"]), self.tagline)
        canvas.restoreState()

    def _facts(self, canvas: Any, cx: float, top: float) -> None:
        """The box facts on one line, in an outlined box: players, time, ages."""
        style = self.layout.style("cover_line")
        line = FACTS_SEPARATOR.join(self.facts)
        font = fonts.font_name(fonts.BOLD)
        text_w = canvas.stringWidth(line, font, style.size)
        pad = mm(FACTS_PAD_MM)
        box_h = style.leading + 2 * pad
        canvas.setStrokeColor(self._colour("accent"))
        canvas.setLineWidth(self.layout.line("outline").width)
        canvas.roundRect(cx - text_w / 2 - pad, top - box_h, text_w + 2 * pad, box_h, pad, stroke=1, fill=0)
        canvas.setFillColor(self._colour("text"))
        canvas.setFont(font, style.size)
        canvas.drawCentredString(cx, top - pad - style.size, line)

    def _emblem(self, canvas: Any, cx: float, cy: float, diameter: float) -> None:
        """Rays, two rings and a disc in the accent colour; the game's icon in white at the centre."""
        accent = self._colour("accent")
        drawing = rl.Drawing(diameter, diameter)
        drawing.initialFontName = fonts.font_name()
        r0 = diameter / 2
        rays = self.layout.get("cover", "rays")
        half = math.radians(RAY_HALF_WIDTH_DEG)
        for n in range(rays):
            angle = 2 * math.pi * n / rays + math.pi / 2
            tip = diameter * (RAY_LONG if n % 2 == 0 else RAY_SHORT)
            base = diameter * RAY_INNER
            points = [r0 + base * math.cos(angle - half), r0 + base * math.sin(angle - half),
                      r0 + tip * math.cos(angle), r0 + tip * math.sin(angle),
                      r0 + base * math.cos(angle + half), r0 + base * math.sin(angle + half)]
            drawing.add(rl.Polygon(points, fillColor=accent, strokeColor=None))
        drawing.add(rl.Circle(r0, r0, diameter * RING_OUTER, fillColor=accent, strokeColor=None))
        drawing.add(rl.Circle(r0, r0, diameter * RING_INNER, fillColor=colors.white, strokeColor=None))
        drawing.add(rl.Circle(r0, r0, diameter * DISC, fillColor=accent, strokeColor=None))
        icon_h = diameter * ICON_SHARE  # the icon group is 1 mm tall: scale it to icon_h
        scale = icon_h / mm(1.0)
        icon = rl.Group(self.emblem)
        icon.transform = (scale, 0, 0, scale, r0 - icon_h * self.icon_aspect / 2, r0 - icon_h / 2)
        drawing.add(icon)
        renderPDF.draw(drawing, canvas, cx - r0, cy - r0)
