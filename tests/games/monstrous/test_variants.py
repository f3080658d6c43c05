"""Monstrous variants in the rules engine: one test per rulebook statement about Young Gods, Team and Wars.

Each test quotes the sentence of the rulebook ('Monstrous Variants') it holds the engine to; where the
rulebook leaves room the engine follows data/monstrous/rulings.yaml (the ruling is named).
"""
from __future__ import annotations

import random
from types import MappingProxyType
from typing import Any, Optional

import pytest

from pipeline.data.dataset import default_data_root, load_game
from pipeline.engine import CHANCE, play, playout, random_policy, restore
from pipeline.games.monstrous import engine
from pipeline.games.monstrous.balance import VARIANTS, starter
from pipeline.games.monstrous.campaign import PLAY, SCENARIO, Campaign, WarsGame
from pipeline.games.monstrous.engine import KEEP, EngineError, Game, Landing, State, Task
from pipeline.games.monstrous.model import build
from pipeline.games.monstrous.variants import Table
from pipeline.games.registry import spec as spec_of

YOUNG = frozenset({"blue", "green"})


@pytest.fixture(scope="module")
def game() -> Game:
    return Game(build(load_game(default_data_root(), spec_of("monstrous"))))


def until_decision(state: Any) -> Any:
    """Settle chance events (the first outcome each time) up to the next player's decision."""
    while state.current_player() == CHANCE:
        state = state.apply_action(state.legal_actions()[0])
    return state


def land(state: Any, landing: Landing) -> Any:
    """A throw's landing, declared (a real throw) and applied."""
    return state.condition(landing).apply_action(landing)


def board_state(game: Game, *, seats: tuple[str, ...], hands: dict[str, list[str]], locations: tuple[str, ...],
                decks: Optional[dict[str, list[str]]] = None, faith: Optional[dict[str, int]] = None,
                table: Optional[list[tuple[str, str, tuple[str, ...]]]] = None, variant: Table = Table()) -> State:
    """A position set up by hand at the first seat's turn (a team game when ``variant.teams``)."""
    team_of = {p: t for t in variant.teams for p in game.team_players((t,))}
    gods = list(dict.fromkeys(team_of.get(p, p) for p in seats))
    board = engine.Board(
        seats=seats, active=0, faith={g: (faith or {}).get(g, 0) for g in gods},
        hands={p: list(hands.get(p, [])) for p in seats},
        decks={p: engine.Deck(top=list((decks or {}).get(p, []))) for p in seats},
        underworlds={g: [] for g in gods}, table={c: engine.Placed(s, l) for c, s, l in (table or [])},
        locations=locations, variant=variant, team_of=MappingProxyType(team_of),
        home=MappingProxyType({c: p for p in seats for c in hands.get(p, []) + (decks or {}).get(p, [])}))
    board.tasks = [Task("start_turn")]
    return State.from_board(game, board)


# ================================================================ Young gods Monstrous
def test_young_gods_each_start_with_3_faith(game: Game) -> None:
    """'Young gods each start with 3 Faith.' (and only the young gods: the rules are used 'as you like')"""
    state = game.new_initial_state(("blue", "orange", "green"), table=Table(young_gods=YOUNG))
    assert state.board.faith == {"blue": 3, "orange": 0, "green": 3}
    assert game.new_initial_state(("blue", "orange")).board.faith == {"blue": 0, "orange": 0}


def young_throw(game: Game, landing: Landing, *, faith: int = 3, young: bool = True) -> State:
    """Blue (a young god unless ``young`` is false) throws its Giant and it lands as ``landing``."""
    state = board_state(game, seats=("blue", "orange"), hands={"blue": ["blue-giant", "blue-harpy"]},
                        locations=("thebes", "olympia"), faith={"blue": faith},
                        variant=Table(young_gods=frozenset({"blue"} if young else ())))
    return land(state.apply_action("throw blue-giant unique"), landing)


@pytest.mark.parametrize("landing", [Landing("unique"), Landing("unique", engine.OFF_TABLE)], ids=["hit-nothing", "off-table"])
def test_young_god_may_pay_1_faith_to_throw_again(game: Game, landing: Landing) -> None:
    """'Once per god's turn, a young god can spend 1 Faith to pick up a monster they threw that hit nothing,
    or lands off the table, and throw it again.' (ruling young-rethrow-timing: decided before Throw Step 2)"""
    state = young_throw(game, landing)
    assert state.pending_kind() == "rethrow" and state.current_player() == 0
    assert state.legal_actions() == [KEEP, "rethrow unique", "rethrow common"]
    state = state.apply_action("rethrow common")
    assert state.board.faith["blue"] == 2
    assert "blue-giant" not in state.board.table and "blue-giant" not in state.board.underworlds["blue"]
    assert state.current_player() == CHANCE and state.pending_kind() == engine.LANDING
    state = land(state, Landing("common", locations=("thebes",)))  # the new throw is resolved as usual
    assert state.board.table["blue-giant"] == engine.Placed("common", ("thebes",))
    assert state.board.faith["blue"] == 2 + 1 + 2  # Thebes' power (1 Monster hitting it) and its 2 Faith


def test_young_god_rethrows_once_per_turn(game: Game) -> None:
    """'Once per god's turn': a second miss in the same turn cannot be thrown again."""
    state = young_throw(game, Landing("unique")).apply_action("rethrow unique")
    state = land(state, Landing("unique"))
    assert state.pending_kind() != "rethrow" and state.board.faith["blue"] == 2


def test_young_god_rethrow_comes_back_next_turn(game: Game) -> None:
    """Once per god's turn: the count starts again on the god's next turn."""
    state = young_throw(game, Landing("unique")).apply_action("rethrow unique")
    state = land(state, Landing("unique"))
    state = until_decision(state)  # blue draws and passes; orange has nothing to throw
    assert state.legal_actions() == [engine.END_TURN_ACTION]
    state = until_decision(state.apply_action(engine.END_TURN_ACTION))
    assert state.active == "blue" and not state.board.rethrows
    state = land(state.apply_action("throw blue-harpy unique"), Landing("unique"))
    assert state.pending_kind() == "rethrow"


@pytest.mark.parametrize("landing, faith, young", [
    (Landing("unique", locations=("thebes",)), 3, True),  # it hit a Location
    (Landing("unique", engine.LIGHTNING), 3, True),  # struck by lightning: a penalty, not a landing
    (Landing("unique"), 0, True),  # no Faith to spend
    (Landing("unique"), 3, False),  # not a young god
], ids=["hit-a-location", "lightning", "no-faith", "not-young"])
def test_no_rethrow_otherwise(game: Game, landing: Landing, faith: int, young: bool) -> None:
    state = young_throw(game, landing, faith=faith, young=young)
    assert state.pending_kind() != "rethrow"


def test_kept_miss_resolves_as_usual(game: Game) -> None:
    """Declining the re-throw: the throw goes on to Throw Step 2 as in the standard game."""
    state = young_throw(game, Landing("unique")).apply_action(KEEP)
    assert state.board.faith["blue"] == 3 and state.board.table["blue-giant"].locations == ()


# ================================================================ Team Monstrous
@pytest.mark.parametrize("teams", [1, 6])
def test_team_play_is_for_2_to_5_teams(game: Game, teams: int) -> None:
    """'Play with 2 - 5 teams of 2 gods per team.'"""
    colours = (game.gods * 2)[:teams]
    with pytest.raises(EngineError, match="Team Monstrous is for 2-5 teams of 2 gods"):
        game.new_team_state(colours)


@pytest.mark.parametrize("teams", [2, 3, 4, 5])
def test_each_teammate_gets_a_deck_of_6_and_the_first_team_draws_2(game: Game, teams: int) -> None:
    """'Each team takes 1 God Board and shuffles and divides its matching Monster deck in 2, giving 1 deck of
    6 Monsters to each god in the team.' 'The youngest god's Team goes first. Each god on that team draws 2
    Monsters from their deck. Then other team's gods draw 3 Monsters from their decks.'"""
    state = until_decision(game.new_team_state(game.gods[:teams]))
    b = state.board
    assert len(b.seats) == 2 * teams and set(b.faith) == set(game.gods[:teams]) == set(b.underworlds)
    for seat, player in enumerate(b.seats):
        team = b.team_of[player]
        mine = b.hands[player] + b.decks[player].cards()
        assert len(mine) == 6 and all(game.owner(c) == team for c in mine)
        assert all(b.home[c] == player for c in mine)
        assert len(b.hands[player]) == (2 if seat < 2 else 3)
    assert not any(b.underworlds.values())  # the whole deck is split: nothing goes to the Underworld
    assert state.current_player() == 0 and state.pending_kind() == "throw"  # the first team starts


def team_turn(game: Game) -> State:
    """Green's team (green-1, green-2) against blue's, at green's turn."""
    teams = Table(teams=("green", "blue"))
    return board_state(game, seats=game.team_players(teams.teams), locations=("thebes", "olympia"),
                       hands={"green-1": ["green-minotaur", "green-harpy"], "green-2": ["green-giant", "green-gryphon"],
                              "blue-1": ["blue-siren"]},
                       decks={"green-1": ["green-siren"], "green-2": ["green-dragon"], "blue-1": ["blue-dragon"]},
                       variant=teams)


def test_teammates_throw_together_then_choose_the_order(game: Game) -> None:
    """'Throw their cards together & choose which order to fully resolve their throws during each Throw Step'
    (ruling team-throw-together: both land before either is resolved; then each is resolved in full)."""
    state = team_turn(game)
    assert state.current_player() == 0 and all(a.startswith("throw green-minotaur") or a.startswith("throw green-harpy")
                                               for a in state.legal_actions())
    state = land(state.apply_action("throw green-minotaur unique"), Landing("unique", locations=("thebes",)))
    assert state.current_player() == 1  # the teammate throws before anything is resolved
    assert all(a.split()[1] in ("green-giant", "green-gryphon") for a in state.legal_actions())
    state = land(state.apply_action("throw green-giant unique"), Landing("unique", hits=("green-minotaur",),
                                                                          locations=("thebes",)))
    assert state.board.faith["green"] == 0 and state.pending_kind() == "resolve" and state.current_player() == 0
    assert state.legal_actions() == ["resolve green-minotaur", "resolve green-giant"]
    state = state.apply_action("resolve green-giant")  # the Giant first: its hit sends the Minotaur home
    assert "green-minotaur" in state.board.hands["green-1"]  # so the Minotaur, resolved next, hits nothing
    assert state.board.faith["green"] == 1 + 1 + 2  # Giant's power, Thebes' power, Thebes' Faith
    assert state.pending_kind() == "share"  # both throws are done: Step 7


def test_teammates_share_one_faith_pool_and_underworld(game: Game) -> None:
    """'Share a common Underworld' and 'Share 1 common Faith pool': both teammates' gains and losses are the team's."""
    state = team_turn(game)
    state = land(state.apply_action("throw green-minotaur unique"), Landing("unique", engine.OFF_TABLE))
    state = land(state.apply_action("throw green-giant unique"), Landing("unique", locations=("thebes",)))
    state = state.apply_action("resolve green-giant")
    assert state.board.underworlds == {"green": ["green-minotaur"], "blue": []}
    assert state.board.faith == {"green": 1 + 2, "blue": 0}
    assert "green-1" not in state.board.faith and "green-2" not in state.board.faith


def test_teammates_share_extra_throws(game: Game) -> None:
    """'Share extra throws gained ... between each other as they like': a throw gained by one teammate's
    Monster may be used on the other teammate's card (the team chooses)."""
    state = team_turn(game)
    state = land(state.apply_action("throw green-minotaur unique"), Landing("unique", locations=("olympia",)))
    state = land(state.apply_action("throw green-giant unique"), Landing("unique"))
    state = state.apply_action("resolve green-minotaur")  # Olympia and the Minotaur: 2 throws for the team
    assert state.board.throws == 2 - 1  # the Giant resolved too; the first extra throw is being chosen
    assert state.pending_kind() == "throw" and state.current_player() == 0  # the team chooses
    assert {a.split()[1] for a in state.legal_actions()} == {"green-harpy", "green-gryphon"}
    state = land(state.apply_action("throw green-gryphon unique"), Landing("unique"))  # green-2's card
    assert state.board.hands["green-2"] == [] and state.board.throws == 0
    assert [a.split()[1] for a in state.legal_actions()] == ["green-harpy"] * 2  # the second one: green-1's card


def test_teammates_draw_from_their_own_decks_and_share_what_they_draw(game: Game) -> None:
    """'Draw only from their own Monster decks' and 'Share ... cards drawn between each other as they like'
    (rulings team-step-seven and team-shared-draws: each teammate draws at Step 7 and may hand the card on)."""
    state = team_turn(game)
    state = land(state.apply_action("throw green-minotaur unique"), Landing("unique", engine.OFF_TABLE))
    state = land(state.apply_action("throw green-giant unique"), Landing("unique", engine.OFF_TABLE))
    state = state.apply_action("resolve green-giant")
    assert state.pending_kind() == "share" and state.current_player() == 0
    assert state.board.hands["green-1"] == ["green-harpy", "green-siren"]  # from green-1's own deck
    assert state.legal_actions() == [KEEP, "give green-2"]
    state = state.apply_action("give green-2")
    assert state.pending_kind() == "share" and state.current_player() == 1
    assert state.board.hands["green-2"] == ["green-gryphon", "green-siren", "green-dragon"]  # its own deck's Dragon
    state = state.apply_action(KEEP)
    assert state.active == "blue-1"


def test_first_team_out_ends_the_game_without_extra_turns(game: Game) -> None:
    """'The first team to have no cards in either god's hand and decks ends the game. Other god teams do not
    get an extra turn like they do in the regular game.'"""
    teams = Table(teams=("green", "blue"))
    state = board_state(game, seats=game.team_players(teams.teams), locations=("thebes",),
                        hands={"green-1": ["green-harpy"], "blue-1": ["blue-siren"], "blue-2": ["blue-giant"]},
                        variant=teams)
    state = land(state.apply_action("throw green-harpy unique"), Landing("unique", locations=("thebes",)))
    assert state.is_terminal()  # blue never throws again
    assert state.board.end_by == "green"


def test_team_totals_decide_the_winner(game: Game) -> None:
    """'Calculate end game scores as usual but with team totals. The team with the most Faith at the end of the
    game wins.' Both teammates of the winning team win, with the team's score."""
    teams = Table(teams=("green", "blue"))
    state = board_state(game, seats=game.team_players(teams.teams), locations=("thebes",), faith={"blue": 4},
                        hands={"green-1": ["green-harpy"], "blue-1": ["blue-siren"]}, decks={"blue-2": ["blue-giant"]},
                        variant=teams)
    state = land(state.apply_action("throw green-harpy unique"), Landing("unique", locations=("thebes",)))
    outcome = state.outcome()
    assert outcome.scores == (3, 3, 4 - 2, 4 - 2)  # green: Thebes 1 + 2; blue: 4 less 2 Monsters left
    assert outcome.winners == (0, 1)


def test_random_team_games_follow_the_contract(game: Game) -> None:
    for teams in (2, 5):
        final = list(play(game.new_team_state(game.gods[:teams]), random_policy, random.Random(teams)))[-1]
        assert final.is_terminal() and final.card_count() == 12 * teams
        assert restore(game, final.to_data()).key() == final.key()


# ================================================================ Monstrous Wars
def played_game_one(game: Game, wars: WarsGame, seed: int) -> Campaign:
    """A campaign played at random up to the first decision of its second game."""
    for state in play(wars.new_initial_state(), random_policy, random.Random(seed)):
        if state.number == 1 and state.stage == PLAY and state.current_player() != CHANCE:
            return state
    raise AssertionError("the campaign ended before its second game")


def test_wars_is_3_games_in_a_row_with_the_faith_totalled(game: Game) -> None:
    """'Play 3 games in a row' ... 'Note the Faith gained by each god in each game and total the Faith after the
    agreed number of games. The God with the most Faith after the final game is the "MOST MONSTROUS GOD OF WAR".'
    (ruling wars-game-faith: a game's Faith is its final score)"""
    wars = WarsGame(game, seats=("blue", "orange", "green"))
    final = list(play(wars.new_initial_state(), random_policy, random.Random(3)))[-1]
    assert final.is_terminal() and len(final.results) == 3
    totals = tuple(sum(scores) for scores in zip(*final.results))
    outcome = final.outcome()
    assert outcome.scores == totals and outcome.termination == "total-faith"
    assert outcome.winners == tuple(s for s, t in enumerate(totals) if t == max(totals))
    assert restore(wars, final.to_data()).key() == final.key()


def test_wars_scenarios_rise_in_complexity(game: Game) -> None:
    """Rule 1: 'Select Location scenarios in increasing complexity each round.'"""
    wars = WarsGame(game, seats=("blue", "orange"))
    levels = [s.difficulty for s in game.model.scenarios]
    state = wars.new_initial_state()
    seen = []
    for number in range(3):
        assert state.stage == SCENARIO and state.current_player() == CHANCE
        options = [a.split(" ", 1)[1] for a in state.legal_actions()]
        seen.append({levels[[s.id for s in game.model.scenarios].index(o)] for o in options})
        state = state.apply_action(state.legal_actions()[0])
        while state.number == number and not state.is_terminal():
            state = state.apply_action(random_policy(state, random.Random(number)) if state.current_player() != CHANCE
                                       else state.legal_actions()[0])
    assert seen == [{"basic"}, {"intermediate"}, {"advanced"}]


def test_wars_winner_may_swap_a_location(game: Game) -> None:
    """Rule 2: 'During setup, the winner of the previous game may swap 1 Location of their choice with another
    Location from outside the scenario.'"""
    wars = WarsGame(game, seats=("blue", "orange"))
    state = played_game_one(game, wars, seed=5)
    winner = state.winner
    assert winner is not None and state.inner.pending_kind() == "swap"
    assert state.current_player() == wars.seats.index(winner)
    locations = state.inner.board.locations
    outside = [loc for loc in game.locations if loc not in locations]
    assert state.legal_actions() == [KEEP] + [f"swap {a} {c}" for a in locations for c in outside]
    state = state.apply_action(f"swap {locations[0]} {outside[0]}")
    assert state.inner.board.locations == (outside[0],) + locations[1:]


def test_wars_winner_may_swap_monsters_for_every_god(game: Game) -> None:
    """Rule 3: 'During setup, the winner of the previous game can swap a Monster in their deck with a Monster
    from their Underworld, and a Monster from each other god's deck with a Monster in that god's Underworld.'
    (ruling wars-swap-order: their own first, then the others in turn order)"""
    wars = WarsGame(game, seats=("blue", "orange"))
    state = played_game_one(game, wars, seed=5).apply_action(KEEP)  # keep the Locations
    while state.current_player() == CHANCE:  # the setup removals
        state = state.apply_action(state.legal_actions()[0])
    winner, other = state.winner, next(g for g in wars.seats if g != state.winner)
    for god in (winner, other):
        b = state.inner.board
        assert state.inner.pending_kind() == "swap"
        assert state.current_player() == wars.seats.index(winner)
        deck, underworld = list(b.decks[god].middle), list(b.underworlds[god])
        assert len(underworld) == 2 and all(game.owner(c) == god for c in deck + underworld)
        state = state.apply_action(f"swap {deck[0]} {underworld[0]}")
        after = state.inner.board
        assert after.underworlds[god][0] == deck[0] and underworld[0] in after.decks[god].cards()
    assert state.current_player() == CHANCE and state.inner.pending_kind() == "draw"  # then the hands are drawn


def test_team_wars_leaves_out_the_monster_swaps(game: Game) -> None:
    """'Monstrous Team Wars: Play with both Monstrous Team and Monstrous Wars rules, but without rule 3 from
    Monstrous Wars.'"""
    wars = WarsGame(game, teams=("blue", "orange"))
    assert wars.rules.games == 3 and "swap-monsters" not in wars.rules.rules and "swap-location" in wars.rules.rules
    state = played_game_one(game, wars, seed=2)
    assert state.winner is not None and state.inner.pending_kind() == "swap"  # rule 2 still holds
    state = until_decision(state.apply_action(KEEP))
    assert state.inner.pending_kind() == "throw"  # no Monster swap: the team split and the deal came straight on


def test_every_variant_starts_and_plays_to_the_end(game: Game) -> None:
    for variant in VARIANTS:
        players = 4 if variant in ("team", "team-wars") else 3
        new_state = starter(game, players, variant)

        def finals() -> list[Any]:
            rng = random.Random(1)
            return [playout(new_state(), random_policy, rng) for _ in range(2)]

        first = finals()
        assert all(f.is_terminal() for f in first)
        assert [f.key() for f in finals()] == [f.key() for f in first]  # seeded


@pytest.mark.parametrize("players, variant", [(5, "team"), (12, "team"), (6, "standard"), (1, "wars")])
def test_simulate_refuses_counts_the_rules_do_not_allow(game: Game, players: int, variant: str) -> None:
    with pytest.raises(ValueError):
        starter(game, players, variant)
