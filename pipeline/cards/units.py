"""Millimetres everywhere in data and templates; points only at the edge where reportlab draws."""
from __future__ import annotations

MM_PER_INCH = 25.4
PT_PER_INCH = 72.0
PT_PER_MM = PT_PER_INCH / MM_PER_INCH


def mm(value: float) -> float:
    """``value`` millimetres in PDF points."""
    return value * PT_PER_MM
