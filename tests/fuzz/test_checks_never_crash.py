"""Schema-valid edits of the real data never crash validation: a report with problems, or none.

Hypothesis draws two dozen edits of the shipped data files (the same ones
on every run, see tests/conftest.py): a number set to 0, 1, -1, a neighbour
or a huge value; a record or id renamed, deleted or duplicated; a value
swapped for another seen under the same key (enum values, references); a list
emptied; a boolean flipped; a field dropped. Validation must return a report
(the CLI's exit 0 or 1), never raise, never hang, and never reach the safety
net of ``pipeline.checks.validate.guarded`` (its message counts as a crash).
Every edit of every file: ``python -m tests.fuzz.exhaustive`` (tests/fuzz/exhaustive.py).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.checks.validate import INTERNAL_CHECK_ERROR
from pipeline.data.dataset import default_data_root
from tests.core.data_edits import validate_cli
from tests.fuzz.mutations import CATEGORIES, Mutation, MutationRunner, all_mutations, bounded_search

# The same edits every run (derandomized): a sample of each category, about 3 each, a tenth to a quarter of a
# second apiece; every edit of every file is the slow exhaustive run (test_exhaustive.py, make test-all).
FUZZ_EXAMPLES = 24
# Most fields are required and most lists have a minimum length, so most of these are schema errors.
MOSTLY_SCHEMA_ERRORS = frozenset({"drop", "empty"})
# Edits spread over each category's list; in each other category one or more pass the schema. The sample
# moves whenever data is added: at 3 and 4 it drew only schema errors of "number" once the ratings grew a field.
REACH_SAMPLE = 5


@lru_cache(maxsize=None)
def by_category() -> dict[str, list[Mutation]]:
    """Every edit of the shipped data, per category (enumerated on first use, not when the suite is collected)."""
    edits = all_mutations(default_data_root())
    return {category: found for category in CATEGORIES if (found := [m for m in edits if m.category == category])}


# Each category equally likely (swaps outnumber flips a hundredfold), then any edit of it.
EDITS = st.deferred(lambda: st.sampled_from(sorted(by_category())).flatmap(lambda c: st.sampled_from(by_category()[c])))


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MutationRunner]:
    work = tmp_path_factory.mktemp("fuzz")
    with bounded_search(work / "cache"):
        yield MutationRunner(work)


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutation=EDITS)
def test_schema_valid_edits_never_crash(runner: MutationRunner, mutation: Mutation) -> None:
    result = runner.run(mutation)
    assert result.crash is None, f"{mutation}: {result.crash}"
    assert result.report is not None


def test_the_edits_reach_the_cross_checks(runner: MutationRunner) -> None:
    """The fuzzing means something only if edits pass the schema: a fixed sample of each category does."""
    for category, edits in by_category().items():
        sample = edits[:: max(1, len(edits) // REACH_SAMPLE)][:REACH_SAMPLE]
        ran = [runner.run(m) for m in sample]
        assert all(r.crash is None for r in ran), [f"{r.mutation}: {r.crash}" for r in ran if r.crash]
        if category not in MOSTLY_SCHEMA_ERRORS:
            assert any(r.cross_checks_ran for r in ran), category


# One edit per game through the CLI: the same answer as in-process, as a user sees it.
CLI_EDITS = {
    "monotheism": lambda m: m.kind == "components" and m.category == "number",
    "theocracy": lambda m: m.kind == "players" and m.category == "delete",
    "monstrous": lambda m: m.kind == "throw-steps" and m.category == "number" and m.path[-1] == "number",
    "heavenly-father": lambda m: m.kind == "gods" and m.category == "rename",
    "totems-and-taboos": lambda m: m.kind == "components" and m.category == "rename",
}


@pytest.mark.parametrize("game", sorted(CLI_EDITS))
def test_cli_answers_an_edit_with_exit_0_or_1(runner: MutationRunner, game: str) -> None:
    mutation = next(m for edits in by_category().values() for m in edits if m.game == game and CLI_EDITS[game](m))
    with runner.edited(mutation) as root:
        done = validate_cli(root, game)
    output = done.stdout + done.stderr
    assert done.returncode in (0, 1), f"{mutation}: exit {done.returncode}\n{output}"
    assert "Traceback" not in output and "internal error" not in output and INTERNAL_CHECK_ERROR not in output
    if done.returncode == 1:
        first = done.stdout.splitlines()[0]
        assert first.startswith(str(Path(root) / game)) and first.split(":")[1].isdigit(), first
