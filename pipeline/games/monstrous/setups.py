"""Monstrous' engine as the game contract names it: every player count, the variants and the Wars campaigns."""
from __future__ import annotations

from functools import partial

from pipeline.engine import SetUp
from pipeline.games.monstrous.campaign import WarsGame
from pipeline.games.monstrous.engine import Game, State
from pipeline.games.monstrous.model import MonstrousModel
from pipeline.games.monstrous.variants import Table

CAMPAIGN_MAX_ACTIONS = 20_000  # a campaign is several games long
YOUNG_GODS_PLAYERS = 3


def set_ups(model: MonstrousModel) -> list[SetUp]:
    """A game at each player count; Young Gods at three; the team variant at its fewest and most teams;
    a Wars campaign for two gods, and one for two teams with a young god."""
    game = Game(model)
    rules, teams = game.rules, game.variants.teams
    found = [SetUp(f"{n}p", game, partial(_gods_state, game, n)) for n in range(rules.min_players, rules.max_players + 1)]
    young = Table(young_gods=frozenset(game.gods[:YOUNG_GODS_PLAYERS]))
    found.append(SetUp(f"young-gods-{YOUNG_GODS_PLAYERS}p", game,
                       lambda seed: game.new_initial_state(game.gods[:YOUNG_GODS_PLAYERS], table=young)))
    for count in (teams.teams_min, teams.teams_max):
        found.append(SetUp(f"team-{teams.players(count)}p", game, partial(_teams_state, game, count)))
    wars = WarsGame(game, seats=game.gods[:2])
    found.append(SetUp("wars-2p", wars, lambda seed: wars.new_initial_state(), max_actions=CAMPAIGN_MAX_ACTIONS))
    first_player = game.team_players(game.gods[:2])[0]
    team_wars = WarsGame(game, teams=game.gods[:2], young_gods=frozenset({first_player}))
    found.append(SetUp("team-wars-4p", team_wars, lambda seed: team_wars.new_initial_state(),
                       max_actions=CAMPAIGN_MAX_ACTIONS))
    return found


def _gods_state(game: Game, gods: int, seed: int) -> State:
    """A game of the first ``gods`` gods (the seed plays no part: the deal is the engine's chance nodes)."""
    return game.new_initial_state(list(game.gods[:gods]))


def _teams_state(game: Game, teams: int, seed: int) -> State:
    """A team game of the first ``teams`` God Boards."""
    return game.new_team_state(game.gods[:teams])
