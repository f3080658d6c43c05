"""The engine kit every rules engine is built on (shaped after OpenSpiel and python-chess).

One contract for the five games' reference engines:

* :class:`State`: one position. ``apply_action`` RETURNS the successor and
  never changes the receiver, so states behave as values (solvers and
  transposition tables keep them safely). ``legal_actions()`` is the only
  source of legal moves; anything else is refused with :class:`IllegalAction`.
* :class:`Decision`: who acts now (a seat, :data:`CHANCE` or :data:`TERMINAL`)
  and the actions open, with exact ``Fraction`` probabilities at chance nodes.
* :class:`Outcome`: how a finished game ended (termination, winners, scores).
* :class:`Event`: what an action caused, recorded on the state it produced.
* Serialisation: actions to and from short strings; a state to plain
  JSON-able data (its setup and the actions since) and back (:func:`restore`).
* :class:`SetUp`: one way to start a game (what a game's spec lists as its ``engine``).
* :mod:`~pipeline.engine.play`: one seeded play loop (``play``, ``playout``) and one
  :data:`Policy` interface for every game.
"""
from __future__ import annotations

from pipeline.engine.play import Policy, by_seat, play, playout, random_policy, sample_chance
from pipeline.engine.setup import SetUp
from pipeline.engine.state import InPlaceState, Restorable, State, replay, restore
from pipeline.engine.types import CHANCE, TERMINAL, Decision, Event, IllegalAction, Outcome

__all__ = [
    "CHANCE", "TERMINAL", "Decision", "Event", "IllegalAction", "InPlaceState", "Outcome", "Policy", "Restorable", "SetUp", "State",
    "by_seat", "play", "playout", "random_policy", "replay", "restore", "sample_chance",
]
