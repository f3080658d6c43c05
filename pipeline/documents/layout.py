"""Layout constants of every document, read from ``templates/docs/layout.yaml`` (schema-checked).

Paper sizes are the print pipeline's (``templates/sheets.yaml``), so cards and
documents agree on what A4 and Letter are.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

from pipeline.base.errors import UserError
from pipeline.cards.imposition import Sheets, load_sheets
from pipeline.cards.svgtemplates import TEMPLATE_ROOT
from pipeline.data.schemas import load_checked_yaml

LAYOUT_FILE = TEMPLATE_ROOT / "docs" / "layout.yaml"
LAYOUT_SCHEMA = TEMPLATE_ROOT / "docs" / "layout.schema.json"
HEX_PREFIX = "#"


@dataclass(frozen=True)
class TextStyle:
    font: str
    size: float
    leading: float
    space_before: float
    space_after: float


@dataclass(frozen=True)
class LineStyle:
    width: float  # pt
    dash: tuple[float, ...]


@dataclass(frozen=True)
class Layout:
    """The validated layout for one paper size (all lengths in mm unless named _pt)."""

    paper: str
    page_width: float
    page_height: float
    data: Any

    @property
    def margins(self) -> dict[str, float]:
        return dict(self.data["margins_mm"])

    @property
    def frame(self) -> tuple[float, float]:
        """Width and height (mm) of the text area."""
        m = self.margins
        return self.page_width - m["left"] - m["right"], self.page_height - m["top"] - m["bottom"]

    def column_width(self, columns: int) -> float:
        """Width (mm) of one of ``columns`` text columns side by side (the gutter between them)."""
        gutter = self.data["columns"]["gutter_mm"]
        return (self.frame[0] - gutter * (columns - 1)) / columns

    @property
    def min_figure_pt(self) -> float:
        """No text of a figure in a rulebook is set smaller than this (pt)."""
        return float(self.data["columns"]["min_figure_pt"])

    def style(self, name: str) -> TextStyle:
        try:
            s = self.data["styles"][name]
        except KeyError:
            raise UserError(f"layout: unknown text style '{name}' (known: {', '.join(self.data['styles'])})") from None
        return TextStyle(s["font"], s["size_pt"], s["leading_pt"], s["space_before_pt"], s["space_after_pt"])

    def colour(self, name: Optional[str]) -> Optional[str]:
        """A layout colour name or a literal '#rrggbb' as '#rrggbb'; None stays None."""
        if name is None or name.startswith(HEX_PREFIX):
            return name
        try:
            return str(self.data["colours"][name])
        except KeyError:
            raise UserError(f"layout: unknown colour '{name}' (known: {', '.join(self.data['colours'])})") from None

    def line(self, name: str) -> LineStyle:
        try:
            s = self.data["lines"][name]
        except KeyError:
            raise UserError(f"layout: unknown line style '{name}' (known: {', '.join(self.data['lines'])})") from None
        return LineStyle(s["width_pt"], tuple(s["dash_pt"]))

    def get(self, section: str, key: str) -> Any:
        return self.data[section][key]


@lru_cache(maxsize=None)
def _read(path: Path, schema_path: Path) -> Any:
    return load_checked_yaml(path, schema_path)


def load_layout(paper: str, path: Optional[Path] = None, schema_path: Path = LAYOUT_SCHEMA, *,
                sheets: Optional[Sheets] = None) -> Layout:
    """The layout for ``paper`` (an id of templates/sheets.yaml: a4, letter); ``path`` defaults to LAYOUT_FILE;
    ``sheets``: the sheet definitions the caller read (None: read now)."""
    sheet = (sheets or load_sheets()).paper(paper)
    return Layout(paper, sheet.width_mm, sheet.height_mm, _read(path or LAYOUT_FILE, schema_path))


def table_columns(name: str) -> tuple[float, ...]:
    """The relative column widths of one of the tables every game prints (``table.columns`` in the layout,
    the same for every paper), for code that builds a document without a paper's layout at hand."""
    return tuple(_read(LAYOUT_FILE, LAYOUT_SCHEMA)["table"]["columns"][name])
