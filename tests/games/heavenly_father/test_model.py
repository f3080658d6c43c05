"""model.build and the text renderers on the shipped data."""
from __future__ import annotations

from collections import Counter

import pytest

from pipeline.data.dataset import default_data_root, load_game
from pipeline.games.heavenly_father import GAME_ID, TITLE
from pipeline.games.heavenly_father.model import HeavenlyFatherModel, Timing, build
from pipeline.games.heavenly_father.text import consequence_text, power_text
from pipeline.games.registry import spec as spec_of


@pytest.fixture(scope="module")
def model() -> HeavenlyFatherModel:
    return build(load_game(default_data_root(), spec_of(GAME_ID)))


def test_package_identity() -> None:
    assert (GAME_ID, TITLE) == ("heavenly-father", "Who's Your Heavenly Father?")


def test_record_counts(model: HeavenlyFatherModel) -> None:
    assert len(model.gods) == 10
    assert len(model.dilemmas) == 65
    assert len(model.philosophers) == 23
    assert len(model.philosopher_kinds) == 6
    assert len(model.turn_actions) == 6
    assert all(len(d.options) == 2 for d in model.dilemmas)


def test_philosopher_split(model: HeavenlyFatherModel) -> None:
    per_kind = Counter(p.kind for p in model.philosophers)
    assert per_kind == {"prophet": 4, "skeptic": 4, "annoying-undergrad": 4, "rationalist": 3, "cult-leader": 4, "nihilist": 4}
    assert {k.id for k in model.philosopher_kinds if k.lingers} == {"annoying-undergrad", "cult-leader", "nihilist"}


def test_virtue_order_is_s_x_b_j(model: HeavenlyFatherModel) -> None:
    assert model.virtue_order == ("selfishness", "xenophobia", "benevolence", "justice")
    assert "".join(v.abbreviation for v in model.virtues) == "SXBJ"


def test_country_club_god_scores_the_worked_example(model: HeavenlyFatherModel) -> None:
    god = model.god("country-club-god")
    assert god.score(model.holdings([4, 2, 5, 3])) == 1  # rules.yaml scoring-worked-example
    assert god.preferred == god.favoured == {"selfishness", "xenophobia"}
    assert god.opposed == {"benevolence"}


def test_holdings_needs_one_count_per_virtue(model: HeavenlyFatherModel) -> None:
    with pytest.raises(ValueError, match="expected 4 counts"):
        model.holdings([1, 2, 3])


def test_unknown_god_is_a_key_error(model: HeavenlyFatherModel) -> None:
    with pytest.raises(KeyError):
        model.god("zeus")


def test_preferred_counts_ties(model: HeavenlyFatherModel) -> None:
    assert model.god("social-worker-god").preferred == {"benevolence", "justice"}
    assert model.god("venture-capital-god").preferred == {"selfishness"}
    assert model.god("venture-capital-god").favoured == {"selfishness", "justice"}


def test_power_text_is_the_printed_text(model: HeavenlyFatherModel) -> None:
    for kind in model.philosopher_kinds:
        assert power_text(kind.power) == kind.text


def test_rationalist_power_structure(model: HeavenlyFatherModel) -> None:
    rationalist = next(k for k in model.philosopher_kinds if k.id == "rationalist")
    assert rationalist.power.timing is Timing.IMMEDIATE
    assert [op.name for op in rationalist.power.effects] == ["cancel-judgment-day", "extra-action"]


def test_consequence_text(model: HeavenlyFatherModel) -> None:
    names = {v.id: v.name for v in model.virtues}
    traffic = next(d for d in model.dilemmas if d.id == "traffic-light-trouble")
    assert [consequence_text(o.consequence, names) for o in traffic.options] == [
        "+1 Selfishness, -1 Justice",
        "+1 Justice, lose 1 card",
    ]
    game_night = next(d for d in model.dilemmas if d.id == "game-night")
    assert consequence_text(game_night.options[0].consequence, names) == "+1 Selfishness, -2 Justice, draw 2 cards"


def test_parameters_and_components(model: HeavenlyFatherModel) -> None:
    assert model.parameters["hand-size"] == 5
    assert model.parameters["starting-tokens-per-virtue"] == 3
    assert model.components["god-cards"] == 10
    assert sum(t.count for t in model.tokens if t.virtue) == 120


def test_only_resolving_a_prayer_is_allowed_while_praying(model: HeavenlyFatherModel) -> None:
    allowed = [a.id for a in model.turn_actions if "praying" not in a.forbidden_when]
    assert allowed == ["resolve-prayer"]
