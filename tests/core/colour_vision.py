"""Seeing a printed face without full colour vision: the Machado, Oliveira and Fernandes (2009) simulation
of deuteranopia, protanopia and tritanopia (severity 1, on linear RGB), and a raster reduced to its shape.

Used by the tests that hold colours to "never alone": what tells two decks, gods or colours apart must
still differ once hue is gone (Totems + Taboos' deck symbols, Monstrous's god frames).
"""
from __future__ import annotations

from itertools import combinations
from typing import Iterator

from PIL import Image

MATRICES = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
Pixel = tuple[float, float, float]
Matrix = tuple[Pixel, Pixel, Pixel]


def linear(channel: int) -> float:
    value = channel / 255
    return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4


def simulate(pixel: tuple[int, int, int], matrix: Matrix) -> float:
    """The relative luminance of ``pixel`` as seen with the deficiency ``matrix``."""
    rgb = [linear(c) for c in pixel]
    seen = [min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb)))) for row in matrix]
    return 0.2126 * seen[0] + 0.7152 * seen[1] + 0.0722 * seen[2]


def shape(image: Image.Image, matrix: Matrix) -> list[bool]:
    """Which pixels of ``image`` are on its lighter side, as seen with the deficiency (a flat image: none)."""
    seen = [simulate(p, matrix) for p in image.get_flattened_data()]
    middle = (min(seen) + max(seen)) / 2
    return [value > middle for value in seen]


def alike(images: dict[str, Image.Image], matrix: Matrix, least: float) -> Iterator[str]:
    """Each pair of equally sized ``images`` whose shapes, seen with the deficiency, differ in less than
    ``least`` of their pixels (what only hue told apart)."""
    shapes = {name: shape(image, matrix) for name, image in images.items()}
    for (a, first), (b, second) in combinations(sorted(shapes.items()), 2):
        assert len(first) == len(second), f"{a} and {b} are not the same size"
        differing = sum(x != y for x, y in zip(first, second)) / len(first)
        if differing < least:
            yield f"{a} and {b} look alike ({differing:.0%} of pixels differ)"
