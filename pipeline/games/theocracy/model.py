"""Typed, immutable model of the Theocracy data, built from validated YAML documents.

`build(game)` is only called after every document passed its schema, so it
reads fields directly. The engine is built from this model, never from YAML.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple, Optional

from pipeline.data.dataset import GameData

# Phrase table for the reminder printed on the two power cards of the upset:
# the printed `reminder` of a power card must equal what this renders.
WEAK_REMINDER = "Beats a {strong}."
STRONG_REMINDER = "Loses to a {weak}."

CHOSEN_OP = "prophet-chooses-giver"
BID_RULE_OP = "bid-rule"
ADD_ROLE_OP = "add-role"
TRANSCENDENCE_ID = "transcendence"
FATE_ID = "fate"


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    colour: str
    emblem: str
    lineage: str
    order: int


@dataclass(frozen=True)
class PowerCard:
    id: str
    player: str
    value: int
    title: str
    reminder: Optional[str]
    flavour: str


@dataclass(frozen=True)
class Believer:
    id: str
    player: str
    index: int
    name: str
    flavour: str


class Die(NamedTuple):
    id: str
    faces: tuple[int, ...]


class Role(NamedTuple):
    id: str
    name: str
    order: int
    duties: tuple[str, ...]


class LineUp(NamedTuple):
    players: int
    roles: tuple[str, ...]


class Rotation(NamedTuple):
    new_first: str
    direction: str
    first_round_first_seat: int


class GraceStep(NamedTuple):
    id: str
    order: int
    op: str


class ProphecyKind(NamedTuple):
    id: str
    needs_subject: bool
    fulfilled_when: str


class Phrasing(NamedTuple):
    id: str
    prophecy: str
    voice: str
    text: str


class Upset(NamedTuple):
    """The one exception to 'higher wins': the ``weak`` value beats the ``strong`` one."""

    weak: int
    strong: int


class BidRule(NamedTuple):
    id: str
    players: tuple[int, ...]
    outcome: str
    name: str = ""  # as the rulebook calls it ("One beats five"): what the documents print


class BidExample(NamedTuple):
    id: str
    bids: tuple[int, ...]
    winner: Optional[int]
    rule: str
    ruined: tuple[int, ...]


class AddedRule(NamedTuple):
    id: str
    players: tuple[int, ...]
    op: str
    target: str


class FateRule(NamedTuple):
    dice: int
    target: int
    roller: str


class TheocracyModel(NamedTuple):
    players: tuple[Player, ...]
    power_cards: tuple[PowerCard, ...]
    believers: tuple[Believer, ...]
    dice: tuple[Die, ...]
    roles: tuple[Role, ...]
    line_ups: tuple[LineUp, ...]
    rotation: Rotation
    turns_per_round: int
    distinct_dice_per_round: bool
    grace_steps: tuple[GraceStep, ...]
    prophecies: tuple[ProphecyKind, ...]
    phrasings: tuple[Phrasing, ...]
    upset: Upset
    bid_rules: tuple[BidRule, ...]
    bid_examples: tuple[BidExample, ...]
    added_rules: tuple[AddedRule, ...]
    transcendence_threshold: int
    fate: FateRule

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted(line_up.players for line_up in self.line_ups))

    def line_up(self, players: int) -> LineUp:
        for line_up in self.line_ups:
            if line_up.players == players:
                return line_up
        raise ValueError(f"no line-up of roles for {players} players (supported: {self.player_counts})")

    def power_values(self, player: str) -> tuple[int, ...]:
        return tuple(sorted(card.value for card in self.power_cards if card.player == player))

    def believers_of(self, player: str) -> tuple[Believer, ...]:
        return tuple(sorted((b for b in self.believers if b.player == player), key=lambda b: b.index))

    def added_rule_players(self, op: str, target: str = "") -> tuple[int, ...]:
        """Player counts at which the added rule with this effect applies (empty if none)."""
        for rule in self.added_rules:
            if rule.op == op and (not target or rule.target == target):
                return rule.players
        return ()


def power_reminder(value: int, upset: Upset) -> Optional[str]:
    """The reminder a power card of ``value`` prints, rendered from the upset rule."""
    if value == upset.weak:
        return WEAK_REMINDER.format(strong=upset.strong, weak=upset.weak)
    if value == upset.strong:
        return STRONG_REMINDER.format(strong=upset.strong, weak=upset.weak)
    return None


def _records(game: GameData[TheocracyModel], kind: str, key: str) -> list[dict[str, Any]]:
    return list(game.doc(kind).data[key])


def _effect_target(effect: dict[str, Any]) -> str:
    for key in ("role", "bid_rule", "grace_step"):
        if key in effect:
            return str(effect[key])
    return ""


def build(game: GameData[TheocracyModel]) -> TheocracyModel:
    """Turn the validated Theocracy documents into the immutable model."""
    roles_doc = game.doc("roles").data
    phases_doc = game.doc("phases").data
    rules_doc = game.doc("bid-rules").data
    ends = {c["id"]: c["check"] for c in game.doc("round-end").data["end_conditions"]}
    tribulation = next(p for p in phases_doc["phases"] if p["id"] == "tribulation")
    rotation = roles_doc["rotation"]
    fate = ends[FATE_ID]
    return TheocracyModel(
        players=tuple(
            Player(p["id"], p["name"], p["colour"], p["emblem"], p["lineage"], p["order"])
            for p in _records(game, "players", "players")
        ),
        power_cards=tuple(
            PowerCard(c["id"], c["player"], c["value"], c["title"], c.get("reminder"), c["flavour"])
            for c in _records(game, "power-cards", "power_cards")
        ),
        believers=tuple(
            Believer(b["id"], b["player"], b["index"], b["name"], b["flavour"])
            for b in _records(game, "believers", "believers")
        ),
        dice=tuple(Die(d["id"], tuple(d["faces"])) for d in _records(game, "dice", "dice")),
        roles=tuple(Role(r["id"], r["name"], r["order"], tuple(r["duties"])) for r in roles_doc["roles"]),
        line_ups=tuple(LineUp(u["players"], tuple(u["roles"])) for u in roles_doc["line_ups"]),
        rotation=Rotation(rotation["new_first"], rotation["direction"], rotation["first_round_first_seat"]),
        turns_per_round=phases_doc["turn_structure"]["turns_per_round"],
        distinct_dice_per_round=tribulation["roll"]["distinct_within_round"],
        grace_steps=tuple(GraceStep(s["id"], s["order"], s["op"]) for s in phases_doc["grace_steps"]),
        prophecies=tuple(
            ProphecyKind(p["id"], p["needs_subject"], p["fulfilled_when"])
            for p in _records(game, "prophecies", "prophecies")
        ),
        phrasings=tuple(
            Phrasing(p["id"], p["prophecy"], p["voice"], p["text"]) for p in _records(game, "prophecies", "phrasings")
        ),
        upset=Upset(rules_doc["upset"]["weak"], rules_doc["upset"]["strong"]),
        bid_rules=tuple(BidRule(r["id"], tuple(r["players"]), r["outcome"], r["name"]) for r in rules_doc["bid_rules"]),
        bid_examples=tuple(
            BidExample(e["id"], tuple(e["bids"]), e["winner"], e["rule"], tuple(e["ruined"]))
            for e in _records(game, "bid-examples", "bid_examples")
        ),
        added_rules=tuple(
            AddedRule(a["id"], tuple(a["players"]), a["effect"]["op"], _effect_target(a["effect"]))
            for a in _records(game, "added-rules", "added_rules")
        ),
        transcendence_threshold=ends[TRANSCENDENCE_ID]["threshold"],
        fate=FateRule(fate["dice"], fate["target"], fate["roller"]),
    )
