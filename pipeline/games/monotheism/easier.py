"""The rulebook's two ways to make Monotheism easier, as options of ``play`` and ``solve``.

Rulebook (Advice): "Two changes you might consider to make the game easier would be to bless your
worshiper at the beginning of the game, or, as a really drastic measure, perhaps even to remove card
#21 from the deck."

* **Without #21**: the game is played with the other gods only (a dealt game has one card fewer; a
  scenario or file that holds #21 loses it).
* **Bless at start** (a ruling): a blessing follows the bless symbol back one state, and a worshiper's
  starting side carries none, so a blessing there could not turn the card and would do nothing. The
  rulebook offers it as help, so the blessing is kept instead: the worshiper's next curse is spent
  undoing it, and only the curse after that turns the card. A worshiper that starts cursed is blessed
  back one state, as any blessing does. Modelled as one more state at the start of each chain, showing
  the starting side: a deck's ``cursed`` counts then name the blessed states unchanged.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from pipeline.games.monotheism.cards import Cards, Worshiper
from pipeline.games.monotheism.engine import Game
from pipeline.games.monotheism.model import Scenario, ScenarioCard

RISKY_GOD = "21"  # "always curses your worshiper when it's unveiled"


@dataclass(frozen=True)
class Easier:
    """Which of the rulebook's easier-game options are on."""

    bless_at_start: bool = False
    without_21: bool = False

    @property
    def any(self) -> bool:
        return self.bless_at_start or self.without_21


def blessed(worshiper: Worshiper) -> Worshiper:
    """``worshiper`` holding a kept blessing: a first state like its starting side, whose curse leads to
    the starting side itself (the old first state, which keeps its own symbols)."""
    start = worshiper.states[0]
    kept = replace(start, bless=None)
    return replace(worshiper, states=(kept, *worshiper.states))


def easier_cards(cards: Cards, options: Easier) -> Cards:
    deities = {god: deity for god, deity in cards.deities.items() if not (options.without_21 and god == RISKY_GOD)}
    worshipers = ({wid: blessed(w) for wid, w in cards.worshipers.items()} if options.bless_at_start
                  else dict(cards.worshipers))
    return Cards(deities, worshipers)


def easier_game(game: Game, options: Easier) -> Game:
    """The engine for ``game``'s cards with ``options`` applied (``game`` itself when none is on)."""
    return Game(easier_cards(game.cards, options)) if options.any else game


def easier_deck(deck: Sequence[ScenarioCard], options: Easier) -> tuple[ScenarioCard, ...]:
    """``deck`` without #21 when that option is on (blessing needs no change to the deck: see above)."""
    return tuple(card for card in deck if not (options.without_21 and card.is_deity and card.ref == RISKY_GOD))


def easier_scenario(scenario: Scenario, options: Easier) -> Scenario:
    deck = easier_deck(scenario.deck, options)
    return scenario if len(deck) == len(scenario.deck) else scenario._replace(deck=deck, card_count=len(deck))
