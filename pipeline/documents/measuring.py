"""The canvases documents are laid out on: one that notes where each flowable lands, and one that only measures.

Every layout runs on a :class:`LayoutCanvas`: as a frame places a flowable, the canvas notes the flowable's
bottom-left corner (reportlab places a flowable by saving the graphics state and translating to that corner,
through the canvas's public methods), so the document template reads, after each flowable, how far down its
column is used: the fill check's fact (:mod:`pipeline.documents.fill`), the same on every canvas.

Validate sets every document on every paper, to find what would make the build refuse it (see
:mod:`pipeline.documents.docscheck`). Where the bytes are thrown away, the layout runs on a
:class:`MeasuringCanvas`: drawings, card faces and text take the room their ``wrap`` gives, as on any canvas,
but are not painted (painting cannot change where anything goes, nor refuse anything: a face is the card
plan's, laid out and checked by the card check first; a paragraph's lines are broken when it is wrapped), and
no file is written.
"""
from __future__ import annotations

from typing import Any, Optional

from reportlab.graphics import shapes as rl
from reportlab.pdfgen.canvas import Canvas

PAGE_LEVEL = 1  # graphics states saved when a frame places a flowable (Flowable.drawOn saves one, then translates)


class LayoutCanvas(Canvas):
    """A canvas that notes the bottom-left corner (absolute points) of the last flowable placed at page level."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._depth = 0
        self.placed: Optional[tuple[float, float]] = None

    def saveState(self) -> None:
        super().saveState()
        self._depth += 1

    def restoreState(self) -> None:
        super().restoreState()
        self._depth -= 1

    def translate(self, dx: float, dy: float) -> None:
        super().translate(dx, dy)
        if self._depth == PAGE_LEVEL:  # a flowable placed by a frame (or a float placed by a page), not its insides
            self.placed = self.absolutePosition(0, 0)

    def take_placed(self) -> Optional[tuple[float, float]]:
        """Where the last flowable was placed since the last call (None: nothing was placed)."""
        placed, self.placed = self.placed, None
        return placed


class MeasuringCanvas(LayoutCanvas):
    """A canvas whose pages are measured and dropped: nothing is written when the document ends."""

    def save(self) -> None:
        """Nothing to save: the layout was all that was wanted."""


def measuring(canvas: Any) -> bool:
    """Whether ``canvas`` lays a document out only to measure it (paint nothing)."""
    return isinstance(canvas, MeasuringCanvas)


class Drawing(rl.Drawing):
    """A reportlab Drawing not painted on a :class:`MeasuringCanvas` (its room is its width and height)."""

    def draw(self, *args: Any, **kwargs: Any) -> None:
        if not measuring(self.canv):  # platypus sets the canvas before it asks a flowable to draw
            super().draw(*args, **kwargs)
