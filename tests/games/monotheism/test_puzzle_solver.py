"""The deciding solver: hand-built decks with known answers, proofs cross-checked by a plain exhaustive
search, every technique turned off alone giving the same answers, and the same answers on two processes."""
from __future__ import annotations

import functools
from dataclasses import replace
from types import SimpleNamespace

import pytest

from pipeline.data.dataset import default_data_root, load_game
from pipeline.games.monotheism import decks, solver
from pipeline.games.monotheism.engine import State
from pipeline.games.monotheism.play import Loaded, load
from pipeline.games.monotheism.positions import Features, result
from pipeline.games.monotheism.search import FULL_GAME, Beam, BeamSetting, DepthFirst, Techniques, jitter
from pipeline.games.monotheism.solver import space_for
from pipeline.games.monotheism.table import PositionTable, fingerprint
from pipeline.games.registry import spec as spec_of

from .helpers import NEXT, THIS, deity, game, half, start, worshiper

ONES = (1, 1)  # every submerge takes one card: the lines of these decks are easy to follow by hand
CONSUME_NEXT = {"do": [{"consume": {"target": NEXT}}]}
MAY_CONSUME_NEXT = {"do": [{"consume": {"target": NEXT, "optional": True}}]}
EAT_TWO_NEAREST = {"do": [{"consume": {"target": {"nearest": 2}}}]}
PICK_A_GOD = {"do": [{"consume": {"target": {"choose": {"count": 1, "among_top": 3, "kind": "god"}}}}]}
NEVER_FIRES = {"if": {"next_to_aspect": "sun"}, "do": [{"consume": {"target": NEXT}}]}  # no sun in the deck
WALK_AWAY = {"do": [{"move": {"target": THIS, "to": "bottom"}}]}
TECHNIQUE_OFF = [Techniques(ordering=False), Techniques(dominance=False), Techniques(collapse=False),
                 Techniques(beam=False), Techniques(share=False)]
FEATURE_OFF = [Features(whole_turns=False), Features(symmetry=False)]


@functools.lru_cache(maxsize=1)
def loaded() -> Loaded:
    return load(load_game(default_data_root(), spec_of("monotheism")))


def plain_search(state: State) -> bool:
    """The oracle: every engine action from every position, each position once. Can the game be won?"""
    seen = {state.key()}
    stack = [state]
    while stack:
        current = stack.pop()
        for action in current.legal_actions():
            child = current.apply_action(action)
            outcome = result(child)
            if outcome:
                return True
            if outcome is None and child.key() not in seen:
                seen.add(child.key())
                stack.append(child)
    return False


def plain(*labels: str):
    return [deity(label, half(ONES)) for label in labels]


# ------------------------------------------------------------------ hand-built decks with known answers
def test_forced_win_every_first_move_wins() -> None:
    # #01 must eat a god among the top three each time it reaches the top: #02 now, #03 a cycle later.
    g = game([deity("01", half(ONES, act=PICK_A_GOD)), *plain("02", "03")], [worshiper("w", numbers=ONES)])
    state = start(g, ["01", "02", "w", "03"], track_history=False)
    found = solver.solve(state)
    assert found.status == solver.WIN
    assert found.line == ("pick 02", "submerge 1", "submerge 1", "submerge 1", "pick 03")
    assert solver.verify(start(g, ["01", "02", "w", "03"]), found.line)[0] is True
    moves = solver.first_moves(state)
    assert moves.winning == ("pick 02, submerge 1",) and not moves.losing


def test_forced_loss_is_proved_and_the_plain_search_agrees() -> None:
    # Every submerge is one card: A eats Y, then the cards come round and A eats the worshiper.
    g = game([deity("01", half(ONES, act=CONSUME_NEXT)), *plain("02", "03")], [worshiper("w", numbers=ONES)])
    state = start(g, ["02", "01", "03", "w"], track_history=False)
    assert solver.solve(state).status == solver.NO_WIN
    assert plain_search(state) is False


def test_stalemate_loop_is_closed_not_searched_for_ever() -> None:
    # The worshiper walks to the bottom whenever it reaches the top, so it is never cursed, and the one god
    # that could eat never has a sun beside it: the same three positions come round for ever.
    g = game([deity("01", half(ONES)), deity("02", half(ONES, aspects=("moon",), act=NEVER_FIRES))],
             [worshiper("w", numbers=ONES, act=WALK_AWAY)])
    state = start(g, ["01", "w", "02"], track_history=False)
    found = solver.solve(state, max_nodes=10_000)
    assert found.status == solver.NO_WIN and found.nodes < 100
    assert plain_search(state) is False
    played = start(g, ["01", "w", "02"])  # the engine's own stalemate rule agrees
    for _ in range(10):
        if played.is_terminal():
            break
        played = played.apply_action(played.legal_actions()[0])
    assert played.is_terminal() and "stalemate" in played.outcome().detail


def test_only_declining_the_may_wins() -> None:
    # Accepting eats the worshiper; declining lets #03 eat its two nearest gods a turn later.
    g = game([deity("01", half(ONES, act=MAY_CONSUME_NEXT)), deity("03", half(ONES, act=EAT_TWO_NEAREST)),
              *plain("04")], [worshiper("w", numbers=ONES)])
    state = start(g, ["01", "w", "03", "04"], track_history=False)
    found = solver.solve(state)
    assert found.status == solver.WIN and found.line[0] == "decline"
    assert solver.verify(start(g, ["01", "w", "03", "04"]), found.line)[0] is True
    moves = solver.first_moves(state)
    assert all(move.startswith("decline") for move in moves.winning) and moves.winning
    assert all(move.startswith("accept") for move in moves.losing) and moves.losing


def test_twin_cards_share_a_key_only_with_symmetry() -> None:
    twin = half((2, 3), act=CONSUME_NEXT)
    g = game([deity("01", twin), deity("02", twin), *plain("03")], [worshiper("w")])
    a = start(g, ["03", "01", "02", "w"], track_history=False)
    b = start(g, ["03", "02", "01", "w"], track_history=False)
    assert space_for(g).key(a) == space_for(g).key(b)
    assert space_for(g, Features(symmetry=False)).key(a) != space_for(g, Features(symmetry=False)).key(b)


# ------------------------------------------------------------------ against the plain exhaustive search
TINY = [(size, seed) for size in (4, 5, 6) for seed in range(10)]


@functools.lru_cache(maxsize=None)
def tiny_answer(size: int, seed: int) -> bool:
    """The oracle's answer for a tiny real deck (several tests ask it of the same decks: worked out once)."""
    g = loaded().game
    return plain_search(g.state_for(decks.random_puzzle_deck(g.cards, size, seed), track_history=False))


@pytest.mark.parametrize("size, seed", TINY)
def test_answers_match_the_plain_search_on_tiny_real_decks(size: int, seed: int) -> None:
    g = loaded().game
    deck = decks.random_puzzle_deck(g.cards, size, seed)
    state = g.state_for(deck, track_history=False)
    found = solver.solve(state, max_nodes=200_000)
    assert found.status != solver.LIMIT
    assert (found.status == solver.WIN) == tiny_answer(size, seed)
    if found.status == solver.WIN:
        assert solver.verify(g.state_for(deck), found.line)[0] is True  # with the engine's stalemate rule


def test_the_tiny_decks_hold_both_answers() -> None:
    answers = {tiny_answer(size, seed) for size, seed in TINY}
    assert answers == {True, False}


@pytest.mark.parametrize("off", [*TECHNIQUE_OFF, *FEATURE_OFF], ids=repr)
def test_each_technique_off_gives_the_same_answers(off) -> None:
    g = loaded().game
    techniques = off if isinstance(off, Techniques) else Techniques()
    features = off if isinstance(off, Features) else Features()
    for size, seed in TINY[::3]:
        deck = decks.random_puzzle_deck(g.cards, size, seed)
        state = g.state_for(deck, track_history=False)
        found = solver.solve(state, max_nodes=200_000, techniques=techniques, features=features)
        assert (found.status == solver.WIN) == tiny_answer(size, seed), (size, seed)
        if found.status == solver.WIN:
            assert solver.verify(g.state_for(deck), found.line)[0] is True


def test_the_full_game_portfolio_never_contradicts_the_plain_search() -> None:
    """Beams only (no prover): a win replays, and a no-win comes only from a beam that never dropped a position."""
    g = loaded().game
    answered = 0
    for size, seed in TINY:
        deck = decks.random_puzzle_deck(g.cards, size, seed)
        found = solver.solve(g.state_for(deck, track_history=False), max_nodes=200_000, techniques=FULL_GAME)
        if found.status == solver.WIN:
            assert tiny_answer(size, seed) and solver.verify(g.state_for(deck), found.line)[0] is True
        elif found.status == solver.NO_WIN:
            assert not tiny_answer(size, seed)
        answered += found.status != solver.LIMIT
    assert answered >= len(TINY) // 2


def test_the_full_game_portfolio_runs_one_beam_per_setting_each_with_its_own_promise_and_salt() -> None:
    g = loaded().game
    root = g.state_for(decks.random_puzzle_deck(g.cards, 5, 0), track_history=False)
    specs = solver._specs(space_for(g), root, job=0, max_nodes=10_000, techniques=FULL_GAME, forbidden=frozenset())
    beams = [spec.build(None) for spec in specs]
    assert all(isinstance(beam, Beam) for beam in beams)  # no prover in full games
    settings = [BeamSetting(b.techniques.curse_worth, b.techniques.guard_worth, b.techniques.beam_diversity,
                            b.techniques.beam_noise, b.techniques.beam_salt) for b in beams]
    assert settings == list(FULL_GAME.beams)
    assert len({setting.salt for setting in settings}) == len(settings)  # each beam its own draw of noise


def test_jitter_is_drawn_from_the_key_and_salt_within_the_noise() -> None:
    """The same key and salt give the same noise (every machine, every process: BLAKE2b, not ``hash``);
    another salt draws again, and the noise spreads over its whole range."""
    keys = [bytes((4, n % 256, n // 256)) for n in range(2_000)]
    drawn = [jitter(key, 3_000, 1) for key in keys]
    assert drawn == [jitter(key, 3_000, 1) for key in keys]
    assert all(0 <= value < 3_000 for value in drawn)
    assert min(drawn) < 100 and max(drawn) > 2_900
    assert drawn != [jitter(key, 3_000, 2) for key in keys]
    assert jitter(b"\x04\x01", 3_000, 1) == fingerprint(b"\x04\x01" + (1).to_bytes(4, "little"))[1] % 3_000


def test_noise_changes_the_order_a_beam_keeps_but_not_what_a_win_is() -> None:
    """A noisy beam ranks children differently from a plain one; a win it finds still replays."""
    g = loaded().game
    deck = decks.random_puzzle_deck(g.cards, 9, 3)
    state = g.state_for(deck, track_history=False)
    plain = Beam(space_for(g), state, max_nodes=1_000, techniques=replace(FULL_GAME, beams=()), first_width=4)
    noisy = Beam(space_for(g), state, max_nodes=1_000, first_width=4,
                 techniques=replace(FULL_GAME, beams=(), beam_noise=3_000, beam_salt=1))
    plain_children, _ = plain.expand(state, ()) or ([], 0)
    noisy_children, _ = noisy.expand(state, ()) or ([], 0)
    assert [child[2] for child in plain_children] == [child[2] for child in noisy_children]
    raised = [n[0] - p[0] for p, n in zip(plain_children, noisy_children)]
    assert all(0 <= lift < 3_000 for lift in raised) and len(set(raised)) > 1
    for size, seed in TINY[:10]:
        deck = decks.random_puzzle_deck(g.cards, size, seed)
        found = solver.solve(g.state_for(deck, track_history=False), max_nodes=50_000,
                             techniques=replace(FULL_GAME, beams=(), beam_noise=3_000, beam_salt=1))
        if found.status == solver.WIN:
            assert solver.verify(g.state_for(deck), found.line)[0] is True


def _entries(groups: list[tuple[tuple[str, ...], int]]) -> list:
    """Beam entries (promise, sequence, position, parent, move) whose positions hold ``groups``' cards."""
    return [(value, sequence, SimpleNamespace(deck=tuple((label, False, False, 0) for label in labels)), 0, ())
            for sequence, (labels, value) in enumerate(groups)]


def test_a_diverse_beam_caps_each_group_of_the_same_cards_and_still_fills_its_width() -> None:
    g = loaded().game
    root = g.state_for(decks.random_puzzle_deck(g.cards, 5, 0), track_history=False)
    same, other = ("01", "02", "haruspex"), ("01", "03", "haruspex")
    entries = _entries([(same, value) for value in range(5)] + [(other, 10), (other, 11)])
    diverse = Beam(space_for(g), root, max_nodes=1_000, techniques=Techniques(beam_diversity=2), first_width=4)
    assert [entry[0] for entry in diverse._best(entries)] == [0, 1, 10, 11]  # two of each group
    plain = Beam(space_for(g), root, max_nodes=1_000, first_width=4)
    assert [entry[0] for entry in plain._best(entries)] == [0, 1, 2, 3]
    only_one = [entry for entry in entries if entry[0] < 10]
    assert [entry[0] for entry in diverse._best(only_one)] == [0, 1, 2, 3]  # the width is filled all the same


def test_a_tiny_table_replaces_entries_and_still_answers_right() -> None:
    g = loaded().game
    for size, seed in TINY[10:15]:
        state = g.state_for(decks.random_puzzle_deck(g.cards, size, seed), track_history=False)
        found = solver.solve(state, max_nodes=500_000, table_slots=16)
        assert found.status != solver.LIMIT and (found.status == solver.WIN) == tiny_answer(size, seed)


# ------------------------------------------------------------------ determinism
def test_two_processes_give_the_same_answer_line_and_nodes() -> None:
    g = loaded().game
    s4 = loaded().model.scenario(4)
    state = g.state_for(decks.with_gods_below(s4, ["08"]), track_history=False)
    one, two = solver.solve(state, processes=1), solver.solve(state, processes=2)
    assert one.status == solver.WIN and (one.status, one.line, one.nodes) == (two.status, two.line, two.nodes)


# (deck size, seed, node limit): a win found after 2,505 nodes (four slices), and a search stopped at its limit
SLICED = [(7, 0, 50_000), (9, 3, 5_000)]


@pytest.mark.parametrize("size, seed, limit", SLICED)
def test_a_search_run_in_slices_is_the_search_run_at_once(size: int, seed: int, limit: int) -> None:
    g = loaded().game
    state = g.state_for(decks.random_puzzle_deck(g.cards, size, seed), track_history=False)
    whole = DepthFirst(space_for(g), state, max_nodes=limit)
    whole.advance(limit)
    sliced = DepthFirst(space_for(g), state, max_nodes=limit)
    while sliced.status is None and sliced.nodes < limit:
        sliced.advance(777)
    assert (whole.status, whole.line) == (sliced.status, sliced.line)


def test_limits_are_nodes_and_say_limit() -> None:
    g = loaded().game
    state = g.scenario_state(loaded().model.scenario(3), track_history=False)
    found = solver.solve(state, max_nodes=50)
    assert found.status == solver.LIMIT and found.line == () and 50 <= found.nodes < 50 + 2 * 5_000


# ------------------------------------------------------------------ the table
def test_table_is_bounded_and_keeps_the_costliest() -> None:
    table = PositionTable(4)  # one bucket
    for work in range(10):
        table.add(f"position {work}".encode(), work)
    assert table.stored == 10 and table.replaced == 6
    assert b"position 9" in table and b"position 0" not in table
    assert table.nbytes == 4 * 12
