"""Text markup: ordinary text prints as written, escapes print their characters, markup that cannot be
printed is a validate error with file:line:column, record and field (never an internal error at build).

The tokeniser is tested directly; the promises a user sees are tested on what the CLI gives: validate's
problem lines on a copy of the toy data (in this process; through the CLI, build stops at validate on bad
markup), and the built PDFs (card sheet through the CLI, documents in this process, as `pantheon docs`
builds them) of one real game read back.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import pypdfium2
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.app.build import build_documents
from pipeline.checks.validate import validate
from pipeline.data import markup
from pipeline.games.registry import catalogue
from tests.core.cli_helpers import run_cli

CLI_TIMEOUT_S = 600

LITERAL = ["5 ** 2 ** 3", "2**3", "x.__class__", "__init__", "snake_case", "10:30:45", "a:b:c", "Note: see", "***", "a * b _ c"]
ESCAPED = {r"\*\*not bold\*\*": "**not bold**", r"\_not italic\_": "_not italic_", r"\:not-an-icon\:": ":not-an-icon:",
           r"\[[not/a-ref]]": "[[not/a-ref]]", "back\\\\slash": "back\\slash", r"C:\path": r"C:\path"}


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, timeout=CLI_TIMEOUT_S)


# --------------------------------------------------------------------------- the tokeniser


@pytest.mark.parametrize("text", LITERAL)
def test_ordinary_text_is_literal(text: str) -> None:
    assert markup.parse(text) == (markup.Text(text),)


@pytest.mark.parametrize("written, printed", list(ESCAPED.items()))
def test_escapes_print_their_characters(written: str, printed: str) -> None:
    assert markup.plain(markup.parse(written)) == printed
    assert not any(isinstance(n, (markup.Styled, markup.Icon, markup.Reference)) for n in markup.walk(markup.parse(written)))


def test_markup_reads_bold_italic_icons_references_and_breaks() -> None:
    B, I = markup.BOLD, markup.ITALIC
    assert markup.parse("**a _b_** :sun: [[cards/owl]]\nx.") == (
        markup.Styled(B, (markup.Text("a "), markup.Styled(I, (markup.Text("b"),)))),
        markup.Text(" "), markup.Icon("sun", 10), markup.Text(" "),
        markup.Reference(None, "cards", "owl", "[[cards/owl]]", 16), markup.Break(), markup.Text("x."),
    )
    assert markup.parse("(**b**), _i_.") == (
        markup.Text("("), markup.Styled(B, (markup.Text("b"),)), markup.Text("), "), markup.Styled(I, (markup.Text("i"),)), markup.Text("."),
    )


@pytest.mark.parametrize(
    "text, offset, message",
    [
        ("**bold _italic**", 14, "bold and italic overlap: close the italic (opened at character 8) before the bold"),
        ("_a **b_ c**", 6, "italic and bold overlap"),
        ("**bold", 0, "bold '**' is never closed"),
        ("an _italic", 3, "italic '_' is never closed"),
        ("bold** here", 4, "'**' closes nothing (no bold is open)"),
        ("snake_ end", 5, "'_' closes nothing (no italic is open)"),
        ("see [[owl]] now", 4, "malformed reference '[[owl]]'"),
        ("see [[Cards/Owl]]", 4, "malformed reference"),
    ],
)
def test_markup_that_cannot_be_printed_says_where(text: str, offset: int, message: str) -> None:
    with pytest.raises(markup.MarkupError) as caught:
        markup.parse(text)
    assert caught.value.offset == offset and message in caught.value.message


@given(st.text(alphabet=st.sampled_from("ab :*_[]\\\n-/"), max_size=40) | st.text(max_size=40))
def test_escaped_text_prints_exactly_as_it_was(text: str) -> None:
    assert markup.plain(markup.parse(markup.escape(text))) == text


# --------------------------------------------------------------------------- validate


def set_text(root: Path, text: str) -> Path:
    """Card lantern's text (line 7 of the toy cards, value at column 11), written as a YAML single-quoted value."""
    cards = root / "toy" / "cards.yaml"
    old = "    text: Shines on [[cards/owl]].\n"
    content = cards.read_text(encoding="utf-8")
    assert old in content
    cards.write_text(content.replace(old, "    text: '" + text.replace("'", "''") + "'\n"), encoding="utf-8")
    return cards


@pytest.mark.parametrize(
    "text, message",
    [
        ("**bold _italic**", "bold and italic overlap: close the italic (opened at character 8) before the bold (near '...bold _italic**')"),
        ("Gain **two", "bold '**' is never closed: close it, or write \\*\\* for a literal '**' (near 'Gain **two')"),
        ("an _italic", "italic '_' is never closed"),
        ("bold** here", "'**' closes nothing (no bold is open)"),
        ("Shines on [[owl]].", "malformed reference '[[owl]]'"),
        ("Gain :no-such-icon: now", "unknown icon ':no-such-icon:' (no templates/icons/no-such-icon.svg; write \\: for a literal colon)"),
        ("Zeus \u4e2d", "character '\u4e2d' (U+4E2D) is not in the Vera font"),
    ],
    ids=["overlap", "unclosed-bold", "unclosed-italic", "unopened", "malformed-reference", "unknown-icon", "missing-glyph"],
)
def test_validate_refuses_markup_that_cannot_be_printed(toy: Path, text: str, message: str) -> None:
    cards = set_text(toy, text)
    [line] = [str(p) for p in validate(toy, catalogue()).problems]  # each a line `pantheon validate` prints
    assert "internal error" not in line, line
    assert line.startswith(f"{cards}:7:11: card lantern: text: "), line
    assert message in line, line


def test_validate_accepts_literals_and_escapes(toy: Path) -> None:
    set_text(toy, " ".join(LITERAL + list(ESCAPED) + ["**bold** _italic_ :aspect-sun: [[cards/owl]]"]))
    assert [str(p) for p in validate(toy, catalogue()).problems] == []


# --------------------------------------------------------------------------- what the PDFs print

SAMPLE_LITERAL = "5 ** 2 ** 3 at 10:30:45; x.__class__ and Snake_Case"  # (a lower-case snake_case key is refused in print)
SAMPLE_ESCAPED = r"\*\*lit\*\* \_u\_ \:c\: \[[r/s]] a\\b"
PRINTED_ESCAPED = r"**lit** _u_ :c: [[r/s]] a\b"


def pdf_text(path: Path) -> str:
    """The PDF's text as PDFium reads it (pypdf takes a hundred times longer on a card sheet), spaces collapsed."""
    document = pypdfium2.PdfDocument(path)
    try:
        return " ".join(" ".join(document[i].get_textpage().get_text_range() for i in range(len(document))).split())
    finally:
        document.close()


def test_cards_print_literals_and_escapes_as_written(data_copy: Path, tmp_path: Path) -> None:
    believers = data_copy / "theocracy" / "believers.yaml"
    content = believers.read_text(encoding="utf-8")
    old = "    flavour: Trims the wick so the word is never dark.\n"
    assert old in content
    believers.write_text(content.replace(old, f"    flavour: '{SAMPLE_LITERAL} **bold** {SAMPLE_ESCAPED}'\n"), encoding="utf-8")
    result = cli("build", "theocracy", "--only", "cards", "--data", str(data_copy), "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stdout + result.stderr
    printed = pdf_text(tmp_path / "out" / "theocracy" / "cards-a4.pdf")
    assert f"{SAMPLE_LITERAL} bold {PRINTED_ESCAPED}" in printed


def test_documents_print_literals_and_escapes_as_written(data_copy: Path, tmp_path: Path) -> None:
    rules = data_copy / "theocracy" / "rules.yaml"
    content = rules.read_text(encoding="utf-8")
    old = "        Each player leads a line of priest-kings"
    assert old in content
    rules.write_text(content.replace(old, f"        {SAMPLE_LITERAL} **bold** _italic_ {SAMPLE_ESCAPED}. {old.strip()}", 1), encoding="utf-8")
    out = tmp_path / "out"
    for fmt in ("pdf", "md"):  # what `pantheon docs theocracy --format FMT` writes, built in this process
        assert build_documents(data_copy, ["theocracy"], out_dir=out, fmt=fmt)
    assert f"{SAMPLE_LITERAL} bold italic {PRINTED_ESCAPED}." in pdf_text(out / "theocracy" / "rulebook-a4.pdf")
    markdown = (out / "theocracy" / "rulebook.md").read_text(encoding="utf-8")
    assert r"5 \*\* 2 \*\* 3 at 10:30:45; x.\_\_class\_\_ and Snake\_Case **bold** _italic_ \*\*lit\*\* \_u\_ :c: [[r/s]] a\\b." in markdown


def test_markup_that_cannot_be_printed_stops_build_at_validate_not_inside_reportlab(data_copy: Path, tmp_path: Path) -> None:
    believers = data_copy / "theocracy" / "believers.yaml"
    content = believers.read_text(encoding="utf-8")
    old = "    flavour: Trims the wick so the word is never dark.\n"
    believers.write_text(content.replace(old, "    flavour: '**bold _italic** text'\n"), encoding="utf-8")
    result = cli("build", "theocracy", "--data", str(data_copy), "--out", str(tmp_path / "out"))
    output = result.stdout + result.stderr
    assert result.returncode == 1 and "internal error" not in output and "Traceback" not in output, output
    [line] = result.stdout.splitlines()
    assert line.startswith(f"{believers}:") and "believer gold-lamp-keeper: flavour: bold and italic overlap" in line
    assert not (tmp_path / "out" / "theocracy").exists()
