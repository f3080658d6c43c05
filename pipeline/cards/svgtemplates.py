"""The jinja2 environment for card-face templates, and the icon library they draw from.

Templates live in ``templates/cards/<game>/<face>.svg.j2``; every one starts
with the ``card(width, height)`` macro of ``templates/cards/_card.svg.j2``,
which declares the trim size (mm) and makes the SVG canvas reach ``bleed`` mm
past it. Autoescaping is on: a card named ``Salt & <Ash>`` cannot break the
SVG. Undefined variables are errors, not blanks.

Icons are plain SVG files in ``templates/icons/<name>.svg``. Templates draw
them inline in art with ``icon(name, x, y, height)`` (marked with the icon's
name and box, so the design checks can find it); card text names them as
``:name:`` tokens.

``ink_saver`` (a global, default False) asks every card template to leave
out its full-bleed floods: backs and frames drawn as outline and emblem on
white paper. ``readable(colour, background)`` gives a text colour for a
background: the colour itself, or the nearest shade of it that meets the
design rules' contrast (for text in a data-given colour, such as a
player's); ``ink_on(background)`` gives white, or a dark shade of the
background where white would not read; ``safe_margin`` is the design rules'
distance (mm) decoration keeps from the cut; ``pattern(kinds, x0, y0, x1, y1,
colour, pitch=, line=)`` lays line patterns (diagonals, rows, waves, ...) over
a box (:mod:`pipeline.cards.patterns`: it prints a ``<pp:pattern>`` mark, drawn
when the face's art is split into layers, see ``faces.py``). Templates print data text as it is
(autoescaped): the text of every ``<pp:text>`` slot is read as markup (bold, italic, icons, line
breaks, escapes; see :mod:`pipeline.data.markup`) when the slot is set, in
``faces.py``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Mapping, Optional

import jinja2
from lxml import etree
from markupsafe import Markup, escape

from pipeline import store
from pipeline.base import locations
from pipeline.base.errors import UserError
from pipeline.cards import colours, design, patterns
from pipeline.cards.templatecode import SharedCodeEnvironment, TemplateCode
from pipeline.data.dataset import display_path

if TYPE_CHECKING:
    import jinja2

TEMPLATE_ROOT = locations.template_root()
CARD_DIR = "cards"
ICON_DIR = "icons"
SVG_NS = "http://www.w3.org/2000/svg"
PP_NS = "urn:pantheon:print"
TEMPLATE_SUFFIX = ".svg.j2"


@dataclass(frozen=True)
class Icon:
    """An icon's inner SVG markup and its viewBox size."""

    name: str
    markup: str
    width: float
    height: float

    @property
    def aspect(self) -> float:
        return self.width / self.height

    def svg(self) -> str:
        """The icon as a standalone SVG document, its viewBox units as mm."""
        return (
            f'<svg xmlns="{SVG_NS}" width="{self.width}mm" height="{self.height}mm" '
            f'viewBox="0 0 {self.width} {self.height}">{self.markup}</svg>'
        )


class IconLibrary:
    """The SVG files of ``templates/icons``, read on first use."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._icons: dict[str, Icon] = {}

    def names(self) -> list[str]:
        return sorted(p.name[: -len(".svg")] for p in self.root.glob("*.svg"))

    def get(self, name: str, where: str = "") -> Icon:
        if name not in self._icons:
            self._icons[name] = self._load(name, where)
        return self._icons[name]

    def _load(self, name: str, where: str) -> Icon:
        path = self.root / f"{name}.svg"
        prefix = f"{where}: " if where else ""
        if not path.is_file():
            raise UserError(
                f"{prefix}icon '{name}' not found (no {_shown(path)})"
            )
        try:
            root = etree.fromstring(path.read_bytes())
        except etree.XMLSyntaxError as exc:
            raise UserError(f"{display_path(path)}: not valid SVG: {exc}") from None
        box = [float(v) for v in (root.get("viewBox") or "").replace(",", " ").split()]
        if len(box) != 4 or box[2] <= 0 or box[3] <= 0:
            raise UserError(f"{display_path(path)}: an icon needs a viewBox='0 0 W H'")
        inner = "".join(etree.tostring(child, encoding="unicode") for child in root)
        inner = inner.replace(f' xmlns="{SVG_NS}"', "")
        if box[0] or box[1]:
            inner = f'<g transform="translate({-box[0]:g} {-box[1]:g})">{inner}</g>'
        return Icon(name, inner, box[2], box[3])

    def path(self, name: str) -> Path:
        return self.root / f"{name}.svg"


def _scope_of(root: Path, scope: Optional[store.Scope]) -> store.Scope:
    """``scope``, the command's (taken where it started its work), when it is of the templates under ``root``;
    None: taken now (a caller that makes templates once, such as a test or a one-face preview)."""
    if scope is None:
        return store.scope(root)
    if scope.templates != root.resolve():
        raise ValueError(f"a store scope of {scope.templates} for the templates under {root}")
    return scope


# An opacity attribute or style property (fill-, stroke-, stop- or plain opacity) and its value.
TRANSPARENCY = re.compile(r"\b(?P<name>(?:fill-|stroke-|stop-)?opacity)\s*(?:=\s*[\"']|:\s*)(?P<value>[^\"';]*)")


class Templates:
    """Renders card-face templates to SVG text; every error names the card and the template line."""

    def __init__(self, root: Path = TEMPLATE_ROOT, *, bleed_mm: float, ink_saver: bool = False,
                 scope: Optional[store.Scope] = None, code: Optional[TemplateCode] = None) -> None:
        """``scope``: the command's store scope of ``root`` (None: taken now); ``code``: the templates the
        command compiled already, for other ``Templates`` of it (None: compiled here as first rendered)."""
        self.root = root
        self.code = code if code is not None else TemplateCode()
        self.scope = _scope_of(root, scope)  # the key of every store entry of faces and art made from these
        self.bleed_mm = bleed_mm
        self.ink_saver = ink_saver
        self.icons = IconLibrary(root / ICON_DIR)
        self._env: Optional[jinja2.Environment] = None
        self._where = ""

    @cached_property
    def rules(self) -> design.DesignRules:
        """The design rules of these templates, read when first needed (a card sheet whose faces were all laid
        out by the check reads none) and once, for everything that lays faces out from these templates."""
        return design.rules_for(self.root)

    @property
    def env(self) -> jinja2.Environment:
        """The jinja2 environment, made (and jinja2 imported) on the first render: a build whose faces
        all come from their kept records renders no template."""
        if self._env is None:
            self._env = _environment(self.root / CARD_DIR, self.code)
            # ink_saver: templates draw backs and frames as outline and emblem, without full-bleed floods
            self._env.globals.update(
                bleed=self.bleed_mm, icon=self._inline_icon, ink_saver=self.ink_saver, readable=self._readable,
                ink_on=self._ink_on, mix=self._mix, safe_margin=self.rules.safe_margin_mm, pattern=patterns.marked,
            )
            self._env.filters.update(mm=_fmt)
        return self._env

    def render(self, template: str, context: Mapping[str, Any], where: str) -> str:
        """The SVG text of one face; ``where`` names the card in any error."""
        self._where = where
        try:
            svg = self.env.get_template(template).render(**context)  # (jinja keeps each template it loads)
        except UserError as exc:
            raise UserError(str(exc)) from None
        except jinja2.TemplateSyntaxError as exc:
            raise UserError(f"{where}: template {exc.name or template}:{exc.lineno}: {exc.message}") from None
        except jinja2.TemplateNotFound as exc:
            raise UserError(f"{where}: template {exc.name} not found under {display_path(self.root / CARD_DIR)}") from None
        except Exception as exc:  # an undefined name or a failing expression inside the template
            line = _template_line(exc.__traceback__)
            place = f"{template}:{line}" if line else template
            raise UserError(f"{where}: template {place}: {type(exc).__name__}: {exc}") from None
        _refuse_transparency(svg, where, template)
        return svg

    def _mix(self, colour: str, background: str, amount: float) -> str:
        """``colour`` painted with ``amount`` (0..1) of its strength over ``background``, as one solid colour:
        what templates use where a see-through colour was meant (printed art has no transparency)."""
        fore, back = self._colours("mix", colour, background)
        if not 0 <= amount <= 1:
            raise UserError(f"{self._where}: mix({colour!r}, {background!r}, {amount!r}): the amount is from 0 to 1")
        return colours.to_hex(colours.blend(fore, amount, back))

    def _readable(self, colour: str, background: str) -> str:
        """``colour`` or the nearest shade of it with the design rules' text contrast against ``background``."""
        fore, back = self._colours("readable", colour, background)
        return colours.to_hex(colours.readable(fore, back, self.rules.min_contrast))

    def _ink_on(self, background: str) -> str:
        """White, or a dark shade of ``background`` where white lacks the design rules' text contrast."""
        (back,) = self._colours("ink_on", background)
        return colours.to_hex(colours.ink_on(back, self.rules.min_contrast))

    def _colours(self, function: str, *specs: str) -> list[colours.RGB]:
        try:
            return [colours.parse(spec) for spec in specs]
        except ValueError:
            raise UserError(f"{self._where}: {function}({', '.join(map(repr, specs))}): not a colour") from None

    def has(self, template: str) -> bool:
        return (self.root / CARD_DIR / template).is_file()

    def _inline_icon(self, name: str, x: float, y: float, height: float, **attrs: Any) -> Markup:
        """Icon art placed with its top-left at (x, y) mm, ``height`` mm tall (for use in fixed art)."""
        icon = self.icons.get(name, self._where)
        scale = height / icon.height
        extra = "".join(f' {k.replace("_", "-")}="{escape(v)}"' for k, v in attrs.items())
        # A layer of its own (when placed at the top level): converted once however the rest of the art varies.
        box = f"{_fmt(x)} {_fmt(y)} {_fmt(height * icon.aspect)} {_fmt(height)}"
        return Markup(
            f'<g pp:layer="icon" pp:icon="{escape(name)}" pp:box="{box}" '
            f'transform="translate({_fmt(x)} {_fmt(y)}) scale({scale:.6g})"{extra}>{icon.markup}</g>'
        )


def _refuse_transparency(svg: str, where: str, template: str) -> None:
    """Card art is opaque: a PDF/X-1a print file may hold no transparency, and a see-through shape's colour
    depends on whatever the sheet puts under it. A template (or an icon it places) that sets an opacity
    below 1 is refused, pointing at ``mix``, which gives the same look as one solid colour."""
    if "opacity" not in svg:  # the usual case, found at string speed (the pattern needs the word)
        return
    for found in TRANSPARENCY.finditer(svg):
        try:
            value = float(found["value"])
        except ValueError:
            value = 0.0  # not a number: certainly not "fully opaque"
        if value < 1:
            raise UserError(
                f"{where}: template {template}: {found['name']}={found['value']!r} makes the art see-through; card art "
                "is printed opaque: paint the colour as it looks over its background, "
                "e.g. fill=\"{{ mix(colour, background, 0.4) }}\""
            )


def _environment(folder: Path, code: TemplateCode) -> jinja2.Environment:
    """A jinja2 environment for one template folder.

    Templates do not change during a build, so files are not re-checked on
    every use (``auto_reload`` off). Templates are compiled in memory, never
    read back compiled from disk: compiled templates are code (shared in memory, through ``code``, with
    the other environments of the command, see :mod:`pipeline.cards.templatecode`).

    jinja's compile-time optimizer (constant folding) is off: a run compiles every card template
    (a cold validate, 24 files) and renders each only a few dozen times, so the folding costs more
    at compile time than it saves when rendering; the output is the same, character for character.
    """

    return SharedCodeEnvironment(
        code=code,
        loader=jinja2.FileSystemLoader(str(folder)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        auto_reload=False,
        optimized=False,
    )


def _fmt(value: float) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def _template_line(tb: Optional[TracebackType]) -> Optional[int]:
    """The template line jinja maps the failing frame to, if any."""
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.endswith(TEMPLATE_SUFFIX):
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _shown(path: Path) -> Path:
    """``path`` relative to the checkout when it is inside it (as error messages name files)."""
    return path.relative_to(locations.CHECKOUT) if path.is_relative_to(locations.CHECKOUT) else path
