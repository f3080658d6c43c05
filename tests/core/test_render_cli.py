"""`pantheon build` / `pantheon preview` end to end: good builds, the cache, and every kind of bad input.

Bad input (a card whose text cannot fit, a template error, a missing icon, an
unwritable output folder, invalid data) is one clear line on stderr, exit 1,
no traceback, and the previous good PDF stays as it was.
"""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pipeline.cards.svgtemplates import TEMPLATE_ROOT

from .render_helpers import run_cli

GAME = "theocracy"
POWER = Path("cards") / GAME / "power.svg.j2"


@pytest.fixture
def templates(tmp_path: Path) -> Path:
    root = tmp_path / "templates"
    shutil.copytree(TEMPLATE_ROOT, root)
    return root


@pytest.fixture(scope="module")
def first_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The output folder of one good build of the project's data and templates (only read here): card sheets
    only, what these tests break and compare (a card error stops a build before its documents)."""
    out = tmp_path_factory.mktemp("first") / "out"
    result = run_cli("build", GAME, "--only", "cards", "--out", str(out))
    assert result.returncode == 0, result.stderr
    return out


@pytest.fixture
def built(first_build: Path, tmp_path: Path) -> tuple[Path, Path, bytes]:
    """A good build in a scratch output folder: (out, pdf, its bytes). A copy of the module's one build:
    builds are deterministic, so its PDF is what building the test's copies of the data and templates
    writes (the first test checks this)."""
    out = tmp_path / "out"
    shutil.copytree(first_build, out)
    pdf = out / GAME / "cards-a4.pdf"
    return out, pdf, pdf.read_bytes()


def build_again(data: Path, templates: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return run_cli("build", GAME, "--data", str(data), "--templates", str(templates), "--out", str(out), *extra)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1))


def assert_clean_failure(result: subprocess.CompletedProcess[str], message: str, pdf: Path, before: bytes) -> None:
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert message in result.stderr
    assert pdf.read_bytes() == before  # the earlier good PDF is untouched
    assert not [p for p in pdf.parent.iterdir() if p.name.startswith(".tmp-")]  # nothing half-written


def test_build_writes_the_pdf_and_skips_it_when_nothing_changed(built: tuple[Path, Path, bytes], data_copy: Path, templates: Path) -> None:
    out, pdf, before = built
    assert before.startswith(b"%PDF")
    again = run_cli("build", GAME, "--only", "cards", "--out", str(out))  # the inputs of the first build
    assert again.returncode == 0 and f"up to date: {pdf}" in again.stdout, again.stdout
    forced = build_again(data_copy, templates, out, "--force", "--only", "cards")  # copies of the inputs
    assert forced.returncode == 0 and f"wrote {pdf}" in forced.stdout
    assert pdf.read_bytes() == before  # deterministic


def test_a_template_syntax_error_names_card_and_template_line(built: tuple[Path, Path, bytes], data_copy: Path, templates: Path) -> None:
    out, pdf, before = built
    edit(templates / POWER, "{% if card.reminder %}", "{% if card.reminder %}{% if %}")
    result = build_again(data_copy, templates, out)
    assert_clean_failure(result, f"template {GAME}/power.svg.j2:", pdf, before)
    assert "card gold-power-1" in result.stderr


def test_an_undefined_template_value_is_an_error(built: tuple[Path, Path, bytes], data_copy: Path, templates: Path) -> None:
    out, pdf, before = built
    edit(templates / POWER, "{{ card.title }}", "{{ card.subtitle }}")
    assert_clean_failure(build_again(data_copy, templates, out), "has no attribute 'subtitle'", pdf, before)


def test_a_missing_icon_names_card_and_icon(built: tuple[Path, Path, bytes], data_copy: Path, templates: Path) -> None:
    out, pdf, before = built
    edit(templates / POWER, "icon(player.emblem, 6,", 'icon("no-such-icon", 6,')
    result = build_again(data_copy, templates, out)
    assert_clean_failure(result, "icon 'no-such-icon' not found", pdf, before)
    assert "card gold-power-1" in result.stderr


def test_text_that_cannot_fit_names_the_card(built: tuple[Path, Path, bytes], data_copy: Path, templates: Path) -> None:
    out, pdf, before = built
    edit(templates / POWER, 'name="flavour" x="8" y="67" width="47" height="12.5"', 'name="flavour" x="8" y="67" width="47" height="3"')
    result = build_again(data_copy, templates, out)
    assert_clean_failure(result, "does not fit", pdf, before)
    assert re.search(r"card [a-z]+-power-\d '\w+' \(front\) \(flavour\): text '.+' does not fit its 47x3 mm box", result.stderr)


def test_card_text_that_cannot_fit_names_the_data_file_and_line(
    built: tuple[Path, Path, bytes], data_copy: Path, templates: Path
) -> None:
    out, pdf, before = built
    word = "Unquenchable" * 6  # one word wider than the box at any size
    edit(data_copy / GAME / "power-cards.yaml", "flavour: The smallest spark still opens the sky.", f"flavour: {word}")
    result = build_again(data_copy, templates, out)
    assert_clean_failure(result, "nothing built", pdf, before)  # validate's card check refuses it first
    # the line and column of the flavour field itself, not the record's first line
    assert re.search(r"power-cards\.yaml:8:14: theocracy: card gold-power-1 'Humility' \(front\) \(flavour\): text .* does not fit",
                     result.stdout)


def test_an_unwritable_output_folder_is_a_clear_error(data_copy: Path, templates: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    result = build_again(data_copy, templates, blocker / "out")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "cannot create output folder" in result.stderr


def test_invalid_data_is_refused_and_nothing_is_built(built: tuple[Path, Path, bytes], data_copy: Path, templates: Path) -> None:
    out, pdf, before = built
    edit(data_copy / GAME / "power-cards.yaml", "value: 1", "value: one")
    result = build_again(data_copy, templates, out)
    assert_clean_failure(result, "nothing built", pdf, before)
    assert "power-cards.yaml" in result.stdout


def test_preview_writes_a_png_of_one_card(tmp_path: Path) -> None:
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm not installed (make tools installs poppler-utils)")
    target = tmp_path / "card.png"
    result = run_cli("preview", GAME, "gold-power-5", "--out", str(target), "--dpi", "40")  # the project's data, read only
    assert result.returncode == 0, result.stderr
    assert target.read_bytes().startswith(b"\x89PNG")


def test_preview_of_an_unknown_card_is_a_clear_error(tmp_path: Path) -> None:
    result = run_cli("preview", GAME, "no-such-card", "--out", str(tmp_path / "x.png"))
    assert result.returncode == 1
    assert "no card 'no-such-card'" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("command", ["build", "export"])
def test_a_5pt_template_copy_is_refused_by_build_and_export_alike(tmp_path: Path, templates: Path, command: str) -> None:
    edit(templates / POWER, 'size="9.5" min-size="8"', 'size="5" min-size="5"')
    out = tmp_path / "out"
    extra = ["--only", "cards"] if command == "build" else ["--target", "mpc"]
    result = run_cli(command, GAME, "--templates", str(templates), "--out", str(out), *extra)
    assert result.returncode == 1 and "Traceback" not in result.stderr + result.stdout
    assert ("card gold-power-1 'Humility' (front): design rule min_rules_text_pt: template theocracy/power.svg.j2, "
            "text slot 'reminder': size 5 pt is below 8 pt") in result.stderr
    assert not (out / GAME / "mpc").exists()
