"""`pantheon rulings`: every ruling the engines follow where a rulebook is silent, with its reason.

Read from each game's declared rulings (its spec's :class:`~pipeline.checks.rulecontract.Rulings`), so the
list cannot drift from the data; docs/rulings.md is this list as Markdown (a test holds them equal).
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Iterable, Optional

from pipeline.base.errors import UserError
from pipeline.checks.references import References
from pipeline.checks.rulecontract import Ruling, rulings_of
from pipeline.checks.validate import RecordCatalogue
from pipeline.data.gamespec import Specs
from pipeline.data.kinds import RULES_KIND
from pipeline.data.markup import REFERENCE

INTRO = """\
# Rulings: what the engines do where the rulebooks are silent

A rule the rulebook states is never changed. Where a rulebook leaves a point open, the engine follows a
*ruling*: a record with provenance `inferred` whose reasoning says why. This page lists every ruling of the
five engines, each with its reason, as `pantheon rulings --markdown` prints them from the data (a test keeps
this page equal to that output: edit the records, then run `pantheon rulings --markdown > docs/rulings.md`).
`pantheon validate` refuses a ruling without its reasoning, and a reasoning that quotes as the rulebook's
words what the rulebook does not contain (pipeline/checks/rulebook_quotes.py).
"""


def rulings_by_game(data_root: Path, specs: Specs, games: Optional[Iterable[str]] = None) -> dict[str, list[Ruling]]:
    """Per game (that declares rulings), its rulings in file order, each reference ``[[kind/id]]`` in their
    texts shown as the name of the record it names (as the rulebook prints it)."""
    catalogue = RecordCatalogue(data_root, specs)
    names = References(catalogue)
    out: dict[str, list[Ruling]] = {}
    for game in specs.select(data_root, games):
        spec = specs.spec(game)
        if spec.rulings is None:
            continue
        loaded = catalogue.game(game)
        if loaded.load_problems:
            raise UserError(f"{loaded.load_problems[0]} (run `pantheon validate {game}`)")

        def named(text: str, game: str = game) -> str:
            return names.resolve(text, game)

        out[game] = [replace(ruling, title=named(ruling.title), text=named(ruling.text), reasoning=named(ruling.reasoning))
                     for ruling in rulings_of(loaded, spec.rulings)]
    return out


def plain(text: str) -> str:
    """A ruling's text on one line (a reference no record names shows its id)."""
    return " ".join(REFERENCE.sub(lambda found: found["id"], text).split())


def markdown(data_root: Path, specs: Specs) -> str:
    """docs/rulings.md: every game's rulings, each with where its records are kept."""
    parts = [INTRO]
    for game, rulings in rulings_by_game(data_root, specs).items():
        spec = specs.spec(game)
        declared = spec.rulings
        assert declared is not None
        where = (f"data/{game}/{RULES_KIND}.yaml, the subsections of section {declared.key}"
                 if declared.kind == RULES_KIND else f"data/{game}/{declared.kind}.yaml")
        parts.append(f"## {spec.title}\n\n{len(rulings)} rulings; records: `{where}`.\n")
        parts.append("\n".join(f"- **{r.id}** ({plain(r.title)}): {plain(r.text)} *Why:* {plain(r.reasoning)}"
                               for r in rulings) + "\n")
    return "\n".join(parts)
