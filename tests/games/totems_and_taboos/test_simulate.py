"""Seeded solo games: the look-ahead player wins easy games and the difficulties are ordered."""
from __future__ import annotations

import random
from typing import Optional

import pytest

from pipeline.engine import Policy, playout, random_policy, restore
from pipeline.games.totems_and_taboos.balance import MAX_TURNS, starting_with
from pipeline.games.totems_and_taboos.engine import Game, State
from pipeline.games.totems_and_taboos.lookahead import lookahead_policy
from pipeline.games.totems_and_taboos.simple import simple_policy
from tests.games.totems_and_taboos.test_engine import the_model

ORDERING_SLACK = 0.02  # tolerance on win shares: a near-tie between two hard modes is not a reversal
EASY_MOST = 0.5  # 'an easy to win mode': the look-ahead player wins most easy games

# Each statistical claim below is made twice: on a full seeded run (slow, left out of `make test`) and on a
# short seeded run that `make test` plays. The short run's seed is the full run's when that run already shows the
# claim, else the first seed whose run does (searched, as HARD_WINS's are): deterministic, so any change to the
# engine or the players that plays other games is checked against the claim again, and a change that breaks it on
# the full run is seen by `make test-all`.


def solo_games(difficulty: str, games: int, seed: int, policy: Policy, colour: Optional[str] = None) -> list[State]:
    """The final states of ``games`` solo games, one ``random.Random(seed)`` driving them in order, cut off after
    the study's MAX_TURNS turns; ``colour`` fixes the starting colour (default: the player chooses)."""
    game = Game.solo_game(the_model(), difficulty)
    chosen = policy if colour is None else starting_with(colour, policy)
    rng = random.Random(seed)
    return [playout(game.new_initial_state(), chosen, rng, until=lambda s: s.turns >= MAX_TURNS) for _ in range(games)]


def wins(finals: list[State]) -> int:
    return sum(1 for f in finals if f.outcome() is not None and f.outcome().winners)


def mean_turns(finals: list[State]) -> float:
    return sum(f.turns for f in finals) / len(finals)


@pytest.mark.parametrize(("games", "seed", "easy_most", "normal_wins"), [
    pytest.param(8, 11, 0.0, 0, id="short"),
    pytest.param(60, 2024, EASY_MOST, 1, id="full", marks=pytest.mark.slow)])
def test_solo_difficulties_are_ordered(games: int, seed: int, easy_most: float, normal_wins: int) -> None:
    """Seeded, with the look-ahead player: 'Try this easy to win mode' (8.5) wins easy games (most of them on the
    full run), some normal ones, and easy >= normal >= hard in win share and length. The full run is slow; the
    short run (8 games, too few to hold 'most' or a normal win at 25%) checks the order fast."""
    runs = {d: solo_games(d, games, seed, lookahead_policy) for d in ("easy", "normal", "hard")}
    share = {d: wins(finals) / games for d, finals in runs.items()}
    assert share["easy"] > easy_most and wins(runs["normal"]) >= normal_wins
    assert share["easy"] + ORDERING_SLACK >= share["normal"]
    assert share["normal"] + ORDERING_SLACK >= share["hard"]
    assert mean_turns(runs["easy"]) > mean_turns(runs["normal"]) > mean_turns(runs["hard"])
    assert all(f.outcome() is not None for finals in runs.values() for f in finals)  # none cut off


@pytest.mark.parametrize(("games", "seed"), [pytest.param(4, 10, id="short"),
                                             pytest.param(60, 7, id="full", marks=pytest.mark.slow)])
def test_the_simple_player_never_beats_the_look_ahead_on_easy(games: int, seed: int) -> None:
    """The full run is slow; the short run checks it fast."""
    simple, strong = (wins(solo_games("easy", games, seed, p)) for p in (simple_policy, lookahead_policy))
    assert strong >= simple and strong > 0


def total_cards(s: State) -> int:
    in_hands = sum(len(r.hand) for r in s.religions)
    return sum(sum(d.values()) for d in s.decks.values()) + sum(sum(d.values()) for d in s.discards.values()) + in_hands


def test_a_card_in_play_when_the_game_ends_reaches_its_discard() -> None:
    """Found by random play: a build that won the game mid-card dropped the card being played."""
    start = Game.multiplayer(the_model(), 2).new_initial_state()
    final = playout(start, random_policy, random.Random(191824))
    assert final.is_terminal() and total_cards(final) == total_cards(start)


def test_starting_with_fixes_the_starting_colour() -> None:
    finals = solo_games("easy", 2, 4, simple_policy, colour="orange")
    assert len(finals) == 2 and all(f.start_colours == ["orange"] for f in finals)


def test_the_look_ahead_fears_the_die_as_the_rules_do() -> None:
    """The look-ahead's loss estimate makes the die's own test: 'there are not enough souls to give that passive
    religion its resources' (8.4) asks for the rolled colour's whole starting resources, and a religion with no
    blocks left gains nothing (ruling)."""
    from pipeline.games.totems_and_taboos.lookahead import loss_chance, survival

    s = Game.solo_game(the_model(), "hard").new_initial_state()
    s.pile = 0
    assert loss_chance(s) == 1.0  # every package needs souls
    s.pile = 3  # yellow 3, blue 3, purple 2 and red's 3 rolled fit; green's 4 and orange's 4 do not
    assert loss_chance(s) == pytest.approx(2 / 6)
    s.religions[s.passive_seat("green")].tower.clear()
    assert loss_chance(s) == pytest.approx(1 / 6)  # a gone religion gains nothing: only orange is short
    assert survival(s, 2) < survival(s, 1) == pytest.approx(5 / 6)  # a second roll on what is left: riskier


# Every colour viable on easy: below the lowest 95% Wilson lower bound of the 300-game table in docs/balance.md
# (blue 166/300: 55.3%, interval 49.7-60.9), with room for a 60-game run's wider spread.
VIABLE_SHARE = 0.45


@pytest.mark.parametrize(("games", "seed", "bar"), [pytest.param(3, 11, 1 / 3, id="short"),
                                                    # 15 games per colour were too few to hold the bar
                                                    pytest.param(60, 16, VIABLE_SHARE, id="full",
                                                                 marks=pytest.mark.slow)])
def test_every_starting_colour_wins_easy_games(games: int, seed: int, bar: float) -> None:
    """'Try this easy to win mode to get to know the cards' (8.5): whichever colour you start with, the
    look-ahead player wins easy games (at least VIABLE_SHARE of a seeded run per colour). The full run (60 games per
    colour) is slow; the short run (3 games per colour) checks that each colour wins one."""
    for colour in the_model().colour_ids:
        won = wins(solo_games("easy", games, seed, lookahead_policy, colour))
        assert won >= bar * games, f"{colour}: {won} of {games} easy games won"


# (starting colour, seed) of a look-ahead game won on hard (the first seed that wins, searched), for every starting
# colour: with 8.3 and 8.4 as written, the cards tuned in issue 29 make hard rare but possible from each one
# (docs/balance.md).
HARD_WINS = (("yellow", 22), ("green", 4), ("blue", 4), ("purple", 7), ("red", 0), ("orange", 7))


@pytest.mark.parametrize("colour, seed", HARD_WINS)
def test_a_hard_game_can_be_won_and_replayed(colour: str, seed: int) -> None:
    """'Highway to hell ... Few have succeeded in this challenging mode' (8.5): a seeded look-ahead game wins on
    hard, and its recorded actions replay to the same win on a fresh game."""
    game = Game.solo_game(the_model(), "hard")
    [final] = solo_games("hard", 1, seed, lookahead_policy, colour)
    assert final.outcome() is not None and final.outcome().won_by(0)
    replayed = restore(game, final.to_data())
    assert replayed.outcome() == final.outcome() and len(replayed.religions[0].tower) == game.win_level


STALL_GAMES = 6  # seeded multiplayer games per player count (the stall hit 40-87% of games: six miss it under 5%)


@pytest.mark.parametrize("policy, seed", [(simple_policy, 16),
                                           # seed 3: its first game was cut off when look-ahead gods played by
                                           # the simple player's greedy rules alone (12% of 4-player games)
                                           (lookahead_policy, 3)], ids=["simple", "lookahead"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_gods_finish_their_multiplayer_games(players: int, policy: Policy, seed: int) -> None:
    """'The first player to reach six levels wins the game, immediately' (4): seated players reach it before the
    200-turn cut-off in every game of a seeded run (simple players once stalled with the whole pile turned into
    servants, or into clerics and shrines, in 40-87% of games; look-ahead players, seated, in 12%)."""
    game = Game.multiplayer(the_model(), players)
    rng = random.Random(seed)
    for _ in range(STALL_GAMES):
        final = playout(game.new_initial_state(), policy, rng, until=lambda s: s.turns >= MAX_TURNS)
        assert final.outcome() is not None and final.outcome().winners, f"{players} players: cut off at {final.turns}"


def test_a_god_with_only_servants_promotes_one_to_a_cleric() -> None:
    """'When a cleric dies, it becomes a shrine' and a skipped turn may 'Promote one of your servants to become a
    cleric' (2, 7.5): with the pile empty, servants to spare and shrines missing, the simple player promotes
    rather than play an empty turn (a servant beyond every level's need is worth less than a shrine-to-be)."""
    from pipeline.games.totems_and_taboos import engine as en
    from pipeline.games.totems_and_taboos.engine import Action

    s = Game.multiplayer(the_model(), 2).new_initial_state()
    while s.phase != en.START:
        s = s.apply_action(s.legal_actions()[0])
    s = s.clone()
    s.pile = 0
    r = s.religions[s.current]
    r.clerics, r.clerics_used, r.servants, r.servants_used, r.shrines, r.hand = 0, 0, 12, 0, 0, []
    s = s.resettled()  # the position as edited, its decision made afresh
    assert Action(en.A_SKIP, ("promote",)) in s.legal_actions()
    assert simple_policy(s, random.Random(1)) == Action(en.A_SKIP, ("promote",))
