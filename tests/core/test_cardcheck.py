"""validate lays out every card face as the build does: what build would refuse, validate finds first,
with the build's own message, pointing at the data field that holds the offending text."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline import store
from pipeline.base.errors import UserError
from pipeline.cards import build
from pipeline.cards.build import BuildOptions, render_pdf
from pipeline.data.dataset import load_game
from pipeline.games.registry import spec as spec_of
from tests.core.data_edits import validate_cli

GAME = "theocracy"
POWER_CARDS = Path(GAME) / "power-cards.yaml"
LONG_TITLE = "The Smallest Spark Of Humility Still Opens The Whole Wide Sky Again"  # 12 words
TITLE_LINES = (6, 48, 90, 132)  # the title lines of the four value-1 power cards (one per house)


def _retitle(root: Path, old: str, new: str, *, count: int = -1) -> None:
    path = root / POWER_CARDS
    text = path.read_text(encoding="utf-8")
    assert f"title: {old}\n" in text
    path.write_text(text.replace(f"title: {old}\n", f"title: {new}\n", count), encoding="utf-8")


def test_a_title_too_long_for_its_box_is_refused_by_validate_at_the_title_line(data_copy: Path) -> None:
    _retitle(data_copy, "Humility", LONG_TITLE)  # all four houses, so the twin check agrees
    result = validate_cli(data_copy, GAME)
    assert result.returncode == 1, result.stdout
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stdout.splitlines() if "does not fit" in line]
    assert [line.split(": ", 1)[0].rsplit("power-cards.yaml:", 1)[1] for line in lines] == [f"{n}:12" for n in TITLE_LINES]
    assert "card gold-power-1" in lines[0] and "(title): text 'The Smallest Spark" in lines[0]
    assert "does not fit its 36x9 mm box even at the minimum size 8 pt" in lines[0]
    # the build, drawing the same card, refuses it with the very same line
    data = load_game(data_copy, spec_of(GAME))
    with pytest.raises(UserError) as refused:
        render_pdf(build.plan(data_copy, GAME, data), BuildOptions())
    assert str(refused.value).replace(str(data_copy), "") in [line.replace(str(data_copy), "") for line in lines]


def test_one_changed_twin_is_blamed_not_the_three_that_agree(data_copy: Path) -> None:
    _retitle(data_copy, "Humility", "Meekness", count=1)  # gold-power-1 only
    result = validate_cli(data_copy, GAME)
    assert result.returncode == 1
    problems = [line for line in result.stdout.splitlines() if "title" in line]
    assert len(problems) == 1, result.stdout
    assert f"power-cards.yaml:{TITLE_LINES[0]}:" in problems[0]
    assert "gold-power-1 (gold): title 'Meekness' differs from 'Humility'" in problems[0]
    assert "crimson-power-1, azure-power-1, jade-power-1" in problems[0] and "this card's title changed" in problems[0]


def test_two_against_two_twins_are_all_named(data_copy: Path) -> None:
    _retitle(data_copy, "Humility", "Meekness", count=2)  # gold and crimson
    result = validate_cli(data_copy, GAME)
    problems = [line for line in result.stdout.splitlines() if "must share a title" in line]
    assert len(problems) == 4, result.stdout
    assert "'Meekness' on gold-power-1, crimson-power-1; 'Humility' on azure-power-1, jade-power-1" in problems[0]


def test_too_many_words_points_at_the_longest_field(data_copy: Path) -> None:
    path = data_copy / POWER_CARDS
    text = path.read_text(encoding="utf-8")
    flavour = "flavour: The smallest spark still opens the sky."
    assert text.count(flavour) == 1
    path.write_text(text.replace(flavour, "flavour: " + " ".join(["word"] * 46)), encoding="utf-8")
    result = validate_cli(data_copy, GAME)
    words = [line for line in result.stdout.splitlines() if "words of text" in line]
    assert len(words) == 1 and "power-cards.yaml:8:14: power card gold-power-1 (gold): 50 words of text" in words[0], words



def test_the_build_draws_the_faces_validate_laid_out_into_the_same_sheets(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Faces handed on from validate's card check (one command, no store between them) make the very bytes
    faces laid out afresh make, in both editions, and the full-colour edition splits none of them again."""
    from pipeline.base import locations
    from pipeline.cards.cardcheck import card_problems
    from pipeline.cards.cardlayout import LaidOutCards
    from pipeline.cards.faces import Splitter
    from pipeline.checks.validate import RecordCatalogue
    from pipeline.data.dataset import default_data_root
    from pipeline.games.registry import catalogue

    def fresh_cache(name: str) -> None:  # nothing kept between these runs: every face comes from where it is handed
        monkeypatch.setenv("PANTHEON_CACHE", str(tmp_path / name))

    fresh_cache("check")
    loaded = RecordCatalogue(default_data_root(), catalogue()).game(GAME)
    faces = LaidOutCards(store.scope())
    assert card_problems(loaded, keep=faces) == []
    laid_out = faces.of(GAME, locations.template_root())
    assert laid_out is not None
    assert faces.of(GAME, tmp_path) is None  # a build from other templates lays its faces out itself
    the_plan = build.plan(default_data_root(), GAME, loaded)
    splits = []
    real_split = Splitter.split
    monkeypatch.setattr(Splitter, "split", lambda self, *args: splits.append(args[1]) or real_split(self, *args))
    for edition in build.editions(BuildOptions()):
        fresh_cache(f"handed-{edition.ink_saver}")
        splits.clear()
        handed = render_pdf(the_plan, edition, laid_out=laid_out)
        if not edition.ink_saver:
            assert splits == []  # every face drawn as validate laid it out
        fresh_cache(f"alone-{edition.ink_saver}")
        assert handed == render_pdf(the_plan, edition), f"ink_saver={edition.ink_saver}"
