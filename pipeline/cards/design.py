"""The design rules printed cards are held to, checked on every face of every build.

The numbers live once, as data: ``templates/design-rules.yaml`` (checked by
``design-rules.schema.json``). Every error names the rule it breaks by its key
there (``design rule min_text_pt: ...``), the card and the template slot:

- type size (``min_text_pt``, ``min_rules_text_pt`` for slots marked
  ``role="rules"``, ``min_reversed_text_pt`` for light text on a darker
  background, which must also be bold, ``min_icon_letter_pt`` for a letter
  inside an icon): a slot's ``size`` and ``min-size`` and the size it was set
  at;
- contrast (``min_contrast``, ``min_contrast_large`` for bold text of at
  least ``large_text_pt``): the slot's text colour against the background it
  declares (``bg=``), that background against the art actually under the
  text (within ``background_tolerance``), and the text colour against every
  colour of art that reaches under any part of it;
- the safe area (``safe_margin_mm``): text slots, icons and every shape of
  art that lies inside the trim keep that far from the cut.

The facts a check needs are taken when a face is split (``faces.py``) and
kept in its record, so a face read from the cache is checked like a fresh
one. Colour-never-alone and one-back-per-deck span cards: ``colourkeys.py``
and ``decks.py``.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, NamedTuple, Optional

from pipeline.base.errors import UserError
from pipeline.base.words import count
from pipeline.cards.colours import RGB, distance, luminance, parse
from pipeline.cards.colours import ratio as contrast_of
from pipeline.data.schemas import load_checked_yaml

RULES_NAME = "design-rules.yaml"
RULES_SCHEMA_NAME = "design-rules.schema.json"
AT_THE_CUT_MM = 0.05  # art this close to the trim line ends on it: a background stopped at the cut, no bleed
RULES_ROLE, TEXT_ROLE = "rules", "text"
ROLES = (TEXT_ROLE, RULES_ROLE)
MmBox = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm from the trim's top-left, y down


@dataclass(frozen=True)
class DesignRules:
    """The validated contents of design-rules.yaml (sizes in pt, distances in mm)."""

    min_text_pt: float
    min_rules_text_pt: float
    min_reversed_text_pt: float
    min_icon_letter_pt: float
    min_contrast: float
    min_contrast_large: float
    large_text_pt: float
    safe_margin_mm: float
    background_tolerance: int

    def min_size(self, role: str) -> float:
        """The smallest size text of ``role`` may be set at (reversed text aside)."""
        return self.min_rules_text_pt if role == RULES_ROLE else self.min_text_pt


def load_rules(path: Path, schema_path: Path) -> DesignRules:
    """Read and validate the design rules (afresh: a command reads them once, with its card templates,
    :attr:`pipeline.cards.svgtemplates.Templates.rules`); a problem names the file, line and field."""
    data = load_checked_yaml(path, schema_path)
    return DesignRules(**{name: data[name] for name in DesignRules.__dataclass_fields__})


def rules_for(template_root: Path) -> DesignRules:
    """The design rules of a templates folder."""
    return load_rules(template_root / RULES_NAME, template_root / RULES_SCHEMA_NAME)


# -- the facts a face is checked on (plain data, kept in its record) -----------------
class TextFacts(NamedTuple):
    """One text slot as set: what the template declares and what the art under its text is."""

    name: str
    role: str
    fill: str
    bg: str  # declared background ("" when the slot declares none)
    bold: bool  # every run is bold
    size: float  # the template's size= and min-size=, and the size the text was set at (pt)
    min_size: float
    fitted: float
    box: MmBox  # the slot's box
    base: tuple[str, ...]  # the colour covering each run of text whole
    under: tuple[str, ...]  # every colour of art reaching under some part of the text


class IconFacts(NamedTuple):
    """One icon on the face (a slot, inline in text, or in the art) and the letters inside it."""

    name: str
    box: MmBox
    letter_pt: float  # the smallest letter drawn inside it, at this size (0: none)
    letter_contrast: float  # the lowest contrast of such a letter against the icon under it (0: none)


class EdgeFacts(NamedTuple):
    """The shape of art inside the trim that comes nearest the cut."""

    distance_mm: float
    box: MmBox


class FaceFacts(NamedTuple):
    texts: tuple[TextFacts, ...]
    icons: tuple[IconFacts, ...]
    edge: EdgeFacts | None  # None: no art lies wholly inside the trim


# -- checks ---------------------------------------------------------------------------
class _Inks:
    """The colours of one face's checks, each read and its luminance worked out once: a face's texts share a few
    colours (a panel, an ink), asked about again for every slot. Made for one ``problems`` call, gone with it."""

    def __init__(self) -> None:
        self._colours: dict[str, RGB] = {}
        self._luminances: dict[str, float] = {}

    def colour(self, spec: str) -> RGB:
        if spec not in self._colours:
            self._colours[spec] = parse(spec)
        return self._colours[spec]

    def luminance(self, spec: str) -> float:
        if spec not in self._luminances:
            self._luminances[spec] = luminance(self.colour(spec))
        return self._luminances[spec]


def problems(facts: FaceFacts, rules: DesignRules, trim: tuple[float, float], template: str) -> Iterator[str]:
    """Every design rule the face breaks, each as ``design rule <key>: ...`` naming the template and slot."""
    inks = _Inks()
    for text in facts.texts:
        yield from _type_size(text, rules, template, inks)
        yield from _contrast(text, rules, template, inks)
        yield from _safe(f"template {template}, text slot '{text.name}'", text.box, trim, rules)
    for icon in facts.icons:
        yield from _safe(f"template {template}, icon '{icon.name}'", icon.box, trim, rules)
        if icon.letter_pt and icon.letter_pt < rules.min_icon_letter_pt - 1e-6:
            yield (f"design rule min_icon_letter_pt: template {template}, icon '{icon.name}': its letter prints at "
                   f"{icon.letter_pt:.1f} pt (needs {rules.min_icon_letter_pt:g} pt); draw the icon larger")
        if icon.letter_contrast and icon.letter_contrast < rules.min_contrast - 1e-6:
            yield (f"design rule min_contrast: icon '{icon.name}': its letter has contrast {icon.letter_contrast:.2f}:1 "
                   f"against the icon (needs {rules.min_contrast:g}:1)")
    if facts.edge is not None and facts.edge.distance_mm < rules.safe_margin_mm - 1e-6:
        if abs(facts.edge.distance_mm) < AT_THE_CUT_MM:  # art ending on the trim line: a background without bleed
            yield (f"design rule safe_margin_mm: template {template}: art at {_box(facts.edge.box)} stops at the cut: "
                   f"no bleed (run it out over the bleed, or keep decoration {rules.safe_margin_mm:g} mm inside the cut)")
        else:
            yield (f"design rule safe_margin_mm: template {template}: art at {_box(facts.edge.box)} comes "
                   f"{facts.edge.distance_mm:.1f} mm from the cut (keep decoration {rules.safe_margin_mm:g} mm inside it)")


def check(facts: FaceFacts, rules: DesignRules, trim: tuple[float, float], template: str, where: str) -> None:
    """Fail naming the card ``where`` at the first rule the face breaks (and how many more there are)."""
    found = list(problems(facts, rules, trim, template))
    if found:
        more = f" (and {count(len(found) - 1, 'more design problem')} on this face)" if len(found) > 1 else ""
        raise UserError(f"{where}: {found[0]}{more}")


def reversed_text(text: TextFacts, inks: Optional[_Inks] = None) -> bool:
    """Light text on a darker background."""
    inks = inks or _Inks()
    return bool(text.bg) and inks.luminance(text.fill) > inks.luminance(text.bg)


def needed_contrast(text: TextFacts, rules: DesignRules) -> float:
    large = text.bold and text.min_size >= rules.large_text_pt - 1e-9
    return rules.min_contrast_large if large else rules.min_contrast


def _type_size(text: TextFacts, rules: DesignRules, template: str, inks: _Inks) -> Iterator[str]:
    slot = f"template {template}, text slot '{text.name}'"
    key, least = ("min_rules_text_pt", rules.min_rules_text_pt) if text.role == RULES_ROLE else ("min_text_pt", rules.min_text_pt)
    if reversed_text(text, inks):
        if not text.bold:
            yield f"design rule min_reversed_text_pt: {slot}: light text on a dark background ({text.fill} on {text.bg}) must be bold"
        if rules.min_reversed_text_pt > least:
            key, least = "min_reversed_text_pt", rules.min_reversed_text_pt
    for what, size in (("size", text.size), ("min-size", text.min_size), ("fitted size", text.fitted)):
        if size < least - 1e-6:
            yield f"design rule {key}: {slot}: {what} {size:g} pt is below {least:g} pt"
            return


def _contrast(text: TextFacts, rules: DesignRules, template: str, inks: _Inks) -> Iterator[str]:
    slot = f"template {template}, text slot '{text.name}'"
    need = needed_contrast(text, rules)
    key = "min_contrast_large" if need == rules.min_contrast_large else "min_contrast"
    if not text.bg:
        yield f"design rule {key}: {slot}: declare the colour the text is set on (bg=\"#rrggbb\")"
        return
    bg = inks.colour(text.bg)
    lit = inks.luminance(text.fill)  # (the text's, against each colour below)
    ratio = contrast_of(lit, inks.luminance(text.bg))
    if ratio < need - 1e-6:
        yield f"design rule {key}: {slot}: {text.fill} on {text.bg} has contrast {ratio:.2f}:1 (needs {need:g}:1)"
        return
    for base in text.base:
        if distance(inks.colour(base), bg) > rules.background_tolerance:
            yield (f"design rule background_tolerance: {slot}: declares bg {text.bg} but the art under its text is "
                   f"{base}; declare what the text is printed on")
            return
    for colour in text.under:
        ratio = contrast_of(lit, inks.luminance(colour))
        if ratio < need - 1e-6:
            yield (f"design rule {key}: {slot}: art of colour {colour} runs under the text ({text.fill} on it has "
                   f"contrast {ratio:.2f}:1, needs {need:g}:1); move the art or the text")
            return


def _safe(what: str, box: MmBox, trim: tuple[float, float], rules: DesignRules) -> Iterator[str]:
    x0, y0, x1, y1 = box
    nearest = min(x0, y0, trim[0] - x1, trim[1] - y1)
    if nearest < rules.safe_margin_mm - 1e-6:
        place = f"comes {nearest:.1f} mm from the cut" if nearest >= 0 else f"reaches {-nearest:.1f} mm past the cut"
        yield f"design rule safe_margin_mm: {what}: {_box(box)} {place} (keep {rules.safe_margin_mm:g} mm inside it)"


def _box(box: MmBox) -> str:
    x0, y0, x1, y1 = box
    return f"x {x0:.1f}-{x1:.1f} mm, y {y0:.1f}-{y1:.1f} mm"
