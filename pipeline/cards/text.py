"""Text boxes on cards: inline icons, bold/italic runs, wrapping, and fitting by shrinking.

A box is given a preferred and a minimum size in points. The text is wrapped
at the preferred size and shrunk in small steps until it fits; if it does not
fit at the minimum, the build fails naming the card, never printing text that
runs off the card. Every character is checked against the font first.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, NamedTuple, Optional, Protocol, Sequence

from reportlab.lib.colors import Color
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pipeline.base.errors import UserError
from pipeline.cards import colours, fonts
from pipeline.cards.units import PT_PER_MM

SHRINK_STEP_PT = 0.25
LEADING = 1.18  # line height as a multiple of the font size
ASCENT = 0.76  # baseline below the top of a line, as a multiple of the font size
ICON_EM = 1.05  # inline icon height as a multiple of the font size
ICON_DROP = 0.17  # how far an inline icon sits below the baseline, in font sizes
ICON_GAP = 0.06  # extra room either side of an inline icon, in font sizes
ALIGNS = ("left", "center", "right")
BALANCE_STEPS = 12  # halvings of the width when balancing centred lines (1/4096 of the box)
VALIGNS = ("top", "middle", "bottom")


class IconAspects(Protocol):
    """What fitting text needs from the icon library: proportions."""

    def aspect(self, name: str, where: str) -> float: ...


class IconSource(IconAspects, Protocol):
    """What painting text needs from the icon library: proportions and a way to draw."""

    def draw(self, canvas: Canvas, name: str, x: float, y: float, height: float) -> None: ...


class Atom(NamedTuple):
    """A piece of a word: text in one style, or an icon. ``space`` says whitespace came before it.
    (A named tuple, as ``Placed`` is: a card check makes thousands, and a frozen dataclass is dear to make.)"""

    text: str
    style: str = fonts.REGULAR
    icon: Optional[str] = None
    space: bool = False
    newline: bool = False  # a forced line break before this atom


@dataclass(frozen=True)
class Box:
    """A text box in points, with (x, top) its top-left corner on the canvas."""

    x: float
    top: float
    width: float
    height: float
    size: float
    min_size: float
    align: str = "left"
    valign: str = "top"
    color: str = "#000000"


class Placed(NamedTuple):
    atom: Atom
    x: float  # offset from the line start, at size 1
    width: float  # at size 1


@dataclass(frozen=True)
class Layout:
    size: float
    lines: tuple[tuple[tuple[Placed, ...], float], ...]  # (atoms, line width at size 1)


def _colour(spec: str) -> Color:
    """A parsed colour."""
    try:
        return colours.colour(spec)
    except ValueError:
        raise _not_a_colour(spec) from None


def check_colour(spec: str, where: str) -> None:
    """Fail naming the card when ``spec`` is not a colour reportlab knows (``colours.parse`` takes exactly the
    colours ``_colour`` takes, a hex code without making reportlab's Color of it: a check of every text slot)."""
    try:
        colours.parse(spec)
    except ValueError:
        raise UserError(f"{where}: {_not_a_colour(spec)}") from None


def _not_a_colour(spec: str) -> UserError:
    return UserError(f"colour '{spec}' is not a colour (use #rrggbb or a name)")


def _unit_width(text: str, style: str) -> float:
    return stringWidth(text, fonts.font_name(style), 1.0)


def _atom_width(atom: Atom, icons: IconAspects, where: str) -> float:
    if atom.icon is not None:
        return icons.aspect(atom.icon, where) * ICON_EM + 2 * ICON_GAP
    return _unit_width(atom.text, atom.style)


Spaces = Mapping[str, float]  # the width of a space (at size 1) in each style a text uses


def _words(atoms: Sequence[Atom]) -> list[list[Atom]]:
    """Group atoms into unbreakable words (atoms with no whitespace between them)."""
    words: list[list[Atom]] = []
    for atom in atoms:
        if not words or atom.space or atom.newline:
            words.append([atom])
        else:
            words[-1].append(atom)
    return words


Line = tuple[tuple[Placed, ...], float]  # a line's placed atoms and its width
Word = tuple[list[Atom], list[float]]  # a word's atoms and their widths at size 1


def _breaks(words: Sequence[Word], spaces: Spaces, limit: float,
            max_lines: Optional[int] = None) -> Optional[list[tuple[int, int]]]:
    """Greedy line breaking at size 1 into ``limit``: each line's words as a range (first, end) of ``words``;
    None when a single word is wider than the box, or as soon as the lines outnumber ``max_lines`` (the rest
    of the text is not looked at). Only where the lines break: the trial widths place no atom (``_placed``)."""
    ranges: list[tuple[int, int]] = []
    first = 0
    cursor = 0.0
    for at, (atoms, widths) in enumerate(words):
        word_width = sum(widths)
        if word_width > limit:
            return None
        space = _space_before(atoms, spaces, at > first)
        if at > first and (atoms[0].newline or cursor + space + word_width > limit):
            ranges.append((first, at))
            if max_lines is not None and len(ranges) >= max_lines:
                return None  # a word is left over and there is no line for it
            first, cursor, space = at, 0.0, 0.0
        x = cursor + space
        for width in widths:  # atom by atom, as ``_placed`` adds them (the same sums to the last bit)
            x += width
        cursor = x
    if first < len(words):
        ranges.append((first, len(words)))
    return ranges


def _space_before(atoms: Sequence[Atom], spaces: Spaces, in_line: bool) -> float:
    """The space (at size 1) before a word that follows another on its line and was written after a space."""
    return spaces[atoms[0].style] if in_line and atoms[0].space else 0.0


def _placed(words: Sequence[Word], spaces: Spaces, ranges: Sequence[tuple[int, int]]) -> list[Line]:
    """The lines ``_breaks`` found, each atom placed at its x along its line."""
    lines: list[Line] = []
    for first, end in ranges:
        current: list[Placed] = []
        cursor = 0.0
        for at in range(first, end):
            atoms, widths = words[at]
            x = cursor + _space_before(atoms, spaces, at > first)
            for atom, width in zip(atoms, widths):
                current.append(Placed(atom, x, width))
                x += width
            cursor = x
        lines.append((tuple(current), cursor))
    return lines


def _balanced(words: Sequence[Word], spaces: Spaces, limit: float, ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The same number of lines as ``ranges`` (the words wrapped at ``limit``), wrapped at the narrowest width
    that keeps it: centred lines of even length, not a full line and a stray word ("Gain 1 / Faith.").

    A halving search for that width. A width between the widest line a wrapping needed (``_needed``) and the
    width it was made at wraps the words the same way, so such a step of the search is not wrapped again."""
    count = len(ranges)
    narrow, wide = max(sum(widths) for _, widths in words), limit
    best, needed = ranges, _needed(words, spaces, ranges)
    for _ in range(BALANCE_STEPS):
        middle = (narrow + wide) / 2
        if middle >= needed:  # (every middle from here is below the width ``best`` was made at)
            wide = middle
            continue
        found = _breaks(words, spaces, middle, count)  # (None: more lines than ``count``)
        if found is not None:
            wide, best, needed = middle, found, _needed(words, spaces, found)
        else:
            narrow = middle
    return best


def _needed(words: Sequence[Word], spaces: Spaces, ranges: Sequence[tuple[int, int]]) -> float:
    """The widest ``_breaks`` found a word's end on a line of ``ranges`` (its comparison with the limit, the same
    sums): at any limit from this up to the one it wrapped at, it wraps the words into the same lines."""
    needed = 0.0
    for first, end in ranges:
        cursor = 0.0
        for at in range(first, end):
            atoms, widths = words[at]
            space = _space_before(atoms, spaces, at > first)
            if at > first:
                needed = max(needed, cursor + space + sum(widths))
            x = cursor + space
            for width in widths:
                x += width
            cursor = x
    return needed


def fit(atoms: Sequence[Atom], box: Box, icons: IconAspects, where: str) -> Layout:
    """Wrap ``atoms`` into ``box`` at the largest size from ``box.size`` down to ``box.min_size`` that fits."""
    by_style: dict[str, list[str]] = {}
    for atom in atoms:
        if atom.icon is None:
            by_style.setdefault(atom.style, []).append(atom.text)
    for style, pieces in by_style.items():
        fonts.check_glyphs("".join(pieces), where, style)
    words = [(w, [_atom_width(a, icons, where) for a in w]) for w in _words(atoms)]
    spaces = {style: _unit_width(" ", style) for style in {atom.style for atom in atoms}}
    # The words' widths alone (no spaces, no forced breaks) at the minimum size against every line the box
    # has at that size: more text than that fits at no size, and is refused before any wrapping.
    if sum(sum(widths) for _, widths in words) * box.min_size > box.width * _lines_in(box, box.min_size) + 1e-6:
        raise _does_not_fit(atoms, box, where)
    size = box.size
    while size >= box.min_size - 1e-9:
        ranges = _breaks(words, spaces, box.width / size, _lines_in(box, size))
        if ranges is not None:
            if box.align == "center" and len(ranges) > 1:
                ranges = _balanced(words, spaces, box.width / size, ranges)
            return Layout(size, tuple(_placed(words, spaces, ranges)))
        size -= SHRINK_STEP_PT
    raise _does_not_fit(atoms, box, where)


def _lines_in(box: Box, size: float) -> int:
    """How many lines of text at ``size`` the box holds."""
    return int((box.height + 1e-6) / (size * LEADING))


def _does_not_fit(atoms: Sequence[Atom], box: Box, where: str) -> UserError:
    shown = ""
    for atom in atoms:  # the first 40 characters, without joining the whole text
        shown += (atom.text if atom.icon is None else f"[{atom.icon}]") + " "
        if len(shown) > 40:
            break
    shown = shown.strip()
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    return UserError(
        f"{where}: text '{shown}' does not fit its {box.width / PT_PER_MM:.0f}x{box.height / PT_PER_MM:.0f} mm box "
        f"even at the minimum size {box.min_size:g} pt; shorten it or enlarge the box"
    )


# One run of text in one style: (style, x, baseline, size, text), in points on the face.
Run = tuple[str, float, float, float, str]
InlineIcon = tuple[str, float, float, float]  # (name, x, y, height) in points


@dataclass(frozen=True)
class SetText:
    """A fitted box set in runs and inline icons: what it paints, independent of any document
    (so it can be kept between builds; ``encode`` turns it into a document's text operators)."""

    color: str
    runs: tuple[Run, ...]
    icons: tuple[InlineIcon, ...]


@dataclass(frozen=True)
class Prepared:
    """A set box encoded for one document: its colour, its text operators, and its inline icons.

    The operators depend only on the text and the box (fonts are set inside
    the text object), so a box repeated on many faces of a document (a label,
    a footer) is encoded once and painted again as it is.
    """

    color: Color
    code: str
    icons: tuple[InlineIcon, ...]

    def getCode(self) -> str:  # noqa: N802  (what reportlab's Canvas.drawText asks of a text object)
        return self.code


def set_text(layout: Layout, box: Box) -> SetText:
    """A fitted layout placed in its box: runs of one style each, and the inline icons."""
    size = layout.size
    line_height = size * LEADING
    used = len(layout.lines) * line_height
    top = box.top
    if box.valign == "middle":
        top -= (box.height - used) / 2
    elif box.valign == "bottom":
        top -= box.height - used
    runs: list[Run] = []
    icons: list[InlineIcon] = []
    for index, (placed, width) in enumerate(layout.lines):
        baseline = top - index * line_height - ASCENT * size
        start = box.x
        if box.align == "center":
            start += (box.width - width * size) / 2
        elif box.align == "right":
            start += box.width - width * size
        _set_line(placed, start, baseline, size, runs, icons)
    return SetText(box.color, tuple(runs), tuple(icons))


def encode(canvas: Canvas, setting: SetText) -> Prepared:
    """A set box as one text object of ``canvas``'s document (nothing is drawn yet)."""
    words = canvas.beginText()
    for style, x, baseline, size, chars in setting.runs:
        words.setFont(fonts.font_name(style), size)
        words.setTextOrigin(x, baseline)
        words.textOut(chars)
    return Prepared(_colour(setting.color), words.getCode(), setting.icons)


def paint(canvas: Canvas, prepared: Prepared, icons: IconSource) -> None:
    """Draw a prepared box: all words in one text object, icons as forms after it."""
    canvas.setFillColor(prepared.color)
    canvas.drawText(prepared)
    for name, x, y, height in prepared.icons:
        icons.draw(canvas, name, x, y, height)


def _set_line(
    placed: Sequence[Placed], start: float, baseline: float, size: float, runs: list[Run], icons: list[InlineIcon]
) -> None:
    """One line's runs (a run changes at each style change and each inline icon) and its icons."""
    run: list[Placed] = []

    def flush() -> None:
        if run:
            runs.append((run[0].atom.style, start + run[0].x * size, baseline, size, "".join(_run_text(run))))
            run.clear()

    for item in placed:
        if item.atom.icon is not None:
            flush()
            icons.append((item.atom.icon, start + (item.x + ICON_GAP) * size, baseline - ICON_DROP * size, ICON_EM * size))
            continue
        if run and item.atom.style != run[0].atom.style:
            flush()
        run.append(item)
    flush()


def _run_text(run: Sequence[Placed]) -> Iterable[str]:
    """A run's text with the spaces between its words (positions are exact at size 1)."""
    previous_end: Optional[float] = None
    for item in run:
        if previous_end is not None and item.x > previous_end + 1e-9:
            yield " "
        yield item.atom.text
        previous_end = item.x + item.width
