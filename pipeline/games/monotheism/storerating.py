"""`pantheon monotheism rate N --write`: the measured rating written into scenarios.yaml, in place.

Only the rating's figures change (``data.yamlsplice``: every other byte of the
file, comments and formatting, stays; each value is read back before the file
is written, atomically). `validate` then checks that the figures agree with
each other, as for any stored rating.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.base.errors import UserError
from pipeline.cards.pdfwrite import write_atomic
from pipeline.data.dataset import GameData, display_path
from pipeline.data.yamlsplice import Edit, SpliceError, apply
from pipeline.games.monotheism.model import RATING_FIELDS, SCENARIOS, Scenario
from pipeline.games.monotheism.rating import Rating, stored


def rewrite_rating(game: GameData[Any], scenario: Scenario, found: Rating) -> Path:
    """Write ``found`` as ``scenario``'s rating in its scenarios.yaml; the file written. A rating that is not
    complete (a limit hit, not winnable) is refused: a stored rating is complete."""
    if found.band is None:
        raise UserError(f"scenario {scenario.id}: the rating is incomplete ({found.status}, "
                        f"{found.undecided_first_moves} first moves undecided); nothing written")
    doc = game.doc(SCENARIOS)
    index = next(i for i, record in enumerate(doc.data[SCENARIOS]) if str(record.get("id")) == scenario.id)
    if "rating" not in doc.data[SCENARIOS][index]:
        raise UserError(f"{doc.at(SCENARIOS, index)}: scenario {scenario.id} has no rating block to update; "
                        "add one (pantheon monotheism rate --json gives its figures)")
    figures = stored(found)
    edits = [Edit((SCENARIOS, index, "rating", key), figures[key]) for key in RATING_FIELDS]
    try:
        text = apply(doc.path.read_text(encoding="utf-8"), edits)
    except SpliceError as exc:
        raise UserError(f"{display_path(doc.path)}: {exc}") from None
    write_atomic(doc.path, text.encode("utf-8"))
    return doc.path
