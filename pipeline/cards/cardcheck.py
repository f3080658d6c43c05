"""`pantheon validate`'s card check: every face laid out as the build lays it out, without a PDF.

Whatever a build refuses on data (a text that does not fit its box even at
the minimum size, a character the font lacks, an unknown icon, markup that
cannot be printed, a design rule, a colour shown without its symbol) is
found here first, with the very message the build gives: both go through
``build.checked_faces``, the one place those checks are made. A face laid
out before (by a build, or by this check) is taken from the game's face
records (``faces.FaceRecords``), so the check after an edit lays out only
the faces that changed.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from pipeline.base import locations
from pipeline.cards.cardlayout import LaidOutCards, problems
from pipeline.data.dataset import GameData
from pipeline.data.problems import Problem


def card_problems(data: GameData, template_root: Optional[Path] = None, *,
                  keep: Optional[LaidOutCards] = None) -> list[Problem]:
    """Every card of ``data`` (validated, cross-checks passed) that its build would refuse, one problem
    per card, at the data field the failing text shows (else the card's record). A game whose card
    templates are not under ``template_root`` (a game of another template folder) is not laid out.
    ``keep``: where the faces of a clean game go, for the build of the same command to draw."""
    if data.spec.cards is None:
        return []
    return list(problems(data, template_root if template_root is not None else locations.template_root(), keep))
