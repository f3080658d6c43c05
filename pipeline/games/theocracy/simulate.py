"""Play many Theocracy games with simple players and summarise them.

Chance events are sampled with their exact probabilities from a seeded
`random.Random`, so a seed always gives the same games. Two policies:

- ``random``: a uniformly random legal action;
- ``greedy``: a simple heuristic that looks only at what its seat may know
  (its own hand and bid, the table, the revealed die), never at hidden bids.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from enum import Enum

from pipeline.engine import Policy, random_policy
from pipeline.engine import simulate as play_games
from pipeline.games.theocracy.engine import Action, ActionKind, Game, Stage, State, Termination

GREEDY_NUDGES = (-1, 0, 0, 1)  # how far a greedy bid may stray from the die's rank


class PolicyName(str, Enum):
    RANDOM = "random"
    GREEDY = "greedy"


@dataclass(frozen=True)
class Summary:
    """What `simulate` reports."""

    players: int
    games: int
    policy: str
    seed: int
    mean_rounds: float
    endings: dict[str, int]
    win_share: tuple[float, ...]  # per seat; a shared victory splits its game between the winners
    shared_victories: int

    def as_json(self) -> dict[str, object]:
        return {
            "players": self.players,
            "games": self.games,
            "policy": self.policy,
            "seed": self.seed,
            "mean_rounds": self.mean_rounds,
            "endings": dict(self.endings),
            "win_share": list(self.win_share),
            "shared_victories": self.shared_victories,
        }


def _die_worth(state: State, believer: int) -> int:
    die = state.die_on[believer]
    return 0 if die is None else state.die_values[die] or 0


def greedy_policy(state: State, rng: random.Random) -> Action:
    """Bid in proportion to the die, prophesy only a sure-looking win, give and lose cheaply."""
    actions = state.legal_actions()
    seat = state.current_player()
    if state.stage is Stage.BID:
        return _greedy_bid(state, actions, rng)
    if state.stage is Stage.OMEN:
        own = state.bids[seat]
        best = max(state.game.power_values)
        sure = Action(ActionKind.PROPHESY, seat, "win")
        return sure if own == best and sure in actions else Action(ActionKind.PASS)
    if state.stage is Stage.CHOOSE_GIVER:
        return max(actions, key=lambda a: (state.round_score(a.value or 0), rng.random()))
    if state.stage in (Stage.GIVE, Stage.LOSE):
        return min(actions, key=lambda a: _die_worth(state, a.value or 0))
    return actions[0]


def _greedy_bid(state: State, actions: list[Action], rng: random.Random) -> Action:
    """Match the die's rank among the faces with the card's rank in hand, give or take one card.

    The random nudge keeps identical greedy players from always tying.
    """
    faces = state.game.die_faces
    die = state.die_values[state.turn] or faces[0]
    rank = (die - faces[0]) / max(1, faces[-1] - faces[0])
    index = round(rank * (len(actions) - 1)) + rng.choice(GREEDY_NUDGES)
    return actions[min(max(index, 0), len(actions) - 1)]


POLICIES: dict[PolicyName, Policy] = {PolicyName.RANDOM: random_policy, PolicyName.GREEDY: greedy_policy}


def simulate_games(game: Game, games: int, policy: PolicyName, seed: int) -> list[State]:
    """The final states of ``games`` games with every seat using ``policy``, seeded by ``seed``."""
    if games < 1:
        raise ValueError("simulate needs at least one game")
    return list(play_games(game.new_initial_state, POLICIES[policy], games=games, seed=seed))


def simulate(game: Game, games: int, policy: PolicyName, seed: int) -> Summary:
    """Play ``games`` games with every seat using ``policy``, seeded by ``seed``."""
    rounds = 0
    endings: Counter[str] = Counter({t.value: 0 for t in Termination})
    share = [0.0] * game.num_players
    shared = 0
    for final in simulate_games(game, games, policy, seed):
        outcome = final.outcome()
        assert outcome is not None
        rounds += final.rounds_played
        endings[outcome.termination] += 1
        shared += len(outcome.winners) > 1
        for seat in outcome.winners:
            share[seat] += 1 / len(outcome.winners)
    return Summary(
        players=game.num_players,
        games=games,
        policy=policy.value,
        seed=seed,
        mean_rounds=rounds / games,
        endings=dict(endings),
        win_share=tuple(s / games for s in share),
        shared_victories=shared,
    )
