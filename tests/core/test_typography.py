"""typographic(): curly quotes, real dashes and ellipses, leaving markup and escapes alone, idempotent."""
from __future__ import annotations

import pytest

from pipeline.data import markup
from pipeline.data.typography import typographic


@pytest.mark.parametrize(
    "typed, printed",
    [
        ('"Hear me," said the god.', "\u201cHear me,\u201d said the god."),
        ("it's the gods' own", "it\u2019s the gods\u2019 own"),
        ("'tis so", "\u2018tis so"),
        ("(\"quoted\")", "(\u201cquoted\u201d)"),
        ("one - two", "one \u2013 two"),
        ("wait--what", "wait\u2014what"),
        ("and so...", "and so\u2026"),
        ("well-known 1-2 players", "well-known 1-2 players"),  # a hyphen in a word stays
        ("**God**'s will", "**God**\u2019s will"),
        ("_'tis_ true", "_\u2018tis_ true"),
        (":aspect-sun: sun", ":aspect-sun: sun"),  # icon names keep their hyphens
        ("no marks here", "no marks here"),
    ],
)
def test_typed_punctuation_prints_typographic(typed: str, printed: str) -> None:
    assert typographic(typed) == printed


@pytest.mark.parametrize("text", ['"a" - b -- c...', "it's **'bold'**", "\u201calready\u201d \u2013 done\u2026", "x \\* 'y'"])
def test_it_is_idempotent(text: str) -> None:
    once = typographic(text)
    assert typographic(once) == once


def test_a_quote_opening_a_run_looks_at_what_was_printed_before() -> None:
    assert typographic("'s", previous="God") == "\u2019s"
    assert typographic("'word'", previous=" ") == "\u2018word\u2019"


def test_markup_reads_the_same_after_it() -> None:
    text = "**Bless** a :aspect-sun: god - \\*not\\* the 'void'"
    def structure(source: str) -> list[tuple[str, object]]:
        return [(type(node).__name__, getattr(node, "name", None)) for node in markup.walk(markup.parse(source))]

    assert structure(typographic(text)) == structure(text)
    assert "\u2018void\u2019" in markup.plain(markup.parse(typographic(text)))
