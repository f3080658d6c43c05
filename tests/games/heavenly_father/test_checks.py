"""Every Who's Your Heavenly Father? cross-check catches the data it exists to catch.

Each case breaks a copy of the data (schema-valid, so the cross-checks run)
and asserts the specific message appears; a few also pin the file and line.
Paths in the edits may name a record by id as ``"@<id>"`` instead of an index.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Union

import pytest

from pipeline.data.dataset import default_data_root, load_game
from pipeline.data.problems import Problem
from pipeline.games.registry import spec as spec_of

GAME = "heavenly-father"
SCHEMAS = "schemas"
Key = Union[str, int]
Edit = Callable[[Any], None]


def resolve(data: Any, key: Key) -> Key:
    """``"@some-id"`` -> the index of the record with that id in the list ``data``."""
    if isinstance(key, str) and key.startswith("@"):
        return next(i for i, r in enumerate(data) if r.get("id") == key[1:])
    return key


def node(data: Any, *path: Key) -> Any:
    for key in path:
        data = data[resolve(data, key)]
    return data


def put(*path_and_value: Any) -> Edit:
    """Edit that sets the node at the path to the value (the last argument)."""
    *path, value = path_and_value

    def edit(data: Any) -> None:
        parent = node(data, *path[:-1])
        parent[resolve(parent, path[-1])] = value

    return edit


def drop(*path: Key) -> Edit:
    """Edit that deletes the node at the path."""

    def edit(data: Any) -> None:
        parent = node(data, *path[:-1])
        del parent[resolve(parent, path[-1])]

    return edit


def append(*path_and_value: Any) -> Edit:
    *path, value = path_and_value
    return lambda data: node(data, *path).append(value)


def chain(*edits: Edit) -> Edit:
    def edit(data: Any) -> None:
        for one in edits:
            one(data)

    return edit


def every_option(fn: Callable[[dict], None]) -> Edit:
    def edit(data: Any) -> None:
        for dilemma in data["dilemmas"]:
            for option in dilemma["options"]:
                fn(option)

    return edit


def strip_virtue(field: str, virtue: str) -> Edit:
    """Edit that removes ``virtue`` from every option's ``gain`` or ``lose`` (dropping emptied maps)."""

    def strip(option: dict) -> None:
        amounts = option.get(field, {})
        amounts.pop(virtue, None)
        if field in option and not amounts:
            del option[field]

    return every_option(strip)


def copy_record(list_key: str, source_id: str, **changes: Any) -> Edit:
    """Edit that appends a copy of a record with some fields changed."""

    def edit(data: Any) -> None:
        record = json.loads(json.dumps(node(data, list_key, f"@{source_id}")))
        record.update(changes)
        data[list_key].append(record)

    return edit


@pytest.fixture
def game_copy(data_copy_of: Callable[..., Path]) -> Path:
    """A copy of the data with only this game (and the shared schema): other games' work in progress cannot interfere."""
    return data_copy_of(GAME)


@pytest.fixture
def broken(game_copy: Path, edit_yaml, validate) -> Callable[..., list[Problem]]:
    """``broken((kind, edit), ...)``: apply the edits to the copy, return every problem found."""

    def run(*edits: tuple[str, Edit]) -> list[Problem]:
        for kind, edit in edits:
            edit_yaml(game_copy / GAME / f"{kind}.yaml", lambda data, edit=edit: _discard(edit(data)))
        return validate(game_copy, [GAME], fold=False)

    return run


def _discard(_result: Any) -> None:
    """Edits mutate in place; drop what ``list.pop`` and friends return so edit_yaml keeps the data."""
    return None


def messages(problems: list[Problem]) -> str:
    return "\n".join(map(str, problems))


def assert_reported(problems: list[Problem], fragment: str) -> Problem:
    hits = [p for p in problems if fragment in p.message]
    assert hits, f"expected a problem containing {fragment!r}, got:\n{messages(problems)}"
    return hits[0]


def test_shipped_data_is_clean(validate) -> None:
    assert messages(validate(default_data_root(), [GAME])) == ""


OPTION_A = ("dilemmas", "@office-lasagna", "options", 0)
TRAFFIC = ("dilemmas", "@traffic-light-trouble")
EXTRA_COMPONENT = {"id": "dice", "name": "Dice", "count": 2, "provenance": {"source": "authored"}}
EXTRA_PARAMETER = {"id": "max-gods", "value": 3, "description": "Made up.", "provenance": {"source": "authored"}}

CASES: dict[str, tuple[tuple[str, Edit], str]] = {
    # counts
    "god count": (("gods", drop("gods", "@robin-hood-god")), "gods: 9 God cards, the rulebook has 10"),
    "dilemma count": (("dilemmas", drop("dilemmas", "@chain-message")), "dilemmas: 64 Moral Dilemma cards, the rulebook has 65"),
    "philosopher count": (("philosophers", drop("philosophers", "@nihilist-the-cat")), "philosophers: 22 Philosopher cards, the rulebook has 23"),
    # components
    "component count vs rulebook": (("components", put("components", "@god-cards", "count", 11)), "component god-cards: count 11, the rulebook says 10"),
    "component count vs data": (("components", put("components", "@god-cards", "count", 11)), "component god-cards: count 11, but the data has 10 (gods.yaml)"),
    "component vs cheat sheets": (("cheat-sheets", put("cheat_sheets", 0, "count", 6)), "cheat-sheets.yaml holds 6 cheat sheets, but components.yaml counts 8, as the rulebook does"),
    "component vs tokens": (("tokens", put("tokens", "@justice-token", "count", 25)), "tokens.yaml holds 25 justice tokens, but components.yaml counts 30, as the rulebook does"),
    "component missing": (("components", drop("components", "@markers")), 'component "markers" is missing from'),
    "component unknown": (("components", append("components", EXTRA_COMPONENT)), "component dice: not in the rulebook's Contents"),
    "mortal card total": (("components", put("components", "@philosopher-cards", "count", 24)), "components: 89 Mortal cards"),
    # virtues
    "virtue order": (("virtues", lambda d: d["virtues"].reverse()), "the rulebook's are selfishness, xenophobia, benevolence, justice, in that order"),
    "virtue colour": (("virtues", put("virtues", "@justice", "colour", "blue")), "virtue justice: colour blue, the rulebook says red"),
    "virtue name": (("virtues", put("virtues", "@selfishness", "name", "Greed")), "virtue selfishness: name 'Greed', the rulebook says 'Selfishness'"),
    "virtue abbreviation": (("virtues", put("virtues", "@selfishness", "abbreviation", "Q")), "virtue selfishness: abbreviation Q, expected S"),
    "virtue position": (("virtues", put("virtues", "@selfishness", "position", 2)), "numbered list: virtue selfishness has position 2, but it is virtue 1"),
    # gods
    "god missing virtue": (("gods", drop("gods", "@referee-god", "points", "xenophobia")), "god referee-god: no points for xenophobia"),
    "god unknown virtue": (("gods", put("gods", "@referee-god", "points", "piety", 2)), "god referee-god: points for unknown virtue 'piety'"),
    "god favours nothing": (("gods", put("gods", "@referee-god", "points", {"selfishness": 0, "xenophobia": -2, "benevolence": 0, "justice": 0})), "god referee-god: favours no Virtue"),
    "god opposes nothing": (("gods", put("gods", "@referee-god", "points", "xenophobia", 0)), "god referee-god: opposes no Virtue"),
    "god duplicate name": (("gods", put("gods", "@referee-god", "name", "Trickster God")), "god referee-god: name 'Trickster God' is also the name of god trickster-god"),
    "god duplicate points": (("gods", put("gods", "@referee-god", "points", {"selfishness": -1, "xenophobia": 0, "benevolence": 2, "justice": -1})), "god referee-god: same points as god robin-hood-god"),
    "country club points": (("gods", put("gods", "@country-club-god", "points", "justice", 1)), "god country-club-god: points differ from the rulebook's (selfishness +1, xenophobia +1, benevolence -1, justice +0)"),
    "country club name": (("gods", put("gods", "@country-club-god", "name", "Golf Club God")), "god country-club-god: name 'Golf Club God', the rulebook says 'Country Club God'"),
    "country club missing": (("gods", put("gods", "@country-club-god", "id", "golf-club-god")), 'god "country-club-god" is missing from'),
    # dilemmas
    "option unknown virtue": (("dilemmas", put(*OPTION_A, "gain", "piety", 1)), "dilemma office-lasagna option a: gains unknown virtue 'piety'"),
    "option changes nothing": (("dilemmas", put(*OPTION_A, {"id": "a", "label": "Stare at it"})), "dilemma office-lasagna option a: changes nothing"),
    "option gains and loses": (("dilemmas", put(*OPTION_A, "lose", "selfishness", 1)), "dilemma office-lasagna option a: both gains and loses selfishness"),
    "option label too long": (("dilemmas", put(*OPTION_A, "label", "Eat the whole lasagna and then lick the dish clean")), "dilemma office-lasagna option a: label has 10 words, at most 8 fit"),
    "option order": (("dilemmas", lambda d: node(d, "dilemmas", "@office-lasagna", "options").reverse()), "dilemma office-lasagna: options must be a and b, in that order"),
    "options same consequences": (("dilemmas", put("dilemmas", "@office-lasagna", "options", 1, {"id": "b", "label": "Eat it later", "gain": {"selfishness": 2}, "lose": {"justice": 1}})), "dilemma office-lasagna: both options have the same consequences"),
    "options same label": (("dilemmas", put("dilemmas", "@office-lasagna", "options", 1, "label", "Eat the lasagna")), "option b: label 'Eat the lasagna' is also the label of option a"),
    "situation sentences": (("dilemmas", put("dilemmas", "@office-lasagna", "situation", "One. Two. Three. Four.")), "dilemma office-lasagna: situation has 4 sentences, expected 1 to 3"),
    "situation words": (("dilemmas", put("dilemmas", "@office-lasagna", "situation", "word " * 40 + "end.")), "dilemma office-lasagna: situation has 41 words, at most 35 fit"),
    "situation punctuation": (("dilemmas", put("dilemmas", "@office-lasagna", "situation", "No full stop here")), "dilemma office-lasagna: situation must end with a full stop"),
    "duplicate title": (("dilemmas", put("dilemmas", "@office-lasagna", "title", "Wrong change")), "dilemma wrong-change: title 'Wrong change' is also the title of dilemma office-lasagna"),
    "duplicate situation": (("dilemmas", put("dilemmas", "@wrong-change", "situation", "A colleague's labelled lasagna has sat in the office fridge for three days. You forgot your lunch, and you are starving.")), "dilemma wrong-change: same situation as dilemma office-lasagna"),
    "duplicate consequence pair": (("dilemmas", put("dilemmas", "@the-tip", "options", 0, "lose_cards", 1)), "dilemma the-tip: same pair of consequences as dilemma night-barking"),
    "traffic light title": (("dilemmas", put(*TRAFFIC, "title", "Red light")), "dilemma traffic-light-trouble: title 'Red light', the rulebook says 'Traffic light trouble'"),
    "traffic light consequence": (("dilemmas", put(*TRAFFIC, "options", 0, "lose", {"benevolence": 1})), "dilemma traffic-light-trouble: no option gains selfishness and loses justice"),
    "traffic light missing": (("dilemmas", put(*TRAFFIC, "id", "red-light")), "dilemma traffic-light-trouble: missing"),
    # philosopher kinds
    "kind power": (("philosopher-kinds", put("philosopher_kinds", "@prophet", "power", "effects", 0, "count", 2)), "philosopher kind prophet: power differs from the rulebook's description"),
    "kind text vs power": (("philosopher-kinds", put("philosopher_kinds", "@prophet", "text", "Look at a god.")), "philosopher kind prophet: text does not match its power"),
    "kind text rendered": (("philosopher-kinds", put("philosopher_kinds", "@prophet", "power", "effects", 0, "count", 2)), "rendered: 'Secretly look at two False Gods"),
    "kind text words": (("philosopher-kinds", put("philosopher_kinds", "@prophet", "text", "blah " * 50)), "philosopher kind prophet: text has 50 words, at most 45 fit"),
    "kind name": (("philosopher-kinds", put("philosopher_kinds", "@cult-leader", "name", "Guru")), "philosopher kind cult-leader: name 'Guru', the rulebook says 'Cult Leader'"),
    "kind copies total": (("philosopher-kinds", put("philosopher_kinds", "@rationalist", "copies", "count", 4)), "philosopher kinds: copies add up to 24, the rulebook has 23"),
    "kind copies vs cards": (("philosopher-kinds", put("philosopher_kinds", "@rationalist", "copies", "count", 4)), "philosophers: 3 Rationalist cards, philosopher-kinds.yaml says 4"),
    "kind unknown": (("philosopher-kinds", put("philosopher_kinds", "@nihilist", "id", "stoic")), "philosopher kind stoic: not one of the rulebook's kinds"),
    "kind missing": (("philosopher-kinds", put("philosopher_kinds", "@nihilist", "id", "stoic")), 'philosopher kind "nihilist" is missing from'),
    # philosophers
    "card unknown kind": (("philosophers", put("philosophers", "@nihilist-the-cat", "kind", "stoic")), "philosopher nihilist-the-cat: unknown kind 'stoic'"),
    "card moved kind": (("philosophers", put("philosophers", "@prophet-tarot-app", "kind", "skeptic")), "philosophers: 5 Skeptic cards, philosopher-kinds.yaml says 4"),
    "card duplicate name": (("philosophers", put("philosophers", "@nihilist-the-cat", "name", "The Actuary")), "philosopher nihilist-the-cat: name 'The Actuary' is also the name of philosopher rationalist-actuary"),
    "card duplicate quote": (("philosophers", put("philosophers", "@nihilist-the-cat", "quote", "Like. Subscribe. Obey.")), "philosopher nihilist-the-cat: same quote as philosopher cult-leader-wellness-influencer"),
    # tokens
    "token count": (("tokens", put("tokens", "@justice-token", "count", 25)), "token justice-token: 25 tokens, the rulebook has 30 of each colour"),
    "token unknown virtue": (("tokens", put("tokens", "@justice-token", "virtue", "piety")), "token justice-token: unknown virtue 'piety'"),
    "token virtue missing": (("tokens", put("tokens", "@justice-token", "virtue", "piety")), "tokens: no token for virtue justice"),
    "token virtue twice": (("tokens", copy_record("tokens", "justice-token", id="red-token")), "token red-token: a second token kind for justice (first: justice-token)"),
    "prayer beads missing": (("tokens", drop("tokens", "@prayer-beads")), 'token "prayer-beads" is missing from'),
    "prayer beads count": (("tokens", put("tokens", "@prayer-beads", "count", 2)), "token prayer-beads: must be a single token with no virtue"),
    # envelope
    "envelope holds": (("envelope", put("envelopes", 0, "holds_gods", 2)), "envelope judgment-day-envelope: holds 2 gods, setup seals 1"),
    # the schema holds two sides by id, so the judgment-day side goes missing only as a second "sealed": the cause told
    "envelope side missing": (("envelope", put("envelopes", 0, "sides", 1, "id", "sealed")), 'id "sealed" is used twice'),
    "envelope side shown": (("envelope", put("envelopes", 0, "sides", 1, "shown", "from-setup")), "envelope judgment-day-envelope: the judgment-day side must be shown when-called"),
    "envelope heading": (("envelope", put("envelopes", 0, "sides", 1, "heading", "Doom")), "envelope judgment-day-envelope: the judgment-day side must read 'Judgment Day'"),
    # cheat sheets
    "cheat sheet missing god": (("cheat-sheets", drop("cheat_sheets", 0, "rows", 9)), "cheat sheet god-tracker: god robin-hood-god is not listed"),
    "cheat sheet unknown god": (("cheat-sheets", put("cheat_sheets", 0, "rows", 9, "zeus")), "cheat sheet god-tracker: unknown god 'zeus'"),
    # parameters
    "parameter value": (("parameters", put("parameters", "@hand-size", "value", 6)), "parameter hand-size: 6, the rulebook says 5"),
    "parameter missing": (("parameters", drop("parameters", "@reclaim-discard-cost")), 'parameter "reclaim-discard-cost" is missing from'),
    "parameter unknown": (("parameters", append("parameters", EXTRA_PARAMETER)), "parameter max-gods: not a rulebook number this game knows"),
    "parameter supply tokens": (("parameters", put("parameters", "@max-players", "value", 11)), "parameters: 11 players need 33 for starting tokens, the box has 30"),
    "parameter supply gods": (("parameters", put("parameters", "@max-players", "value", 11)), "parameters: 11 players need 12 for God cards, the box has 10"),
    "parameter supply sheets": (("parameters", put("parameters", "@max-players", "value", 11)), "parameters: 11 players need 11 for cheat sheets, the box has 8"),
    "parameter supply hands": (("parameters", put("parameters", "@hand-size", "value", 20)), "parameters: 6 players need 120 for starting hands, the box has 88"),
    # turn actions
    "turn action order": (("turn-actions", lambda d: d["turn_actions"].reverse()), "the rulebook's are resolve-prayer, play-dilemma"),
    "turn action number": (("turn-actions", put("turn_actions", "@draw-card", "number", 7)), "numbered list: entry 5 is numbered 7"),
    "turn action not blocked by prayer": (("turn-actions", put("turn_actions", "@draw-card", "forbidden_when", ["draw-pile-empty"])), "turn action draw-card: must be forbidden while praying"),
    "turn action rulebook ban": (("turn-actions", put("turn_actions", "@call-judgment-day", "forbidden_when", ["praying"])), "turn action call-judgment-day: the rulebook forbids it when barred-by-rationalist"),
    "turn action no mandatory": (("turn-actions", drop("turn_actions", "@resolve-prayer", "mandatory_when")), "turn actions: exactly one must be mandatory while praying, found 0"),
    "turn action mandatory requires": (("turn-actions", drop("turn_actions", "@resolve-prayer", "requires")), "turn action resolve-prayer: mandatory when praying but does not require it"),
    # balance
    "claim missing": (("balance", drop("claims", "@easier-to-lose-by-tokens")), "balance claim easier-to-lose-by-tokens: missing"),
    "claim weakened": (("balance", put("claims", "@easier-to-lose-by-tokens", "lower", ["selfishness"])), "balance claim easier-to-lose-by-tokens: differs from the rulebook statement"),
    "claim measure undefined": (("balance", drop("measures", "@tokens-lost")), "balance claim easier-to-lose-by-tokens: measure 'tokens-lost' is not defined"),
    "claim unknown virtue": (("balance", append("claims", {"id": "extra", "statement": "Made up.", "measure": "tokens-lost", "comparison": "each-over-each", "higher": ["piety"], "lower": ["justice"], "provenance": {"source": "authored"}})), "balance claim extra: unknown virtue 'piety'"),
    "gods prefer fails": (("gods", chain(
        put("gods", "@flower-child-god", "points", "selfishness", 3),
        put("gods", "@hall-monitor-god", "points", "selfishness", 3),
        put("gods", "@social-worker-god", "points", "selfishness", 3))),
        "balance claim gods-prefer-benevolence-or-justice: by preferred-by, 3 records for benevolence or justice do not exceed 7 for selfishness or xenophobia"),
    "easier to gain fails": (("dilemmas", strip_virtue("gain", "benevolence")),
        "balance claim easier-to-gain-by-tokens: by tokens-gained, benevolence (0) does not exceed xenophobia (41)"),
    "easier to gain by options fails": (("dilemmas", strip_virtue("gain", "benevolence")),
        "balance claim easier-to-gain-by-options: by options-gaining, benevolence (0) does not exceed justice (43)"),
    "easier to lose fails": (("dilemmas", strip_virtue("lose", "justice")),
        "balance claim easier-to-lose-by-tokens: by tokens-lost, justice (0) does not exceed xenophobia (22)"),
    # stored examples, replayed by the engine
    "example score": (("examples", put("scoring_examples", "@country-club-worked", "expect", "scores", 0, 2)),
        "scoring example country-club-worked: player ana scores 1, the example says 2"),
    "example winners": (("examples", put("scoring_examples", "@tie-for-highest", "expect", "winners", ["ana"])),
        "scoring example tie-for-highest: winners ana, ben, the example says ana"),
    "example unknown god": (("examples", put("scoring_examples", "@tie-for-highest", "god", "zeus")),
        "scoring example tie-for-highest: unknown god 'zeus'"),
    "example stranger wins": (("examples", put("scoring_examples", "@tie-for-highest", "expect", "winners", ["ana", "zed"])),
        "scoring example tie-for-highest: winner 'zed' is not one of the players"),
    "example score count": (("examples", put("scoring_examples", "@tie-for-highest", "expect", "scores", [7, 7])),
        "scoring example tie-for-highest: 2 scores for 3 players"),
    "example name twice": (("examples", put("scoring_examples", "@tie-for-highest", "players", 1, "name", "ana")),
        "scoring example tie-for-highest: player name 'ana' used twice"),
    "example god points changed": (("gods", put("gods", "@referee-god", "points", "justice", 2)),
        "scoring example tie-for-highest: player ana scores 11, the example says 7"),
    "example dilemma result": (("examples", put("dilemma_examples", "@no-debt", "after", "justice", 1)),
        "dilemma example no-debt: after option a of traffic-light-trouble, justice is 0, the example says 1"),
    "example dilemma card changed": (("dilemmas", put("dilemmas", "@jury-summons", "options", 0, "gain", "selfishness", 1)),
        "dilemma example lose-what-you-have: after option a of jury-summons, selfishness is 4, the example says 5"),
    "example unknown dilemma": (("examples", put("dilemma_examples", "@no-debt", "dilemma", "red-light")),
        "dilemma example no-debt: unknown dilemma 'red-light'"),
    # prose
    "rules section missing": (("rules", lambda d: d["sections"].pop()), "rules: no section clarifications"),
    "rules action unmentioned": (("rules", put("sections", "@turns", "items", 4, "Draw a card.")), "rules: never mention [[turn-actions/draw-card]]"),
    "glossary see_also": (("glossary", put("terms", "@bank", "see_also", ["nonsense"])), "term bank: see_also 'nonsense' is not a term"),
}


@pytest.mark.parametrize("edit, fragment", CASES.values(), ids=list(CASES))
def test_cross_check_reports(broken, edit: tuple[str, Edit], fragment: str) -> None:
    assert_reported(broken(edit), fragment)


def test_problem_points_at_the_node(broken, game_copy: Path) -> None:
    problem = assert_reported(broken(("virtues", put("virtues", "@justice", "colour", "blue"))), "virtue justice: colour")
    index = node(load_game(game_copy, spec_of(GAME)).doc("virtues").data["virtues"], "@justice")
    assert problem.at.file.endswith("data/heavenly-father/virtues.yaml")
    assert problem.at.line == load_game(game_copy, spec_of(GAME)).doc("virtues").at("virtues", 3, "colour").line
    assert index["id"] == "justice"


def test_option_problem_points_at_the_option(broken, game_copy: Path) -> None:
    problem = assert_reported(broken(("dilemmas", put(*OPTION_A, "gain", "piety", 1))), "gains unknown virtue")
    doc = load_game(game_copy, spec_of(GAME)).doc("dilemmas")
    index = resolve(doc.data["dilemmas"], "@office-lasagna")
    assert problem.at.line == doc.at("dilemmas", index, "options", 0, "gain", "piety").line


def _widen_schema(root: Path, kind: str, fn: Callable[[dict], None]) -> None:
    path = root / SCHEMAS / GAME / f"{kind}.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    fn(schema)
    path.write_text(json.dumps(schema), encoding="utf-8")


def test_power_without_a_phrase_is_reported(broken, game_copy: Path) -> None:
    """A power the phrase table cannot word (schema widened first, as a new feature would)."""
    _widen_schema(game_copy, "philosopher-kinds",
                  lambda s: s["$defs"]["power"]["properties"]["requires"]["enum"].append("full-moon"))
    problems = broken(("philosopher-kinds", put("philosopher_kinds", "@prophet", "power", "requires", "full-moon")))
    assert_reported(problems, "philosopher kind prophet: no printed phrase for 'full-moon'")


def test_measure_without_implementation_is_reported(broken, game_copy: Path) -> None:
    _widen_schema(game_copy, "balance",
                  lambda s: s["properties"]["measures"]["items"]["properties"]["id"]["enum"].append("vibes"))
    extra = {"id": "vibes", "name": "Vibes", "definition": "Made up.", "provenance": {"source": "authored"}}
    assert_reported(broken(("balance", append("measures", extra))), "measure vibes: no implementation in checks.py")


def test_every_claim_holds_by_a_margin_on_shipped_data() -> None:
    """The shipped data satisfies each rulebook balance statement (no claim passes on a tie)."""
    from pipeline.games.heavenly_father import checks
    from pipeline.games.heavenly_father.model import build

    model = build(load_game(default_data_root(), spec_of(GAME)))
    for measure, comparison, higher, lower in checks.BALANCE_CLAIMS.values():
        assert checks.claim_failures(model, measure, comparison, sorted(higher), sorted(lower)) == []
