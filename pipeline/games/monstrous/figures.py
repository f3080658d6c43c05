"""Monstrous' rulebook figures: the anatomy of a monster card and a location card."""
from __future__ import annotations

from pipeline.core.documents.figures import Kind, Part, anatomy, inserted
from pipeline.core.documents.standard import SectionOverride
from pipeline.games.monstrous.render import LOCATION_TEMPLATE, MONSTER_TEMPLATE

MONSTER = Kind(
    MONSTER_TEMPLATE,
    "A monster, its unique side",
    (
        Part("name", "Name", "the monster's name."),
        Part("trap", "Trap", "a trap monster's power works when a thrown monster hits it."),
        Part("powers", "Powers", "what the monster does when it hits (its keywords are explained on the player aid)."),
        Part("footer", "God", "the god whose deck the monster belongs to: pattern symbol, name and colour."),
    ),
    pick=lambda card: bool(card.front.context["card"].get("trap")),
)
LOCATION = Kind(
    LOCATION_TEMPLATE,
    "A location",
    (
        Part("name", "Name", "the location's name."),
        Part("faith", "Faith", "what the location is worth at the end of the game."),
        Part("power", "Power", "what the location does for the god who hits it."),
    ),
)



def sections() -> dict[str, SectionOverride]:
    """The rulebook sections that carry a figure, as overrides of their body."""
    return inserted({"monsters": lambda ctx: anatomy(ctx, (MONSTER,)), "locations": lambda ctx: anatomy(ctx, (LOCATION,))})


