"""Setting a Document as PDF with reportlab platypus.

Every text goes through the print pipeline's glyph check (no tofu) and is set
in its one embedded font family. Headings of level 1 and 2 feed the table of
contents (``multiBuild`` runs until its page numbers are stable) and the PDF
outline; the running header names the document and the section in force on
the page; the footer carries the page number. Invariant mode makes the bytes
depend only on the data and the layout.
"""
from __future__ import annotations

import io
import math
import re
from copy import deepcopy
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Hashable, Iterator, Optional, Sequence

from reportlab.graphics import shapes as rl
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    ActionFlowable,
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    KeepTogether,
    NextPageTemplate,
    PageTemplate,
    Spacer,
    TableStyle,
)
from reportlab.platypus import PageBreak as RLPageBreak
from reportlab.platypus import Paragraph as RLParagraph
from reportlab.platypus import Table as RLTable
from reportlab.platypus.paragraph import cleanBlockQuotedText
from reportlab.platypus.tableofcontents import TableOfContents, defaultTableStyle
from svglib.svglib import svg2rlg

from pipeline.base.errors import UserError
from pipeline.cards import fonts
from pipeline.cards.cardlayout import LaidOutCards
from pipeline.cards.pdfwrite import fixed_date
from pipeline.cards.svgtemplates import ICON_DIR, SVG_NS, TEMPLATE_ROOT, IconLibrary
from pipeline.cards.units import mm
from pipeline.data import markup
from pipeline.data.typography import typographic
from pipeline.documents import cover, facedraw, figures, measuring, typefaces
from pipeline.documents import structure as m
from pipeline.documents.fill import TextArea
from pipeline.documents.layout import Layout
from pipeline.documents.pagecheck import PageContent, check_pages
from pipeline.documents.parsedtexts import ParsedTexts

if TYPE_CHECKING:
    from pipeline.documents.charts import ChartStyle

TOC_LEVELS = 2  # heading levels 1..TOC_LEVELS are listed in the contents
HEADING_STYLES = {1: "h1", 2: "h2", 3: "h3"}
CONTENTS_TITLE = "Contents"
ARROW_HEAD_MM = 2.2
ARROW_SPREAD_DEG = 25  # between an arrow head's side and its shaft
MAX_PASSES = 10
FLOAT_SHARE = 0.6  # a page's floats (figures across the columns) take at most this share of its text height
FLOAT_GAP_MM = 5.0  # between the floats and the columns under them
SPREAD_GAP_MM, SPREAD_PAIR_GAP_MM = 4.0, 1.5  # between two kinds of card in a spread, and a card's front and back
SPREAD_SHARE = 0.42  # a components spread takes at most this share of the text height ...
SPREAD_STEP, SPREAD_MIN_SHARE = 0.9, 0.5  # ... its cards drawn smaller step by step, down to half the asked scale
# A heading is kept with all of a short table or list (so neither is split from its heading, nor the
# heading orphaned); a longer one may split, and its heading starts a new page unless this much room is left.
KEEP_TABLE_ROWS = 12
TABLE_WIDOW_ROWS = 2  # a split table leaves no fewer body rows than this at the foot of a column or the head of the next
KEEP_LIST_ITEMS = 6
HEADING_ROOM_MM = 45.0
FIT_TOLERANCE_MM = 0.01  # a diagram this much wider or taller than the text area still fits (rounding)
BODY_AFTER_CONTENTS_SHARE = 0.6  # the text starts below the contents when this share of the page is still free
_XML_ESCAPES = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"))
TITLE_STYLES = ("title", "subtitle")  # the document's own title counts as a heading on its page
PARAGRAPH_TAGS = {markup.BOLD: "b", markup.ITALIC: "i"}
UNMARKED_SAMPLE = "text"  # a word parsed to make the fragment of a style and tags (PdfRenderer._fragment)
_MARKUP_TOKEN = re.compile(r"<(/?)([bi])>|&(amp|lt|gt);")  # the markup this renderer writes
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">"}


class TextDoesNotFit(UserError):
    """A text that cannot be printed in the space it gets (a table cell taller than a page, a label running
    off its drawing): the document is refused, never cut off. ``text`` is the text, ``reason`` why."""

    def __init__(self, where: str, text: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.text = text
        self.reason = reason


@dataclass(frozen=True)
class TocEntry:
    level: int
    text: str
    page: int


def parse(text: str, where: str) -> tuple[markup.Inline, ...]:
    """Document text as a markup tree, with typographic quotes and dashes (as on the cards); markup that
    cannot be printed names the document."""
    try:
        return markup.parse(typographic(text))
    except markup.MarkupError as exc:  # validate refuses such data text; this is text a document composed
        raise UserError(f"{where}: text cannot be printed: {exc.message}") from None


def plain(text: str, where: str) -> str:
    """What ``text`` reads as where styling cannot be shown (outline, running header, diagram labels)."""
    return markup.plain(parse(text, where))


def inline(text: str, where: str, style: str = fonts.REGULAR) -> str:
    """Document text as reportlab paragraph markup (see :mod:`pipeline.data.markup`), each piece
    glyph-checked in the style it is set in. Icons read as their names; a newline reflows as a space."""
    nodes = parse(text, where)
    unresolved = next((n for n in markup.walk(nodes) if isinstance(n, markup.Reference)), None)
    if unresolved is not None:
        raise UserError(f"{where}: reference {unresolved.source} reached the document unresolved: documents print names")
    for bold, italic, piece in markup.styled_text(nodes):
        typefaces.check_glyphs(piece, where, style, bold=bold, italic=italic)
    return "".join(_paragraph_markup(nodes))


def _paragraph_markup(nodes: tuple[markup.Inline, ...]) -> Iterator[str]:
    for node in nodes:
        if isinstance(node, markup.Text):
            yield _xml_escape(node.text)
        elif isinstance(node, markup.Styled):
            tag = PARAGRAPH_TAGS[node.style]
            yield f"<{tag}>"
            yield from _paragraph_markup(node.children)
            yield f"</{tag}>"
        elif isinstance(node, markup.Icon):
            yield _xml_escape(markup.icon_words(node.name))
        elif isinstance(node, markup.Break):
            yield "\n"


def _xml_escape(text: str) -> str:
    for raw, escaped in _XML_ESCAPES:
        text = text.replace(raw, escaped)
    return text


class _Together(KeepTogether):
    """reportlab's KeepTogether, that keeps the flowables it was given where it can say them (``parts``)."""

    def __init__(self, flowables: list[Flowable]) -> None:
        self.parts = list(flowables)
        super().__init__(flowables)


def _flat(flowables: list[Flowable]) -> list[Flowable]:
    """Flowables with every nested KeepTogether opened (reportlab sizes a nested one as endless)."""
    out: list[Flowable] = []
    for flowable in flowables:
        out += _flat(flowable.parts) if isinstance(flowable, _Together) else [flowable]
    return out


class _Paragraph(RLParagraph):
    """A paragraph that breaks its lines once per width: platypus wraps a paragraph again at the width it was
    just wrapped at (a kept-together group wraps its parts, then the frame wraps each again to place it; a
    table wraps its cells to size its rows, then to draw them), and its lines depend on nothing but the width.
    Not painted on a :class:`~pipeline.documents.measuring.MeasuringCanvas` (its lines are broken by then).
    ``source``: the document text it sets (None: words the renderer adds), kept by the parts it splits into."""

    def __init__(self, text: Optional[str], style: ParagraphStyle, *args: Any, source: Optional[str] = None,
                 **kwargs: Any) -> None:
        super().__init__(text, style, *args, **kwargs)
        self.source = source

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        parts: list[Flowable] = super().split(availWidth, availHeight)
        for part in parts:
            if isinstance(part, _Paragraph):
                part.source = self.source
        return parts

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        if availWidth != getattr(self, "wrapped_width", None) or not hasattr(self, "blPara"):  # split drops its lines
            self.wrapped_size = super().wrap(availWidth, availHeight)
            self.wrapped_width = availWidth
        return self.wrapped_size

    def draw(self) -> None:
        if not measuring.measuring(self.canv):
            super().draw()


class _Table(RLTable):
    """A table not painted on a :class:`~pipeline.documents.measuring.MeasuringCanvas` (its rows are sized when
    it is wrapped). ``sources``: the document texts of each row (as its cells hold them; a part of a split
    table is made from its rows, so it knows its own)."""

    def __init__(self, data: Sequence[Sequence[Any]], *args: Any, **kwargs: Any) -> None:
        super().__init__(data, *args, **kwargs)
        self.sources = [[p.source for c in row for p in (c if isinstance(c, (list, tuple)) else [c])  # a split's cells: tuples
                         if isinstance(p, _Paragraph) and p.source] for row in data]

    def repeated(self) -> int:
        """How many header rows the table repeats at the head of each part it splits into."""
        return self.repeatRows if isinstance(self.repeatRows, int) else len(self.repeatRows)

    def first_source(self) -> Optional[str]:
        """The longest text of the table's first row under its repeated header (None: no text)."""
        row = next((texts for texts in self.sources[self.repeated():] if texts), [])
        return max(row, key=len, default=None)

    def draw(self) -> None:
        if not measuring.measuring(self.canv):
            super().draw()


class _Heading(_Paragraph):
    """A heading paragraph that remembers its level and plain text for the contents."""

    def __init__(self, text: str, para: str, style: ParagraphStyle, level: int, frags: Optional[list[Any]] = None) -> None:
        super().__init__(para, style, source=text, frags=frags)
        self.level = level
        self.plain = text


class _DocTemplate(BaseDocTemplate):
    """Notifies the contents of each heading and tracks the section shown in the running header."""

    def __init__(self, *args: Any, toc_levels: int = TOC_LEVELS, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.toc_levels = toc_levels
        self.section_on_page: dict[int, str] = {}
        self.last_on_page: dict[int, str] = {}
        self.toc_entries: list[TocEntry] = []
        self.page_content: dict[int, PageContent] = {}
        self.opens_chapter: dict[int, bool] = {}  # page -> whether its first content is a chapter heading
        self._keys = 0
        self._outline_level = -1
        self.floats: list[_Float] = []  # waiting for the top of the next page
        self._float_pages = 0
        self.body_template: Optional[PageTemplate] = None  # the page a float page shortens the columns of
        self.columns: list[tuple[float, float, float, float]] = []  # its columns: x, y, width, height (points)
        self.columns_top: dict[int, float] = {}  # pages whose columns start under floats: where (points from the bottom)
        self.tallest = 0.0  # points: the tallest drawing set in a column (a float page leaves its columns this much room)
        self.lowest: dict[int, dict[int, float]] = {}  # page -> column -> the lowest point a flowable reaches (points)
        self.first_text: dict[int, dict[int, str]] = {}  # page -> column -> the first document text placed there

    def beforeDocument(self) -> None:
        self.section_on_page = {}
        self.last_on_page = {}
        self.toc_entries = []
        self.page_content = {}
        self.opens_chapter = {}
        self._keys = 0
        self._outline_level = -1
        self.floats = []
        self._float_pages = 0
        self.columns_top = {}
        self.lowest = {}
        self.first_text = {}

    def handle_float(self, flowable: "_Float") -> None:
        """Queue a figure too wide for a column: the next page opens with it across the columns."""
        self.floats.append(flowable)
        self._arm_float_page()

    def _arm_float_page(self) -> None:
        """Make the next page one that draws the waiting floats (as many as fit half the text height, at
        least one) at its top, with its columns starting under them."""
        assert self.body_template is not None
        room, taken, chosen = min(self.height * FLOAT_SHARE, self.height - self.tallest - mm(FLOAT_GAP_MM)), 0.0, 0
        for flowable in self.floats:
            h = flowable.measure(self.canv, self.width)
            if chosen and taken + h > room:
                break
            taken, chosen = taken + h, chosen + 1
        self._float_pages += 1
        name = f"float{self._float_pages}"
        top = self.height - taken - mm(FLOAT_GAP_MM)
        frames = [_frame(f"body{n}-{name}", x, y, w, top, column=n) for n, (x, y, w, _) in enumerate(self.columns)]
        body = self.body_template

        def on_page(canvas: Any, doc: "_DocTemplate") -> None:
            doc.columns_top[doc.page] = doc.bottomMargin + top
            y = doc.bottomMargin + doc.height
            for flowable in doc.floats[:chosen]:
                y -= flowable.draw_at(canvas, doc.leftMargin, y, doc.width)
                _note(doc.page_content.setdefault(doc.page, PageContent()), flowable)
            del doc.floats[:chosen]

        def on_page_end(canvas: Any, doc: "_DocTemplate") -> None:
            body.onPageEnd(canvas, doc)
            if doc.floats:
                doc._arm_float_page()

        self.addPageTemplates([PageTemplate(id=name, frames=frames, onPage=on_page, onPageEnd=on_page_end, autoNextPageTemplate="page")])
        self.handle_nextPageTemplate(name)

    def pages(self) -> list[PageContent]:
        """What each page of the finished document holds, for the page check."""
        return [self.page_content.get(n, PageContent()) for n in range(1, self.page + 1)]

    def text_area(self, cover: bool) -> TextArea:
        """How far down each column of each page the layout reached, and the pages that may be left part empty:
        the cover, each chapter's last page (the next page opens with a chapter heading) and the last page."""
        ends = {page - 1 for page, opens in self.opens_chapter.items() if opens}
        lowest = []
        for page in range(1, self.page + 1):
            used, top = self.lowest.get(page, {}), self.columns_top.get(page)  # floats fill a page's top to ``top``
            lowest.append(tuple(min((y for y in (used.get(n), top) if y is not None), default=None)
                                for n in range(len(self.columns))))
        first = tuple(tuple(self.first_text.get(page, {}).get(n) for n in range(len(self.columns))) for page in range(1, self.page + 1))
        return TextArea(tuple(self.columns), frozenset(ends | {self.page} | ({1} if cover else set())), tuple(lowest), first)

    def afterFlowable(self, flowable: Flowable) -> None:
        placed = self.canv.take_placed()  # where the frame placed ``flowable`` (None: not drawn)
        column = getattr(self.frame, "column", None)
        if placed is not None and column is not None and not isinstance(flowable, (Spacer, ActionFlowable)):
            used = self.lowest.setdefault(self.page, {})
            used[column] = min(used.get(column, placed[1]), placed[1])
            text = _source_of(flowable)
            if text:
                self.first_text.setdefault(self.page, {}).setdefault(column, text)
        if self.page not in self.opens_chapter and not isinstance(flowable, (Spacer, ActionFlowable)):
            self.opens_chapter[self.page] = _opens_chapter(flowable)
        _note(self.page_content.setdefault(self.page, PageContent()), flowable)
        if not isinstance(flowable, _Heading):
            return
        page = self.page
        if flowable.level == 1:
            self.section_on_page.setdefault(page, flowable.plain)
            self.last_on_page[page] = flowable.plain
        if flowable.level <= TOC_LEVELS:
            self._keys += 1
            key = f"h{self._keys}"
            self.canv.bookmarkPage(key)
            # the PDF outline cannot skip a level (a sheet may start at level 2): nest at most one below the last entry
            self._outline_level = min(flowable.level - 1, self._outline_level + 1)
            self.canv.addOutlineEntry(flowable.plain, key, level=self._outline_level, closed=flowable.level > 1)
            if flowable.level <= self.toc_levels:
                self.toc_entries.append(TocEntry(flowable.level, flowable.plain, page))
                self.notify("TOCEntry", (flowable.level - 1, flowable.plain, page, key))

    def section_for(self, page: int) -> str:
        """The first level-1 heading on ``page``, else the last one before it."""
        if page in self.section_on_page:
            return self.section_on_page[page]
        for number in range(page - 1, 0, -1):
            if number in self.last_on_page:
                return self.last_on_page[number]
        return ""


def _source_of(flowable: Flowable) -> Optional[str]:
    """The document text ``flowable`` sets first (None: none, or words the renderer adds)."""
    if isinstance(flowable, _Paragraph):
        return flowable.source
    return flowable.first_source() if isinstance(flowable, _Table) else None


def _opens_chapter(flowable: Flowable) -> bool:
    """Whether ``flowable`` is a chapter heading: a level-1 heading, or the contents' title."""
    if isinstance(flowable, _Heading):
        return flowable.level == 1
    return isinstance(flowable, RLParagraph) and flowable.style.name == HEADING_STYLES[1]


def _note(page: PageContent, flowable: Flowable) -> None:
    """Count what a flowable adds to its page: a heading, table rows, text height or a drawing."""
    if isinstance(flowable, _Heading) or (isinstance(flowable, RLParagraph) and flowable.style.name in TITLE_STYLES):
        page.headings += 1
    elif isinstance(flowable, _Table):
        page.table_rows += len(flowable.sources) - flowable.repeated()
    elif isinstance(flowable, RLParagraph):
        page.text_pt += flowable.height
    elif isinstance(flowable, (rl.Drawing, TableOfContents, RLTable, cover.CoverFlowable, facedraw.FaceFlowable, _Float)):
        # (a plain reportlab table is a part of the contents list, split over pages: it stands on its own)
        page.drawings += 1


class PdfRenderer:
    """Turns Documents into PDF bytes for one layout (paper); ``parsed``: the texts it shares with the renderers
    of the same layout on other papers (see :mod:`pipeline.documents.parsedtexts`); ``cards``: the card faces
    and art the card check of this command laid out, which the documents' card figures draw as they are."""

    def __init__(self, layout: Layout, parsed: Optional[ParsedTexts] = None, *,
                 cards: Optional[LaidOutCards] = None) -> None:
        fonts.register_for_svg()  # documents draw icons through svglib
        self.layout = layout
        self._parsed = parsed
        if parsed is not None:
            parsed.bind(layout.data)
        self.icons = IconLibrary(TEMPLATE_ROOT / ICON_DIR)
        self._converted_icons: dict[str, Any] = {}  # svglib's Drawing of each icon SVG, converted once per renderer
        self.styles = {name: self._paragraph_style(name) for name in layout.data["styles"]}
        self._chart_style: Optional[ChartStyle] = None
        self._columns = 1  # of the document being set
        self._width = layout.frame[0]  # mm: the width a block may take (a column of a rulebook)
        self._paint = True  # whether the document being set is painted (else only measured: no drawing is made)
        self._cards = cards
        self._faces = facedraw.FaceDrawer(cards)  # of the document being set
        self._cells: dict[tuple[str, bool, float], _Paragraph] = {}  # of the document being set (see :meth:`_cell`)
        self._style_fragments: dict[tuple[Hashable, tuple[str, ...]], Any] = {}  # by style key and tags (:meth:`_fragment`)

    # ------------------------------------------------------------------ styles

    def _paragraph_style(self, name: str) -> ParagraphStyle:
        s = self.layout.style(name)
        extra: dict[str, Any] = {}
        if name in ("title", "subtitle"):
            extra["alignment"] = TA_CENTER
        if name in ("h1", "h2", "title", "cover_title"):
            extra["textColor"] = colors.HexColor(self.layout.colour("accent"))
        else:
            extra["textColor"] = colors.HexColor(self.layout.colour("text"))
        body_font = s.font if s.font != typefaces.DISPLAY else fonts.REGULAR
        return ParagraphStyle(
            name,
            fontName=typefaces.font_name(s.font),
            bulletFontName=fonts.font_name(body_font),  # not reportlab's default, Helvetica (never embedded)
            fontSize=s.size,
            leading=s.leading,
            spaceBefore=s.space_before,
            spaceAfter=s.space_after,
            **extra,
        )

    def _font_style(self, style: str) -> str:
        return self.layout.style(style).font

    def _inline(self, text: str, where: str, style: str = fonts.REGULAR) -> str:
        """:func:`inline`, made once for every paper where the texts are shared."""
        if self._parsed is None:
            return inline(text, where, style)
        return self._parsed.markup(text, style, lambda: inline(text, where, style))

    def _plain(self, text: str, where: str) -> str:
        """:func:`plain`, made once for every paper where the texts are shared (a diagram's labels, a heading)."""
        if self._parsed is None:
            return plain(text, where)
        return self._parsed.plain(text, lambda: plain(text, where))

    def _text(self, text: str, where: str, style: str, *, source: Optional[str] = None) -> "_Paragraph":
        """A document text as a paragraph of the layout style ``style``."""
        return self._paragraph(self._inline(text, where, self._font_style(style)), style, self.styles[style], source=source)

    def _paragraph(self, para: str, style_key: Hashable, style: ParagraphStyle, *, source: Optional[str] = None,
                   bullet: Optional[str] = None, level: Optional[int] = None) -> "_Paragraph":
        """A paragraph of markup ``para`` in ``style`` (``style_key``: what makes that style, the same on every
        paper), parsed once for every paper where the texts are shared; a heading of ``level`` when one is given
        (``source``: its plain text)."""
        key = (style_key, para, bullet)
        parsed = self._parsed.fragments(key) if self._parsed is not None else None
        text, frags = parsed or self._fragments(para, style_key, style) or (para, None)
        made: _Paragraph
        if level is not None:
            made = _Heading(source or "", text, style, level, frags=frags)
        else:
            made = _Paragraph(text, style, bulletText=bullet, source=source, frags=frags)
        if parsed is None and self._parsed is not None:
            self._parsed.keep_fragments(key, made.text, made.frags)
        return made

    def _fragments(self, para: str, style_key: Hashable, style: ParagraphStyle) -> Optional[tuple[str, list[Any]]]:
        """The text and fragments reportlab's parser makes of ``para`` in ``style``, made without the parser where
        ``para`` holds no markup but what this renderer writes (bold, italic, the three escapes). The parser makes
        one fragment of each run of words between tags and one of each escape, from the style and the tags open
        around it but for its words (white space run together first, as the parser's cleaner does): the
        fragment of a word in those tags, parsed once, stands for each with its words changed. None: other
        markup, or nothing set, parsed as reportlab parses it."""
        if style.textTransform:
            return None
        text = cleanBlockQuotedText(para)
        frags: list[Any] = []
        tags: list[str] = []  # open, outermost first
        at = 0
        for token in [*_MARKUP_TOKEN.finditer(text), None]:  # (None: the words after the last tag)
            words = text[at:token.start() if token else len(text)]
            if "<" in words or "&" in words:
                return None  # markup this renderer does not write
            if words:
                frags.append(self._fragment(style_key, style, tuple(tags), words))
            if token is None:
                break
            at = token.end()
            closing, tag, entity = token.group(1, 2, 3)
            if entity:
                frags.append(self._fragment(style_key, style, tuple(tags), _ENTITIES[entity]))
            elif not closing:
                tags.append(tag)
            elif not tags or tags.pop() != tag:
                return None  # (a tag closed out of turn: the parser's to refuse)
        return (text, frags) if frags and not tags else None

    def _fragment(self, style_key: Hashable, style: ParagraphStyle, tags: tuple[str, ...], words: str) -> Any:
        """The parser's fragment of ``words`` inside ``tags`` in ``style``: the fragment it made of a word in
        those tags, with the words changed (and lists of its own, as the parser makes them afresh)."""
        fragment = self._style_fragments.get((style_key, tags))
        if fragment is None:
            sample = "".join(f"<{t}>" for t in tags) + UNMARKED_SAMPLE + "".join(f"</{t}>" for t in reversed(tags))
            fragment = self._style_fragments[(style_key, tags)] = RLParagraph(sample, style).frags[0]
        lists = {name: list(value) for name, value in vars(fragment).items() if isinstance(value, list)}
        return fragment.clone(text=words, **lists)

    @property
    def _card_text_pt(self) -> float:
        """The smallest text a card prints at true size (the design rules' minimum)."""
        return figures.min_card_text_pt()

    def _cover(self, doc: m.Document) -> Flowable:
        """The cover page: accent bands, the composed emblem, the title, the subtitle and the box facts."""
        assert doc.cover is not None
        where = doc.title
        title = plain(doc.game_title, where)
        typefaces.check_glyphs(title, where, typefaces.DISPLAY)
        subtitle, tagline = plain(doc.subtitle, where), plain(doc.cover.tagline, where)
        facts = tuple(plain(f, where) for f in doc.cover.facts)
        for line, style in ((subtitle, fonts.ITALIC), (tagline, fonts.ITALIC), *((f, fonts.BOLD) for f in facts)):
            fonts.check_glyphs(line, where, style)
        icon_aspect = self.icons.get(doc.cover.emblem, where).aspect
        emblem = self._icon_group(doc.cover.emblem, 1.0, "#ffffff", where) if self._paint else rl.Group()  # (not drawn)
        return cover.CoverFlowable(self.layout, title, subtitle, facts, tagline, emblem, icon_aspect)

    # ------------------------------------------------------------------ document

    def render(self, doc: m.Document, *, paint: bool = True) -> tuple[bytes, list[TocEntry]]:
        """The PDF bytes of ``doc`` and where its contents entries landed (see :meth:`render_laid_out`)."""
        pdf, entries, _ = self.render_laid_out(doc, paint=paint)
        return pdf, entries

    def render_laid_out(self, doc: m.Document, *, paint: bool = True) -> tuple[bytes, list[TocEntry], TextArea]:
        """The PDF bytes of ``doc``, where its contents entries landed, and its text area as laid out (the
        columns, how far down each page's columns are used, and the pages that may be part empty: for the fill
        check, :mod:`pipeline.documents.fill`). With ``paint`` False, the document is laid out and checked the
        same way on a :class:`~pipeline.documents.measuring.MeasuringCanvas`, and the bytes are empty.

        The contents list their page numbers only once a pass has laid the text out. Their first pass shows
        every heading on page 0; an entry's page number takes no room (:class:`_Contents`), so that pass lays
        every page out as the last will. A measured layout stops there; a painted one takes one more pass to
        print the right numbers (the same layout, so the contents settle then), and paints only that pass: the
        first, whose numbers are guesses, is only measured.
        """
        buffer = io.BytesIO()
        self._columns = doc.columns
        self._width = self.layout.column_width(doc.columns)
        margins = self.layout.margins
        width, height = mm(self.layout.page_width), mm(self.layout.page_height)
        template = _DocTemplate(
            buffer,
            pagesize=(width, height),
            leftMargin=mm(margins["left"]),
            rightMargin=mm(margins["right"]),
            topMargin=mm(margins["top"]),
            bottomMargin=mm(margins["bottom"]),
            title=plain(doc.title, doc.title),
            author="Pantheon Press",
            subject=f"{doc.game_title}: {doc.kind}",
            keywords=f"kind={doc.kind}; paper={self.layout.paper}",
            creator="Pantheon Press pantheon docs",
            invariant=1,
            pageCompression=1,
            initialFontName=fonts.font_name(),  # every font embedded: none of the standard 14
            toc_levels=1 if doc.columns > 1 else TOC_LEVELS,  # a rulebook's contents: its chapters, on one page
        )
        column, gutter = mm(self._width), mm(self.layout.get("columns", "gutter_mm"))
        template.columns = [(template.leftMargin + n * (column + gutter), template.bottomMargin, column, template.height)
                            for n in range(doc.columns)]
        frames = [_frame(f"body{n}", *box, column=n) for n, box in enumerate(template.columns)]
        pages = [PageTemplate(id="page", frames=frames, onPageEnd=lambda c, d: self._decorate(c, d, doc))]
        template.body_template = pages[0]
        if doc.cover is not None:  # the cover is the first template: the document starts on it
            pages.insert(0, PageTemplate(id="cover", frames=[_frame("cover", 0, 0, width, height)]))
        template.addPageTemplates(pages)
        self._paint = paint
        self._faces = facedraw.FaceDrawer(self._cards)  # this document's faces, drawn on each pass's canvas
        self._cells = {}
        story = self._story(doc)
        template.tallest = max((f.height for f in _flat(story) if isinstance(f, (facedraw.FaceFlowable, rl.Drawing))), default=0.0)
        contents = next((f for f in story if isinstance(f, _Contents)), None)

        def canvas(*args: Any, **kwargs: Any) -> measuring.LayoutCanvas:
            """The canvas of a pass (multiBuild makes one per pass, after the contents began it)."""
            painted = paint and (contents is None or not contents.guessing())
            return (measuring.LayoutCanvas if painted else measuring.MeasuringCanvas)(*args, **kwargs)

        try:
            with fixed_date():  # each pass begins a new document (and reads the environment's date)
                template.multiBuild(story, maxPasses=MAX_PASSES, canvasmaker=canvas)
        except IndexError as exc:  # reportlab's way of saying the contents never settled
            raise UserError(f"{doc.title}: the table of contents did not settle: {exc}") from None
        check_pages(doc.title, self.layout.paper, template.pages(), doc.page_budget)
        return buffer.getvalue(), list(template.toc_entries), template.text_area(doc.cover is not None)

    @staticmethod
    def _toc_entries(doc: m.Document) -> list[TocEntry]:
        """The contents entries the headings of ``doc`` make, all on page 0."""
        levels = 1 if doc.columns > 1 else TOC_LEVELS
        return [TocEntry(h.level, plain(h.text, doc.title), 0) for h in doc.headings if h.level <= levels]

    def _decorate(self, canvas: Any, template: _DocTemplate, doc: m.Document) -> None:
        """Running header (document, section) and page number (where the page is painted: they take no room)."""
        if measuring.measuring(canvas):
            return
        layout = self.layout
        page = canvas.getPageNumber()
        margins = layout.margins
        left, right = mm(margins["left"]), mm(layout.page_width - margins["right"])
        top = mm(layout.page_height - layout.get("header", "offset_mm"))
        canvas.saveState()
        canvas.setFillColor(colors.HexColor(layout.colour("muted")))
        canvas.setFont(fonts.font_name(fonts.ITALIC), layout.get("header", "size_pt"))
        canvas.drawString(left, top, plain(doc.title, doc.title))
        canvas.drawRightString(right, top, template.section_for(page))
        canvas.setStrokeColor(colors.HexColor(layout.colour("rule")))
        canvas.setLineWidth(layout.get("header", "rule_pt"))
        rule_y = top - layout.get("header", "size_pt") * 0.5
        canvas.line(left, rule_y, right, rule_y)
        canvas.setFont(fonts.font_name(fonts.REGULAR), layout.get("footer", "size_pt"))
        canvas.drawCentredString((left + right) / 2, mm(layout.get("footer", "offset_mm")), str(page))
        if doc.columns > 1 and layout.get("columns", "rule_pt"):  # a hairline down each gutter
            canvas.setLineWidth(layout.get("columns", "rule_pt"))
            gutter = mm(layout.get("columns", "gutter_mm"))
            for n in range(1, doc.columns):
                x = left + n * mm(self._width) + (n - 0.5) * gutter
                canvas.line(x, mm(margins["bottom"]), x, template.columns_top.get(page, mm(layout.page_height - margins["top"])))
        canvas.restoreState()

    def _story(self, doc: m.Document) -> list[Flowable]:
        where = doc.title
        story: list[Flowable]
        if doc.cover is not None:
            story = [self._cover(doc), NextPageTemplate("page"), RLPageBreak()]
        else:
            story = [self._text(doc.title, where, "title")]
            if doc.subtitle:
                story.append(self._text(doc.subtitle, where, "subtitle"))
        guess = [(e.level - 1, e.text, e.page, f"h{n}") for n, e in enumerate(self._toc_entries(doc), 1)]
        if doc.toc and doc.columns > 1:  # the contents head the first column; the text follows them
            toc = _Contents(guess, paint=self._paint, dotsMinLevel=0, tableStyle=_toc_table_style())
            toc.levelStyles = [self.styles["toc1"]]
            story += [_Paragraph(CONTENTS_TITLE, self.styles["h1"]), toc, Spacer(1, self.styles["body"].spaceAfter)]
        elif doc.toc:
            toc = _Contents(guess, paint=self._paint, dotsMinLevel=0, tableStyle=_toc_table_style())
            toc.levelStyles = [self.styles["toc1"], self.styles["toc2"]]
            # the text starts on a fresh page, unless the contents spill a few lines over and leave most of a page empty
            body_room = mm(self.layout.frame[1] * BODY_AFTER_CONTENTS_SHARE)
            story += [_Paragraph(CONTENTS_TITLE, self.styles["h1"]), toc, CondPageBreak(body_room)]
        pending: list[Flowable] = []
        for block in doc.blocks:
            flowables = self._block(block, where)
            if isinstance(block, m.Heading):
                pending += flowables  # keep a heading with what follows it
                continue
            if pending and self._long(block):
                story += [CondPageBreak(mm(HEADING_ROOM_MM)), *pending, *flowables]
                pending = []
            elif pending:
                head, rest = flowables[:1], flowables[1:]
                story.append(_Together(_flat(pending + head)))
                story += rest
                pending = []
            else:
                story += flowables
        story += pending
        while story and isinstance(story[-1], Spacer):  # room after the last block would only ever open a blank page
            story.pop()
        return story

    @staticmethod
    def _long(block: m.Block) -> bool:
        """A table or legend too long to move whole to the next page with its heading."""
        if isinstance(block, m.Table):
            return len(block.rows) > KEEP_TABLE_ROWS
        if isinstance(block, m.Legend):
            return len(block.entries) > KEEP_TABLE_ROWS
        return False

    # ------------------------------------------------------------------ blocks

    def _block(self, block: m.Block, where: str) -> list[Flowable]:
        if isinstance(block, m.Heading):
            style = HEADING_STYLES.get(block.level, "h3")
            para = self._inline(block.text, where, self._font_style(style))
            return [self._paragraph(para, style, self.styles[style], source=self._plain(block.text, where), level=block.level)]
        if isinstance(block, m.Paragraph):
            return [self._text(block.text, where, block.style, source=block.text)]
        if isinstance(block, m.ListBlock):
            return self._list(block, where)
        if isinstance(block, m.Table):
            return self._table(block, where)
        if isinstance(block, m.Legend):
            return self._legend(block, where)
        if isinstance(block, m.Diagram):
            return self._diagram(block, where)
        if isinstance(block, (m.BarChart, m.LineChart)):
            return self._chart(block, where)
        if isinstance(block, m.CardFigure):
            return self._card_figure(block, where)
        if isinstance(block, m.CardSpread):
            return self._spread(block, where)
        if isinstance(block, m.PageBreak):
            return [RLPageBreak()]
        if isinstance(block, m.Group):
            return [_Together(self._group(block, where))]
        raise TypeError(f"unknown block {block!r}")

    def _group(self, block: m.Group, where: str) -> list[Flowable]:
        out: list[Flowable] = []
        for inner in block.blocks:
            out += self._block(inner, where)
        return _flat(out)

    def _list(self, block: m.ListBlock, where: str) -> list[Flowable]:
        indent = mm(self.layout.get("list", "indent_mm"))
        base = self.styles[block.style]
        style = ParagraphStyle("list", parent=base, leftIndent=indent, bulletIndent=0, spaceAfter=base.spaceAfter / 2)
        bullet = self.layout.get("list", "bullet")
        out: list[Flowable] = []
        for number, item in enumerate(block.items, start=1):
            mark = f"{number}." if block.numbered else bullet
            para = self._inline(item, where, self._font_style(block.style))
            out.append(self._paragraph(para, ("list", block.style), style, bullet=mark, source=item))
        out.append(Spacer(1, base.spaceAfter / 2))
        return [_Together(out)] if len(block.items) <= KEEP_LIST_ITEMS else out

    def _cell(self, text: str, where: str, width: float, bold: bool = False) -> RLParagraph:
        """The paragraph of a table cell ``width`` points wide. The cells of a document that set the same text
        the same way at the same width are one paragraph, its lines broken once: a paragraph's lines depend on
        nothing but its width, and a table draws a cell where it places it (a state, an "unveiled", a "0" is
        set in hundreds of cells of a rulebook, a puzzle book or a sheet)."""
        key = (text, bold, width)
        cell = self._cells.get(key)
        if cell is None:
            para = self._inline(text, where, fonts.BOLD if bold else fonts.REGULAR)
            cell = self._cells[key] = self._paragraph(f"<b>{para}</b>" if bold else para, "table", self.styles["table"],
                                                      source=text)
        return cell

    def _row(self, texts: Sequence[str], widths: Sequence[float], where: str, *, bold: bool = False) -> list[RLParagraph]:
        """The cells of a table row (a text past the last column width keeps its cell: the table refuses it)."""
        return [self._cell(text, where, widths[n] if n < len(widths) else 0.0, bold=bold) for n, text in enumerate(texts)]

    def _table_style(self, rows: int, header: bool) -> TableStyle:
        layout = self.layout
        pad = layout.get("table", "padding_pt")
        commands: list[tuple[Any, ...]] = [
            ("GRID", (0, 0), (-1, -1), layout.get("table", "grid_pt"), colors.HexColor(layout.colour("table_grid"))),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("FONTNAME", (0, 0), (-1, -1), fonts.font_name()),  # the cells' base font: not Helvetica, never embedded
            ("TOPPADDING", (0, 0), (-1, -1), pad),
            ("BOTTOMPADDING", (0, 0), (-1, -1), pad),
            ("LEFTPADDING", (0, 0), (-1, -1), pad),
            ("RIGHTPADDING", (0, 0), (-1, -1), pad),
        ]
        first_body = 1 if header else 0
        if header:
            commands.append(("BACKGROUND", (0, 0), (-1, 0), colors.HexColor(layout.colour("table_header"))))
        for row in range(first_body + 1, rows, 2):
            commands.append(("BACKGROUND", (0, row), (-1, row), colors.HexColor(layout.colour("table_stripe"))))
        return TableStyle(commands)

    def _widths(self, relative: Optional[tuple[float, ...]], columns: int) -> list[float]:
        frame_width = mm(self._width)
        weights = relative or tuple(1.0 for _ in range(columns))
        total = sum(weights)
        return [frame_width * w / total for w in weights]

    def measure_table(self, block: m.Table, where: str, *, check_texts: bool = True) -> None:
        """Refuse (TextDoesNotFit) a table whose header and any one row together are taller than a page:
        reportlab cannot split a row, so such a table could never be printed. Every text is checked as setting
        it checks it (unless ``check_texts`` is False: checked on another paper); only a cell long enough to
        outgrow a page is set, to be measured."""
        self._cells = {}  # (the glossary's: a document of its own)
        widths = self._widths(block.widths, len(block.header or block.rows[0]) if (block.header or block.rows) else 0)
        header = self._row(block.header, widths, where, bold=True)
        for row in block.rows if check_texts else ():
            for text in row:
                self._inline(text, where)
        self._fit_rows([(block.header, header)] if header else [], widths, where)
        self._fit_rows([(row, None) for row in block.rows], widths, where, self._row_height(header, widths) if header else 0.0)

    def _fit_rows(self, rows: Sequence[tuple[Sequence[str], Optional[Sequence[Any]]]], widths: Sequence[float], where: str,
                  repeated: float = 0.0) -> None:
        """Each row (its texts and their cells; None: body cells, set here where they must be measured) fits one
        page of the text area, beside a repeated header ``repeated`` points tall; the cells are wrapped as
        reportlab wraps them."""
        pad = 2 * self.layout.get("table", "padding_pt")
        room = mm(self.layout.frame[1]) - repeated
        for texts, cells in rows:
            for text, cell, width in zip(texts, cells or [None] * len(texts), widths):
                leading = cell.style.leading if isinstance(cell, RLParagraph) else self.styles["table"].leading
                # each line holds at least one character: a text this short cannot outgrow a page unwrapped
                if (cell is None or isinstance(cell, RLParagraph)) and len(text) * leading + pad > room:
                    cell = cell or self._cell(text, where, width)
                    _, height = cell.wrap(width - pad, room)
                    if height + pad > room:
                        raise TextDoesNotFit(where, text, (
                            f"a table cell of {len(text)} characters is {(height + pad) / mm(1):.0f} mm tall at "
                            f"{width / mm(1):.0f} mm wide; a page on {self.layout.paper} holds "
                            f"{room / mm(1):.0f} mm (shorten it: {_excerpt(text)!r})"))

    def _row_height(self, cells: Sequence[Any], widths: Sequence[float]) -> float:
        pad = 2 * self.layout.get("table", "padding_pt")
        return max((c.wrap(w - pad, mm(self.layout.frame[1]))[1] for c, w in zip(cells, widths) if isinstance(c, RLParagraph)),
                   default=0.0) + pad

    def _table(self, block: m.Table, where: str) -> list[Flowable]:
        columns = len(block.header or block.rows[0]) if (block.header or block.rows) else 0
        widths = self._widths(block.widths, columns)
        header = self._row(block.header, widths, where, bold=True)
        body = [self._row(row, widths, where) for row in block.rows]
        data = ([header] if header else []) + body
        self._fit_rows([(block.header, header)] if header else [], widths, where)
        self._fit_rows(list(zip(block.rows, body)), widths, where, self._row_height(header, widths) if header else 0.0)
        # a table split over two columns or pages keeps at least TABLE_WIDOW_ROWS body rows on each side of the split
        lo = (1 if header else 0) + TABLE_WIDOW_ROWS
        split = (lo, -TABLE_WIDOW_ROWS) if len(body) >= 2 * TABLE_WIDOW_ROWS else None
        table = _Table(data, colWidths=widths, repeatRows=1 if header else 0, rowSplitRange=split)
        table.setStyle(self._table_style(len(data), bool(header)))
        out: list[Flowable] = [table]
        if block.caption:
            out.append(self._text(block.caption, where, "caption"))
        else:
            out.append(Spacer(1, self.styles["body"].spaceAfter))
        return out

    def _legend(self, block: m.Legend, where: str) -> list[Flowable]:
        if block.columns > 1:
            return self._compact_legend(block, where)
        size = self.layout.get("legend", "icon_mm")
        widths = [mm(size) + 2 * self.layout.get("table", "padding_pt")] + self._widths(tuple(self.layout.get("legend", "columns")), 2)
        from_name = self.layout.get("legend", "icon_from_name")
        widths[1] -= widths[0] * from_name
        widths[2] -= widths[0] * (1 - from_name)
        rows = [
            [self._legend_mark(e, size, where), self._cell(e.name, where, widths[1], bold=True), self._cell(e.meaning, where, widths[2])]
            for e in block.entries
        ]
        self._fit_rows([(("", e.name, e.meaning), row) for e, row in zip(block.entries, rows)], widths, where)
        table = _Table(rows, colWidths=widths)
        table.setStyle(self._table_style(len(rows), header=False))
        return [table, Spacer(1, self.styles["body"].spaceAfter)]

    def _compact_legend(self, block: m.Legend, where: str) -> list[Flowable]:
        """Entries side by side, ``columns`` to a row: each an icon and a cell with its name run into its meaning."""
        size = self.layout.get("legend", "icon_mm")
        columns = block.columns
        icon = mm(size) + 2 * self.layout.get("table", "padding_pt")
        text = (mm(self._width) - columns * icon) / columns
        cells = [[self._legend_mark(e, size, where), self._cell(f"**{e.name}.** {e.meaning}", where, text)] for e in block.entries]
        cells += [["", ""]] * (-len(cells) % columns)
        rows = [sum(cells[i:i + columns], []) for i in range(0, len(cells), columns)]
        self._fit_rows([(("", f"{e.name}. {e.meaning}"), cell) for e, cell in zip(block.entries, cells)], [icon, text], where)
        table = _Table(rows, colWidths=[icon, text] * columns)
        table.setStyle(self._table_style(len(rows), header=False))
        return [table, Spacer(1, self.styles["body"].spaceAfter)]

    def _legend_mark(self, entry: m.LegendEntry, size_mm: float, where: str) -> rl.Drawing:
        """The entry's icon, or a swatch of its colour with its label."""
        if entry.icon:
            return self._icon_drawing(entry.icon, size_mm, entry.colour, where)
        side = mm(size_mm)
        drawing = _drawing(side, side)
        corner = side / self.layout.get("legend", "swatch_corner")
        swatch = rl.Rect(0, 0, side, side, rx=corner, ry=corner)
        swatch.fillColor = self._fill(entry.colour)
        self._stroke(swatch, "text", "thin")
        drawing.add(swatch)
        if entry.label:
            drawing.add(
                self._label(
                    m.Label(size_mm / 2, size_mm * self.layout.get("legend", "swatch_label_rise"), entry.label,
                            size=self.layout.get("legend", "swatch_label_pt"), bold=True), lambda v: side - mm(v), where
                )
            )
        return drawing

    # ------------------------------------------------------------------ drawing

    def _icon_group(self, name: str, size_mm: float, colour: str, where: str) -> rl.Group:
        """The icon as a reportlab group, ``size_mm`` tall, its bottom-left at the origin."""
        icon = self.icons.get(name, where)
        fill = self.layout.colour(colour)
        svg = (
            f'<svg xmlns="{SVG_NS}" viewBox="0 0 {icon.width:g} {icon.height:g}" width="{icon.width:g}" height="{icon.height:g}">'
            f'<g fill="{fill}">{icon.markup}</g></svg>'
        )
        drawing = self._converted_icons.get(svg)
        if drawing is None:
            drawing = svg2rlg(io.BytesIO(svg.encode("utf-8")))
            if drawing is None:
                raise UserError(f"{where}: icon '{name}' could not be drawn")
            self._converted_icons[svg] = drawing
        scale = mm(size_mm) / drawing.height
        group = rl.Group(*drawing.contents)  # a group of its own: the shapes are shared, never changed
        group.transform = (scale, 0, 0, scale, 0, 0)
        return group

    def _icon_drawing(self, name: str, size_mm: float, colour: str, where: str) -> rl.Drawing:
        """The icon in a drawing of its own, ``size_mm`` tall (its room alone where the document is measured)."""
        icon = self.icons.get(name, where)
        drawing = _drawing(mm(size_mm * icon.aspect), mm(size_mm))
        if self._paint:
            drawing.add(self._icon_group(name, size_mm, colour, where))
        else:
            self.layout.colour(colour)
        return drawing

    def _stroke(self, shape: Any, stroke: Optional[str], line: str) -> None:
        if stroke is None:
            shape.strokeColor = None
            return
        style = self.layout.line(line)
        shape.strokeColor = colors.HexColor(self.layout.colour(stroke))
        shape.strokeWidth = style.width
        shape.strokeDashArray = list(style.dash) or None

    def _fill(self, fill: Optional[str]) -> Any:
        return colors.HexColor(self.layout.colour(fill)) if fill else None

    def _diagram(self, block: m.Diagram, where: str) -> list[Flowable]:
        """The diagram at true size (its labels keep their sizes); in a rulebook, one wider than a column
        floats to the top of the next page, across the columns."""
        frame_w, frame_h = self.layout.frame
        if block.width > frame_w + FIT_TOLERANCE_MM or block.height > frame_h + FIT_TOLERANCE_MM:
            raise UserError(
                f"{where}: diagram '{block.caption or block.alt[:1]}' ({block.width:g} x {block.height:g} mm) "
                f"does not fit the {self.layout.paper} text area ({frame_w:g} x {frame_h:g} mm)"
            )
        if self._columns > 1:  # a rulebook's figures: no label under the minimum
            small = [s.text for s in block.shapes if isinstance(s, m.Label)
                     and (s.size or self.layout.get("diagram", "label_pt")) < self.layout.min_figure_pt]
            if small:
                raise UserError(f"{where}: diagram '{block.caption or block.alt[:1]}' sets '{small[0]}' under the figures' "
                                f"{self.layout.min_figure_pt:g} pt minimum")
        self._fit_labels(block, where)
        height = mm(block.height)
        drawing = _drawing(mm(block.width), height)
        self._add_shapes(drawing, block.shapes, height, where)
        if self._columns > 1 and block.width > self._width + FIT_TOLERANCE_MM:
            caption = [self._text(block.caption, where, "caption")]
            return [_Float([drawing, *(caption if block.caption else [])], 0.0)]
        out: list[Flowable] = [drawing]
        if block.caption:
            out.append(self._text(block.caption, where, "caption"))
        else:
            out.append(Spacer(1, mm(self.layout.get("diagram", "space_after_mm"))))
        return [_Together(out)]

    def _fit_labels(self, block: m.Diagram, where: str) -> None:
        """Every level label stays across its drawing (the drawing is at most the text area wide): a label
        running past an edge would be cut off at the page edge or overprint the margin, so it is refused."""
        for shape in block.shapes:
            if not isinstance(shape, m.Label) or shape.angle:
                continue
            words = self._plain(shape.text, where)
            size = shape.size or self.layout.get("diagram", "label_pt")
            width = stringWidth(words, fonts.font_name(fonts.BOLD if shape.bold else fonts.REGULAR), size) / mm(1)
            start = shape.x - {"start": 0.0, "middle": width / 2, "end": width}.get(shape.anchor, 0.0)
            over = max(-start, start + width - block.width)
            if over > FIT_TOLERANCE_MM:
                raise TextDoesNotFit(where, shape.text, (
                    f"the text {_excerpt(words)!r} ({width:.0f} mm at {size:g} pt) runs {over:.1f} mm past its "
                    f"{block.width:.0f} mm drawing on {self.layout.paper}: shorten it"))

    def _card_figure(self, block: m.CardFigure, where: str) -> list[Flowable]:
        """The card with its callouts, its numbered key beside it (under it in a rulebook column), kept
        together with its caption. In a column the card is drawn at its true size, so its own text keeps
        the size the cards print (never under the design rules' minimum), or narrower where a large card
        must fit the column."""
        wide = False
        if self._columns > 1:
            fits = block.trim[0] + 2 * figures.MARGIN <= self._width + FIT_TOLERANCE_MM
            wide = not fits  # a large card floats to the top of the next page, across the columns, at true size
            if wide and block.trim[0] > self.layout.frame[0] + FIT_TOLERANCE_MM:
                raise UserError(f"{where}: card figure '{block.alt[0]}' ({block.trim[0]:g} mm wide) does not fit the "
                                f"{self.layout.frame[0]:g} mm {self.layout.paper} text width at true size (its text would "
                                f"fall under {self.layout.min_figure_pt:g} pt)")
            block = block._replace(width=block.trim[0])
        width, height, shapes = figures.layout(block)
        overlay = _drawing(mm(width), mm(height))
        self._add_shapes(overlay, shapes, mm(height), where)
        card = facedraw.FaceFlowable(block.face, f"{where}: {block.alt[0]}", mm(figures.MARGIN), mm(block.width), mm(height), overlay,
                                       self._faces)
        key = _flat(self._list(m.ListBlock(tuple(c.key for c in block.callouts), numbered=True, style="compact"), where))
        out: list[Flowable]
        if wide:
            caption = [self._text(block.caption, where, "caption")]
            return [_Float([card, *key, *(caption if block.caption else [])], figures.MARGIN)]
        if self._columns > 1:
            out = [card, *key]
        else:
            table = _Table([[card, key]], colWidths=[mm(width), mm(self._width - width)])
            table.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("FONTNAME", (0, 0), (-1, -1), fonts.font_name()),
                                      ("LEFTPADDING", (0, 0), (0, 0), 0), ("RIGHTPADDING", (0, 0), (0, 0), 0)]))
            out = [table]
        if block.caption:
            out.append(self._text(block.caption, where, "caption"))
        else:
            out.append(Spacer(1, mm(self.layout.get("diagram", "space_after_mm"))))
        return [_Together(out)]

    def _spread(self, block: m.CardSpread, where: str) -> list[Flowable]:
        """Each kind of card, front and back side by side, its count and name under it; kinds in rows across
        the text width (in a rulebook, across the columns at the next page's top). The cards are drawn at the
        block's scale, or smaller where that would take more than SPREAD_SHARE of the page."""
        width = mm(self.layout.frame[0] if self._columns > 1 else self._width)
        room = mm(self.layout.frame[1]) * SPREAD_SHARE
        scale = block.scale
        tables = self._spread_rows(block, scale, width, where)
        while sum(t.wrap(width, room)[1] for t in tables) > room and scale > block.scale * SPREAD_MIN_SHARE:
            scale *= SPREAD_STEP
            tables = self._spread_rows(block, scale, width, where)
        caption = [self._text(block.caption, where, "caption")] if block.caption else []
        if self._columns > 1:
            return [_Float([*tables, *caption], 0.0)]
        return [_Together([*tables, *caption])]

    def _spread_rows(self, block: m.CardSpread, scale: float, width: float, where: str) -> list[Flowable]:
        """The spread's kinds at ``scale``, as rows of tables no wider than ``width`` points."""
        gap, pair_gap = mm(SPREAD_GAP_MM), mm(SPREAD_PAIR_GAP_MM)
        cells: list[tuple[float, Flowable]] = []
        for entry in block.entries:
            w, h = mm(entry.trim[0] * scale), mm(entry.trim[1] * scale)
            faces = [entry.front] + ([entry.back] if entry.back is not None else [])
            drawn = [facedraw.FaceFlowable(face, f"{where}: {entry.label}", 0, w, h, _drawing(w, h), self._faces)
                     for face in faces]
            label = _Paragraph(f"<b>{entry.count}</b> \u00d7 {inline(entry.label, where)}", self.styles["caption"])
            pair = _Table([drawn, [label]], colWidths=[w + pair_gap] * len(drawn),
                           style=TableStyle([("SPAN", (0, 1), (-1, 1)), ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                             ("RIGHTPADDING", (0, 0), (-1, -1), 0), ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                                             ("FONTNAME", (0, 0), (-1, -1), fonts.font_name())]))
            cells.append((len(drawn) * (w + pair_gap), pair))
        rows: list[list[tuple[float, Flowable]]] = [[]]
        for cell in cells:
            if rows[-1] and sum(c[0] + gap for c in rows[-1]) + cell[0] > width:
                rows.append([])
            rows[-1].append(cell)
        tables: list[Flowable] = []
        for row in rows:
            table = _Table([[c[1] for c in row]], colWidths=[c[0] + gap for c in row])
            table.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "BOTTOM"), ("FONTNAME", (0, 0), (-1, -1), fonts.font_name())]))
            tables.append(table)
        return tables

    def _chart(self, block: m.BarChart | m.LineChart, where: str) -> list[Flowable]:
        """A chart across the text area, kept with its caption; a long horizontal bar chart fills pages in turn."""
        from pipeline.documents import charts  # reportlab's charts: only balance reports draw one, not validate or build

        if self._chart_style is None:
            self._chart_style = charts.ChartStyle(self.layout)
        frame_w, frame_h = self._width, self.layout.frame[1]
        room = mm(frame_h) - self.styles["caption"].leading * 2  # a page of chart leaves room for its caption
        if isinstance(block, m.BarChart):  # the first page of a long chart leaves room for its heading too
            drawings = charts.bar_chart(block, self._chart_style, mm(frame_w), (room - mm(HEADING_ROOM_MM), room), where)
        else:
            drawings = [charts.line_chart(block, self._chart_style, mm(frame_w), where)]
        out: list[Flowable] = list(drawings[:-1])
        last: list[Flowable] = [drawings[-1]]
        if block.caption:
            last.append(self._text(block.caption, where, "caption"))
        else:
            last.append(Spacer(1, mm(self.layout.get("diagram", "space_after_mm"))))
        return out + [_Together(last)]

    def _add_shapes(self, drawing: rl.Drawing, shapes: Sequence[m.Shape], height: float, where: str) -> None:
        """Draw ``shapes`` on ``drawing`` (``height`` points tall); where the document is only measured, a
        drawing takes its room unpainted, so its shapes are only checked as drawing them would check them."""
        for shape in shapes:
            if self._paint:
                drawing.add(self._shape(shape, height, where))
            else:
                self._check_shape(shape, where)

    def _check_shape(self, s: m.Shape, where: str) -> None:
        """What drawing ``s`` would refuse: a glyph the font lacks, an unknown icon, colour or line style."""
        if isinstance(s, m.Label):
            fonts.check_glyphs(self._plain(s.text, where), where, fonts.BOLD if s.bold else fonts.REGULAR)
            self.layout.colour(s.colour)
        elif isinstance(s, m.IconShape):
            self.icons.get(s.name, where)
            self.layout.colour(s.colour)
        elif isinstance(s, (m.Rect, m.Circle, m.Polygon, m.Line)):
            self._fill(getattr(s, "fill", None))
            if s.stroke is not None:
                self.layout.colour(s.stroke)
                self.layout.line(s.line)
        else:
            raise TypeError(f"unknown shape {s!r}")

    def _shape(self, s: m.Shape, height: float, where: str) -> Any:
        y = lambda v: height - mm(v)  # noqa: E731  (diagram y runs down, PDF y runs up)
        if isinstance(s, m.Rect):
            shape = rl.Rect(mm(s.x), y(s.y + s.h), mm(s.w), mm(s.h), rx=mm(s.radius), ry=mm(s.radius))
            shape.fillColor = self._fill(s.fill)
            self._stroke(shape, s.stroke, s.line)
            return shape
        if isinstance(s, m.Circle):
            shape = rl.Circle(mm(s.cx), y(s.cy), mm(s.r))
            shape.fillColor = self._fill(s.fill)
            self._stroke(shape, s.stroke, s.line)
            return shape
        if isinstance(s, m.Polygon):
            points = [v for px, py in s.points for v in (mm(px), y(py))]
            shape = rl.Polygon(points)
            shape.fillColor = self._fill(s.fill)
            self._stroke(shape, s.stroke, s.line)
            return shape
        if isinstance(s, m.Line):
            return self._line(s, y)
        if isinstance(s, m.Label):
            return self._label(s, y, where)
        if isinstance(s, m.IconShape):
            icon = self.icons.get(s.name, where)
            group = self._icon_group(s.name, s.size, s.colour, where)
            width = s.size * icon.aspect
            outer = rl.Group(group)
            outer.transform = (1, 0, 0, 1, mm(s.cx - width / 2), y(s.cy + s.size / 2))
            return outer
        raise TypeError(f"unknown shape {s!r}")

    def _line(self, s: m.Line, y: Any) -> rl.Group:
        group = rl.Group()
        line = rl.Line(mm(s.x1), y(s.y1), mm(s.x2), y(s.y2))
        self._stroke(line, s.stroke, s.line)
        group.add(line)
        if s.arrow:
            angle = math.atan2(y(s.y2) - y(s.y1), mm(s.x2) - mm(s.x1))
            head = mm(ARROW_HEAD_MM)
            tip = (mm(s.x2), y(s.y2))
            spread = math.radians(ARROW_SPREAD_DEG)
            left = (tip[0] - head * math.cos(angle - spread), tip[1] - head * math.sin(angle - spread))
            right = (tip[0] - head * math.cos(angle + spread), tip[1] - head * math.sin(angle + spread))
            arrow = rl.Polygon([*tip, *left, *right])
            arrow.fillColor = colors.HexColor(self.layout.colour(s.stroke))
            arrow.strokeColor = None
            group.add(arrow)
        return group

    def _label(self, s: m.Label, y: Any, where: str) -> Any:
        style = fonts.BOLD if s.bold else fonts.REGULAR
        words = self._plain(s.text, where)
        fonts.check_glyphs(words, where, style)
        size = s.size or self.layout.get("diagram", "label_pt")
        text = rl.String(0, 0, words, fontName=fonts.font_name(style), fontSize=size, textAnchor=s.anchor)
        text.fillColor = colors.HexColor(self.layout.colour(s.colour))
        group = rl.Group(text)
        cos, sin = math.cos(math.radians(s.angle)), math.sin(math.radians(s.angle))
        group.transform = (cos, sin, -sin, cos, mm(s.x), y(s.y))
        return group


EXCERPT_CHARS = 40


def _excerpt(text: str) -> str:
    """The start of a long text, to name it in a message."""
    return text if len(text) <= EXCERPT_CHARS else text[:EXCERPT_CHARS] + "..."


ContentsEntry = tuple[int, str, int, Optional[str]]  # reportlab's: level from 0, text, page, bookmark key


class _Contents(TableOfContents):
    """The contents list, first shown with ``guess`` (every heading, each on some page). Each entry is one
    paragraph whose page number is drawn past its end, taking no room, so the list takes the same room whatever
    the numbers (or their link targets): a pass whose entries have the right words lays every page out as the last
    pass will. Where the pages are only measured (``paint`` False) that pass is final; painted, the numbers must
    match too."""

    def __init__(self, guess: Sequence[ContentsEntry], *, paint: bool, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.paint = paint
        self.addEntries(guess)
        self.shown: list[ContentsEntry] = list(guess)  # the entries this pass shows
        self.landed: list[ContentsEntry] = []  # where this pass's headings landed
        self.passes = 0  # begun

    def beforeBuild(self) -> None:
        super().beforeBuild()
        self.shown, self.landed = self.landed or self.shown, []
        self.passes += 1

    def guessing(self) -> bool:
        """Whether the pass under way shows the first guess (every page number 0): never the one printed."""
        return self.passes == 1

    def notify(self, kind: str, stuff: Any) -> None:
        super().notify(kind, stuff)
        if kind == "TOCEntry":
            self.landed.append(tuple(stuff))

    def drawOn(self, canvas: Any, x: float, y: float, _sW: float = 0) -> None:  # noqa: N803 (reportlab's name)
        """Not painted on a :class:`~pipeline.documents.measuring.MeasuringCanvas`, as the other tables are not:
        its room was taken when it was wrapped, and its entries were noted as the headings were placed."""
        if not measuring.measuring(canvas):
            super().drawOn(canvas, x, y, _sW)

    def isSatisfied(self) -> bool:
        if self.paint:  # (the guessing pass was only measured: never the last)
            return not self.guessing() and bool(super().isSatisfied())
        return [_unnumbered(e) for e in self.landed] == [_unnumbered(e) for e in self.shown]


def _unnumbered(entry: ContentsEntry) -> tuple[int, str]:
    """An entry as far as it takes room: its level and words (its page number and link target take none)."""
    level, text, _, _ = entry
    return level, text


class _Float(ActionFlowable):
    """A figure wider than a rulebook column: queued where the text names it, drawn across the columns at
    the top of the next page (its callouts may hang ``overhang`` points into the page margins)."""

    def __init__(self, content: list[Flowable], overhang_mm: float) -> None:
        super().__init__()
        self.content = content
        self.overhang = mm(overhang_mm)

    def apply(self, doc: Any) -> None:
        doc.handle_float(self)

    def measure(self, canvas: Any, width: float) -> float:
        """The height the figure takes across ``width`` points (and the gap under it)."""
        return sum(f.wrapOn(canvas, self._width(f, width), mm(1000))[1] for f in self.content) + mm(FLOAT_GAP_MM)

    def _width(self, flowable: Flowable, width: float) -> float:
        return width + 2 * self.overhang if isinstance(flowable, (facedraw.FaceFlowable, rl.Drawing)) else width

    def draw_at(self, canvas: Any, x: float, top: float, width: float) -> float:
        """Draw the figure with its top at ``top``; the height used."""
        y = top
        for flowable in self.content:
            w, h = flowable.wrapOn(canvas, self._width(flowable, width), mm(1000))
            drawn = isinstance(flowable, (facedraw.FaceFlowable, rl.Drawing))  # drawings are centred; text starts at the margin
            left = x - self.overhang + (width + 2 * self.overhang - w) / 2 if drawn else x
            flowable.drawOn(canvas, left, y - h)
            y -= h
        return top - y + mm(FLOAT_GAP_MM)


class _Frame(Frame):
    """A frame that copies itself cheaply: platypus deep-copies the frame in use each time it measures a group
    kept together (hundreds of times a rulebook), and a frame holds numbers and names. The copy is the one
    ``copy.deepcopy`` makes (a new frame, each value copied deeply, the copy memo kept), without its general
    machinery (reduce, reconstruct) for the values that cannot change: numbers, text, None."""

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Frame":
        copied = self.__class__.__new__(self.__class__)
        memo[id(self)] = copied
        copied.__dict__.update({name: value if type(value) in _ATOMS else deepcopy(value, memo)
                                for name, value in self.__dict__.items()})
        return copied


_ATOMS = frozenset({int, float, str, bool, type(None)})  # the types whose values deepcopy hands back as they are


def _frame(name: str, x: float, y: float, width: float, height: float, column: Optional[int] = None) -> Frame:
    """A frame without padding: the layout's margins and gutters are the only space around the text. ``column``:
    which column of the text area it is (None: not one, as the cover's)."""
    frame = _Frame(x, y, width, height, id=name, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    frame.column = column
    return frame


def _drawing(width: float, height: float) -> rl.Drawing:
    """A drawing whose initial font is the embedded family's: reportlab's default, Helvetica, is one of
    the standard 14 fonts, named in the PDF but never embedded (not painted when only measured)."""
    drawing = measuring.Drawing(width, height)
    drawing.initialFontName = fonts.font_name()
    return drawing


def _toc_table_style() -> TableStyle:
    """reportlab's contents table style with the embedded family as the cells' base font."""
    return TableStyle([*defaultTableStyle.getCommands(), ("FONTNAME", (0, 0), (-1, -1), fonts.font_name())])
