"""The op vocabulary of Totems + Taboos effects and the phrase table that prints them.

A card effect (a commandment, a miracle, a spiritual guide's sacrifice, a
skip-turn choice) is a list of tagged ops. Each op names WHO it applies to and
its parameters; the printed wording is rendered from the ops by the phrase
table below, so data and card face cannot silently disagree (the cross-checks
compare the stored ``text`` with ``render_*``). ``op_value`` is the rough
power estimate the balance checks use.

Who an op applies to:
  self    the player who plays the card
  target  one other player of the card player's choice (for a reaction's
          cancel: the player whose commandment is cancelled)
  each    every player, the card player included
  others  every player except the card player
  owners  every player whose tower holds a block of the card's colour (miracles)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence

from pipeline.data.effects import EffectLanguage, EffectRegistry, dispatcher, keyed_defs, keyed_op_schema
from pipeline.data.wording import counted, plural
from pipeline.games.totems_and_taboos import GAME_ID

# --- Vocabulary -------------------------------------------------------------
SELF, TARGET, EACH, OTHERS, OWNERS = "self", "target", "each", "others", "owners"
WHO = (SELF, TARGET, EACH, OTHERS, OWNERS)
SERVANT, CLERIC, SHRINE = "servant", "cleric", "shrine"
ROLES = (SERVANT, CLERIC, SHRINE)
TOWER, ANY = "tower", "any"  # where drawn cards may come from
OWNER, CHOOSER_YOU, RANDOM = "owner", "you", "random"  # who picks discarded cards

RECRUIT = "recruit"  # gain souls from the pile in a role
ROLL = "roll"  # roll soul cubes from the pile, keep each in the rolled role
TRANSFORM = "transform"  # change pieces' role (never into a shrine: only dying clerics make shrines)
KILL = "kill"  # clerics die into shrines, servants die back into the pile
DESECRATE = "desecrate"  # shrines go back to the pile
STEAL = "steal"  # take another player's pieces into your own religion
EXHAUST = "exhaust"  # available pieces become used
READY = "ready"  # used pieces become available again
SWAP_ROLES = "swap_roles"  # every servant becomes a cleric and every cleric a servant
DRAW = "draw"
DISCARD = "discard"
CYCLE = "cycle"  # discard up to N, draw as many
DISCARD_HAND_DRAW = "discard_hand_draw"
TAKE_CARD = "take_card"  # random cards from another player's hand
BUILD = "build"  # build one block now with fewer servants / shrines needed
CANCEL = "cancel"  # reaction: the triggering card's effect does not happen
PROTECT = "protect"  # other players' commandments cannot affect you until your next turn
TAKE_GUIDE = "take_guide"

OPS = (
    RECRUIT, ROLL, TRANSFORM, KILL, DESECRATE, STEAL, EXHAUST, READY, SWAP_ROLES, DRAW,
    DISCARD, CYCLE, DISCARD_HAND_DRAW, TAKE_CARD, BUILD, CANCEL, PROTECT, TAKE_GUIDE,
)
# Ops whose pieces or cards belong to another player: never aimed at yourself.
HOSTILE_ONLY = frozenset({STEAL, TAKE_CARD, CANCEL})
# Ops that only make sense for the card's player.
SELF_ONLY = frozenset({READY, CYCLE, BUILD, PROTECT, TAKE_GUIDE})
# Ops where a count may be multiplied by the owner's blocks of the card's colour.
SCALABLE = frozenset({RECRUIT, ROLL, TRANSFORM, KILL, DRAW})

# The reaction trigger the cards use.
TRIGGER_AFFECTS_YOU = "affects-you"
TRIGGER_TEXT = {TRIGGER_AFFECTS_YOU: "Play when another player plays a commandment that affects you."}


@dataclass(frozen=True)
class Op:
    """One step of an effect; unused parameters keep their defaults."""

    op: str
    who: str = SELF
    count: int = 1
    role: Optional[str] = None
    into: Optional[str] = None
    per_block: bool = False
    source: Optional[str] = None
    chooser: Optional[str] = None
    servants: int = 0
    shrines: int = 0


def op_from_record(record: Mapping[str, Any]) -> Op:
    """An ``Op`` from its validated YAML mapping."""
    return Op(**record)


# --- Phrase table -----------------------------------------------------------
@dataclass(frozen=True)
class Subject:
    """How a sentence names who acts: 'Gain ... your' or 'Each player gains ... their'."""

    name: str  # "" for the imperative (you)
    possessive: str
    suffix: str = ""  # per-block tail

    @property
    def imperative(self) -> bool:
        return not self.name

    def verb(self, base: str) -> str:
        if self.imperative:
            return base
        if base.endswith(("s", "sh", "ch")):
            return base + "es"
        if base.endswith("y"):
            return base[:-1] + "ies"
        return base + "s"

    def start(self, base: str) -> str:
        return f"{self.name} {self.verb(base)}" if self.name else base


def role_into(role: str, count: int) -> str:
    """'a cleric' or 'clerics'."""
    return f"a {role}" if count == 1 else f"{role}s"


def subject(who: str, colour_name: str, per_block: bool) -> Subject:
    suffix = f" for each {colour_name.lower()} block they own" if per_block else ""
    if who == SELF:
        return Subject("", "your", suffix)
    if who == TARGET:
        return Subject("Target player", "their", suffix)
    if who == EACH:
        return Subject("Each player", "their", suffix)
    if who == OTHERS:
        return Subject("Each other player", "their", suffix)
    return Subject(f"Each player with {article(colour_name.lower())} block", "their", suffix)


def article(word: str) -> str:
    """'a yellow', 'an orange'."""
    return f"an {word}" if word[:1] in VOWELS else f"a {word}"


VOWELS = "aeiou"


def _death_reminder(role: str, count: int, per_block: bool) -> str:
    many = count > 1 or per_block
    if role == CLERIC:
        return "; they become shrines" if many else "; it becomes a shrine"
    return "; their souls return to the pile" if many else "; its soul returns to the pile"


def _drawn(op: Op, s: Subject) -> str:
    if op.source == ANY:
        where = "any colour"
    else:
        where = f"colours in {s.possessive} tower" if op.count > 1 else f"a colour in {s.possessive} tower"
    return f"{counted(op.count, 'card')} of {where}"


def render_op(op: Op, colour_name: str) -> str:
    """One op as a sentence without its final full stop."""
    s = subject(op.who, colour_name, op.per_block)
    n = op.count
    if op.op == RECRUIT:
        return f"{s.start('gain')} {counted(n, op.role or SERVANT)}{s.suffix}"
    if op.op == ROLL:
        return f"{s.start('roll')} {counted(n, 'soul cube')}{s.suffix}"
    if op.op == TRANSFORM:
        into = role_into(op.into or CLERIC, n)
        return f"{s.start('turn')} {n} of {s.possessive} {op.role}s into {into}{s.suffix}"
    if op.op == KILL:
        role = op.role or SERVANT
        return f"{s.start('kill')} {n} of {s.possessive} {role}s{s.suffix}{_death_reminder(role, n, op.per_block)}"
    if op.op == DESECRATE:
        return f"{s.start('return')} {n} of {s.possessive} shrines to the pile"
    if op.op == STEAL:
        into = plural(n, op.into or SERVANT)
        if op.who == OTHERS:
            return f"Take {n} {op.role} from each other player as your {into}"
        return f"Take {n} of target player's {op.role}s as your {into}"
    if op.op == EXHAUST:
        return f"{s.start('exhaust')} {n} of {s.possessive} available {op.role}s"
    if op.op == READY:
        return f"{s.start('ready')} {n} of {s.possessive} used {op.role}s"
    if op.op == SWAP_ROLES:
        return f"{s.start('swap')} all {s.possessive} servants and clerics"
    if op.op == DRAW:
        return f"{s.start('draw')} {_drawn(op, s)}{s.suffix}"
    if op.op == DISCARD:
        if op.chooser == CHOOSER_YOU:
            return f"Look at target player's hand and discard {counted(n, 'card')} of your choice from it"
        how = "at random" if op.chooser == RANDOM else f"of {s.possessive} choice"
        return f"{s.start('discard')} {counted(n, 'card')} {how}"
    if op.op == CYCLE:
        return f"Discard up to {counted(n, 'card')}, then draw as many cards of colours in your tower"
    if op.op == DISCARD_HAND_DRAW:
        return f"{s.start('discard')} {s.possessive} hand and {s.verb('draw')} {_drawn(op, s)}"
    if op.op == TAKE_CARD:
        return f"Take {n} random {plural(n, 'card')} from target player's hand"
    if op.op == BUILD:
        parts = [f"{op.servants} fewer {plural(op.servants, 'servant')}"] if op.servants else []
        parts += [f"{op.shrines} fewer {plural(op.shrines, 'shrine')}"] if op.shrines else []
        return f"Build a block now, needing {' and '.join(parts)} than usual"
    if op.op == CANCEL:
        return "Cancel that commandment's effect"
    if op.op == PROTECT:
        return "Until your next turn, other players' commandments cannot affect you"
    if op.op == TAKE_GUIDE:
        return "Take any spiritual guide, from the side of the table or from another player"
    raise ValueError(f"unknown op {op.op!r}")


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def render_ops(ops: Sequence[Op], colour_name: str) -> str:
    """Ops as the sentences printed on a card, in order.

    Consecutive ``recruit`` (or ``exhaust``) ops for the same players share
    one sentence: 'Gain 3 servants and 2 clerics.'
    """
    sentences: list[str] = []
    previous: Optional[Op] = None
    for op in ops:
        if previous is not None and _joins(previous, op):
            sentences[-1] += f" and {counted(op.count, op.role or SERVANT)}"
        else:
            sentences.append(render_op(op, colour_name))
        previous = op
    return " ".join(sentence(text) for text in sentences)


# Ops that share a sentence with a like op just before them for the same players.
JOINABLE = frozenset({RECRUIT, EXHAUST})


def _joins(first: Op, second: Op) -> bool:
    return (
        first.op == second.op
        and first.op in JOINABLE
        and first.who == second.who
        and not first.per_block
        and not second.per_block
    )


def render_sacrifice(role: str, count: int) -> str:
    """The extra cost of killing your own pieces (a shrine: returning it to the pile), as printed."""
    if role == SHRINE:
        return sentence(f"Extra cost: return {n_of_your(role, count)} to the pile")
    return sentence(f"Extra cost: kill {n_of_your(role, count)}{_death_reminder(role, count, False)}")


def n_of_your(role: str, count: int) -> str:
    return f"{count} of your {role}s"


def render_effect(
    ops: Sequence[Op],
    colour_name: str,
    *,
    trigger: Optional[str] = None,
    sacrifice: Optional[tuple[str, int]] = None,
) -> str:
    """The full effect text: reaction trigger, extra cost, then the ops."""
    parts = [TRIGGER_TEXT[trigger]] if trigger else []
    if sacrifice:
        parts.append(render_sacrifice(*sacrifice))
    parts.append(render_ops(ops, colour_name))
    return " ".join(parts)


ADD, REPLACE = "add", "replace"  # a bonus adds ops after the effect, or replaces them


def render_bonus(mode: str, ops: Sequence[Op], bonus_colour_name: str, card_colour_name: str) -> str:
    """'Purple bonus: gain 1 servant.' or 'Purple bonus: instead, ...'."""
    lead = "bonus instead" if mode == REPLACE else "bonus"
    return f"{bonus_colour_name} {lead}: {render_ops(ops, card_colour_name)}"


def word_count(text: str) -> int:
    return len(text.split())



# --- The effect registry: schema fragment, phrase and engine handler per op -------------------
# The op definitions of commandments.schema.json are checked against it by validate (LANGUAGE); engine.py
# attaches its HANDLERS. Every op prints through the one phrase table above (render_op, which joins like
# ops into one sentence), so each entry's phrase is render_op.
REGISTRY = EffectRegistry(GAME_ID, engine="pipeline.games.totems_and_taboos.engine")
MAX_OP_COUNT = 6  # the largest count an op may name
_ANYONE = {"enum": list(WHO)}
_COUNT = {"type": "integer", "minimum": 1, "maximum": MAX_OP_COUNT}
_LIVING = {"enum": [SERVANT, CLERIC]}
_PER_BLOCK = {"type": "boolean"}
_SOURCE = {"enum": [TOWER, ANY]}


def _who(op: str) -> dict[str, Any]:
    if op in SELF_ONLY:
        return {"enum": [SELF]}
    if op in HOSTILE_ONLY:
        return {"enum": [TARGET, OTHERS] if op == STEAL else [TARGET]}
    return _ANYONE


def _register(op: str, required: Sequence[str], **params: Any) -> None:
    REGISTRY.op(op, keyed_op_schema(op, {"who": _who(op), **params}, ["who", *required]), render_op)


_register(RECRUIT, ["role", "count"], role=_LIVING, count=_COUNT, per_block=_PER_BLOCK)
_register(ROLL, ["count"], count=_COUNT, per_block=_PER_BLOCK)
_register(TRANSFORM, ["role", "into", "count"], role={"enum": list(ROLES)}, into=_LIVING, count=_COUNT,
          per_block=_PER_BLOCK)
_register(KILL, ["role", "count"], role=_LIVING, count=_COUNT, per_block=_PER_BLOCK)
_register(DESECRATE, ["count"], count=_COUNT)
_register(STEAL, ["role", "into", "count"], role=_LIVING, into=_LIVING, count=_COUNT)
_register(EXHAUST, ["role", "count"], role=_LIVING, count=_COUNT)
_register(READY, ["role", "count"], role=_LIVING, count=_COUNT)
_register(SWAP_ROLES, [])
_register(DRAW, ["count", "source"], count=_COUNT, source=_SOURCE, per_block=_PER_BLOCK)
_register(DISCARD, ["count", "chooser"], count=_COUNT, chooser={"enum": [OWNER, CHOOSER_YOU, RANDOM]})
_register(CYCLE, ["count"], count=_COUNT)
_register(DISCARD_HAND_DRAW, ["count", "source"], count=_COUNT, source=_SOURCE)
_register(TAKE_CARD, ["count"], count=_COUNT)
_register(BUILD, ["servants", "shrines"], servants={"type": "integer", "minimum": 0, "maximum": 5},
          shrines={"type": "integer", "minimum": 0, "maximum": 10})
_register(CANCEL, [])
_register(PROTECT, [])
_register(TAKE_GUIDE, [])


def effect_defs() -> dict[str, Any]:
    """The op definitions of commandments.schema.json: ``op_<name>`` per op and ``op`` dispatching to them."""
    return {**keyed_defs(REGISTRY), "op": dispatcher(
        REGISTRY.effects(), required=("op", "who"),
        description="One tagged step of an effect; the op names its parameters "
                    "(see pipeline/games/totems_and_taboos/effects.py).")}


LANGUAGE = EffectLanguage(REGISTRY, "commandments", effect_defs, prefix="op_")

# --- Power estimate (for balance checks) -----------------------------------
# Rough worth of one unit of each op to the card's player, in "souls".
ROLE_WORTH = {SERVANT: 1.0, CLERIC: 1.5, SHRINE: 1.0}
ROLL_WORTH = 1.2
EXHAUST_WORTH = 0.6
READY_WORTH = 0.8
CARD_WORTH = 0.7
CHOSEN_DISCARD_WORTH = 0.9
DISCARD_WORTH = 0.6
CYCLE_WORTH = 0.25
HAND_SWAP_WORTH = 0.8
TAKE_CARD_WORTH = 1.2
SWAP_ROLES_WORTH = 1.5
SERVANT_DISCOUNT_WORTH = 1.0
SHRINE_DISCOUNT_WORTH = 0.7
CANCEL_WORTH = 3.0
PROTECT_WORTH = 2.5
TAKE_GUIDE_WORTH = 3.0
# An op for every player helps or hurts the others as much as you, except for
# your choice of when to play it; ops on other players count as harm done.
EACH_SHARE = 0.25
# Ops on every other player hit more than one rival in most games.
OTHERS_FACTOR = 1.5


def _unit_worth(op: Op) -> float:
    """Worth of the op to whoever it applies to (positive: good for them)."""
    if op.op == RECRUIT:
        return ROLE_WORTH[op.role or SERVANT] * op.count
    if op.op == ROLL:
        return ROLL_WORTH * op.count
    if op.op == TRANSFORM:
        return (ROLE_WORTH[op.into or CLERIC] - ROLE_WORTH[op.role or SERVANT]) * op.count
    if op.op == KILL:
        after = ROLE_WORTH[SHRINE] if op.role == CLERIC else 0.0
        return (after - ROLE_WORTH[op.role or SERVANT]) * op.count
    if op.op == DESECRATE:
        return -ROLE_WORTH[SHRINE] * op.count
    if op.op == EXHAUST:
        return -EXHAUST_WORTH * op.count
    if op.op == READY:
        return READY_WORTH * op.count
    if op.op == SWAP_ROLES:
        return SWAP_ROLES_WORTH
    if op.op == DRAW:
        return CARD_WORTH * op.count
    if op.op == DISCARD:
        return -(CHOSEN_DISCARD_WORTH if op.chooser == CHOOSER_YOU else DISCARD_WORTH) * op.count
    if op.op == CYCLE:
        return CYCLE_WORTH * op.count
    if op.op == DISCARD_HAND_DRAW:  # a fresh hand helps you, and upsets a rival's plans
        return HAND_SWAP_WORTH if op.who == SELF else -HAND_SWAP_WORTH
    if op.op == BUILD:
        return SERVANT_DISCOUNT_WORTH * op.servants + SHRINE_DISCOUNT_WORTH * op.shrines
    return {PROTECT: PROTECT_WORTH, TAKE_GUIDE: TAKE_GUIDE_WORTH}.get(op.op, 0.0)


def op_value(op: Op) -> float:
    """Worth of the op to the card's player."""
    if op.op == STEAL:
        worth = (ROLE_WORTH[op.into or SERVANT] + ROLE_WORTH[op.role or SERVANT]) * op.count
        return worth * OTHERS_FACTOR if op.who == OTHERS else worth
    if op.op == TAKE_CARD:
        return TAKE_CARD_WORTH * op.count
    if op.op == CANCEL:
        return CANCEL_WORTH
    worth = _unit_worth(op)
    if op.who in (SELF, OWNERS):
        return worth
    if op.who == EACH:
        return abs(worth) * EACH_SHARE
    if op.who == OTHERS:
        return -worth * OTHERS_FACTOR
    return -worth  # target: harm to them is worth to you


def effect_value(ops: Sequence[Op]) -> float:
    return sum(op_value(op) for op in ops)
