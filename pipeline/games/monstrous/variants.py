"""The rule values of Monstrous' variants, as the rules engine applies them (from data/monstrous/variants.yaml).

Each variant's ``changes`` are read once into a frozen dataclass, so the
engine never looks a key up in a mapping while it plays:

- :class:`YoungGods`: starting Faith, and the paid re-throw of a Monster that
  hit nothing or left the table;
- :class:`Teams`: gods in teams sharing a God Board (one Faith total, one
  Underworld), each with a deck of their own;
- :class:`Wars`: a campaign of several games whose Faith is added up, with
  the numbered rules in force (Team Wars leaves one out).

Which variants a game is played with is a :class:`Table` (the engine's set-up
options); :func:`variant_rules` fails with ValueError when the data lacks a
variant or a value the engine needs.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Optional

from pipeline.games.monstrous.model import MonstrousModel, Variant

YOUNG_GODS, TEAM, WARS, TEAM_WARS, EPIC = "young-gods", "team", "wars", "team-wars", "epic"
STANDARD = "standard"
HIT_NOTHING, OFF_TABLE_LANDING = "hit_nothing", "off_table"
NO_FINAL_TURNS = "none"
# Monstrous Wars' rules the engine applies, by id (rule 1, rising complexity, is how scenarios are drawn)
SWAP_LOCATION, SWAP_MONSTERS, TOTAL_FAITH, RISING_COMPLEXITY = "swap-location", "swap-monsters", "total-faith", \
    "rising-complexity"


@dataclass(frozen=True)
class YoungGods:
    """Young gods start with some Faith and may pay to throw again a Monster that hit nothing or left the table."""

    starting_faith: int
    rethrow_cost: int
    rethrows_per_turn: int
    rethrow_when: frozenset[str]  # HIT_NOTHING, OFF_TABLE_LANDING


@dataclass(frozen=True)
class Teams:
    """Teams of ``size`` gods sharing one God Board: its Monsters split into one deck per teammate."""

    size: int
    teams_min: int
    teams_max: int
    deck_split: int  # Monsters in each teammate's deck
    setup_underworld: int  # Monsters removed to the Underworld at setup
    first_team_hand: int
    other_teams_hand: int
    final_turns: str  # NO_FINAL_TURNS: the game ends as soon as a team runs out

    def players(self, teams: int) -> int:
        return self.size * teams


@dataclass(frozen=True)
class Wars:
    """A campaign of ``games`` games; ``rules`` are the ids of the numbered Wars rules in force."""

    games: int
    rules: frozenset[str]


@dataclass(frozen=True)
class VariantRules:
    young_gods: YoungGods
    teams: Teams
    wars: Wars
    team_wars: Wars


def _variant(model: MonstrousModel, variant_id: str) -> Variant:
    found = next((v for v in model.variants if v.id == variant_id), None)
    if found is None:
        raise ValueError(f"variants.yaml has no '{variant_id}' variant, which the rules engine plays")
    return found


def _need(changes: Mapping[str, Any], key: str, variant_id: str) -> Any:
    if key not in changes:
        raise ValueError(f"variant {variant_id}: changes.{key} is missing; the rules engine needs it")
    return changes[key]


def variant_rules(model: MonstrousModel) -> VariantRules:
    """The variants' values from the model."""
    young = _variant(model, YOUNG_GODS).changes
    rethrow = _need(young, "rethrow", YOUNG_GODS)
    team = _variant(model, TEAM).changes
    wars = _variant(model, WARS)
    team_wars = _variant(model, TEAM_WARS)
    wars_rules = frozenset(wars.rules)
    return VariantRules(
        young_gods=YoungGods(_need(young, "starting_faith", YOUNG_GODS), rethrow["cost_faith"], rethrow["per_turn"],
                             frozenset(rethrow["when"])),
        teams=Teams(*(_need(team, key, TEAM) for key in (
            "team_size", "teams_min", "teams_max", "deck_split", "setup_underworld", "first_team_hand",
            "other_teams_hand", "final_turns"))),
        wars=Wars(_need(wars.changes, "games", WARS), wars_rules),
        team_wars=Wars(_need(wars.changes, "games", WARS), wars_rules - frozenset(team_wars.excludes_rules)),
    )


@dataclass(frozen=True)
class Table:
    """How one game is set up beyond the seats and Locations: which variants' rules apply.

    ``young_gods``: the seats (god ids; in a team game, player ids) playing as
    young gods. ``teams``: the God Board colours of a team game, in turn order
    (empty: every god plays alone). ``previous_winner``: in a Wars campaign, the
    god (team colour) who won the last game and makes the set-up swaps;
    ``swap_monsters``: whether Wars rule 3 applies (Team Wars leaves it out).
    """

    young_gods: frozenset[str] = frozenset()
    teams: tuple[str, ...] = ()
    previous_winner: Optional[str] = None
    swap_monsters: bool = True

    def as_data(self) -> dict[str, Any]:
        return {"young_gods": sorted(self.young_gods), "teams": list(self.teams),
                "previous_winner": self.previous_winner, "swap_monsters": self.swap_monsters}

    @classmethod
    def from_data(cls, data: Optional[Mapping[str, Any]]) -> "Table":
        if not data:
            return cls()
        return cls(frozenset(data.get("young_gods", ())), tuple(data.get("teams", ())), data.get("previous_winner"),
                   bool(data.get("swap_monsters", True)))
