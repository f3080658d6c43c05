"""Monstrous's documents: rulebook (with the scenario layouts drawn centre plus four), the one-page
reference (turn, the seven Throw Steps, power keywords with their symbols, the gods' emblems, end and
scoring) and the Faith tokens to print. The player aids themselves are cards (render.py)."""
from __future__ import annotations

from typing import Any, Mapping

from pipeline.documents import standard as std
from pipeline.documents import structure as m
from pipeline.documents.figures import printed_icons, spread
from pipeline.documents.sheets import Token, cut_fold_legend, side_by_side, token_pages
from pipeline.documents.standard import DocContext
from pipeline.games.monstrous import figures
from pipeline.games.monstrous.declared import describe_event
from pipeline.games.monstrous.model import Example, MonstrousModel, Scenario
from pipeline.games.monstrous.palette import EMBLEM, FRAME, PALETTE
from pipeline.games.monstrous.render import AID_TEMPLATE, BOARD_TEMPLATE, LOCATION_TEMPLATE, MONSTER_TEMPLATE

# Faith token fills, smallest denomination first (god frame colours, so the tokens match the cards' palette).
DENOMINATION_COLOURS = ("orange", "green", "blue", "purple")
# Scenario layout geometry (mm): location card (88.9 x 127 scaled down), spacing.
LOC_W, LOC_H, LAYOUT_GAP_X, LAYOUT_GAP_Y = 22.0, 31.0, 8.0, 4.0
LOC_RADIUS, LOC_NAME_PT = 1.5, 7.5
LOC_FAITH_PT, LOC_FAITH_DROP = 7.0, 4.5  # "Faith N", its baseline below the name's
POSITIONS = {"top-left": (0, 0), "top-right": (2, 0), "centre": (1, 1), "bottom-left": (0, 2), "bottom-right": (2, 2)}
TOKEN_MM, TOKEN_GAP_MM = 22.0, 2.0
LAYOUTS_GAP_MM = 10.0
KEYWORD_COLUMNS = (1.2, 2.8)  # keyword, when it works
LOCATION_ICONS = (  # the icons every Location card prints: icon, name, meaning
    ("laurel", "Laurel", "On a Location: the Faith the thrower gains each time a thrown Monster hits it (Throw Step 5)."),
    ("temple", "Temple", "The Location cards' picture and back."),
)
PICTURE_FAMILIES = (  # icons that each picture one card: one aid line a family, drawn with its first icon
    ("monster-", "Monster pictures", "Each Monster's own silhouette, beside its name: a picture, with no rule of its own."),
    ("location-", "Location pictures", "Each Location's own icon, beside its name: a picture, with no rule of its own."),
)
LIGHTNING_START = "Lightning Start Rules"  # the box's one-page start sheet (components.yaml): the reference sheet is it




# The components spread's name for each kind of card.
SPREAD = {MONSTER_TEMPLATE: "Monster cards", LOCATION_TEMPLATE: "Location cards", BOARD_TEMPLATE: "God Boards", AID_TEMPLATE: "Player aids"}


def layout_diagram(ctx: DocContext, scenario: Scenario, model: MonstrousModel) -> m.Diagram:
    """A centre Location and four around it, each with its Faith value."""
    shapes: list[m.Shape] = []
    alt = []
    for position, location_id in scenario.layout.items():
        col, row = POSITIONS[position]
        x = col * (LOC_W + LAYOUT_GAP_X)
        y = row * (LOC_H / 2 + LAYOUT_GAP_Y)
        location = model.location(location_id)
        fill = "fill_light" if position != "centre" else "table_header"
        shapes += [m.Rect(x, y, LOC_W, LOC_H, fill=fill, radius=LOC_RADIUS),
                   m.Label(x + LOC_W / 2, y + LOC_H / 2, location.name, size=LOC_NAME_PT, bold=True),
                   m.Label(x + LOC_W / 2, y + LOC_H / 2 + LOC_FAITH_DROP, f"Faith {location.faith}", size=LOC_FAITH_PT,
                           colour="muted")]
        alt.append(f"{position}: {location.name} (Faith {location.faith})")
    width = 2 * (LOC_W + LAYOUT_GAP_X) + LOC_W
    height = 2 * (LOC_H / 2 + LAYOUT_GAP_Y) + LOC_H
    return m.Diagram(width, height, tuple(shapes), tuple(alt), caption=f"{scenario.name}")


def _in_column(diagrams: list[m.Diagram]) -> m.OnPaper:
    """``diagrams`` side by side, as many to a row as a rulebook column holds on whichever paper."""
    return m.OnPaper(lambda layout: tuple(side_by_side(diagrams, std.rulebook_column(layout), LAYOUTS_GAP_MM)))


def _scenario_layouts(ctx: DocContext, model: MonstrousModel, level: int) -> list[m.Block]:
    out: list[m.Block] = []
    names = {d["id"]: d["name"] for d in ctx.data("scenarios")["difficulties"]}
    for difficulty in names:
        out.append(m.Heading(f"{names[difficulty]} scenarios", level))
        diagrams = [layout_diagram(ctx, s, model) for s in model.scenarios if s.difficulty == difficulty]
        out.append(_in_column(diagrams))
    return out


def _faq(ctx: DocContext, section: Mapping[str, Any], level: int) -> list[m.Block]:
    out: list[m.Block] = std.section_text(ctx, section["id"])
    for ruling in ctx.data("faq")["rulings"]:
        out.append(m.Paragraph(f"**{ctx.text(ruling['question'])}** {ctx.text(ruling['answer'])}"))
    return out


def _card_name(ctx: DocContext, cards: Mapping[str, Mapping[str, Any]], card_id: str) -> str:
    """A Monster card as players call it: its god's name and its Monster's, e.g. "Poseidon's Dragon"."""
    card = cards[card_id]
    return f"{ctx.name('gods', card['god'])}'s {ctx.name('monsters', card['monster'])}"


def _listed(names: list[str]) -> str:
    """Names joined as prose: "A", "A and B", "A, B and C"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


class _ExampleText:
    """Names resolved from the records, so an example reads like the rulebook's prose."""

    def __init__(self, ctx: DocContext) -> None:
        self.ctx = ctx
        self.cards = {c["id"]: c for c in ctx.data("monster-cards")["cards"]}
        self.steps = {s["id"]: s for s in ctx.data("throw-steps")["steps"]}

    def god(self, god_id: str) -> str:
        return self.ctx.name("gods", god_id)

    def card(self, card_id: str) -> str:
        return _card_name(self.ctx, self.cards, card_id)

    def monster(self, card_id: str) -> str:
        """A card named by its Monster alone, for cards whose owner is plain from the sentence."""
        return self.ctx.name("monsters", self.cards[card_id]["monster"])

    def location(self, location_id: str) -> str:
        return self.ctx.name("locations", location_id)

    def event(self, event: Mapping[str, Any]) -> str:
        """The engine's description of an event, with ids replaced by names."""
        named = dict(event)
        for key in ("god", "from"):
            if key in named:
                named[key] = self.god(named[key])
        if "card" in named:
            named["card"] = self.card(named["card"])
        if "locations_hit" in named:
            named["locations_hit"] = [self.location(loc) for loc in named["locations_hit"]]
        return describe_event(named)

    def step_label(self, step_id: str) -> str:
        step = self.steps[step_id]
        return f"**Step {step['number']}, {_sentence(step['name'])}**"

    def choice(self, chooser: str, choice: Mapping[str, Any]) -> str:
        if "card" in choice:
            return f"{chooser} chooses {self.card(choice['card'])}, {choice.get('side', 'either')} side up"
        if "god" in choice:
            return f"{chooser} chooses {self.god(choice['god'])}"
        return f"{chooser} chooses to {str(choice['option']).replace('_', ' ')}"

    def step(self, chooser: str, step: Mapping[str, Any]) -> str:
        """One Throw Step: what the thrown Monster hits, the choice made and the events that follow."""
        hit = [self.card(c) for c in step.get("hits", [])] + [self.location(loc) for loc in step.get("locations_hit", [])]
        rest = ([self.choice(chooser, step["choice"])] if "choice" in step else []) + \
            ["; ".join(self.event(e) for e in step.get("events", [])) or "nothing happens"]
        if "location" in step:
            rest[0] = f"At {self.location(step['location'])}, {rest[0]}"
        sentences = ([f"It hits {_listed(hit)}"] if hit else []) + rest
        return f"{self.step_label(step['step'])} {' '.join(_capitalised(x) + '.' for x in sentences)}"

    def situation(self, example: Example) -> str:
        """The table before the turn's first throw."""
        initial = example.initial
        sentences = [f"Gods in seat order: {_listed([self.god(g) for g in initial['seats']])}; it is {self.god(initial['active'])}'s turn.",
                     f"Location in play: {_listed([self.location(loc) for loc in initial['locations']])}."]
        for god_id, hand in initial.get("hands", {}).items():
            deck = initial.get("decks", {}).get(god_id, [])
            own = [self.monster(c) for c in hand]
            sentences.append(f"{self.god(god_id)}'s hand: {_listed(own)}"
                             + (f"; deck, top first: {_listed([self.monster(c) for c in deck])}." if deck else "."))
        table = [f"{self.card(t['card'])} ({t['side']} side up) on {_listed([self.location(loc) for loc in t['on_locations']])}"
                 for t in initial.get("table", [])]
        if table:
            sentences.append(f"Already on the table: {_listed(table)}.")
        sentences.append(f"Faith: {self.faith(initial['faith'])}.")
        return " ".join(sentences)

    def faith(self, faith: Mapping[str, int]) -> str:
        return ", ".join(f"{self.god(g)} {amount}" for g, amount in faith.items())

    def turn(self, example: Example) -> list[str]:
        """The numbered steps: each throw, its Throw Steps, the extra-throw check, then the end of the turn."""
        items: list[str] = []
        active = self.god(example.initial["active"])
        for throw in example.throws:
            items.append(f"**Throw.** {active} throws the {self.monster(throw['card'])}, "
                         f"{throw['side']} side up.")
            items += [self.step(active, step) for step in throw["steps"]]
            extra = "An extra throw follows." if throw["extra_throw"] else "No extra throw."
            items.append(f"{self.step_label('extra-throw')} {extra}")
        end = example.end_turn
        items.append(
            f"{self.step_label('end-turn')} {active} draws the {self.monster(end['draw'])}; play passes to {self.god(end['next'])}."
        )
        return items


def example_blocks(ctx: DocContext, model: MonstrousModel, level: int) -> list[m.Block]:
    """Each worked turn of examples.yaml: heading, the situation, numbered steps and the Faith it ends on."""
    text = _ExampleText(ctx)
    out: list[m.Block] = []
    for example in model.examples:
        pictures = [figures.throw_picture(ctx, example, throw, f"Throw {n}: where the {text.monster(throw['card'])} lands.")
                    for n, throw in enumerate(example.throws, start=1)]
        out += [m.Heading(ctx.text(example.title), level),
                m.Paragraph(text.situation(example)),
                *pictures,
                m.ListBlock(tuple(text.turn(example)), numbered=True),
                m.Paragraph(f"**Final Faith:** {text.faith(example.final['faith'])}.")]
    return out


def _examples(ctx: DocContext, section: Mapping[str, Any], level: int) -> list[m.Block]:
    return std.section_text(ctx, section["id"]) + example_blocks(ctx, ctx.game.model, min(level + 1, std.MAX_HEADING_LEVEL))


def _components(ctx: DocContext, section: Mapping[str, Any], level: int) -> list[m.Block]:
    return std.components_section(ctx, section) + [spread(ctx, SPREAD)]


def _scenarios(ctx: DocContext, section: Mapping[str, Any], level: int) -> list[m.Block]:
    return std.section_text(ctx, section["id"]) + _scenario_layouts(ctx, ctx.game.model, level + 1)


def gods_legend(ctx: DocContext, model: MonstrousModel) -> list[m.Block]:
    entries = [
        m.LegendEntry(
            g.pattern,
            f"{g.name} ({g.colour})",
            f"Emblem of the {g.colour} god's twelve Monsters, God Board and player aid.",
            PALETTE[g.colour][EMBLEM],
        )
        for g in model.gods
    ]
    keywords = m.Table(("Keyword", "When it works"), tuple((f"**{k['label']}**", ctx.text(k["meaning"]))
                                                          for k in ctx.data("player-aids")["keywords"]), KEYWORD_COLUMNS)
    # no card prints a keyword icon: the keywords are words, in a table of their own
    return [m.Heading("Symbols and keywords", 1), m.Legend(tuple(entries)), m.Heading("Power keywords", 2), keywords]


def rulebook(ctx: DocContext) -> m.Document:
    model = ctx.game.model
    overrides = {"components": _components, "rulings": _faq, "scenarios": _scenarios, "examples": _examples}
    blocks = std.rules_blocks(ctx, {**overrides, **figures.sections()})
    blocks += std.glossary_blocks(ctx)
    blocks += gods_legend(ctx, model)
    return ctx.rulebook(blocks, "temple", subtitle="Throw your Monsters, win back the mortals' Faith")


def _sentence(name: str) -> str:
    """A step name as a run-in heading: ends with a full stop unless it already ends with punctuation."""
    return name if name[-1:] in ".?!" else f"{name}."


def icon_meanings(model: MonstrousModel, printed: frozenset[str]) -> dict[str, m.LegendEntry]:
    """What each icon the cards may print means: each god's emblem, the laurel of a Location's Faith, the temple,
    and one line for each picture family among the ``printed`` icons."""
    out = {g.pattern: m.LegendEntry(g.pattern, f"{g.name} ({g.colour})", f"The emblem on the {g.colour} god's cards.",
                                    PALETTE[g.colour][EMBLEM]) for g in model.gods}
    out.update({icon: m.LegendEntry(icon, name, meaning) for icon, name, meaning in LOCATION_ICONS})
    for prefix, name, meaning in PICTURE_FAMILIES:
        first = next((icon for icon in sorted(printed) if icon.startswith(prefix)), None)
        if first is not None:
            out[prefix] = m.LegendEntry(first, name, meaning)
    return out


def printed_families(printed: frozenset[str]) -> set[str]:
    """The ``printed`` icons, with each picture family (``PICTURE_FAMILIES``) counted as one icon."""
    return {next((prefix for prefix, _, _ in PICTURE_FAMILIES if icon.startswith(prefix)), icon) for icon in printed}


def reference(ctx: DocContext) -> m.Document:
    """One page at the table: whose turn, the seven Throw Steps, what a hit is, each power keyword, every icon
    the cards print, and the end. Each line is an aid line (rules.yaml, throw-steps.yaml), not a rulebook paragraph."""
    model = ctx.game.model
    steps = sorted(ctx.data("throw-steps")["steps"], key=lambda s: s["number"])
    printed = printed_icons(ctx)
    b = m.Blocks()
    b.h("Your turn", std.SHEET_HEADING).p(std.aid_line(ctx, "turns"))
    b.h("The seven Throw Steps", std.SHEET_HEADING)
    b.ul([f"**{_sentence(s['name'])}** {ctx.text(s['aid_text'])}" for s in steps], numbered=True)
    b.h("Hitting", std.SHEET_HEADING).p(std.aid_line(ctx, "hitting"))
    b.h("Power keywords", std.SHEET_HEADING)
    b.table(("Keyword", "When it works"), [(f"**{k['label']}**", ctx.text(k["meaning"])) for k in ctx.data("player-aids")["keywords"]],
            KEYWORD_COLUMNS)
    legend = std.printed_icon_legend(ctx, icon_meanings(model, printed), printed_families(printed), columns=1)
    b.h("On the cards", std.SHEET_HEADING).add(legend)
    b.h("End of the game and scoring", std.SHEET_HEADING).p(std.aid_line(ctx, "end-and-scoring"))
    return ctx.document("reference", LIGHTNING_START, std.compact(b.done()), page_budget=1, columns=std.AID_COLUMNS)


def extras(ctx: DocContext) -> m.Document:
    model = ctx.game.model
    values = sorted(t.value for t in model.faith_tokens)
    fill = {v: PALETTE[DENOMINATION_COLOURS[min(i, len(DENOMINATION_COLOURS) - 1)]][FRAME] for i, v in enumerate(values)}
    tokens = [Token(str(t.value), fill[t.value], sublabel="Faith") for t in model.faith_tokens for _ in range(t.count)]
    counts = ", ".join(f"{t.count} x {t.value}" for t in model.faith_tokens)
    blocks: list[m.Block] = [
        m.Heading("Faith tokens", 1),
        m.Paragraph(f"{len(tokens)} Faith tokens ({counts}). Cut along the grid lines."),
        cut_fold_legend(fold=False),
    ]
    blocks.append(m.OnPaper(lambda layout: tuple(token_pages(tokens, layout.frame, TOKEN_MM, TOKEN_GAP_MM, "Faith tokens"))))
    return ctx.document("extras", "Faith tokens", blocks)


def documents(ctx: DocContext) -> dict[str, m.Document]:
    return {"rulebook": rulebook(ctx), "reference": reference(ctx), "extras": extras(ctx)}
