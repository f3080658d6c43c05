"""Monstrous cross-checks: the shipped data is clean, and every check fires on broken data."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

from pipeline.data.dataset import default_data_root, load_game
from pipeline.games.monstrous import checks
from pipeline.games.monstrous.powers import Owner, render_power
from pipeline.games.registry import spec as spec_of

GAME = "monstrous"
Edit = Callable[[Any], Any]


@pytest.fixture
def data_copy(data_copy_of: Callable[..., Path]) -> Path:
    """A copy of the data with only this game (and the shared schema), safe to break: its checks need no other."""
    return data_copy_of(GAME)


@pytest.fixture
def broken(data_copy: Path, edit_yaml, validate) -> Callable[..., list[str]]:
    """``broken(kind, fn, ...)``: apply edits to copies of data/monstrous/<kind>.yaml, return problem lines."""

    def run(*edits: Any) -> list[str]:
        for kind, fn in zip(edits[::2], edits[1::2]):
            edit_yaml(data_copy / GAME / f"{kind}.yaml", _in_place(fn))
        return [str(p) for p in validate(data_copy, [GAME], fold=False)]

    return run


def _in_place(fn: Edit) -> Edit:
    """Edits mutate in place; ignore what they return (``list.pop`` would replace the document)."""

    def edit(data: Any) -> None:
        fn(data)

    return edit


def has(lines: list[str], fragment: str, file: str | None = None) -> bool:
    return any(fragment in line and (file is None or f"{GAME}/{file}.yaml:" in line) for line in lines)


def find(records: list[dict[str, Any]], record_id: str) -> dict[str, Any]:
    return next(r for r in records if r["id"] == record_id)


def monster(data: dict[str, Any], monster_id: str) -> dict[str, Any]:
    return find(data["monsters"], monster_id)


def location(data: dict[str, Any], location_id: str) -> dict[str, Any]:
    return find(data["locations"], location_id)


# ---------------------------------------------------------------- shipped data
def test_shipped_data_is_clean(validate) -> None:
    assert [str(p) for p in validate(default_data_root(), [GAME])] == []


def test_checks_run_on_shipped_data() -> None:
    game = load_game(default_data_root(), spec_of(GAME))
    assert list(checks.cross_checks(game)) == []


# ---------------------------------------------------------------- gods
def test_missing_god(broken) -> None:
    lines = broken("gods", lambda d: d["gods"].pop())
    assert has(lines, "gods: the rulebook has one god per colour", "gods")


def test_god_colour_differs_from_id(broken) -> None:
    lines = broken("gods", lambda d: d["gods"][0].update(colour="blue"))
    assert has(lines, "god green: colour blue differs from its id", "gods")


def test_god_board_sides(broken) -> None:
    lines = broken("gods", lambda d: d["god_board"]["sides"][1].update(lists="locations"))
    assert has(lines, "god board: one side must list the Locations and the other the Monsters")


# ---------------------------------------------------------------- monster designs and plates
def test_design_count(broken) -> None:
    lines = broken("monsters", lambda d: d["monsters"].pop())
    assert has(lines, "monsters: 11 designs, the rulebook has 12", "monsters")
    assert has(lines, "card green-minotaur: monster 'minotaur' does not exist", "monster-cards")


def test_rulebook_monster_missing(broken) -> None:
    def rename(d: dict[str, Any]) -> None:
        monster(d, "harpy")["id"] = "lamia"

    lines = broken("monsters", rename)
    assert has(lines, "monsters: the rulebook's harpy is missing", "monsters")


def test_trap_flag_follows_rulebook(broken) -> None:
    lines = broken("monsters", lambda d: monster(d, "siren").update(trap=False))
    assert has(lines, "monster siren: the rulebook says it is a Trap Monster", "monsters")
    assert has(lines, "monster siren: plate is red but should be bronze")


def test_bronze_plate_on_trap(broken) -> None:
    lines = broken("monsters", lambda d: monster(d, "gorgon")["unique_side"].update(plate="bronze"))
    assert has(lines, "monster gorgon: plate is bronze but should be red", "monsters")


def test_red_plate_on_non_trap(broken) -> None:
    lines = broken("monsters", lambda d: monster(d, "harpy")["unique_side"].update(plate="red"))
    assert has(lines, "monster harpy: plate is red but should be bronze", "monsters")


def test_iron_plate_on_unique_side(broken) -> None:
    lines = broken("monsters", lambda d: monster(d, "dragon")["unique_side"].update(plate="iron"))
    assert has(lines, "monster dragon: unique side plate is iron; it must be red (trap) or bronze", "monsters")


def test_common_side_plate(broken) -> None:
    lines = broken("monsters", lambda d: d["common_side"].update(plate="bronze"))
    assert has(lines, "common side: plate must be iron, not bronze", "monsters")


def test_common_side_has_no_trap_power(broken) -> None:
    lines = broken("monsters", lambda d: d["common_side"]["powers"][0].update(trigger="when_hit", text="WHEN HIT: Gain 1 Faith."))
    assert has(lines, "common side: WHEN HIT powers belong to Trap Monsters' red sides only", "monsters")


def test_trap_power_comes_first(broken) -> None:
    lines = broken("monsters", lambda d: monster(d, "phoenix")["unique_side"]["powers"].reverse())
    assert has(lines, "monster phoenix: a Trap Monster's first power must be WHEN HIT", "monsters")


def test_when_hit_only_on_traps(broken) -> None:
    def edit(d: dict[str, Any]) -> None:
        power = monster(d, "gryphon")["unique_side"]["powers"][0]
        power.update(trigger="when_hit", text="WHEN HIT: Draw 1 card.")

    lines = broken("monsters", edit)
    assert has(lines, "monster gryphon: only Trap Monsters have WHEN HIT powers", "monsters")


# ---------------------------------------------------------------- powers
def test_text_must_match_effects(broken) -> None:
    lines = broken("monsters", lambda d: monster(d, "giant")["unique_side"]["powers"][0]["effects"][1].update(amount=2))
    assert has(lines, "monster giant: printed text \"HIT MONSTERS: Return hit Monsters to their gods' hands. Gain 1 Faith.\" "
                      "does not match its effects, which read \"HIT MONSTERS: Return hit Monsters to their gods' hands. Gain 2 Faith.\"",
               "monsters")


def test_location_text_must_match_effects(broken) -> None:
    lines = broken("locations", lambda d: location(d, "corinth")["power"].update(text="WHEN HIT: Draw 2 cards."))
    assert has(lines, "location corinth: printed text 'WHEN HIT: Draw 2 cards.' does not match its effects", "locations")


def test_unknown_op_is_rejected(broken) -> None:
    lines = broken("monsters", lambda d: monster(d, "harpy")["unique_side"]["powers"][0]["effects"][0].update(op="steal_faith"))
    assert has(lines, "'steal_faith' is not one of gain_faith", "monsters")


def test_bad_op_parameter_is_rejected(broken) -> None:
    lines = broken("monsters", lambda d: monster(d, "harpy")["unique_side"]["powers"][0]["effects"][0].update(target="self"))
    assert has(lines, "unknown key 'target'", "monsters")


def test_op_needs_hit_monsters_trigger(broken) -> None:
    def edit(d: dict[str, Any]) -> None:
        power = monster(d, "harpy")["unique_side"]["powers"][0]
        power["trigger"] = "hit_location"
        power["text"] = power["text"].replace("HIT MONSTERS", "HIT LOCATION")

    lines = broken("monsters", edit)
    assert has(lines, "monster harpy: op take_faith: from one_hit_monster_god needs the HIT MONSTERS trigger", "monsters")


def test_op_needs_a_location(broken) -> None:
    def edit(d: dict[str, Any]) -> None:
        power = monster(d, "hellhound")["unique_side"]["powers"][0]
        power["trigger"] = "hit_monsters"
        power["text"] = power["text"].replace("HIT LOCATION", "HIT MONSTERS")

    lines = broken("monsters", edit)
    assert has(lines, "monster hellhound: op take_faith: from each_other_god_at_location needs a Location", "monsters")


def test_location_cannot_say_this_monster(broken) -> None:
    lines = broken("locations", lambda d: location(d, "sparta")["power"]["effects"][0].update(target="hitter"))
    assert has(lines, "location sparta: op discard: target hitter only makes sense on a Monster", "locations")


def test_location_trigger(broken) -> None:
    lines = broken("locations", lambda d: location(d, "olympia")["power"].update(trigger="hit_monsters", text="HIT MONSTERS: Gain 1 throw."))
    assert has(lines, "location olympia: a location power cannot use the HIT MONSTERS trigger", "locations")


def test_game_end_op_needs_game_end(broken) -> None:
    lines = broken("locations", lambda d: location(d, "troy")["power"].update(trigger="when_hit", text=location(d, "troy")["power"]["text"].replace("GAME END", "WHEN HIT")))
    assert has(lines, "location troy: op majority_bonus only works with GAME END", "locations")


def test_condition_context(broken) -> None:
    lines = broken("locations", lambda d: location(d, "olympia")["power"].update(condition="no_hit_monsters"))
    assert has(lines, "location olympia: condition no_hit_monsters needs a Monster's HIT LOCATION or MISS LOCATION power", "locations")


def test_rulebook_wording_kept(broken) -> None:
    def edit(d: dict[str, Any]) -> None:
        power = monster(d, "dragon")["unique_side"]["powers"][0]
        power["effects"] = [{"op": "gain_faith", "amount": 2, "per": "hit_monster"}]
        power["text"] = render_power(power, Owner("monster", "Dragon"))

    lines = broken("monsters", edit)
    assert has(lines, "monster dragon: the rulebook prints 'HIT MONSTERS: Discard hit Monsters.'", "monsters")


def test_face_word_limit(broken) -> None:
    def edit(d: dict[str, Any]) -> None:
        gryphon = monster(d, "gryphon")
        power = gryphon["unique_side"]["powers"][0]
        power["effects"] = [{"op": "retrieve_from_underworld", "whose": "other_god", "pick": "top", "to": "deck_top"}] * 4
        power["text"] = render_power(power, Owner("monster", gryphon["name"]))

    lines = broken("monsters", edit)
    assert has(lines, "monster gryphon: 58 words of power text, more than fits a card face (45)", "monsters")


# ---------------------------------------------------------------- the 60 cards
def test_card_count(broken) -> None:
    lines = broken("monster-cards", lambda d: d["cards"].pop())
    assert has(lines, "monster cards: 59 cards, the rulebook has 60 (12 Monsters x 5 colours)", "monster-cards")
    assert has(lines, "god white: deck has no minotaur card", "monster-cards")


def test_card_twice_in_a_colour(broken) -> None:
    lines = broken("monster-cards", lambda d: find(d["cards"], "blue-dragon").update(monster="harpy", id="blue-harpy-2"))
    assert has(lines, "card blue-harpy-2: blue already has a harpy (blue-harpy)", "monster-cards")
    assert has(lines, "card blue-harpy-2: id should be 'blue-harpy'", "monster-cards")
    assert has(lines, "god blue: deck has no dragon card", "monster-cards")


def test_card_unknown_monster(broken) -> None:
    lines = broken("monster-cards", lambda d: find(d["cards"], "white-giant").update(monster="kraken"))
    assert has(lines, "card white-giant: monster 'kraken' does not exist", "monster-cards")


def test_card_problem_points_at_line(broken, data_copy: Path) -> None:
    lines = broken("monster-cards", lambda d: find(d["cards"], "white-giant").update(monster="kraken"))
    [line] = [x for x in lines if "monster 'kraken' does not exist" in x]
    path = data_copy / GAME / "monster-cards.yaml"
    number = int(line.split(":")[1])
    assert "monster: kraken" in path.read_text().splitlines()[number - 1]


# ---------------------------------------------------------------- locations and formats
def test_location_count_and_names(broken) -> None:
    lines = broken("locations", lambda d: d["locations"].pop())
    assert has(lines, "locations: 10 Locations, the rulebook has 11", "locations")
    assert has(lines, "locations: the rulebook's Mt Olympus is missing", "locations")


def test_location_name(broken) -> None:
    lines = broken("locations", lambda d: location(d, "athens").update(name="Athenai"))
    assert has(lines, "location athens: the rulebook names it Athens", "locations")


def test_stated_location_faith(broken) -> None:
    lines = broken("locations", lambda d: location(d, "naxos").update(faith=5))
    assert has(lines, "location naxos: the rulebook gives 4 Faith, not 5", "locations")


def test_card_format_reference(broken) -> None:
    lines = broken("locations", lambda d: d.update(card_format="tarot"))
    assert has(lines, "locations: card format 'tarot' does not exist", "locations")


def test_card_format_size(broken) -> None:
    lines = broken("card-formats", lambda d: d["formats"][0].update(width_mm=70))
    assert has(lines, "card format monster-card: must be 63 x 88 mm, not 70 x 88", "card-formats")


def test_card_format_inches(broken) -> None:
    lines = broken("card-formats", lambda d: d["formats"][1].update(width_in=3.0))
    assert has(lines, "card format location-card: inches and millimetres disagree", "card-formats")


def test_monster_cards_two_sided(broken) -> None:
    lines = broken("card-formats", lambda d: d["formats"][0].update(sides=1))
    assert has(lines, "card format for Monster cards must be two-sided", "card-formats")


# ---------------------------------------------------------------- throw steps and aids
def test_throw_step_order(broken) -> None:
    def swap(d: dict[str, Any]) -> None:
        d["steps"][3], d["steps"][4] = d["steps"][4], d["steps"][3]

    lines = broken("throw-steps", swap)
    assert has(lines, "throw steps: the rulebook's order is throw, trap-monster-powers", "throw-steps")
    assert has(lines, "numbered list: entry 4 is numbered 5", "throw-steps")  # the one numbered-list check


def test_trigger_without_step(broken) -> None:
    lines = broken("throw-steps", lambda d: d["steps"][2]["resolves"].pop(1))
    assert has(lines, "throw steps: no step resolves the HIT LOCATION powers of monsters", "throw-steps")


def test_aid_per_god(broken) -> None:
    lines = broken("player-aids", lambda d: d["aids"].pop())
    assert has(lines, "player aids: god white has 0 aids, expected 1", "player-aids")


def test_aid_lists_all_steps(broken) -> None:
    lines = broken("player-aids", lambda d: d["aids"][0]["steps"].pop())
    assert has(lines, "aid green-aid: steps must list every step of throw-steps.yaml in order", "player-aids")


def test_aid_keyword_missing(broken) -> None:
    lines = broken("player-aids", lambda d: d["keywords"].pop(3))
    assert has(lines, "player aids: no keyword explains MISS LOCATION", "player-aids")


# ---------------------------------------------------------------- setup
def test_deck_table_deck_size(broken) -> None:
    lines = broken("setup", lambda d: d["deck_table"]["rows"][0].update(deck=9))
    assert has(lines, "deck table, 2 gods: deck 9, expected 12 - 2 = 10", "setup")


def test_deck_table_underworld(broken) -> None:
    lines = broken("setup", lambda d: d["deck_table"]["rows"][3].update(underworld=4))
    assert has(lines, "deck table, 5 gods: Underworld 4, expected 5 (one per god)", "setup")


def test_deck_table_row_missing(broken) -> None:
    lines = broken("setup", lambda d: d["deck_table"]["rows"].pop(1))
    assert has(lines, "deck table: 0 rows for 3 gods, expected 1", "setup")


def test_player_range(broken) -> None:
    lines = broken("setup", lambda d: d["players"].update(max=6))
    assert has(lines, "setup: the rulebook plays 2-5 gods", "setup")
    assert has(lines, "deck table: 0 rows for 6 gods, expected 1", "setup")


def test_starting_hand(broken) -> None:
    lines = broken("setup", lambda d: d["play"].update(starting_hand=4))
    assert has(lines, "setup: each god starts with 3 cards", "setup")


def test_first_game_locations(broken) -> None:
    lines = broken("setup", lambda d: d["first_game"]["locations"].__setitem__(0, "atlantis"))
    assert has(lines, "first game: location 'atlantis' does not exist", "setup")
    assert has(lines, "first game: the rulebook uses athens, corinth, naxos, sparta, troy", "setup")


def test_setup_step_numbers(broken) -> None:
    lines = broken("setup", lambda d: d["steps"][1].update(number=3))
    assert has(lines, "numbered list: entry 2 is numbered 3", "setup")


# ---------------------------------------------------------------- scenarios
def test_scenario_unknown_location(broken) -> None:
    lines = broken("scenarios", lambda d: d["scenarios"][0]["layout"].update(centre="atlantis"))
    assert has(lines, "scenario basic-1: location 'atlantis' at centre does not exist", "scenarios")


def test_scenario_repeated_location(broken) -> None:
    lines = broken("scenarios", lambda d: d["scenarios"][0]["layout"].update(centre="troy"))
    assert has(lines, "scenario basic-1: needs 5 different Locations; repeated: troy", "scenarios")


def test_scenario_difficulty(broken) -> None:
    lines = broken("scenarios", lambda d: d["scenarios"][0].update(difficulty="legendary"))
    assert has(lines, "scenario basic-1: difficulty 'legendary' does not exist", "scenarios")


def test_scenario_count_and_duplicates(broken) -> None:
    def edit(d: dict[str, Any]) -> None:
        d["scenarios"][1]["layout"] = dict(d["scenarios"][0]["layout"])
        d["scenarios"].pop()

    lines = broken("scenarios", edit)
    assert has(lines, "scenarios: 11 layouts, the rulebook lists 12", "scenarios")
    assert has(lines, "scenario basic-2: same layout as basic-1", "scenarios")


def test_scenario_position_missing(broken) -> None:
    lines = broken("scenarios", lambda d: d["scenarios"][0]["layout"].pop("top-left"))
    assert has(lines, "'top-left' is required but missing", "scenarios")


# ---------------------------------------------------------------- tokens and components
def test_faith_denominations(broken) -> None:
    lines = broken("faith-tokens", lambda d: d["tokens"][3].update(value=25))
    assert has(lines, "faith tokens: denominations [1, 3, 10, 25], the rulebook has [1, 3, 10, 30]", "faith-tokens")


def test_faith_token_total(broken) -> None:
    lines = broken("faith-tokens", lambda d: d["tokens"][0].update(count=25))
    assert has(lines, "faith tokens: the counts in faith-tokens.yaml add up to 57; total_tokens says 56, the rulebook 56", "faith-tokens")
    assert has(lines, "component faith-tokens: count 56, but the data has 57 (faith-tokens.yaml)", "components")


def test_component_counts(broken) -> None:
    lines = broken("components", lambda d: find(d["components"], "monster-cards").update(count=61))
    assert has(lines, "component monster-cards: count 61, but the data has 60 (monster-cards.yaml)", "components")


def test_component_missing(broken) -> None:
    lines = broken("components", lambda d: d["components"].pop(4))
    assert has(lines, 'component "location-cards" is missing from', "components")


# ---------------------------------------------------------------- variants, FAQ, glossary, prose
def test_variant_combines_unknown(broken) -> None:
    lines = broken("variants", lambda d: find(d["variants"], "team-wars")["combines"].__setitem__(1, "civil-war"))
    assert has(lines, "variant team-wars: variant 'civil-war' does not exist", "variants")


def test_variant_excludes_unknown_rule(broken) -> None:
    lines = broken("variants", lambda d: find(d["variants"], "team-wars")["excludes_rules"].__setitem__(0, "no-such-rule"))
    assert has(lines, "variant team-wars: rule of a combined variant 'no-such-rule' does not exist", "variants")


def test_team_deck_split(broken) -> None:
    lines = broken("variants", lambda d: find(d["variants"], "team")["changes"].update(deck_split=5))
    assert has(lines, "variant team: 2 decks of 5 do not make one 12-card deck", "variants")


def test_epic_has_no_underworld(broken) -> None:
    lines = broken("variants", lambda d: find(d["variants"], "epic")["changes"].update(setup_underworld=1))
    assert has(lines, "variant epic: plays all 12 Monsters, so setup_underworld must be 0", "variants")


def test_faq_refs(broken) -> None:
    lines = broken("faq", lambda d: find(d["rulings"], "hellhound-at-troy")["refs"]["locations"].append("ithaca"))
    assert has(lines, "ruling hellhound-at-troy: location 'ithaca' does not exist", "faq")


def test_faq_step_refs(broken) -> None:
    lines = broken("faq", lambda d: find(d["rulings"], "phoenix-returns")["refs"]["steps"].append("step-8"))
    assert has(lines, "ruling phoenix-returns: step 'step-8' does not exist", "faq")


def test_glossary_see_also(broken) -> None:
    lines = broken("glossary", lambda d: d["terms"][0]["see_also"].append("titan"))
    assert has(lines, "term god: see_also 'titan' is not a term", "glossary")


def test_prose_reference_resolves(broken) -> None:
    lines = broken("rules", lambda d: d["sections"][0]["paragraphs"].append("Beware the [[monsters/kraken]]."))
    assert has(lines, "reference [[monsters/kraken]] names no record", "rules")


# ---------------------------------------------------------------- worked examples
def first_throw(d: dict[str, Any], example_id: str = "dragon-at-naxos") -> dict[str, Any]:
    return find(d["examples"], example_id)["throws"][0]


def test_example_final_faith(broken) -> None:
    lines = broken("examples", lambda d: find(d["examples"], "dragon-at-naxos")["final"]["faith"].update(blue=6))
    assert has(lines, "example dragon-at-naxos: final Faith of blue is 6 but the events give 5", "examples")


def test_example_final_hand(broken) -> None:
    lines = broken("examples", lambda d: find(d["examples"], "phoenix-then-cyclops-at-athens")["final"]["hands"]["orange"].pop())
    assert has(lines, "example phoenix-then-cyclops-at-athens: final hand of orange is", "examples")


def test_example_thrown_card_in_hand(broken) -> None:
    lines = broken("examples", lambda d: first_throw(d).update(card="blue-pegasus"))
    assert has(lines, "example dragon-at-naxos: blue-pegasus is thrown but is not in blue's hand", "examples")


def test_example_draw_from_top(broken) -> None:
    lines = broken("examples", lambda d: find(d["examples"], "dragon-at-naxos")["end_turn"].update(draw="blue-pegasus"))
    assert has(lines, "example dragon-at-naxos: blue draws blue-pegasus but the top of their deck is blue-manticore", "examples")


def test_example_location_faith(broken) -> None:
    lines = broken("examples", lambda d: first_throw(d)["steps"][3]["events"][0].update(amount=3))
    assert has(lines, "example dragon-at-naxos: gains 3 Faith at naxos, whose card shows 4", "examples")


def test_example_step_order(broken) -> None:
    lines = broken("examples", lambda d: first_throw(d)["steps"].reverse())
    assert has(lines, "example dragon-at-naxos: step trap-monster-powers is out of Throw Step order", "examples")


def test_example_unknown_card(broken) -> None:
    lines = broken("examples", lambda d: first_throw(d)["steps"][1]["hits"].append("red-kraken"))
    assert has(lines, "example dragon-at-naxos: card 'red-kraken' does not exist", "examples")


def test_example_location_not_on_table(broken) -> None:
    lines = broken("examples", lambda d: first_throw(d)["steps"][2].update(location="athens"))
    assert has(lines, "example dragon-at-naxos: location 'athens' is not on the table", "examples")


def test_example_next_god(broken) -> None:
    lines = broken("examples", lambda d: find(d["examples"], "dragon-at-naxos")["end_turn"].update(next="green"))
    assert has(lines, "example dragon-at-naxos: play passes to the left, to orange, not green", "examples")


def test_example_extra_throw_flag(broken) -> None:
    lines = broken("examples", lambda d: first_throw(d, "phoenix-then-cyclops-at-athens").update(extra_throw=False))
    assert has(lines, "example phoenix-then-cyclops-at-athens: extra_throw must be true exactly when another throw follows", "examples")


def test_example_take_more_than_held(broken) -> None:
    lines = broken("examples", lambda d: find(d["examples"], "dragon-at-naxos")["initial"]["faith"].update(green=0))
    assert has(lines, "example dragon-at-naxos: blue takes 1 Faith from green, who has 0", "examples")


def test_example_god_without_seat(broken) -> None:
    lines = broken("examples", lambda d: find(d["examples"], "dragon-at-naxos")["initial"]["faith"].update(white=1))
    assert has(lines, "example dragon-at-naxos: god white takes part but has no seat", "examples")


def test_faq_verdict_type(broken) -> None:
    lines = broken("faq", lambda d: find(d["rulings"], "hellhound-at-troy")["verdict"].update(value="three"))
    assert has(lines, "'three' is not of type 'integer'", "faq")


# ---------------------------------------------------------------- engine replays and rulings
def test_example_replay_engine_disagrees(broken) -> None:
    def edit(d: dict[str, Any]) -> None:  # a consistent ledger, but not what Naxos' power does
        example = find(d["examples"], "dragon-at-naxos")
        example["throws"][0]["steps"][2]["events"][0]["amount"] = 2
        example["final"]["faith"].update(blue=6, green=0)
    lines = broken("examples", edit)
    assert has(lines, "example dragon-at-naxos: throw 1, Throw Step location-powers: the engine gives "
                      "take_faith(blue green 1) but the example states take_faith(blue green 2)", "examples")
    assert has(lines, "example dragon-at-naxos: the engine ends with blue on 5 Faith, not 6", "examples")


def test_example_replay_missing_choice(broken) -> None:
    lines = broken("examples", lambda d: find(d["examples"], "phoenix-then-cyclops-at-athens")["throws"][0]["steps"][2].pop("choice"))
    assert has(lines, "example phoenix-then-cyclops-at-athens: the engine cannot replay it: location-powers: "
                      "orange must choose a option (gain_faith, draw_cards)", "examples")


def test_example_replay_extra_throw(broken) -> None:
    lines = broken("examples", lambda d: find(d["examples"], "dragon-at-naxos")["throws"][0]["steps"][1]["hits"].clear())
    assert has(lines, "example dragon-at-naxos: throw 1, Throw Step monster-powers: the engine gives nothing", "examples")


def test_ruling_missing_for_engine(broken) -> None:
    lines = broken("rulings", lambda d: d["rulings"].pop(0))
    assert has(lines, "ruling power-throw-scores-only: the engine follows it but it has no record", "rulings")


def test_ruling_not_followed(broken) -> None:
    def edit(d: dict[str, Any]) -> None:
        d["rulings"].append(dict(d["rulings"][0], id="made-up"))
    lines = broken("rulings", edit)
    assert has(lines, "ruling made-up: the engine does not follow it", "rulings")
