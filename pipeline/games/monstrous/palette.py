"""Monstrous's god colours, shared by the card renderer and the documents (player aids, legend, Faith tokens)."""
from __future__ import annotations

from typing import Mapping

# god colour name -> frame colour, ink on the frame, pale tint, text colour on paper
PALETTE: Mapping[str, tuple[str, str, str, str]] = {
    "green": ("#3d7a3a", "#ffffff", "#e4efda", "#2f5f2d"),
    "blue": ("#2c5d9e", "#ffffff", "#dde7f4", "#244c82"),
    "purple": ("#6a3a8a", "#ffffff", "#ebdff2", "#56306f"),
    "orange": ("#d0691c", "#ffffff", "#f8e4d2", "#9c4c12"),
    "white": ("#e6e0d0", "#4a4438", "#f7f3ea", "#5a5244"),
}
FRAME, INK, TINT, TEXT = 0, 1, 2, 3  # indices into a PALETTE row
