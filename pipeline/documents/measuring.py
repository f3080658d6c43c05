"""Laying a document out to measure it, not to print it: validate's layout of a paper whose PDF is not kept.

Validate sets every document on every paper, to find what would make the build refuse it (see
:mod:`pipeline.documents.docscheck`). Where the bytes are thrown away, the layout runs on a
:class:`MeasuringCanvas`: drawings and card faces take the room their ``wrap`` gives, as on any canvas, but are
not painted (painting them cannot change where anything goes, nor refuse anything: a face is the card plan's,
laid out and checked by the card check first), and no file is written. Text is still set and drawn, since
reportlab's paragraphs are laid out as they are drawn.
"""
from __future__ import annotations

from typing import Any

from reportlab.graphics import shapes as rl
from reportlab.pdfgen.canvas import Canvas


class MeasuringCanvas(Canvas):
    """A canvas whose pages are measured and dropped: nothing is written when the document ends."""

    def save(self) -> None:
        """Nothing to save: the layout was all that was wanted."""


def measuring(canvas: Any) -> bool:
    """Whether ``canvas`` lays a document out only to measure it (paint nothing that does not move text)."""
    return isinstance(canvas, MeasuringCanvas)


class Drawing(rl.Drawing):
    """A reportlab Drawing not painted on a :class:`MeasuringCanvas` (its room is its width and height)."""

    def draw(self, *args: Any, **kwargs: Any) -> None:
        if not measuring(self.canv):  # platypus sets the canvas before it asks a flowable to draw
            super().draw(*args, **kwargs)
