"""Monstrous rules engine: rulebook examples, every FAQ ruling, our rulings, the end and scoring."""
from __future__ import annotations

import json
import random
from typing import Any, Optional

import pytest

from pipeline.data.dataset import default_data_root, load_game
from pipeline.engine import IllegalAction, Outcome, restore, sample_chance
from pipeline.games.monstrous import engine
from pipeline.games.monstrous.declared import DeclarationError, event_record, example_throw, replay_example, run_turn
from pipeline.games.monstrous.engine import END_TURN_ACTION, EngineError, Game, Landing, State
from pipeline.games.monstrous.model import build
from pipeline.games.monstrous.powers import OP_PARAMS
from pipeline.games.registry import spec as spec_of

GAME = "monstrous"


@pytest.fixture(scope="module")
def data() -> Any:
    return load_game(default_data_root(), spec_of(GAME))


@pytest.fixture(scope="module")
def game(data: Any) -> Game:
    return Game(build(data))


def situation(game: Game, *, seats: tuple[str, ...] = ("blue", "orange", "green"), active: str = "blue",
              locations: tuple[str, ...] = ("naxos", "athens"), faith: Optional[dict[str, int]] = None,
              hands: Optional[dict[str, list[str]]] = None, decks: Optional[dict[str, list[str]]] = None,
              underworlds: Optional[dict[str, list[str]]] = None, table: Optional[list[tuple]] = None) -> State:
    """A declared state; table entries are (card, side, locations)."""
    spec = {"seats": list(seats), "active": active, "locations": list(locations),
            "faith": faith or {g: 5 for g in seats}, "hands": hands or {}, "decks": decks or {},
            "underworlds": underworlds or {},
            "table": [{"card": c, "side": s, "on_locations": list(l)} for c, s, l in (table or [])]}
    return game.state_from(spec)


def play(game: Game, state: State, *throws: dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
    state, report = run_turn(game, state, list(throws))
    return state, report.events


def events(log: list[dict[str, Any]], step: Optional[str] = None, kind: Optional[str] = None) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.items() if k not in ("step", "throw")} for e in log
            if (step is None or e["step"] == step) and (kind is None or e["event"] == kind)]


def throw(card: str, side: str = "unique", **rest: Any) -> dict[str, Any]:
    return {"card": card, "side": side, **rest}


def on_table(state: State, card: str) -> bool:
    return card in state.board.table


def land(state: State, landing: Landing) -> State:
    """A throw's landing, declared (a real throw) and applied."""
    return state.condition(landing).apply_action(landing)


def logged(state: State) -> list[dict[str, Any]]:
    """The events of the action that made ``state``, as the examples write them."""
    return [event_record(e) for e in state.events]


def settled(game: Game, board: engine.Board) -> State:
    """A state of a board set up by hand, its queued tasks run."""
    return State.from_board(game, board)


# ---------------------------------------------------------------- vocabulary
def test_every_op_has_exactly_one_handler() -> None:
    assert set(engine.OP_HANDLERS) == set(OP_PARAMS)
    assert len(set(engine.OP_HANDLERS.values())) == len(engine.OP_HANDLERS)


def test_every_ruling_the_engine_follows_is_recorded(data: Any) -> None:
    assert sorted(r["id"] for r in data.doc("rulings").data["rulings"]) == sorted(engine.RULINGS)


# ---------------------------------------------------------------- the rulebook's worked turns
@pytest.mark.parametrize("example_id", ["dragon-at-naxos", "phoenix-then-cyclops-at-athens"])
def test_worked_example_replays_as_stated(game: Game, data: Any, example_id: str) -> None:
    example = next(e for e in data.doc("examples").data["examples"] if e["id"] == example_id)
    assert list(replay_example(game, example)) == []


def test_dragon_at_naxos_figures(game: Game, data: Any) -> None:
    example = data.doc("examples").data["examples"][0]
    state, log = play(game, game.state_from(example["initial"]), *(example_throw(t) for t in example["throws"]))
    assert state.board.faith == {"blue": 5, "orange": 0, "purple": 1, "green": 1}
    assert events(log, "monster-powers") == [{"event": "discard", "card": "purple-siren"},
                                             {"event": "discard", "card": "orange-gryphon"}]
    assert on_table(state, "green-hellhound")  # not hit at the Step 3 check: it survives
    assert state.active == "orange"


def test_phoenix_then_cyclops_figures(game: Game, data: Any) -> None:
    example = data.doc("examples").data["examples"][1]
    state, log = play(game, game.state_from(example["initial"]), *(example_throw(t) for t in example["throws"]))
    assert state.board.faith == {"blue": 1, "orange": 9}
    assert state.board.hands["orange"] == ["orange-harpy", "orange-giant", "orange-phoenix", "orange-manticore"]
    assert state.board.table["blue-siren"].side == "common"  # flipped by the Cyclops: no trap any more
    assert events(log, "trap-monster-powers", "gain_faith") == [{"event": "gain_faith", "god": "blue", "amount": 1}]


# ---------------------------------------------------------------- Throw Step order (rulebook)
def test_traps_in_turn_order_and_owner_orders_own(game: Game) -> None:
    state = situation(game, seats=("blue", "orange", "green"), active="orange", hands={"orange": ["orange-giant"]},
                      table=[("blue-siren", "unique", ("naxos",)), ("green-siren", "unique", ("naxos",)),
                             ("green-phoenix", "unique", ("naxos",)), ("orange-siren", "unique", ("naxos",))])
    state = land(state.apply_action("throw orange-giant common"),
                 Landing("common", hits=("blue-siren", "green-phoenix", "green-siren", "orange-siren"), locations=("naxos",)))
    # orange (active) first, then green (clockwise), then blue; green chooses the order of its two traps
    assert logged(state)[-1] == {"step": "trap-monster-powers", "event": "gain_faith", "god": "orange", "amount": 1}
    assert state.current_player() == state.seat_of("green") and state.pending_kind() == "order"
    assert state.legal_actions() == ["card green-phoenix", "card green-siren"]
    state = state.apply_action("card green-siren")
    traps = events(logged(state), "trap-monster-powers")
    assert traps == [{"event": "gain_faith", "god": "green", "amount": 1},
                         {"event": "move", "card": "green-phoenix", "to": "deck_top"},
                         {"event": "gain_faith", "god": "blue", "amount": 1}]


def test_harpy_takes_from_one_chosen_god(game: Game) -> None:
    state = situation(game, hands={"blue": ["blue-harpy"]},
                      table=[("orange-siren", "common", ("naxos",)), ("green-giant", "unique", ("naxos",))])
    state, log = play(game, state, throw("blue-harpy", hits=["orange-siren", "green-giant"], locations=["naxos"],
                                         choices={"monster-powers": ["orange"], "location-powers": ["green"]}))
    assert events(log, "monster-powers") == [{"event": "take_faith", "god": "blue", "from": "orange", "amount": 2}]
    assert events(log, "location-powers") == [{"event": "take_faith", "god": "blue", "from": "green", "amount": 1}]


def test_manticore_multiplies_common_side_does_not(game: Game) -> None:
    table = [("orange-siren", "common", ("athens",)), ("green-giant", "unique", ("athens",)),
             ("green-gryphon", "unique", ("athens",))]
    hits = ["orange-siren", "green-giant", "green-gryphon"]
    state, log = play(game, situation(game, hands={"blue": ["blue-manticore"]}, table=table),
                      throw("blue-manticore", hits=hits))
    assert events(log, "monster-powers") == [{"event": "gain_faith", "god": "blue", "amount": 3}]
    state, log = play(game, situation(game, hands={"blue": ["blue-pegasus"]}, table=table),
                      throw("blue-pegasus", "common", hits=hits))
    assert events(log, "monster-powers") == [{"event": "gain_faith", "god": "blue", "amount": 1}]


# ---------------------------------------------------------------- FAQ rulings, one test each
def test_faq_monsters_stay(game: Game) -> None:
    state, _ = play(game, situation(game, hands={"blue": ["blue-giant"]}), throw("blue-giant", locations=["naxos"]))
    assert state.board.table["blue-giant"].locations == ("naxos",)


def test_faq_off_the_table_even_pegasus(game: Game) -> None:
    state = situation(game, hands={"blue": ["blue-pegasus"]}, table=[("orange-giant", "unique", ("athens",))])
    state, log = play(game, state, throw("blue-pegasus", result="off_table", knocked_off=["orange-giant"]))
    assert state.board.underworlds["blue"][0] == "blue-pegasus"  # no MISS LOCATION return to hand
    assert state.board.underworlds["orange"][0] == "orange-giant"
    assert "blue-pegasus" not in state.board.hands["blue"]


def test_faq_knocked_location_two_locations(game: Game) -> None:
    state = situation(game, locations=("naxos", "athens"), hands={"blue": ["blue-giant"]},
                      table=[("green-siren", "common", ("naxos",))])
    state, log = play(game, state, throw("blue-giant", "common", locations=["naxos", "athens"],
                                         choices={"location-powers": ["athens", "gain_faith"], "gain-faith": ["naxos"]}))
    assert events(log, "location-powers")[0]["event"] in ("gain_faith", "draw")
    assert events(log, "gain-faith") == [{"event": "gain_faith", "god": "blue", "amount": 4}]


def test_faq_knocked_monster_is_no_hit(game: Game) -> None:
    state = situation(game, hands={"blue": ["blue-giant"]},
                      table=[("orange-siren", "unique", ("naxos",)), ("green-dragon", "unique", ("athens",))])
    state, log = play(game, state, throw("blue-giant", locations=["athens"], choices={"location-powers": ["gain_faith"]},
                                         shifted=[{"card": "green-dragon", "on_locations": ["naxos"]}]))
    assert events(log, "trap-monster-powers") == []
    assert state.board.table["green-dragon"].locations == ("naxos",)


def test_faq_flipped_in_flight_uses_face_up_side(game: Game) -> None:
    state = situation(game, hands={"blue": ["blue-dragon"]}, table=[("orange-giant", "unique", ("naxos",))])
    state, log = play(game, state, throw("blue-dragon", "unique", landed_side="common", hits=["orange-giant"]))
    assert events(log, "monster-powers") == [{"event": "gain_faith", "god": "blue", "amount": 1}]
    assert on_table(state, "orange-giant")


def test_faq_throwing_anothers_monster(game: Game) -> None:
    state = situation(game, locations=("mt-olympus", "troy"), hands={"blue": ["blue-giant"]},
                      underworlds={"orange": ["orange-manticore"]}, decks={"blue": ["blue-harpy"]},
                      table=[("green-siren", "common", ("troy",))])
    state, log = play(game, state, throw("blue-giant", "common", locations=["mt-olympus"]))
    assert "orange-manticore" in state.board.hands["blue"]
    # blue throws it as if it were theirs: blue gains for its HIT MONSTERS power
    state = state.apply_action(END_TURN_ACTION).apply_action(END_TURN_ACTION)
    state, log = play(game, state, throw("orange-manticore", hits=["green-siren"], locations=["troy"]))
    assert events(log, "monster-powers") == [{"event": "gain_faith", "god": "blue", "amount": 1}]
    # control reverts: at the end it counts for orange at Troy
    assert engine.measure(game, state.board, "orange", engine.MEASURE_IN_PLAY) == 1


def test_faq_extra_throws_compulsory(game: Game) -> None:
    state = situation(game, hands={"blue": ["blue-phoenix", "blue-giant"]},
                      table=[("orange-giant", "unique", ("naxos",))])
    state = land(state.apply_action("throw blue-phoenix unique"), Landing("unique", hits=("orange-giant",)))
    assert state.current_player() == state.seat_of("blue") and state.pending_kind() == "throw"
    assert all(a.startswith("throw blue-giant") for a in state.legal_actions())


def test_faq_extra_throws_need_cards(game: Game) -> None:
    state = situation(game, hands={"blue": ["blue-phoenix"]}, table=[("orange-giant", "unique", ("naxos",))])
    state, log = play(game, state, throw("blue-phoenix", hits=["orange-giant"]))
    assert events(log, kind="throws_lost") == [{"event": "throws_lost", "god": "blue", "amount": 1}]
    assert state.active == "orange"


def test_faq_hits_fixed_per_step(game: Game) -> None:
    state = situation(game, hands={"blue": ["blue-giant"]},
                      table=[("orange-dragon", "unique", ("naxos",)), ("green-dragon", "unique", ("naxos",))])
    state, log = play(game, state, throw("blue-giant", hits=["orange-dragon"], locations=["naxos"]))
    assert events(log, "monster-powers", "move") == [{"event": "move", "card": "orange-dragon", "to": "hand"}]
    assert on_table(state, "green-dragon")  # uncovered, but not hit at the Step 3 look


def test_faq_own_monsters_affected(game: Game) -> None:
    state = situation(game, hands={"blue": ["blue-dragon"]}, table=[("blue-siren", "common", ("naxos",))])
    state, log = play(game, state, throw("blue-dragon", hits=["blue-siren"]))
    assert state.board.underworlds["blue"][0] == "blue-siren"


def test_faq_phoenix_returns_before_step_3(game: Game) -> None:
    state = situation(game, hands={"blue": ["blue-dragon"]}, decks={"orange": ["orange-giant"]},
                      table=[("orange-phoenix", "unique", ("naxos",))])
    state, log = play(game, state, throw("blue-dragon", hits=["orange-phoenix"], locations=["naxos"]))
    assert state.board.decks["orange"].top[0] == "orange-phoenix"
    assert events(log, "monster-powers") == []


def test_faq_phoenix_only_sparta(game: Game) -> None:
    state = situation(game, locations=("naxos",), hands={"blue": ["blue-dragon"]},
                      table=[("orange-phoenix", "unique", ("naxos",))])
    state, _ = play(game, state, throw("blue-dragon", locations=["naxos"], step3={"hits": ["orange-phoenix"]}))
    assert on_table(state, "orange-phoenix")  # the Dragon cannot discard it (ruling undying-phoenix)
    table = [("orange-phoenix", "unique", ("sparta",))]
    state = situation(game, locations=("sparta",), hands={"blue": ["blue-giant"]}, table=table)
    state, log = play(game, state, throw("blue-giant", "common", locations=["sparta"]))
    assert events(log, "location-powers") == [{"event": "discard", "card": "orange-phoenix"}]
    assert state.board.underworlds["orange"] == ["orange-phoenix"]


def test_faq_phoenix_on_gorgon(game: Game) -> None:
    state = situation(game, hands={"blue": ["blue-phoenix", "blue-giant"]},
                      table=[("orange-gorgon", "unique", ("naxos",))])
    state, log = play(game, state, throw("blue-phoenix", hits=["orange-gorgon"], locations=["naxos"]))
    assert state.board.underworlds["blue"] == ["blue-phoenix"]
    assert events(log, kind="gain_throw") == [] and events(log, "gain-faith") == []
    assert state.active == "orange"


def test_faq_cyclops_throws_off_table(game: Game) -> None:
    state = situation(game, hands={"blue": ["blue-cyclops"]}, table=[("orange-giant", "unique", ("naxos",))])
    state, log = play(game, state, throw("blue-cyclops", hits=["orange-giant"], locations=["naxos"],
                                         choices={"monster-powers": ["unique"]},
                                         power_throws=[{"result": "off_table"}]))
    assert state.board.underworlds["orange"] == ["orange-giant"]
    assert events(log, "monster-powers") == [{"event": "underworld", "card": "orange-giant", "reason": "off_table"}]


def test_faq_hellhound_at_troy(game: Game) -> None:
    state = situation(game, seats=("blue", "orange"), locations=("troy",), hands={"blue": ["blue-hellhound"]},
                      faith={"blue": 0, "orange": 0}, table=[("blue-giant", "unique", ("troy",))])
    state, log = play(game, state, throw("blue-hellhound", locations=["troy"]))
    state = state.apply_action(END_TURN_ACTION)  # blue ran out; orange's final turn
    assert state.is_terminal()
    assert events(logged(state), "game-end") == [{"event": "gain_faith", "god": "blue", "amount": 3}]


def test_faq_gorgon_hits_gorgon(game: Game) -> None:
    state = situation(game, hands={"blue": ["blue-gorgon"]}, table=[("orange-gorgon", "unique", ("naxos",))])
    state, log = play(game, state, throw("blue-gorgon", hits=["orange-gorgon"], locations=["naxos"]))
    assert events(log, "trap-monster-powers") == [{"event": "discard", "card": "blue-gorgon"}]
    assert on_table(state, "orange-gorgon") and not on_table(state, "blue-gorgon")


def test_faq_underworld_location_reaches_own_pile(game: Game) -> None:
    state = situation(game, locations=("underworld",), hands={"blue": ["blue-giant"]},
                      underworlds={"blue": ["blue-siren", "blue-dragon"], "orange": ["orange-harpy"]})
    state, log = play(game, state, throw("blue-giant", locations=["underworld"],
                                         choices={"location-powers": ["blue-dragon"]}))
    assert events(log, "location-powers") == [{"event": "retrieve", "god": "blue", "card": "blue-dragon", "to": "hand"}]
    assert state.board.underworlds["orange"] == ["orange-harpy"]


# ---------------------------------------------------------------- our rulings, one test each
def test_ruling_power_throw_scores_only(game: Game) -> None:
    state = situation(game, hands={"blue": ["blue-cyclops"]},
                      table=[("orange-siren", "unique", ("naxos",)), ("green-gorgon", "unique", ("athens",))])
    state, log = play(game, state, throw("blue-cyclops", hits=["orange-siren"], locations=["naxos"],
                                         choices={"monster-powers": ["unique"]},
                                         power_throws=[{"locations": ["athens"]}]))
    assert events(log, "monster-powers") == [
        {"event": "throw_card", "card": "orange-siren", "side": "unique", "locations_hit": ["athens"]},
        {"event": "gain_faith", "god": "blue", "amount": 3}]
    assert on_table(state, "orange-siren")


def test_ruling_empty_hand_turn(game: Game) -> None:
    state = situation(game, seats=("blue", "orange"), hands={"blue": ["blue-giant"]}, decks={"orange": ["orange-harpy"]})
    state, _ = play(game, state, throw("blue-giant"))
    assert state.legal_actions() == [END_TURN_ACTION]
    state = state.apply_action(END_TURN_ACTION)
    assert state.board.hands["orange"] == ["orange-harpy"]


def test_ruling_take_faith_floor(game: Game) -> None:
    state = situation(game, faith={"blue": 0, "orange": 1, "green": 0}, hands={"blue": ["blue-harpy"]},
                      table=[("orange-giant", "unique", ("naxos",))])
    state, log = play(game, state, throw("blue-harpy", hits=["orange-giant"]))
    assert state.board.faith["orange"] == 0 and state.board.faith["blue"] == 1


def test_ruling_take_faith_choice_skips_self(game: Game) -> None:
    state = situation(game, hands={"blue": ["blue-harpy"]}, table=[("blue-giant", "unique", ("naxos",))])
    state, log = play(game, state, throw("blue-harpy", hits=["blue-giant"]))
    assert events(log, "monster-powers") == []


def test_ruling_each_god_once(game: Game) -> None:
    state = situation(game, locations=("troy",), hands={"blue": ["blue-hellhound"]},
                      table=[("orange-giant", "unique", ("troy",)), ("orange-siren", "common", ("troy",)),
                             ("green-giant", "unique", ("troy",))])
    state, log = play(game, state, throw("blue-hellhound", locations=["troy"]))
    assert events(log, "monster-powers") == [{"event": "take_faith", "god": "blue", "from": "orange", "amount": 1},
                                             {"event": "take_faith", "god": "blue", "from": "green", "amount": 1}]


def test_ruling_undying_phoenix_common_side_is_ordinary(game: Game) -> None:
    state = situation(game, hands={"blue": ["blue-dragon"]}, table=[("orange-phoenix", "common", ("naxos",))])
    state, _ = play(game, state, throw("blue-dragon", hits=["orange-phoenix"]))
    assert state.board.underworlds["orange"] == ["orange-phoenix"]


def test_ruling_that_location(game: Game) -> None:
    state = situation(game, locations=("troy", "naxos"), hands={"blue": ["blue-hellhound"]},
                      table=[("orange-giant", "unique", ("troy",)), ("green-giant", "unique", ("naxos",))])
    state = land(state.apply_action("throw blue-hellhound unique"), Landing("unique", locations=("troy", "naxos")))
    assert state.pending_kind() == "location" and state.current_player() == state.seat_of("blue")
    state = state.apply_action("location naxos")
    assert events(logged(state), "monster-powers") == [{"event": "take_faith", "god": "blue", "from": "green", "amount": 1}]


def test_ruling_location_power_choice_skips_troy(game: Game) -> None:
    state = situation(game, locations=("troy", "corinth"), hands={"blue": ["blue-giant"]}, decks={"blue": ["blue-harpy"]})
    state = land(state.apply_action("throw blue-giant unique"), Landing("unique", locations=("troy", "corinth")))
    assert logged(state)[-1] == {"step": "location-powers", "event": "draw", "god": "blue", "card": "blue-harpy"}
    assert state.legal_actions() == ["location troy", "location corinth"]  # Step 5: any hit Location


def test_ruling_removed_monster_stops(game: Game) -> None:
    state = situation(game, hands={"blue": ["blue-manticore"]},
                      table=[("orange-gorgon", "unique", ("naxos",)), ("green-siren", "unique", ("naxos",))])
    state, log = play(game, state, throw("blue-manticore", hits=["orange-gorgon", "green-siren"], locations=["naxos"]))
    assert events(log, "trap-monster-powers") == [{"event": "discard", "card": "blue-manticore"},
                                                  {"event": "gain_faith", "god": "green", "amount": 1}]
    assert [e for e in log if e["step"] in ("monster-powers", "location-powers", "gain-faith")] == []
    state = situation(game, hands={"blue": ["blue-giant"]}, table=[("orange-siren", "unique", ("naxos",))])
    state, log = play(game, state, throw("blue-giant", result="lightning", hits=[]))
    assert state.board.underworlds["blue"] == ["blue-giant"] and events(log, kind="gain_faith") == []


def test_ruling_count_includes_thrown(game: Game) -> None:
    state = situation(game, locations=("thebes",), hands={"blue": ["blue-giant"]},
                      table=[("orange-giant", "unique", ("thebes",))])
    state, log = play(game, state, throw("blue-giant", "common", locations=["thebes"]))
    assert events(log, "location-powers") == [{"event": "gain_faith", "god": "blue", "amount": 2}]


def test_ruling_end_check_and_final_round(game: Game) -> None:
    state = situation(game, seats=("blue", "orange", "green"), hands={"blue": ["blue-giant"], "orange": ["orange-giant"],
                                                                      "green": ["green-giant"]},
                      decks={"orange": ["orange-harpy"]})
    state, log = play(game, state, throw("blue-giant"))
    assert events(log, kind="end_triggered") == [{"event": "end_triggered", "god": "blue"}]
    state, _ = play(game, state, throw("orange-giant"))
    assert not state.is_terminal() and state.active == "green"
    state, _ = play(game, state, throw("green-giant"))
    assert state.is_terminal()  # blue takes no further turn


def test_ruling_game_end_powers_first_and_penalty(game: Game) -> None:
    state = situation(game, seats=("blue", "orange"), locations=("troy",), faith={"blue": 0, "orange": 4},
                      hands={"blue": ["blue-giant"], "orange": ["orange-giant", "orange-harpy"]},
                      underworlds={"orange": ["orange-siren"]})
    state, _ = play(game, state, throw("blue-giant", locations=["troy"]))
    state, _ = play(game, state, throw("orange-giant", "common"))
    outcome = state.outcome()
    # blue: 2 (Troy's Faith) + 3 (Troy at game end) = 5; orange: 4 - 1 hand - 1 Underworld = 2
    assert outcome.scores == (5, 2)  # by seat: blue, orange
    assert outcome.winners == (0,) and outcome.termination == "most-faith"


def test_ruling_majority_by_owner_troy_tie(game: Game) -> None:
    board = situation(game, seats=("blue", "orange"), locations=("troy",), faith={"blue": 0, "orange": 0},
                      table=[("blue-giant", "unique", ("troy",)), ("orange-giant", "unique", ("troy",))]).board
    board.tasks, board.pending = [engine.Task("game_end")], None
    state = settled(game, board)
    assert events(logged(state), "game-end") == [{"event": "gain_faith", "god": "blue", "amount": 3},
                                             {"event": "gain_faith", "god": "orange", "amount": 3}]


def test_tie_breakers_in_order(game: Game) -> None:
    def finish(table: list[tuple]) -> Outcome:
        board = situation(game, seats=("blue", "orange"), locations=("naxos",), faith={"blue": 3, "orange": 3},
                          table=table).board
        board.over = True
        return State(game, board).outcome()
    at_location = finish([("blue-giant", "unique", ("naxos",)), ("orange-giant", "unique", ())])
    assert at_location.winners == (0,) and at_location.termination == "most-monsters-hitting-locations"
    in_play = finish([("blue-giant", "unique", ()), ("orange-giant", "unique", ()), ("orange-harpy", "unique", ())])
    assert in_play.winners == (1,) and in_play.termination == "most-monsters-in-play"
    rematch = finish([])
    assert rematch.winners == (0, 1) and rematch.termination == "play-again"


def test_ruling_setup_underworld_order_and_table_1(game: Game) -> None:
    state = game.new_initial_state(["blue", "orange", "green", "white"])
    assert state.is_chance_node() and state.pending_kind() == "remove"
    for design in ("dragon", "siren", "giant", "harpy"):
        state = state.apply_action(f"remove {design}")
    for god in ("blue", "orange", "green", "white"):
        assert state.board.underworlds[god] == [f"{god}-{d}" for d in ("harpy", "giant", "siren", "dragon")]
    state = random_playout_until_throw(state)
    for god in ("blue", "orange", "green", "white"):
        assert len(state.board.hands[god]) == 3 and len(state.board.decks[god]) == 12 - 4 - 3


def random_playout_until_throw(state: State) -> State:
    rng = random.Random(1)
    while state.is_chance_node():
        state = state.apply_action(sample_chance(state, rng))
    return state


def test_epic_setup_removes_nothing(game: Game) -> None:
    state = random_playout_until_throw(game.new_initial_state(["blue", "orange"], underworld_cards=0))
    assert state.board.underworlds == {"blue": [], "orange": []}
    assert len(state.board.decks["blue"]) == 12 - 3


def test_ruling_held_cards_penalty(game: Game) -> None:
    board = situation(game, seats=("blue", "orange"), faith={"blue": 5, "orange": 5},
                      hands={"blue": ["orange-harpy"]}).board
    assert engine.final_score(game, board, "blue") == 4 and engine.final_score(game, board, "orange") == 5


def test_ruling_gained_throws_active_only(game: Game) -> None:
    state = situation(game, hands={"blue": ["blue-giant"]})
    ctx = engine.Ctx(user="orange", source="orange-phoenix", source_kind="monster")
    op = next(p for p in game.side("orange-phoenix", "unique").powers if p.trigger == "hit_monsters").effects[0]
    board = state.board
    engine.op_gain_throw(game, board, engine.Task("op", (op, ctx)))
    assert board.throws == 0


def test_ruling_faith_pool_unlimited(game: Game) -> None:
    state = situation(game, faith={"blue": 400, "orange": 0, "green": 0}, hands={"blue": ["blue-giant"]})
    state, _ = play(game, state, throw("blue-giant", "common", locations=["naxos"]))
    assert state.board.faith["blue"] == 404


def test_ruling_empty_deck_draw(game: Game) -> None:
    state = situation(game, locations=("corinth",), hands={"blue": ["blue-giant"]})
    state, log = play(game, state, throw("blue-giant", locations=["corinth"]))
    assert events(log, kind="draw") == []


# ---------------------------------------------------------------- other powers
def test_pegasus_misses_and_returns(game: Game) -> None:
    state, log = play(game, situation(game, hands={"blue": ["blue-pegasus"]}), throw("blue-pegasus"))
    assert state.board.hands["blue"] == ["blue-pegasus"]


def test_minotaur_gains_throw_only_without_monsters(game: Game) -> None:
    state = situation(game, locations=("corinth",), hands={"blue": ["blue-minotaur", "blue-giant"]},
                      table=[("orange-giant", "unique", ("corinth",))])
    after = land(state.apply_action("throw blue-minotaur unique"), Landing("unique", locations=("corinth",)))
    assert after.pending_kind() == "throw" and after.active == "blue"
    after = land(state.apply_action("throw blue-minotaur unique"),
                 Landing("unique", hits=("orange-giant",), locations=("corinth",)))
    assert after.active == "orange"


def test_argos_and_delphi_and_olympia(game: Game) -> None:
    state = situation(game, locations=("argos",), hands={"blue": ["blue-giant"]}, decks={"orange": ["orange-harpy"]},
                      table=[("orange-siren", "common", ("argos",))])
    state, _ = play(game, state, throw("blue-giant", "common", locations=["argos"]))
    assert state.board.decks["orange"].cards() == ["orange-harpy", "orange-siren"]
    state = situation(game, locations=("delphi",), hands={"blue": ["blue-giant"]}, underworlds={"blue": ["blue-siren"]})
    state, _ = play(game, state, throw("blue-giant", "common", locations=["delphi"]))
    assert state.board.hands["blue"] == ["blue-siren"]  # put on top of the deck, then drawn in Step 7
    state = situation(game, locations=("olympia",), hands={"blue": ["blue-giant", "blue-harpy"]})
    after = land(state.apply_action("throw blue-giant common"), Landing("common", locations=("olympia",)))
    assert after.pending_kind() == "throw" and after.active == "blue"


def test_illegal_actions_rejected(game: Game) -> None:
    state = situation(game, hands={"blue": ["blue-giant"]})
    with pytest.raises(IllegalAction, match="not a legal action"):
        state.apply_action("throw blue-dragon unique")
    thrown = state.apply_action("throw blue-giant unique")
    with pytest.raises(EngineError, match="orange-siren is not on the table"):
        land(thrown, Landing("unique", hits=("orange-siren",)))
    with pytest.raises(IllegalAction, match="not a legal action"):  # a landing the engine's model does not list
        thrown.apply_action(Landing("unique", locations=("naxos", "athens")))
    with pytest.raises(DeclarationError, match="never asked for"):
        play(game, situation(game, hands={"blue": ["blue-giant"]}),
             throw("blue-giant", choices={"gain-faith": ["naxos"]}))


def test_bad_declared_states(game: Game) -> None:
    with pytest.raises(EngineError, match="both in"):
        situation(game, hands={"blue": ["blue-giant"]}, table=[("blue-giant", "unique", ())])
    with pytest.raises(EngineError, match="has no seat"):
        situation(game, hands={"blue": ["white-giant"]})
    with pytest.raises(EngineError, match="not on the table"):
        situation(game, table=[("blue-giant", "unique", ("troy",))])


# ---------------------------------------------------------------- declared landings and serialised states
def test_a_landing_reads_back_from_its_string() -> None:
    landing = Landing("common", hits=("orange-siren",), locations=("naxos", "athens"), step3_hits=(),
                      step4_locations=("athens",), knocked_off=("green-giant",),
                      shifted=(("blue-harpy", ("naxos",)), ("orange-giant", ())))
    assert Landing.parse(str(landing)) == landing
    assert Landing.parse(str(Landing("unique", engine.OFF_TABLE))) == Landing("unique", engine.OFF_TABLE)
    with pytest.raises(IllegalAction, match="not a landing"):
        Landing.parse("land unique table sideways naxos")


def test_a_declared_landing_is_the_only_outcome_and_survives_a_round_trip(game: Game) -> None:
    state = situation(game, hands={"blue": ["blue-giant"]}, table=[("orange-siren", "common", ("naxos",))])
    thrown = state.apply_action("throw blue-giant unique")
    landing = Landing("unique", hits=("orange-siren",), locations=("naxos",), step3_hits=())
    declared = thrown.condition(landing)
    assert declared.legal_actions() == [landing] and thrown.legal_actions() != [landing]
    for position in (declared, declared.apply_action(landing)):
        data = json.loads(json.dumps(position.to_data()))
        assert restore(game, data).key() == position.key()
    with pytest.raises(EngineError, match="not on the table"):
        thrown.condition(Landing("unique", hits=("green-giant",)))
    with pytest.raises(IllegalAction, match="no chance node"):
        state.condition(landing)
