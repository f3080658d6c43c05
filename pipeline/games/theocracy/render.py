"""Theocracy's print sheet: each player's five power cards and four believers, backs in the player's colour.

A player's power cards are bid face down from the hand, so the five share one
back (a deck of their own); each house shows its colour with its emblem and
its name.
"""
from __future__ import annotations

from dataclasses import asdict

from pipeline.cards.plan import ColourKey, Face, PrintCard
from pipeline.data.dataset import GameData
from pipeline.games.theocracy.model import Player, TheocracyModel

POWER_TEMPLATE = "theocracy/power.svg.j2"
BELIEVER_TEMPLATE = "theocracy/believer.svg.j2"
BACK_TEMPLATE = "theocracy/back.svg.j2"
POWER_KIND, BELIEVER_KIND = "Power", "Believer"
HOUSE_FAMILY = "house"


def house_key(player: Player) -> ColourKey:
    return ColourKey(HOUSE_FAMILY, player.id, player.emblem, player.name)


def _back(player: Player, kind: str) -> Face:
    return Face(BACK_TEMPLATE, {"player": asdict(player), "kind": kind})


def print_cards(game: GameData[TheocracyModel]) -> list[PrintCard]:
    """Power cards then believers, player by player in seating order."""
    model = game.model
    cards: list[PrintCard] = []
    for player in sorted(model.players, key=lambda p: p.order):
        context = asdict(player)
        for power in sorted((c for c in model.power_cards if c.player == player.id), key=lambda c: c.value):
            front = Face(POWER_TEMPLATE, {"card": asdict(power), "player": context})
            cards.append(
                PrintCard(power.id, power.title, front, _back(player, POWER_KIND), deck=f"{player.id}-power", colours=(house_key(player),))
            )
        for believer in model.believers_of(player.id):
            front = Face(BELIEVER_TEMPLATE, {"card": asdict(believer), "player": context})
            cards.append(
                PrintCard(
                    believer.id,
                    believer.name,
                    front,
                    _back(player, BELIEVER_KIND),
                    deck=f"{player.id}-believers",
                    colours=(house_key(player),),
                )
            )
    return cards
