"""Blocks every game's documents share, built from the common data shapes.

``rules.yaml`` sections become headings, paragraphs and lists; ``glossary.yaml``
becomes a term table and a symbol legend; ``components.yaml`` becomes the
component table, with the counts a game computes from its card data. All
prose passes through :class:`DocContext.text`, which resolves references.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Collection, Iterable, Mapping, Optional, Protocol

from pipeline.base.errors import UserError
from pipeline.cards.faces import FaceRecord, FaceRecords
from pipeline.cards.svgtemplates import Templates
from pipeline.checks.components import data_counts
from pipeline.checks.references import References
from pipeline.data.dataset import GameData
from pipeline.data.kinds import COMPONENTS_KIND, GLOSSARY_KIND, RULES_KIND, RULINGS_KIND
from pipeline.data.markup import REFERENCE
from pipeline.documents import structure as m
from pipeline.documents.facedraw import card_templates
from pipeline.documents.layout import Layout, table_columns

MAX_HEADING_LEVEL = 3
RULEBOOK_COLUMNS = 2  # a rulebook's body text runs in two columns: a 60-75 character measure
BOX_FACTS = ("players", "time", "ages")  # rules.yaml's box facts, in the order the cover prints them

# A section override: given the context, the section record and its heading level, the blocks that replace its body.
SectionOverride = Callable[["DocContext", Mapping[str, Any], int], list[m.Block]]


class FaceLookup(Protocol):
    """Where the records of a game's card faces are found, by content key (None: the face has none)."""

    def get(self, key: str) -> Optional[FaceRecord]: ...


@dataclass
class DocContext:
    """What a game's docs need: its data, the reference resolver and the records of the game's card faces
    (``face_records``: the kept ones, read when first asked, or handed in by a caller that has them, such as the
    card check of the same command) and the card templates its figures render faces with (the card check's, handed
    in, else made for this context). No paper: the documents are assembled once for every paper, and a part
    sized by the paper is an :class:`m.OnPaper`."""

    game: GameData
    refs: References
    face_records: Optional[FaceLookup] = None
    templates: Templates = field(default_factory=card_templates)

    def faces(self) -> FaceLookup:
        """The records the card check (or the card build) kept of the game's faces."""
        if self.face_records is None:
            self.face_records = FaceRecords(self.templates, self.game.game)
        return self.face_records

    @property
    def title(self) -> str:
        return self.game.spec.title

    def data(self, kind: str) -> Any:
        return self.game.doc(kind).data

    def text(self, text: str) -> str:
        """Prose as printed: references replaced by the current names of their records."""
        return self.refs.resolve(" ".join(text.split()), self.game.game)

    def name(self, kind: str, record_id: str) -> str:
        return self.refs.name(self.game.game, kind, record_id)

    def document(
        self, kind: str, label: str, blocks: Iterable[m.Block], *, subtitle: str = "", toc: bool = False, page_budget: Optional[int] = None,
        cover: Optional[m.Cover] = None, columns: int = 1,
    ) -> m.Document:
        return m.Document(f"{self.title}: {label}", self.title, kind, tuple(blocks), subtitle=subtitle, toc=toc, page_budget=page_budget,
                          cover=cover, columns=columns)

    def cover(self, emblem: str, facts: Optional[tuple[str, ...]] = None) -> m.Cover:
        """A cover with an emblem round the icon ``emblem`` and ``facts`` (default: rules.yaml's box facts)."""
        if facts is None:
            box = self.data(RULES_KIND).get("box", {})
            facts = tuple(self.text(box[key]) for key in BOX_FACTS if key in box)
        return m.Cover(facts, emblem)

    def rulebook(self, blocks: Iterable[m.Block], emblem: str, *, subtitle: str = "") -> m.Document:
        """The game's rulebook: a cover (the box facts of rules.yaml, an emblem round the icon ``emblem``),
        one page of contents, then the text in two columns."""
        return m.Document(f"{self.title}: Rulebook", self.title, "rulebook", tuple(blocks), subtitle=subtitle, toc=True,
                          columns=RULEBOOK_COLUMNS, cover=self.cover(emblem))


def rulebook_column(layout: Layout) -> float:
    """Width (mm) of a rulebook column on the paper of ``layout``: what a rulebook's diagrams and figures must fit."""
    return layout.column_width(RULEBOOK_COLUMNS)


# --------------------------------------------------------------------------- one-page sheets

SHEET_HEADING = 2  # a sheet's sections take the smaller heading: room a one-page sheet needs on Letter
AID_COLUMNS = 2  # a player aid reads in two columns, like a card at the table
COMPACT = "compact"  # the layout's text style for dense reference and cheat sheets


def compact(blocks: Iterable[m.Block]) -> list[m.Block]:
    """Sheet text: the same words, its paragraphs and lists set in the layout's compact style."""
    return [b._replace(style=COMPACT) if isinstance(b, (m.Paragraph, m.ListBlock)) else b for b in blocks]


# --------------------------------------------------------------------------- rules


def section_blocks(
    ctx: DocContext, section: Mapping[str, Any], level: int = 1, overrides: Optional[Mapping[str, SectionOverride]] = None
) -> list[m.Block]:
    """One rules section (and its subsections) as blocks; an override replaces the section's body."""
    overrides = overrides or {}
    out: list[m.Block] = [m.Heading(ctx.text(section["title"]), min(level, MAX_HEADING_LEVEL))]
    if section["id"] in overrides:
        return out + overrides[section["id"]](ctx, section, level)
    out += [m.Paragraph(ctx.text(p)) for p in section.get("paragraphs", [])]
    if section.get("items"):
        out.append(m.ListBlock(tuple(ctx.text(i) for i in section["items"]), bool(section.get("numbered"))))
    for sub in section.get("subsections", []):
        out += section_blocks(ctx, sub, level + 1, overrides)
    return out


def rules_blocks(
    ctx: DocContext, overrides: Optional[Mapping[str, SectionOverride]] = None, skip: Iterable[str] = ()
) -> list[m.Block]:
    """Every section of rules.yaml in order, except ``skip``; ``overrides`` replace a section's body."""
    skipped = set(skip)
    out: list[m.Block] = []
    for section in ctx.data(RULES_KIND)["sections"]:
        if section["id"] not in skipped:
            out += section_blocks(ctx, section, 1, overrides)
    return out


def rulings_section(ctx: DocContext, section: Mapping[str, Any], level: int) -> list[m.Block]:
    """A rules section listing rulings (``[[rulings/<id>]]`` items): its introduction, then each ruling it lists,
    in its order, under the ruling's title (the list itself would print only the titles)."""
    out: list[m.Block] = [m.Paragraph(ctx.text(p)) for p in section.get("paragraphs", [])]
    rulings = {ruling["id"]: ruling for ruling in ctx.data(RULINGS_KIND)[RULINGS_KIND]}
    for item in section.get("items", []):
        for ref in REFERENCE.finditer(item):
            ruling = rulings.get(ref["id"]) if ref["kind"] == RULINGS_KIND else None
            if ruling is not None:
                out += [m.Heading(ctx.text(ruling["title"]), min(level + 1, MAX_HEADING_LEVEL)),
                        m.Paragraph(ctx.text(ruling["ruling"]))]
    return out


class MissingSection(UserError):
    """A document looks up a rules section the data lacks (validate reports it at rules.yaml)."""

    def __init__(self, game: str, section_id: str) -> None:
        super().__init__(f"{game}: rules: no section {section_id} (a document prints it; run `pantheon validate {game}`)")
        self.section_id = section_id


def find_section(ctx: DocContext, section_id: str) -> Mapping[str, Any]:
    """A rules section (at any depth) by id; MissingSection when the rules have none."""
    stack = list(ctx.data(RULES_KIND)["sections"])
    while stack:
        section = stack.pop(0)
        if section["id"] == section_id:
            return section
        stack = list(section.get("subsections", [])) + stack
    raise MissingSection(ctx.game.game, section_id)


def aid_line(ctx: DocContext, section_id: str) -> str:
    """A rules section as a player aid says it: its ``aid`` line (a section an aid uses must have one)."""
    section = find_section(ctx, section_id)
    if "aid" not in section:
        raise UserError(f"{ctx.game.game}: rules section '{section_id}' has no aid line for the player aid (add `aid:` in rules.yaml)")
    return ctx.text(section["aid"])


def aid_items(ctx: DocContext, section_ids: Iterable[str]) -> list[str]:
    """Run-in aid lines: "**Title.** the section's aid line", one per section."""
    out = []
    for section_id in section_ids:
        title = ctx.text(find_section(ctx, section_id)["title"])
        out.append(f"**{title if title[-1:] in '.?!:…”' else title + '.'}** {aid_line(ctx, section_id)}")
    return out


def printed_icon_legend(ctx: DocContext, meanings: Mapping[str, m.LegendEntry], printed: Iterable[str], columns: int = 2) -> m.Legend:
    """Every icon the cards print (``printed``), each with its meaning from ``meanings`` (by icon name), in
    the order of ``meanings``; an icon the cards print without a meaning is an error, one they do not print
    is left out."""
    shown = set(printed)
    missing = [icon for icon in shown if icon not in meanings]
    if missing:
        icons = "icon" if len(missing) == 1 else "icons"
        raise UserError(f"{ctx.game.game}: the cards print the {icons} {', '.join(sorted(missing))} but the player aid has no "
                        "meaning for them")
    return m.Legend(tuple(entry for icon, entry in meanings.items() if icon in shown), columns)


def section_text(ctx: DocContext, section_id: str) -> list[m.Block]:
    """A section's own paragraphs and items, without its heading or subsections."""
    section = find_section(ctx, section_id)
    out: list[m.Block] = [m.Paragraph(ctx.text(p)) for p in section.get("paragraphs", [])]
    if section.get("items"):
        out.append(m.ListBlock(tuple(ctx.text(i) for i in section["items"]), bool(section.get("numbered"))))
    return out


# --------------------------------------------------------------------------- components


def components_table(ctx: DocContext) -> m.Table:
    """The box contents; the counts the game's data holds (its spec's ``counts``) win over the listed ones."""
    computed = data_counts(ctx.game)
    rows = []
    for component in ctx.data(COMPONENTS_KIND)["components"]:
        count = computed.get(component["id"], component["count"])
        rows.append((str(count), ctx.text(component["name"]), ctx.text(component.get("description", ""))))
    return m.Table(("Count", "Component", "Description"), tuple(rows), table_columns("components"))


# --------------------------------------------------------------------------- glossary


def glossary_blocks(ctx: DocContext, level: int = 1) -> list[m.Block]:
    """The game's glossary as a table of terms (with their see-also terms)."""
    terms = ctx.data(GLOSSARY_KIND)["terms"]
    by_id = {t["id"]: t for t in terms}
    rows = []
    for term in sorted(terms, key=lambda t: t["term"].casefold()):
        definition = ctx.text(term["definition"])
        see = [by_id[s]["term"] for s in term.get("see_also", []) if s in by_id]
        if see:
            definition += f" _See also: {', '.join(see)}._"
        rows.append((f"**{ctx.text(term['term'])}**", definition))
    return [m.Heading("Glossary", level), m.Table(("Term", "Meaning"), tuple(rows), table_columns("glossary"))]


def symbol_legend(
    ctx: DocContext, marks: Mapping[str, m.LegendEntry], level: int = 1, title: str = "Symbols", columns: int = 1,
    leave_out: Collection[str] = (),
) -> list[m.Block]:
    """The glossary's symbols, each drawn: ``marks`` gives the icon (or swatch) for each symbol id; a sheet
    short of room may ``leave_out`` symbols its reader does not need (the rulebook keeps them all)."""
    symbols = [s for s in ctx.data(GLOSSARY_KIND).get("symbols", []) if s["id"] not in leave_out]
    if not symbols:
        return []
    entries = []
    for symbol in symbols:
        mark = marks[symbol["id"]]
        entries.append(m.LegendEntry(mark.icon, ctx.text(symbol["name"]), ctx.text(symbol["meaning"]), mark.colour, mark.label))
    return [m.Heading(title, level), m.Legend(tuple(entries), columns)]


def legend(entries: Iterable[tuple[Optional[str], str, str, str]]) -> m.Legend:
    """A legend from (icon, name, meaning, colour) tuples."""
    return m.Legend(tuple(m.LegendEntry(icon, name, meaning, colour) for icon, name, meaning, colour in entries))


def components_section(ctx: DocContext, section: Mapping[str, Any]) -> list[m.Block]:
    """A rules 'components' section: the computed table, then the section's own prose.

    Count lines ("29 deity cards ...") are left out, since the table gives the
    computed count, unless they name records (those names must stay in print).
    """
    out: list[m.Block] = [components_table(ctx)]
    out += [m.Paragraph(ctx.text(p)) for p in section.get("paragraphs", [])]
    items = [i for i in section.get("items", []) if not i[:1].isdigit() or REFERENCE.search(i)]
    if items:
        out.append(m.ListBlock(tuple(ctx.text(i) for i in items)))
    return out
