"""Typed, immutable view of Totems + Taboos' validated data.

``build(game)`` turns the schema-checked documents into frozen dataclasses.
Every list keeps the data's order, so a record's index in a tuple is also its
index in the YAML list (the cross-checks rely on that to point at lines).
The tower helpers (``needs``, ``may_stack``) are what a later ``can-build``
command and the rules engine will call.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Mapping, NamedTuple, Optional

from pipeline.data.dataset import GameData
from pipeline.data.kinds import COMPONENTS_KIND, GLOSSARY_KIND, RULES_KIND
from pipeline.games.totems_and_taboos.effects import Op, op_from_record

COLOURS = "colours"
TOWER = "tower"
SETUP = "setup"
COMMANDMENTS = "commandments"
GUIDES = "guides"
TURN = "turn"
SOLO = "solo"
DICE = "dice"
KINDS = (COLOURS, TOWER, SETUP, COMMANDMENTS, GUIDES, TURN, SOLO, DICE, COMPONENTS_KIND, GLOSSARY_KIND, RULES_KIND)

MIRACLE = "miracle"
REACTION = "reaction"
# Who a card acts on, as its face and the cheat sheet name it.
TYPE_LABELS = {"self": "Self", "target": "Target", "all": "All players", MIRACLE: "Miracle"}


def _ops(records: list[Mapping[str, Any]]) -> tuple[Op, ...]:
    return tuple(op_from_record(record) for record in records)


# --- Colours ----------------------------------------------------------------
class Colour(NamedTuple):
    id: str
    name: str
    symbol: str  # the icon printed with the colour (never hue alone)
    principle: str
    opposite: str
    adjacent: tuple[str, ...]
    focus: tuple[str, ...]


class Wheel(NamedTuple):
    """The colours in circle order; ``opposite_steps`` apart are opposites."""

    order: tuple[str, ...]
    opposite_steps: int

    def step(self, colour: str, steps: int) -> str:
        index = self.order.index(colour)
        return self.order[(index + steps) % len(self.order)]

    def opposite_of(self, colour: str) -> str:
        return self.step(colour, self.opposite_steps)

    def neighbours(self, colour: str) -> frozenset[str]:
        return frozenset({self.step(colour, -1), self.step(colour, 1)})


# --- Tower ------------------------------------------------------------------
class TowerLevel(NamedTuple):
    level: int
    numeral: str
    shrines: int
    servants: int


class BuildExample(NamedTuple):
    """A worked build question with its stated answer (replayed by the engine's can-build)."""

    id: str
    tower: tuple[str, ...]
    shrines: int
    servants: int
    block: str
    can_build: bool


@dataclass(frozen=True)
class Tower:
    levels: tuple[TowerLevel, ...]
    win_level: int
    placement: str
    shrine_payment: str
    servant_payment: str
    blocks_per_colour: int
    examples: tuple[BuildExample, ...] = ()

    def needs(self, level: int) -> Optional[TowerLevel]:
        """The row for reaching ``level``, or None past the table."""
        return self._rows.get(level)

    @cached_property
    def _rows(self) -> dict[int, TowerLevel]:
        """The rows by level (the engines ask for one on every build check)."""
        rows: dict[int, TowerLevel] = {}
        for row in self.levels:
            rows.setdefault(row.level, row)
        return rows


# --- Set-up -----------------------------------------------------------------
class StartingResources(NamedTuple):
    colour: str
    clerics: int
    servants: int
    shrines: int
    rolled_souls: int

    @property
    def souls(self) -> int:
        """Soul cubes this package takes from the pile."""
        return self.clerics + self.servants + self.shrines + self.rolled_souls

    @property
    def package(self) -> tuple[int, int, int, int]:
        return (self.clerics, self.servants, self.shrines, self.rolled_souls)


class Setup(NamedTuple):
    min_players: int
    max_players: int
    starting_hand: int
    resources: tuple[StartingResources, ...]
    start_order: tuple[str, ...]


# --- Cards ------------------------------------------------------------------
class Cost(NamedTuple):
    clerics: int
    servants: int
    sacrifice: Optional[tuple[str, int]] = None  # (role, count) killed (a shrine: returned to the pile) as an extra cost

    @property
    def is_free(self) -> bool:
        return not (self.clerics or self.servants or self.sacrifice)

    def reserved(self, role: str) -> int:
        """Available pieces of ``role`` that pay this cost, so the extra cost cannot take them (ruling)."""
        return {"cleric": self.clerics, "servant": self.servants}.get(role, 0)


class Bonus(NamedTuple):
    colour: str
    mode: str
    ops: tuple[Op, ...]
    text: str


class Card(NamedTuple):
    id: str
    colour: str
    type: str
    name: str
    copies: int
    ops: tuple[Op, ...]
    text: str
    flavour: str
    level: Optional[int] = None
    cost: Optional[Cost] = None
    timing: Optional[str] = None
    trigger: Optional[str] = None
    bonus: Optional[Bonus] = None

    @property
    def is_miracle(self) -> bool:
        return self.type == MIRACLE

    @property
    def all_ops(self) -> tuple[Op, ...]:
        return self.ops + (self.bonus.ops if self.bonus else ())


class DeckLevel(NamedTuple):
    level: int
    designs: int
    blocks_needed: int
    copies_per_design: int


class Deck(NamedTuple):
    cards_per_colour: int
    levels: tuple[DeckLevel, ...]
    miracle_designs: int
    miracle_copies: int

    def copies_for(self, level: Optional[int]) -> Optional[int]:
        if level is None:
            return self.miracle_copies
        row = next((row for row in self.levels if row.level == level), None)
        return row.copies_per_design if row else None


class Guide(NamedTuple):
    id: str
    colour: str
    name: str
    summon_colour: str
    summon_cards: int
    timing: str
    trigger: Optional[str]
    ops: tuple[Op, ...]
    text: str


class Summoning(NamedTuple):
    cards_of_one_colour: int


# --- Turn, dice, solo -------------------------------------------------------
class SkipOption(NamedTuple):
    id: str
    name: str
    ops: tuple[Op, ...]
    text: str


class EndOption(NamedTuple):
    id: str
    discard_hand: bool
    requires_empty_hand: bool
    draw: int


class Turn(NamedTuple):
    uses_per_piece: int
    skip_options: tuple[SkipOption, ...]
    end_options: tuple[EndOption, ...]
    hand_limit: int
    miracle_redraw: int


class Die(NamedTuple):
    id: str
    face_kind: str
    faces: tuple[str, ...]
    reroll: tuple[str, ...] = ()  # faces that do not stand: the die is rolled again

    @property
    def standing_faces(self) -> tuple[str, ...]:
        """The faces a roll can end on (rolling again until one comes up makes each equally likely)."""
        return tuple(face for face in self.faces if face not in self.reroll)


class Difficulty(NamedTuple):
    id: str
    name: str
    difficulty: str
    passive_blocks: int
    passive_shrines: int


class Solo(NamedTuple):
    removed_levels: tuple[int, ...]
    die: str
    win_level: int
    difficulties: tuple[Difficulty, ...]
    draw_on_take: int = 1  # cards drawn when you build with a passive religion's block
    passive_miracle_role: str = "cleric"  # what a passive religion gains per block from a miracle

    def difficulty(self, difficulty_id: str) -> Optional[Difficulty]:
        return next((d for d in self.difficulties if d.id == difficulty_id), None)


# --- The whole game ---------------------------------------------------------
@dataclass(frozen=True)
class TotemsModel:
    wheel: Wheel
    colours: tuple[Colour, ...]
    tower: Tower
    setup: Setup
    deck: Deck
    cards: tuple[Card, ...]
    summoning: Summoning
    guides: tuple[Guide, ...]
    turn: Turn
    dice: tuple[Die, ...]
    solo: Solo
    components: Mapping[str, int]

    @cached_property
    def colour_ids(self) -> tuple[str, ...]:
        """The colours' ids in data order (cached: the engine asks on every build and every die roll)."""
        return tuple(colour.id for colour in self.colours)

    def colour_name(self, colour_id: str) -> str:
        return next((c.name for c in self.colours if c.id == colour_id), colour_id.capitalize())

    @property
    def card_count(self) -> int:
        """Physical cards: every design times its copies."""
        return sum(card.copies for card in self.cards)

    def cards_of(self, colour: str) -> tuple[Card, ...]:
        return tuple(card for card in self.cards if card.colour == colour)

    def may_stack(self, top: str, block: str) -> bool:
        """Whether ``block`` may go on a tower whose top block is ``top``."""
        return block == top or block in self.wheel.neighbours(top)


def _colour(record: Mapping[str, Any]) -> Colour:
    return Colour(
        id=record["id"],
        name=record["name"],
        symbol=record["symbol"],
        principle=record["principle"],
        opposite=record["opposite"],
        adjacent=tuple(record["adjacent"]),
        focus=tuple(record["focus"]),
    )


def _tower(data: Mapping[str, Any]) -> Tower:
    return Tower(
        levels=tuple(TowerLevel(r["level"], r["numeral"], r["shrines"], r["servants"]) for r in data["levels"]),
        win_level=data["win"]["level"],
        placement=data["placement"]["rule"],
        shrine_payment=data["payment"]["shrines"],
        servant_payment=data["payment"]["servants"],
        blocks_per_colour=data["supply"]["blocks_per_colour"],
        examples=tuple(
            BuildExample(e["id"], tuple(e["tower"]), e["shrines"], e["servants"], e["block"], e["can_build"])
            for e in data.get("examples", ())
        ),
    )


def _setup(data: Mapping[str, Any]) -> Setup:
    resources = tuple(
        StartingResources(r["colour"], r["clerics"], r["servants"], r["shrines"], r["rolled_souls"])
        for r in data["starting_resources"]
    )
    return Setup(
        min_players=data["players"]["min"],
        max_players=data["players"]["max"],
        starting_hand=data["starting_hand"]["cards"],
        resources=resources,
        start_order=tuple(data["start_order"]["order"]),
    )


def _cost(record: Optional[Mapping[str, Any]]) -> Optional[Cost]:
    if record is None:
        return None
    sacrifice = record.get("sacrifice")
    return Cost(
        clerics=record["clerics"],
        servants=record["servants"],
        sacrifice=(sacrifice["role"], sacrifice["count"]) if sacrifice else None,
    )


def _bonus(record: Optional[Mapping[str, Any]]) -> Optional[Bonus]:
    if record is None:
        return None
    return Bonus(record["colour"], record["mode"], _ops(record["ops"]), record["text"])


def _card(record: Mapping[str, Any]) -> Card:
    return Card(
        id=record["id"],
        colour=record["colour"],
        type=record["type"],
        name=record["name"],
        copies=record["copies"],
        ops=_ops(record["effect"]["ops"]),
        text=record["effect"]["text"],
        flavour=record["flavour"],
        level=record.get("level"),
        cost=_cost(record.get("cost")),
        timing=record.get("timing"),
        trigger=record.get("trigger"),
        bonus=_bonus(record.get("bonus")),
    )


def _deck(data: Mapping[str, Any]) -> Deck:
    return Deck(
        cards_per_colour=data["cards_per_colour"],
        levels=tuple(
            DeckLevel(r["level"], r["designs"], r["blocks_needed"], r["copies_per_design"]) for r in data["levels"]
        ),
        miracle_designs=data["miracle_designs"],
        miracle_copies=data["miracle_copies"],
    )


def _guide(record: Mapping[str, Any]) -> Guide:
    sacrifice = record["sacrifice"]
    return Guide(
        id=record["id"],
        colour=record["colour"],
        name=record["name"],
        summon_colour=record["summon"]["colour"],
        summon_cards=record["summon"]["cards"],
        timing=sacrifice["timing"],
        trigger=sacrifice.get("trigger"),
        ops=_ops(sacrifice["ops"]),
        text=sacrifice["text"],
    )


def _turn(data: Mapping[str, Any]) -> Turn:
    return Turn(
        uses_per_piece=data["actions"]["uses_per_piece"],
        skip_options=tuple(
            SkipOption(o["id"], o["name"], _ops(o["ops"]), o["text"]) for o in data["skip"]["options"]
        ),
        end_options=tuple(
            EndOption(o["id"], o["discard_hand"], o["requires_empty_hand"], o["draw"])
            for o in data["end_of_turn"]["options"]
        ),
        hand_limit=data["end_of_turn"]["hand_limit"],
        miracle_redraw=data["miracles"]["then_draw"],
    )


def _solo(data: Mapping[str, Any]) -> Solo:
    return Solo(
        removed_levels=tuple(data["setup"]["remove_levels"]),
        die=data["between_turns"]["die"],
        win_level=data["win"]["tower_level"],
        difficulties=tuple(
            Difficulty(d["id"], d["name"], d["difficulty"], d["passive_blocks"], d["passive_shrines"])
            for d in data["difficulties"]
        ),
        draw_on_take=data["building"]["draw_on_take"],
        passive_miracle_role=data["passive_miracles"]["role"],
    )


def build(game: GameData[TotemsModel]) -> TotemsModel:
    """The typed model of validated data (every kind in ``KINDS`` must be loaded)."""
    colours = game.doc(COLOURS).data
    commandments = game.doc(COMMANDMENTS).data
    guides = game.doc(GUIDES).data
    return TotemsModel(
        wheel=Wheel(tuple(colours["wheel"]["order"]), colours["wheel"]["opposite_steps"]),
        colours=tuple(_colour(r) for r in colours["colours"]),
        tower=_tower(game.doc(TOWER).data),
        setup=_setup(game.doc(SETUP).data),
        deck=_deck(commandments["deck"]),
        cards=tuple(_card(r) for r in commandments["commandments"]),
        summoning=Summoning(guides["summoning"]["cards_of_one_colour"]),
        guides=tuple(_guide(r) for r in guides["guides"]),
        turn=_turn(game.doc(TURN).data),
        dice=tuple(Die(d["id"], d["face_kind"], tuple(d["faces"]), tuple(d.get("reroll", ())))
                   for d in game.doc(DICE).data["dice"]),
        solo=_solo(game.doc(SOLO).data),
        components={c["id"]: c["count"] for c in game.doc(COMPONENTS_KIND).data["components"]},
    )
