"""Monstrous's god colours, shared by the card renderer and the documents (player aids, legend, Faith tokens)."""
from __future__ import annotations

from typing import Mapping

# god colour name -> frame colour, ink on the frame, pale tint, text colour on paper, emblem colour.
# The emblem colour draws the god's emblem on paper and outlines its cards' panels: the frame colour
# itself, except for the white god, whose emblem and outline are dark (white on paper would vanish).
PALETTE: Mapping[str, tuple[str, str, str, str, str]] = {
    "green": ("#3d7a3a", "#ffffff", "#e4efda", "#2f5f2d", "#3d7a3a"),
    "blue": ("#2c5d9e", "#ffffff", "#dde7f4", "#244c82", "#2c5d9e"),
    "purple": ("#6a3a8a", "#ffffff", "#ebdff2", "#56306f", "#6a3a8a"),
    "orange": ("#b4560f", "#ffffff", "#f8e4d2", "#8a4410", "#b4560f"),
    "white": ("#e6e0d0", "#4a4438", "#f7f3ea", "#5a5244", "#5f574a"),
}
FRAME, INK, TINT, TEXT, EMBLEM = 0, 1, 2, 3, 4  # indices into a PALETTE row
